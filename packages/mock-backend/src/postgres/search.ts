import { limits } from '@otto/api-contract';
import { minPhoneDigits, phoneDigitForms, searchWords, typedWordGroups } from '../database/fts-query';

/**
 * Full-text search on PostgreSQL that answers the same rows as SQLite's FTS5 with the
 * `unicode61 remove_diacritics 2` tokenizer (decision 0112).
 *
 * One normalization, written here in TypeScript, is the reference: NFC, then per character
 * lowercase (ς as σ, as SQLite folds it), Latin letters with diacritics as their base letter
 * (`ë` → `e`, `ễ` → `e`; `ł`, `ø`, `ß` and Greek accents stay, as in SQLite), combining diacritical
 * marks (U+0300–U+036F) dropped; tokens are the runs of letters, numbers, marks and private-use
 * characters. The migrations generate from the same tables an IMMUTABLE SQL function,
 * `otto_search_text(text)`, so the database computes every row's tokens itself (a stored generated
 * column on customers, a trigger on jobs, which also hold their customer's name) and no writer
 * can forget them; the tests compare both sides. The server's locale plays no part: no `lower()`,
 * no `[[:alpha:]]`, no text-search parser (the vector is built from the tokens as they are, and the
 * query is cast with `::tsquery`, not parsed by `to_tsquery`).
 */

/** Characters SQLite's unicode61 tokenizer keeps inside a token (the same class as fts-query.ts). */
const tokenChar = /[\p{L}\p{N}\p{M}\p{Co}]/u;
const tokenRun = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;
const combiningDiacritic = /[\u0300-\u036f]/gu;
/** Longest token kept (characters): a lexeme of a tsvector may not pass 2047 bytes. */
export const maxTokenLength = 200;
/** Terms of a query, as in fts-query.ts. */
const maxTerms = 16;

function foldUncached(ch: string): string {
  if (/^[\u0300-\u036f]$/u.test(ch)) return '';
  let lower = ch.toLowerCase().replace(combiningDiacritic, '');
  if (lower === 'ς') lower = 'σ';
  if ([...lower].length === 1) {
    const decomposed = lower.normalize('NFD');
    // A Latin letter with diacritics: its base letter (remove_diacritics 2 also strips several).
    if (decomposed.length > 1 && /^[a-z][\u0300-\u036f]+$/u.test(decomposed)) return decomposed[0] as string;
  }
  return lower;
}

const foldCache = new Map<string, string>();
/** One character as it is indexed. */
function fold(ch: string): string {
  if (ch < '\u0080') return ch >= 'A' && ch <= 'Z' ? ch.toLowerCase() : ch;
  let folded = foldCache.get(ch);
  if (folded === undefined) {
    folded = foldUncached(ch);
    foldCache.set(ch, folded);
  }
  return folded;
}

/**
 * The tokens of a text as the search indexes them.
 * @example
 * searchTokens(`Zoë O'Brien, acme-corp`); // ['zoe', 'o', 'brien', 'acme', 'corp']
 */
export function searchTokens(text: string): string[] {
  let folded = '';
  for (const ch of text.normalize('NFC')) folded += fold(ch);
  return (folded.match(tokenRun) ?? []).map((t) => [...t].slice(0, maxTokenLength).join(''));
}

/**
 * The `search_text` of a row: its tokens joined by single spaces (what `otto_search_text` stores).
 * @example
 * postgresSearchText('Zoë Smith', 'zoe@acme-corp.example', '+1 555 987 6543');
 * // 'zoe smith zoe acme corp example 1 555 987 6543'
 */
export function postgresSearchText(...parts: string[]): string {
  return searchTokens(parts.join(' ')).join(' ');
}

/** A lexeme as a tsquery operand. Tokens hold only letters, numbers and marks: no quote to escape. */
function lexeme(token: string, prefix: boolean, weight: 'A' | 'D' | ''): string {
  const flags = `${prefix ? '*' : ''}${weight}`;
  return `'${token.replaceAll("'", "''").replaceAll('\\', '\\\\')}'${flags ? `:${flags}` : ''}`;
}

/** The typed words of a text as `typedWordGroups` makes them, each token folded as the index holds it. */
function wordGroups(text: string): string[][] {
  return typedWordGroups(text)
    .map((tokens) => tokens.flatMap((t) => searchTokens(t)))
    .filter((folded) => folded.length > 0);
}

/** One typed word: a phrase of its tokens, the last one a prefix (FTS5's `"o brien"*`). */
function phrase(tokens: readonly string[], weight: 'D' | ''): string {
  const parts = tokens.map((t, i) => lexeme(t, i === tokens.length - 1, weight));
  return parts.length === 1 ? (parts[0] as string) : `(${parts.join(' <-> ')})`;
}

/**
 * What a person typed as a tsquery over a job's search vector, with `toFtsQuery`'s meaning: every
 * typed word a prefix, all of them must match, a word the tokenizer splits (`O'Brien`, `acme-corp`)
 * a phrase. `null` when the text holds no word (nothing can match). Bind it as a parameter and cast
 * it: `search_vector @@ ?::tsquery`. Never throws, whatever the text.
 * @example
 * toPostgresTsQuery(`O'Brien acme-corp`); // "('o' <-> 'brien':*) & ('acme' <-> 'corp':*)"
 */
export function toPostgresTsQuery(text: string): string | null {
  const groups = wordGroups(text);
  if (groups.length === 0) return null;
  return groups.map((g) => phrase(g, '')).join(' & ');
}

