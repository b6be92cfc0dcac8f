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
 * The typed words of a text, each as the tokens the tokenizer splits it into, at most 16 tokens in
 * all: what every search (FTS5 here, PostgreSQL's tsquery in src/postgres/search.ts) is made of.
 * @example
 * typedWordGroups(`O'Brien acme-corp`); // [['o', 'brien'], ['acme', 'corp']]
 */
export function typedWordGroups(text: string): string[][] {
  const groups: string[][] = [];
  let count = 0;
  for (const word of text.slice(0, limits.maxQueryTextLength).split(/\s+/)) {
    const tokens = searchWords(word);
    if (!tokens || count >= maxTerms) continue;
    const kept = tokens.slice(0, maxTerms - count);
    count += kept.length;
    groups.push(kept);
  }
  return groups;
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
  const groups = typedWordGroups(text);
  if (groups.length === 0) return null;
  return groups
    .map((tokens) => {
      const last = tokens.at(-1) as string;
      return `"${tokens.join(' ').replaceAll('"', '""')}"${isWholeWord?.(last) ? '' : '*'}`;
    })
    .join(' ');
}

/** Fewest digits a typed number needs before it is also searched inside phone numbers. */
export const minPhoneDigits = 4;

/** Text a person types for a phone number: digits, spaces, dashes, dots, slashes, brackets, a leading `+`. */
const phoneLikePattern = /^\+?[\d\s\-./()]*$/;

/**
 * The digits of what a person typed when it reads as (part of) a phone number with at least
 * `minPhoneDigits` digits: `+1 (836) 489-5133` → `18364895133`; otherwise `null`.
 * @example
 * phoneDigitsOf('489-5133'); // '4895133'
 * phoneDigitsOf('Dana'); // null
 */
export function phoneDigitsOf(text: string): string | null {
  const trimmed = text.trim();
  if (!phoneLikePattern.test(trimmed)) return null;
  const digits = trimmed.replace(/\D/g, '');
  return digits.length >= minPhoneDigits ? digits.slice(0, 40) : null;
}

/**
 * The forms a typed number may take among a stored phone's digits: its own digits, and without the
 * national trunk prefix (`07700 900456`, as caller ID shows `+44 7700 900456`) or the international
 * call prefix (`0044 7700 900456`): what is left is a run of the stored number's digits.
 * @example
 * phoneDigitForms('07700 900456'); // ['07700900456', '7700900456']
 * phoneDigitForms('489-5133'); // ['4895133']
 */
export function phoneDigitForms(text: string): string[] | null {
  const digits = phoneDigitsOf(text);
  if (digits === null) return null;
  const national = digits.startsWith('00') ? digits.slice(2) : digits.startsWith('0') ? digits.slice(1) : '';
  return national.length >= minPhoneDigits ? [digits, national] : [digits];
}

/** A prefix match of each of a number's digit forms on phone_digits. */
function phoneDigitsMatch(forms: string[]): string {
  const prefixes = forms.map((digits) => `"${digits}"*`);
  return prefixes.length === 1 ? `phone_digits : ${prefixes[0]}` : `phone_digits : (${prefixes.join(' OR ')})`;
}

/**
 * The MATCH expression of a customer search (decision 0090): the spec's words over customer_text,
 * exactly as `toFtsQuery` makes them, restricted to that column; and when the text (or a typed word
 * of it) reads as a number of four or more digits, OR a prefix match on phone_digits, whose tokens
 * are every digit suffix of the phone: any contiguous run of those digits is a prefix of one.
 * @example
 * toCustomerFtsQuery('836 489'); // '(customer_text : ("836"* "489"*)) OR (phone_digits : "836489"*)'
 * toCustomerFtsQuery('Dana 5133'); // 'customer_text : ("dana"*) AND (customer_text : ("5133"*) OR phone_digits : "5133"*)'
 */
export function toCustomerFtsQuery(text: string, isWholeWord?: (word: string) => boolean): string | null {
  const typed = text.slice(0, limits.maxQueryTextLength).split(/\s+/).filter((w) => searchWords(w) !== null);
  if (typed.length === 0) return null;
  const clauses: string[] = [];
  let count = 0;
  for (const word of typed) {
    count += (searchWords(word) as string[]).length;
    if (count > maxTerms && clauses.length > 0) break;
    const words = toFtsQuery(word, isWholeWord);
    if (words === null) continue;
    const digits = phoneDigitForms(word);
    clauses.push(digits === null ? `customer_text : (${words})` : `(customer_text : (${words}) OR ${phoneDigitsMatch(digits)})`);
  }
  const wordsClause = clauses.join(' AND ');
  const whole = typed.length > 1 ? phoneDigitForms(text) : null;
  return whole === null ? wordsClause : `(${wordsClause}) OR ${phoneDigitsMatch(whole)}`;
}
