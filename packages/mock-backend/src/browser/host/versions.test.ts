import { describe, expect, it } from 'vitest';
import { compareAppVersions } from './versions';

describe('compareAppVersions', () => {
  it('orders dated builds by their moment', () => {
    expect(compareAppVersions('99991231T000000Z', '20261207T200000Z')).toBeGreaterThan(0);
    expect(compareAppVersions('20261207T195959Z', '20261207T200000Z')).toBeLessThan(0);
    expect(compareAppVersions('20261207T200000Z', '20261207T200000Z')).toBe(0);
  });

  it('orders numbers as numbers, not as strings', () => {
    expect(compareAppVersions('10', '9')).toBeGreaterThan(0);
    expect(compareAppVersions('1.10', '1.9')).toBeGreaterThan(0);
    expect(compareAppVersions('2', '2.0')).toBe(0);
  });

  it('never calls a development build newer or older than a dated one (as strings, dev sorted above every date)', () => {
    expect('dev' > '20261207T200000Z').toBe(true);
    expect(compareAppVersions('dev', '20261207T200000Z')).toBe(0);
    expect(compareAppVersions('20261207T200000Z', 'dev')).toBe(0);
    expect(compareAppVersions('20261207T200000Z', '3')).toBe(0);
  });
});
