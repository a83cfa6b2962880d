let regionNames: Intl.DisplayNames | undefined;

/**
 * The English name of an ISO 3166-1 alpha-2 code ('DE' -> 'Germany'), the form the server stores countries in.
 * Anything that is not a region code comes back as it was.
 */
export function countryNameOf(code: string): string {
  regionNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
  try {
    return regionNames.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}
