/** Joins the truthy class names with spaces (internal helper). */
export function cx(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(' ');
}
