import { describe, expect, it } from 'vitest';
import { changeEventSchema } from './change-event';
import { etagOf, ifMatchAllows, parseIfMatch } from './precondition';

describe('If-Match', () => {
  it('reads absent, any, listed and unusable values', () => {
    expect(parseIfMatch(null)).toBeUndefined();
    expect(parseIfMatch(' * ')).toBe('*');
    expect(parseIfMatch('"5", "7"')).toEqual([5, 7]);
    expect(parseIfMatch('W/"5"')).toEqual([]);
    expect(parseIfMatch('5')).toEqual([]);
  });

  it('allows a write only over a named version', () => {
    expect(ifMatchAllows(parseIfMatch(etagOf(5)), 5)).toBe(true);
    expect(ifMatchAllows(parseIfMatch(etagOf(4)), 5)).toBe(false);
    expect(ifMatchAllows(undefined, 5)).toBe(true);
    expect(ifMatchAllows('*', 5)).toBe(true);
  });
});

describe('changeEventSchema', () => {
  it('accepts the feed events and refuses anything else', () => {
    expect(changeEventSchema.safeParse({ entity: 'job', kind: 'updated', ids: ['3'] }).success).toBe(true);
    expect(changeEventSchema.safeParse({ entity: 'database', kind: 'reset', ids: [] }).success).toBe(true);
    expect(changeEventSchema.safeParse({ entity: 'estimate', kind: 'updated', ids: [] }).success).toBe(false);
    expect(changeEventSchema.safeParse({ entity: 'job', kind: 'updated', ids: [3] }).success).toBe(false);
  });
});
