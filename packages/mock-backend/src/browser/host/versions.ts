// Which of two builds of the app is newer, for the host's hand-over to a newer tab (tab-core.ts).
// Versions are build ids: `20261207T200000Z` (the build's moment, apps/web/vite.config.ts), `dev`
// for a development server, or numbers (`2`, `1.10`) as the simulator and some tests use. They are
// compared as what they are, never as strings: as strings `dev` sorted above every dated build and
// `10` below `9`.

const dated = /^(\d{8})T(\d{6})Z$/;
const numbered = /^\d+(\.\d+)*$/;

/** A version as numbers to compare, with its kind; undefined for one that has no order (`dev`). */
function partsOf(version: string): { kind: 'dated' | 'numbered'; parts: number[] } | undefined {
  const moment = dated.exec(version);
  if (moment) return { kind: 'dated', parts: [Number(moment[1]), Number(moment[2])] };
  if (numbered.test(version)) return { kind: 'numbered', parts: version.split('.').map(Number) };
  return undefined;
}

/**
 * Positive when `a` is a newer build than `b`, negative when older, 0 when they are the same or
 * cannot be ordered (a development build beside a dated one, or two kinds of version): no tab then
 * takes the database from another for being "newer".
 * @example
 * compareAppVersions('99991231T000000Z', '20261207T200000Z'); // > 0
 * compareAppVersions('dev', '20261207T200000Z'); // 0
 * compareAppVersions('10', '9'); // > 0
 */
export function compareAppVersions(a: string, b: string): number {
  if (a === b) return 0;
  const [x, y] = [partsOf(a), partsOf(b)];
  if (!x || !y || x.kind !== y.kind) return 0;
  for (let i = 0; i < Math.max(x.parts.length, y.parts.length); i++) {
    const difference = (x.parts[i] ?? 0) - (y.parts[i] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}
