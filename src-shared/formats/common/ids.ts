/** Ids of imported designs, from the source's names: one scheme for every importer. */

/** `Order Items` → `order-items`: lower case, runs of other characters as one dash (`x` when nothing is left). */
export function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'x';
}
