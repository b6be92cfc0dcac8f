#!/usr/bin/env node
// Checks the package in the current directory the way its users get it: packs it with pnpm (which
// applies publishConfig and turns workspace:/catalog: ranges into real ones), then checks the
// tarball with publint, attw and the rules below. Run from a package's `lint:package` script.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import ts from 'typescript';

const { values } = parseArgs({
  options: {
    // attw profile: ESM-only packages ignore the CommonJS resolutions.
    profile: { type: 'string', default: 'esm-only' },
    // Entry points without types (a service worker script) that attw should not look at.
    'exclude-entrypoints': { type: 'string', multiple: true, default: [] },
  },
});

const require = createRequire(import.meta.url);
const cwd = process.cwd();
const problems = [];
const fail = (message) => problems.push(message);

const source = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8'));
if (source.private) {
  console.error(`${source.name} is private: only published packages are checked.`);
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'otto-package-check-'));
try {
  // 1. Pack exactly as a release would.
  const pnpm = process.env.npm_execpath?.includes('pnpm') ? [process.execPath, process.env.npm_execpath] : ['pnpm'];
  execFileSync(pnpm[0], [...pnpm.slice(1), 'pack', '--pack-destination', work], { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  const tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz')));
  execFileSync('tar', ['-xzf', tarball, '-C', work]);
  const dir = join(work, 'package');
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));

  // 2. The manifest users see.
  for (const field of ['description', 'license', 'repository', 'files', 'sideEffects', 'exports', 'type']) {
    if (manifest[field] === undefined) fail(`package.json has no "${field}".`);
  }
  if (!Array.isArray(manifest.keywords) || manifest.keywords.length === 0) fail('package.json has no "keywords".');
  if (manifest.type !== 'module') fail('package.json "type" should be "module" (Otto packages are ESM-only).');
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies']) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (/^(workspace|catalog):/.test(range)) fail(`${field}.${name} is still "${range}" in the tarball.`);
    }
  }
  const targets = [];
  (function walk(node, path) {
    if (typeof node === 'string') targets.push([path, node]);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '@otto/source') fail(`exports${path} keeps the in-repo "@otto/source" condition.`);
        walk(value, `${path}[${JSON.stringify(key)}]`);
      }
    }
  })(manifest.exports, '');
  for (const [name, path] of Object.entries(typeof manifest.bin === 'string' ? { [manifest.name]: manifest.bin } : (manifest.bin ?? {}))) {
    targets.push([`bin.${name}`, path]);
    if (existsSync(join(dir, path)) && !readFileSync(join(dir, path), 'utf8').startsWith('#!/usr/bin/env node')) {
      fail(`bin ${name} (${path}) does not start with "#!/usr/bin/env node".`);
    }
  }
  for (const [where, path] of targets) if (!existsSync(join(dir, path))) fail(`${where} points at ${path}, which is not in the tarball.`);
  for (const file of ['README.md', 'CHANGELOG.md', 'LICENSE']) if (!existsSync(join(dir, file))) fail(`${file} is not in the tarball.`);
  if (existsSync(join(dir, 'README.md')) && !/^## Quick start/m.test(readFileSync(join(dir, 'README.md'), 'utf8'))) {
    fail('README.md has no "## Quick start" section.');
  }

  // 3. publint, strict: warnings count as problems.
  const { messages } = await publint({ pkgDir: dir, pack: false, strict: true, level: 'warning' });
  for (const message of messages) fail(`publint: ${formatMessage(message, manifest) ?? message.code}`);

  // 4. Are the types wrong? (attw on the tarball itself)
  const attw = join(require.resolve('@arethetypeswrong/cli/package.json'), '..', 'dist', 'index.js');
  const exclude = values['exclude-entrypoints'].length ? ['--exclude-entrypoints', ...values['exclude-entrypoints']] : [];
  const result = spawnSync(process.execPath, [attw, tarball, '--profile', values.profile, '--format', 'ascii', ...exclude], { encoding: 'utf8' });
  if (result.status !== 0) fail(`attw found problems:\n${result.stdout}${result.stderr}`);

  // 5. Every public export documented with an @example, as users see it in their editor.
  const typeEntries = [...new Set(targets.filter(([where, path]) => /\["types"\]$/.test(where) && path.endsWith('.d.ts')).map(([, path]) => join(dir, path)))];
  const program = ts.createProgram(typeEntries, { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, noEmit: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  for (const entry of typeEntries) {
    const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(entry));
    for (const exported of moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : []) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const hasExample = symbol.getJsDocTags(checker).some((tag) => tag.name === 'example');
      if (!hasExample) fail(`${entry.slice(dir.length + 1)}: export ${exported.name} has no JSDoc @example.`);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

if (problems.length) {
  console.error(`${source.name}: ${problems.length} problem(s) in the packed package:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(`${source.name}: the packed package passes publint, attw (${values.profile}) and Otto's package rules.`);
