// `pnpm --filter @otto/bench bench:changes`: what publishing the change feed costs per write.
// 1. In Chromium, inside a dedicated worker (where the DB worker runs): one BroadcastChannel
//    postMessage of a ChangeEvent, which is all `createChangeBroadcast().publish` does, with two
//    tabs listening so every message is delivered.
// 2. In Node, through the whole API: a customer update with the change feed published (listener on
//    a BroadcastChannel) against the same update with no listener.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMockApi } from '@otto/mock-backend';
import { chromium } from 'playwright-core';
import { launchOptions } from '../node/chromium';
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
  const browser = await chromium.launch(launchOptions);
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

export async function main(): Promise<void> {
  const chromiumResult = await inChromium();
  const node = await inNode();
  const machine = describeMachine(chromiumResult.chromium);
  const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
  console.log(`Change feed: cost of publishing per write (median of ${rounds} rounds)`);
  console.log(`  Chromium ${machine.chromium}, dedicated worker: ${us(chromiumResult.msPerPublish)} per BroadcastChannel publish (${posts} posts/round, 2 tabs listening)`);
  console.log(`  Node ${machine.node}, customer update through createMockApi: ${us(node.withFeed)} with the feed, ${us(node.withoutFeed)} without (difference ${us(node.withFeed - node.withoutFeed)})`);
  console.log(`  Target: under 100 µs per write. Machine: ${machine.cpu}, ${machine.cores} cores, load ${machine.load.start}; ${machine.date}`);
}
