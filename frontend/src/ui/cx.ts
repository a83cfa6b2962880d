/** Joins class names, skipping the falsy ones that conditions leave behind. */
export function cx(...names: ReadonlyArray<string | false | null | undefined>): string {
  return names.filter(Boolean).join(' ');
}
