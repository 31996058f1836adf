/**
 * A count and its noun, agreed: "1 orphan", "2 orphans", "1 entry", "1,024 entries". The one
 * way the console and the CLI say how many of something there are, so neither says "1 gaps".
 * Nouns whose plural is not the singular plus "s" pass it.
 */

/** "1 object", "2 objects"; the count in en-US digits (1,024). */
export function counted(count: number | bigint, singular: string, plural?: string): string {
  const digits =
    typeof count === 'bigint' ? count.toLocaleString('en-US') : count.toLocaleString('en-US');
  return `${digits} ${nounFor(count, singular, plural)}`;
}

/** The noun alone, agreed with `count`: "entry" for 1, "entries" otherwise. */
export function nounFor(count: number | bigint, singular: string, plural?: string): string {
  const one = typeof count === 'bigint' ? count === 1n : count === 1;
  return one ? singular : (plural ?? regularPlural(singular));
}

/** English's regular plurals, enough for the nouns Cairn counts (entry, prefix, object…). */
function regularPlural(singular: string): string {
  if (/[^aeiou]y$/.test(singular)) return `${singular.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(singular)) return `${singular}es`;
  return `${singular}s`;
}
