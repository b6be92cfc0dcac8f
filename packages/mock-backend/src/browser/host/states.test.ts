// docs/architecture.md draws the tab's states; this checks the drawing against the code: the
// transitions the simulator sees the real machine make over many schedules are exactly the ones
// drawn (a new one in the code, or one drawn that never happens, fails here).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { simulate } from './simulate';

const docs = readFileSync(new URL('../../../../../docs/architecture.md', import.meta.url), 'utf8');

function drawn(): string[] {
  const section = docs.slice(docs.indexOf("## The browser host's states"));
  const diagram = section.slice(section.indexOf('```mermaid'), section.indexOf('```', section.indexOf('```mermaid') + 3));
  return diagram
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.includes('-->') && !line.startsWith('[*]'));
}

describe("docs/architecture.md's diagram of the host", () => {
  it('draws exactly the transitions the tab machine makes', () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 3_000; seed++) for (const transition of simulate({ seed }).transitions) seen.add(transition);
    expect(drawn().sort()).toEqual([...seen].sort());
  });
});
