import { describe, expect, it } from 'vitest';
import { toFtsQuery } from './fts-query';

describe('toFtsQuery', () => {
  it('returns each word as a quoted prefix term', () => {
    expect(toFtsQuery('Smi jo')).toBe('"smi"* "jo"*');
  });

  it('keeps the parts of a typed word the tokenizer splits together, as a phrase', () => {
    expect(toFtsQuery(`O'Brien acme-corp ada@example.com`)).toBe('"o brien"* "acme corp"* "ada example com"*');
    expect(toFtsQuery(`O'C`)).toBe('"o c"*');
    expect(toFtsQuery('  (555) 0100 ')).toBe('"555"* "0100"*');
  });

  it('returns null when no word is left', () => {
    for (const text of ['', '   ', '"', '*', '(', ')', '😀', '-- ;', 'NEAR(']) {
      expect(toFtsQuery(text), text).toBe(text === 'NEAR(' ? '"near"*' : null);
    }
  });

  it('searches a word as itself, without the prefix star, when told it is a whole word', () => {
    expect(toFtsQuery('gmail smi', (word) => word === 'gmail')).toBe('"gmail" "smi"*');
  });

  it('keeps FTS5 operators as plain words', () => {
    expect(toFtsQuery('AND OR NOT')).toBe('"and"* "or"* "not"*');
  });
});
