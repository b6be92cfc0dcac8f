import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The documents must not drift from the code: every path named in a "Where to look" table of
// docs/architecture.md (and docs/architecture/*.md, should it be split) exists, and every relative
// link in the documents a newcomer reads resolves to a file.

const root = fileURLToPath(new URL('../../../', import.meta.url));

function markdownIn(dir: string): string[] {
  const full = join(root, dir);
  if (!existsSync(full)) return [];
  return readdirSync(full, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(dir, f));
}

const architectureDocs = ['docs/architecture.md', ...markdownIn('docs/architecture')].filter((f) => existsSync(join(root, f)));
const linkedDocs = [
  'README.md',
  ...markdownIn('docs'),
  'packages/api-contract/README.md',
  'packages/mock-backend/README.md',
  'packages/sqlite-store/README.md',
  'bench/results/latest.md',
  'bench/results/README.md',
].filter((f) => existsSync(join(root, f)));

/** `a/{b,c}/d` → `a/b/d`, `a/c/d`. */
function expandBraces(path: string): string[] {
  const match = /\{([^{}]*)\}/.exec(path);
  if (!match) return [path];
  return match[1]!.split(',').flatMap((part) => expandBraces(path.slice(0, match.index) + part + path.slice(match.index + match[0].length)));
}

/** The repository paths in backticks in the table rows under each "Where to look" heading. */
function whereToLookPaths(markdown: string): string[] {
  const paths: string[] = [];
  let inSection = false;
  for (const line of markdown.split('\n')) {
    if (/^#{1,6}\s/.test(line)) inSection = /where to look/i.test(line);
    if (!inSection || !line.startsWith('|')) continue;
    for (const [, code] of line.matchAll(/`([^`]+)`/g)) {
      // A path has a slash and no spaces; a package name (@otto/…), a call or a command is not one.
      if (code && code.includes('/') && !/\s/.test(code) && !code.startsWith('@') && !code.includes('(')) paths.push(...expandBraces(code));
    }
  }
  return paths;
}

describe('docs/architecture', () => {
  it('has a "Where to look" table', () => {
    expect(architectureDocs.length).toBeGreaterThan(0);
    expect(architectureDocs.flatMap((doc) => whereToLookPaths(readFileSync(join(root, doc), 'utf8'))).length).toBeGreaterThan(10);
  });

  it.each(architectureDocs)('%s names only paths that exist in its "Where to look" tables', (doc) => {
    const missing = whereToLookPaths(readFileSync(join(root, doc), 'utf8')).filter((path) => !existsSync(join(root, path)));
    expect(missing, `paths in ${doc} that do not exist (rename them in the table)`).toEqual([]);
  });

  it('reads paths in braces as every one of them', () => {
    expect(whereToLookPaths('## Where to look\n| x | `a/{b,c}.ts`, `@otto/x/y`, `SqlClient`, `pnpm run x/y` |')).toEqual(['a/b.ts', 'a/c.ts']);
    expect(whereToLookPaths('## Other\n| x | `a/b.ts` |')).toEqual([]);
  });
});

describe('links in the documents', () => {
  it.each(linkedDocs)('%s links only to files that exist', (doc) => {
    const text = readFileSync(join(root, doc), 'utf8').replace(/```[\s\S]*?```/g, '');
    const broken = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => m[1]!)
      .filter((href) => !/^[a-z][a-z+.-]*:/i.test(href) && !href.startsWith('#'))
      .filter((href) => !existsSync(resolve(dirname(join(root, doc)), decodeURI(href.split('#')[0]!))));
    expect(broken, `links in ${doc} to files that do not exist`).toEqual([]);
  });
});
