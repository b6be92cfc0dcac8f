import { createMockApi, toFtsQuery } from '@otto/mock-backend';

const quiet = { debug() {}, info() {}, warn: console.warn, error: console.error };
function time(label: string, fn: () => unknown, runs = 20) {
  const t: number[] = [];
  let out: unknown;
  for (let i = 0; i < runs + 3; i++) {
    const s = performance.now();
    out = fn();
    if (i >= 3) t.push(performance.now() - s);
  }
  t.sort((a, b) => a - b);
  console.log(label.padEnd(50), t[Math.floor(t.length / 2)]!.toFixed(2), t[Math.floor(t.length * 0.95)]!.toFixed(2), JSON.stringify(out).slice(0, 100));
}
const statuses = ['quote', 'scheduled', 'in_progress', 'completed', 'invoiced', 'paid', 'cancelled'];
export async function main(argv: string[]) {
  const n = Number(argv[0] ?? 100000);
  const api = await createMockApi({ logger: quiet, seed: { count: n, fakerSeed: 42 } });
  const db = api.store;
  let s = performance.now();
  db.exec(`CREATE VIRTUAL TABLE jobs_sfts USING fts5(job_text, content='', contentless_delete=1, tokenize = 'unicode61 remove_diacritics 2')`);
  db.exec(`INSERT INTO jobs_sfts (rowid, job_text) SELECT (CASE j.status ${statuses.map((st, i) => `WHEN '${st}' THEN ${i + 1}`).join(' ')} END << 40) | j.id, j.title || ' ' || j.description || ' ' || j.service_address || ' ' || c.full_name FROM jobs j JOIN customers c ON c.id = j.customer_id`);
  console.log('build', (performance.now() - s).toFixed(0), 'ms');
  for (const word of ['repair', 'mar', 'smith']) {
    const m = toFtsQuery(word);
    console.log(`\n${word}`);
    time('group status (current)', () => db.all('SELECT j.status, count(*) AS n FROM jobs_fts f JOIN jobs j INDEXED BY jobs_id_status_idx ON j.id = f.rowid WHERE jobs_fts MATCH ? GROUP BY j.status', [m]));
    time('7 range counts', () => statuses.map((_, i) => db.get<{ n: number }>('SELECT count(*) AS n FROM jobs_sfts WHERE jobs_sfts MATCH ? AND rowid >= ? AND rowid < ?', [m, (i + 1) * 2 ** 40, (i + 2) * 2 ** 40])?.n));
    time('1 count on sfts', () => db.get('SELECT count(*) AS n FROM jobs_sfts WHERE jobs_sfts MATCH ?', [m]));
    time('1 range count (paid)', () => db.get('SELECT count(*) AS n FROM jobs_sfts WHERE jobs_sfts MATCH ? AND rowid >= ? AND rowid < ?', [m, 6 * 2 ** 40, 7 * 2 ** 40]));
    time('group by rowid>>40', () => db.all('SELECT rowid >> 40 AS s, count(*) AS n FROM jobs_sfts WHERE jobs_sfts MATCH ? GROUP BY 1', [m]));
  }
  s = performance.now();
  for (let i = 1; i <= 200; i++) {
    db.run('DELETE FROM jobs_sfts WHERE rowid = ?', [(1 << 0) * 2 ** 40 + i]);
  }
  console.log('200 deletes', (performance.now() - s).toFixed(1));
  await api.close();
}
