import { fileURLToPath } from 'node:url';
import { serveApp } from '../src/node/app-server';
import { freshProfile, launchProfile, removeProfile } from '../src/node/chromium';

const appRoot = fileURLToPath(new URL('../../apps/web/', import.meta.url));
const server = await serveApp(appRoot, process.env.OUT);
const runs = Number(process.env.RUNS ?? 3);
for (let r = 0; r < runs; r++) {
  const profile = freshProfile();
  const context = await launchProfile(profile);
  for (const kind of ['first', 'repeat', 'repeat2']) {
    const page = await context.newPage();
    const lines: [string, number][] = [];
    page.on('console', (m) => {
      const t = m.text();
      if (!t.startsWith('TRACE')) console.log('   console:', m.type(), t.slice(0, 300));
      if (t.startsWith('TRACE')) { const parts = t.split(' '); lines.push([parts.slice(1, -1).join(' '), Number(parts.at(-1))]); }
    });
    await page.addInitScript(() => {
      const w = window as any;
      const obs = new MutationObserver(() => { if (w.__row === undefined && document.querySelector('table a[href*="/biz/customers/edit/"]')) { w.__row = performance.now(); obs.disconnect(); } });
      obs.observe(document, { childList: true, subtree: true });
    });
    await page.goto(server.origin + '/biz/customers');
    await page.waitForFunction(() => (window as any).__row !== undefined, undefined, { timeout: 15000 });
    const info = await page.evaluate(() => {
      const res = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return { origin: performance.timeOrigin, row: (window as any).__row, dcl: nav.domContentLoadedEventEnd,
        res: res.map((x) => [x.name.replace(location.origin, '').slice(0, 50), Math.round(x.startTime), Math.round(x.responseEnd), x.transferSize, x.workerStart ? Math.round(x.workerStart) : 0]) };
    });
    await new Promise((r) => setTimeout(r, 300));
    console.log(`--- ${kind} run ${r}: row ${info.row.toFixed(0)} dcl ${info.dcl.toFixed(0)}`);
    for (const [l, t] of lines) console.log(`   ${(t - info.origin).toFixed(0).padStart(6)}  ${l}`);
    if (process.env.RES) for (const x of info.res) console.log('      res', JSON.stringify(x));
    await page.close();
  }
  await context.close();
  removeProfile(profile);
}
await server.close();
