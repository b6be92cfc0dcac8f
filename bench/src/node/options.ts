/** The parts of the bench, each runnable alone with `--only=`. */
export const benchParts = ['path', 'startup', 'ships', 'memory'] as const;
export type BenchPart = (typeof benchParts)[number];

/** Command-line options of `pnpm bench`. */
export interface BenchOptions {
  /** Reuse apps/web/dist and bench/dist as they are. */
  skipBuild: boolean;
  /** Fewer iterations everywhere: for trying the bench out, not for the record. */
  quick: boolean;
  sizes: number[];
  /** Which parts to run. */
  parts: Set<BenchPart>;
  /** SQL for the direct worker's database before its loops (for experiments; not the product). */
  pragmas?: string;
}

export function parseOptions(argv: readonly string[]): BenchOptions {
  const value = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const sizes = value('sizes')
    ?.split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n >= 20);
  const parts = value('only')?.split(',') ?? benchParts;
  return {
    skipBuild: argv.includes('--skip-build'),
    quick: argv.includes('--quick'),
    sizes: sizes?.length ? sizes : [500, 10_000, 100_000],
    ...(value('pragmas') ? { pragmas: argv.find((a) => a.startsWith('--pragmas='))?.slice('--pragmas='.length) } : {}),
    parts: new Set(parts.filter((p): p is BenchPart => (benchParts as readonly string[]).includes(p))),
  };
}

/** Iterations per operation, by database size. */
export function iterationsFor(n: number, quick: boolean): { warmup: number; iterations: number; peer: number; seedRuns: number } {
  if (quick) return { warmup: 3, iterations: 20, peer: 5, seedRuns: 1 };
  if (n <= 1_000) return { warmup: 20, iterations: 300, peer: 100, seedRuns: 10 };
  if (n <= 20_000) return { warmup: 20, iterations: 200, peer: 40, seedRuns: 3 };
  return { warmup: 20, iterations: 200, peer: 15, seedRuns: 1 };
}