/**
 * A customer search as a tsquery (decision 0090, as `toCustomerFtsQuery`): the words over the
 * customer's name, email and phone (weight D lexemes), and where the text (or a typed word of it)
 * reads as a number of four or more digits, OR a prefix of the phone's digit suffixes (weight A
 * lexemes). `null` when nothing can match. Use as `search_vector @@ ?::tsquery`.
 * @example
 * toPostgresCustomerTsQuery('Dana 5133'); // "'dana':*D & ('5133':*D | '5133':*A)"
 */
export function toPostgresCustomerTsQuery(text: string): string | null {
  const typed = text
    .slice(0, limits.maxQueryTextLength)
    .split(/\s+/)
    .filter((w) => searchWords(w) !== null);
  if (typed.length === 0) return null;
  const clauses: string[] = [];
  let count = 0;
  for (const word of typed) {
    count += (searchWords(word) as string[]).length;
    if (count > maxTerms && clauses.length > 0) break;
    const groups = wordGroups(word);
    if (groups.length === 0) continue;
    const words = groups.map((g) => phrase(g, 'D')).join(' & ');
    const digits = phoneDigitForms(word);
    clauses.push(digits === null ? `(${words})` : `(${words} | ${phoneLexemes(digits)})`);
  }
  const whole = typed.length > 1 ? phoneDigitForms(text) : null;
  if (clauses.length === 0) return whole === null ? null : phoneLexemes(whole);
  const wordsClause = clauses.join(' & ');
  return whole === null ? wordsClause : `(${wordsClause}) | ${phoneLexemes(whole)}`;
}

/** A prefix of the phone's digit suffixes (weight A) for each of a number's digit forms. */
function phoneLexemes(forms: string[]): string {
  return forms.length === 1 ? lexeme(forms[0] as string, true, 'A') : `(${forms.map((digits) => lexeme(digits, true, 'A')).join(' | ')})`;
}

/** A PostgreSQL string literal. */
function sqlString(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

/** A character as it may appear in a PostgreSQL regular expression's bracket expression. */
function regexChar(code: number): string {
  return code < 0x80 && !/[0-9A-Za-z]/.test(String.fromCharCode(code))
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : String.fromCodePoint(code);
}

/**
 * The SQL (CREATE FUNCTION statements) of `otto_search_text(text)`, `otto_phone_suffixes(text)` and
 * `otto_search_vector(search_text, phone)`, generated from the tables of `searchTokens` so that the
 * database tokenizes exactly as the TypeScript does.
 */
export function searchFunctionsSql(): string {
  let from = '';
  let to = '';
  let deleted = '';
  const multi: [string, string][] = [];
  let ranges = '';
  let start = -1;
  for (let code = 0x80; code <= 0x10ffff + 1; code++) {
    const isChar = code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
    const ch = isChar ? String.fromCodePoint(code) : '';
    if (isChar) {
      const folded = foldUncached(ch);
      if (folded === '') deleted += ch;
      else if (folded !== ch) {
        if ([...folded].length === 1) {
          from += ch;
          to += folded;
        } else multi.push([ch, folded]);
      }
    }
    const isToken = isChar && tokenChar.test(ch);
    if (isToken && start < 0) start = code;
    if (!isToken && start >= 0) {
      ranges += code - 1 === start ? regexChar(start) : `${regexChar(start)}-${regexChar(code - 1)}`;
      start = -1;
    }
  }
  let folded = `translate(normalize(t, NFC), ${sqlString(`ABCDEFGHIJKLMNOPQRSTUVWXYZ${from}${deleted}`)}, ${sqlString(`abcdefghijklmnopqrstuvwxyz${to}`)})`;
  for (const [ch, f] of multi) folded = `replace(${folded}, ${sqlString(ch)}, ${sqlString(f)})`;
  // The ASCII-only case (most rows) skips the long translate.
  const asciiFolded = `translate(t, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')`;
  return `
    CREATE FUNCTION otto_search_text(t text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
      SELECT coalesce(string_agg(left(m[1], ${maxTokenLength}), ' '), '')
      FROM (SELECT t ~ '^[\\x01-\\x7f]*$' AS ascii) a,
        regexp_matches(
          CASE WHEN ascii THEN ${asciiFolded} ELSE ${folded} END,
          CASE WHEN ascii THEN '[0-9a-z]+' ELSE '[0-9A-Za-z${ranges}]+' END, 'g') AS m
    $fn$;

    CREATE FUNCTION otto_phone_suffixes(phone text) RETURNS text[]
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
      SELECT coalesce(array_agg(substr(d, i) ORDER BY i), '{}')
      FROM (SELECT regexp_replace(left(phone, 40), '[^0-9]', '', 'g') AS d) x,
        generate_series(1, length(d) - ${minPhoneDigits - 1}) AS i
    $fn$;

    -- Tokens at positions 1…n (phrases need positions), weight D; the phone's digit suffixes (SQLite's
    -- phone_digits column) weight A at the last position, so a query can say which it searches.
    CREATE FUNCTION otto_search_vector(search_text text, phone text) RETURNS tsvector
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
      SELECT concat_ws(' ',
        (SELECT string_agg('''' || w || ''':' || least(n, 16000), ' ')
          FROM unnest(string_to_array(nullif(search_text, ''), ' ')) WITH ORDINALITY AS u(w, n)),
        (SELECT string_agg('''' || s || ''':16383A', ' ') FROM unnest(otto_phone_suffixes(coalesce(phone, ''))) AS s)
      )::tsvector
    $fn$;
  `;
}
