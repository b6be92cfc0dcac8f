// `pnpm --filter @otto/bench bench:changes`: what publishing the change feed costs per write.
// 1. In Chromium, inside a dedicated worker (where the DB worker runs): one BroadcastChannel
//    postMessage of a ChangeEvent, which is all `createChangeBroadcast().publish` does, with two
//    tabs listening so every message is delivered.
// 2. In Node, through the whole API: a customer update with the change feed published (listener on
//    a BroadcastChannel) against the same update with no listener.
// 3. When apps/web/dist is built: how long a rename saved in one tab of the real app takes to show
//    in another tab's customer list (write sent → name on screen).
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMockApi } from '@otto/mock-backend';
import { launchChromium } from '@otto/browser-testing';
import { fileURLToPath } from 'node:url';
import { serveApp } from '../node/app-server';
import { describeMachine } from '../node/machine';

const posts = 20_000;
const rounds = 7;

const workerScript = `
const channel = new BroadcastChannel('otto-changes-bench');
onmessage = ({ data: { posts } }) => {
  const start = performance.now();
  for (let i = 0; i < posts; i++) channel.postMessage({ entity: 'customer', kind: 'updated', ids: [String(i)] });
  postMessage((performance.now() - start) / posts);
};`;

const pageHtml = `<!doctype html><meta charset="utf-8"><title>change feed bench</title><script>
let heard = 0;
new BroadcastChannel('otto-changes-bench').onmessage = () => heard++;
window.heard = () => heard;
</script>`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function inChromium(): Promise<{ msPerPublish: number; chromium: string }> {
  const server = createServer((req, res) => {
    const js = req.url === '/worker.js';
    res.writeHead(200, { 'content-type': js ? 'text/javascript' : 'text/html' });
    res.end(js ? workerScript : pageHtml);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await launchChromium();
  try {
    const context = await browser.newContext();
    const [page, listener] = [await context.newPage(), await context.newPage()];
    await page.goto(`${origin}/`);
    await listener.goto(`${origin}/`);
    const results: number[] = [];
    for (let round = 0; round < rounds; round++) {
      results.push(
        await page.evaluate(
          (n) =>
            new Promise<number>((resolve) => {
              const worker = new Worker('/worker.js');
              worker.onmessage = (e: MessageEvent<number>) => {
                worker.terminate();
                resolve(e.data);
              };
              worker.postMessage({ posts: n });
            }),
          posts,
        ),
      );
    }
    await listener.waitForFunction((n) => (window as unknown as { heard(): number }).heard() >= n, posts * rounds, { timeout: 60_000 });
    return { msPerPublish: median(results), chromium: browser.version() };
  } finally {
    await browser.close();
    server.close();
  }
}

async function inNode(): Promise<{ withFeed: number; withoutFeed: number }> {
  const api = await createMockApi({ seed: { count: 1000, jobs: false, fakerSeed: 1 } });
  const channel = new BroadcastChannel('otto-changes-bench-node');
  const receiver = new BroadcastChannel('otto-changes-bench-node');
  receiver.onmessage = () => undefined;
  const update = (i: number) =>
    api.fetch(
      new Request(`http://localhost/api/customers/${(i % 1000) + 1}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ full_name: `Bench ${i}`, email: `bench${i}@example.com`, phone: String(i) }),
      }),
    );
  const time = async (n: number) => {
    const start = performance.now();
    for (let i = 0; i < n; i++) await update(i);
    return (performance.now() - start) / n;
  };
  await time(500);
  const without: number[] = [];
  const withFeed: number[] = [];
  for (let round = 0; round < rounds; round++) {
    without.push(await time(1000));
    const stop = api.onChange((event) => channel.postMessage(event));
    withFeed.push(await time(1000));
    stop();
  }
  channel.close();
  receiver.close();
  await api.close();
  return { withFeed: median(withFeed), withoutFeed: median(without) };
}

const appDir = fileURLToPath(new URL('../../../apps/web/', import.meta.url));

/** Milliseconds from a rename sent in one tab to the new name on screen in another, per round. */
async function acrossTabs(): Promise<number[] | undefined> {
  if (!existsSync(`${appDir}dist/index.html`)) return undefined;
  const app = await serveApp(appDir);
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ baseURL: app.origin });
    const [writer, reader] = [await context.newPage(), await context.newPage()];
    for (const page of [writer, reader]) {
      await page.goto('/biz/customers');
      await page.waitForFunction(() => typeof (window as unknown as { ottoDeleteDatabase?: unknown }).ottoDeleteDatabase === 'function', undefined, { timeout: 60_000 });
    }
    const id = await writer.evaluate(async () => ((await (await fetch('/api/customers')).json()) as { id: string }[])[0]?.id);
    const latencies: number[] = [];
    for (let round = 0; round < 15; round++) {
      const name = `Live Bench ${round}`;
      await reader.evaluate((text) => {
        (window as unknown as { seen: Promise<number> }).seen = new Promise<number>((resolve) => {
          const observer = new MutationObserver(() => {
            if (document.body.innerText.includes(text)) {
              observer.disconnect();
              resolve(performance.timeOrigin + performance.now());
            }
          });
          observer.observe(document.body, { childList: true, subtree: true, characterData: true });
        });
      }, name);
      const sent = await writer.evaluate(
        async ({ id, name }) => {
          const at = performance.timeOrigin + performance.now();
          await fetch(`/api/customers/${id}`, {
            method: 'PUT',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ full_name: name, email: 'live.bench@example.com', phone: '555 0100' }),
          });
          return at;
        },
        { id, name },
      );
      const shown = await reader.evaluate(() => (window as unknown as { seen: Promise<number> }).seen);
      latencies.push(shown - sent);
      await reader.waitForTimeout(400);
    }
    return latencies;
  } finally {
    await browser.close();
    await app.close();
  }
}

export async function main(): Promise<void> {
  const chromiumResult = await inChromium();
  const node = await inNode();
  const tabs = await acrossTabs();
  const machine = describeMachine(chromiumResult.chromium);
  const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
  console.log(`Change feed: cost of publishing per write (median of ${rounds} rounds)`);
  console.log(`  Chromium ${machine.chromium}, dedicated worker: ${us(chromiumResult.msPerPublish)} per BroadcastChannel publish (${posts} posts/round, 2 tabs listening)`);
  console.log(`  Node ${machine.node}, customer update through createMockApi: ${us(node.withFeed)} with the feed, ${us(node.withoutFeed)} without (difference ${us(node.withFeed - node.withoutFeed)})`);
  if (tabs) {
    const sorted = [...tabs].sort((a, b) => a - b);
    console.log(`  A rename in one tab of the app on screen in another tab's list: median ${median(tabs).toFixed(0)} ms, slowest ${sorted.at(-1)?.toFixed(0)} ms of ${tabs.length} (target: 200 ms)`);
  } else {
    console.log('  (Build apps/web first to measure a change across two tabs of the app.)');
  }
  console.log(`  Target: under 100 µs per write. Machine: ${machine.cpu}, ${machine.cores} cores, load ${machine.load.start}; ${machine.date}`);
}
