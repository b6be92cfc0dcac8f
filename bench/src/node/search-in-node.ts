// `pnpm --filter @otto/bench search-node`: customer searches timed in Node on SQLite WASM in memory
// (no relay, no OPFS), createMockApi seeding the customers: words as before, and phone numbers
// typed as digits in several forms (issue 18, decision 0090). Options: --sizes=100000 (default),
// --iterations=50. Prints median / p95 ms per search and how many customers each matched.
import { createMockApi, seedDatabase } from '@otto/mock-backend';
import { summarize } from './stats';

const quiet = { debug() {}, info() {}, warn: console.warn, error: console.error };

export async function main(argv: readonly string[]): Promise<void> {
  const value = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const sizes = (value('sizes') ?? '100000').split(',').map(Number).filter((n) => n > 0);
  const iterations = Number(value('iterations') ?? 50);
  console.log(`Customer search in Node ${process.version}, SQLite WASM in memory, ${iterations} iterations per search (median / p95 ms).`);
  for (const n of sizes) {
    const started = performance.now();
    // Seeded here rather than through createMockApi's seed option, whose lazy import of the seeding
    // code cannot load once this runner's module graph is closed.
    const api = await createMockApi({ logger: quiet, seed: false });
    seedDatabase(api.store, { count: n, fakerSeed: 42, jobs: false }, Date.now());
    const seededMs = performance.now() - started;
    // Phones of customers spread over the table, so that no cache holds the answer of a repeat.
    const phones = api.store
      .all<{ phone: string }>('SELECT phone FROM customers WHERE id % ? = 0 LIMIT 64', [Math.max(1, Math.floor(n / 64))])
      .map((r) => r.phone);
    const digitsOf = (p: string) => p.replace(/\D/g, '');
    const searches: Record<string, (i: number) => string> = {
      'word (common: gmail)': () => 'gmail',
      'word (prefix: mar)': () => 'mar',
      'digits, whole number typed bare': (i) => digitsOf(phones[i % phones.length] as string),
      'digits, last 7 typed bare': (i) => digitsOf(phones[i % phones.length] as string).slice(-7),
      'digits, 4 from the middle': (i) => digitsOf(phones[i % phones.length] as string).slice(3, 7),
      'digits, typed with dashes': (i) => digitsOf(phones[i % phones.length] as string).slice(-7).replace(/^(\d{3})/, '$1-'),
    };
    const list = async (queryText: string) => {
      const res = await api.fetch(
        new Request(`http://localhost/api/customers?filterJson=${encodeURIComponent(JSON.stringify({ queryText, limit: 10, offset: 0 }))}`),
      );
      await res.json();
      return Number(res.headers.get('x-total-count'));
    };
    console.log(`\n${n.toLocaleString('en')} customers (seeded in ${(seededMs / 1000).toFixed(1)} s)`);
    console.log('| search | median / p95 ms | matches (first) |\n| --- | --- | --- |');
    for (const [name, text] of Object.entries(searches)) {
      for (let i = 0; i < 5; i++) await list(text(i));
      const samples: number[] = [];
      let matches = 0;
      for (let i = 0; i < iterations; i++) {
        const t0 = performance.now();
        const total = await list(text(i));
        samples.push(performance.now() - t0);
        if (i === 0) matches = total;
      }
      const s = summarize(samples);
      console.log(`| ${name} | ${s.median.toFixed(2)} / ${s.p95.toFixed(2)} | ${matches} |`);
    }
    await api.close();
  }
}
