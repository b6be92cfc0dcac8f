import { limits } from '@otto/api-contract';

/** Characters SQLite's unicode61 tokenizer keeps inside a token; everything else separates tokens. */
const tokenPattern = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;
const maxTerms = 16;

/**
 * The words of what a person typed, as the tokenizer splits them (lowercased, NFC), at most 16;
 * `null` when there is none.
 * @example
 * searchWords(`O'Brien acme-corp`); // ['o', 'brien', 'acme', 'corp']
 */
export function searchWords(text: string): string[] | null {
  const terms = text.slice(0, limits.maxQueryTextLength).normalize('NFC').toLowerCase().match(tokenPattern);
  if (!terms || terms.length === 0) return null;
  return terms.slice(0, maxTerms);
}

/**
 * Turns what a person typed into a safe FTS5 MATCH expression: every typed word becomes a quoted
 * prefix term (`smi` finds Smith), all of them must match. A typed word the tokenizer splits
 * (`O'Brien`, `acme-corp`, `555-0100`) becomes a phrase whose parts must stand together, the last
 * one a prefix: `O'C` finds O'Conner, not every customer with an "o" and a "c" somewhere.
 * Returns `null` when the text holds no word at all (only punctuation, emoji…), in which case
 * nothing can match. The result is always bound as a parameter, never spliced into SQL.
 * `isWholeWord` may say that a word's prefix search finds exactly that word (no longer word of the
 * index starts with it); it is then searched as the word itself, which matches the same rows and
 * is cheaper.
 * @example
 * toFtsQuery(`O'Brien acme-corp`); // '"o brien"* "acme corp"*'
 */
export function toFtsQuery(text: string, isWholeWord?: (word: string) => boolean): string | null {
  const typed = text.slice(0, limits.maxQueryTextLength).split(/\s+/);
  const groups: string[][] = [];
  let count = 0;
  for (const word of typed) {
    const tokens = searchWords(word);
    if (!tokens || count >= maxTerms) continue;
    const kept = tokens.slice(0, maxTerms - count);
    count += kept.length;
    groups.push(kept);
  }
  if (groups.length === 0) return null;
  return groups
    .map((tokens) => {
      const last = tokens.at(-1) as string;
      return `"${tokens.join(' ').replaceAll('"', '""')}"${isWholeWord?.(last) ? '' : '*'}`;
    })
    .join(' ');
}
