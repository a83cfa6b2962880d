let regionNames: Intl.DisplayNames | undefined;

/** The English name of a region code ('DE' -> 'Germany'): the names the server stores as the user's country. */
export function countryNameOf(code: string): string {
  regionNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
  try {
    return regionNames.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}
