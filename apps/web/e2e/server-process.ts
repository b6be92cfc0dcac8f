// otto-mock-server processes for the e2e tests that point the app at a team server (remote mode,
// sync mode): started on a free port, killed when the test process exits, whatever happens.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const serverBin = fileURLToPath(new URL('../../../packages/mock-backend/bin/otto-mock-server.js', import.meta.url));

/** One otto-mock-server process. */
export interface ServerProcess {
  /** Its API base URL, `/api` included, as it printed it. */
  readonly url: string;
  /** What it printed, for a failure's message. */
  readonly output: () => string;
  /** SIGTERM, then SIGKILL when it has not exited within 5 s. */
  stop(): Promise<void>;
  /** SIGKILL at once: a crash, in the middle of whatever it was doing. */
  kill(): Promise<void>;
}

/** Every server process started by this file: killed when the test process exits, whatever happens. */
const children = new Set<ChildProcess>();
const killAll = () => {
  for (const child of children) child.kill('SIGKILL');
};
process.once('exit', killAll);

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Starts `otto-mock-server --db <database>` (and `extraArgs`) on a free port; resolves once it says it is listening. */
export async function startServer(database: string, name: string, extraArgs: readonly string[] = []): Promise<ServerProcess> {
  const child = spawn(process.execPath, [serverBin, '--db', database, '--port', '0', '--seed', '40', '--quiet', ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  const stop = async () => {
    if (!exited(child)) {
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await gone;
      clearTimeout(timer);
    }
    children.delete(child);
  };
  const kill = async () => {
    if (!exited(child)) {
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      await gone;
    }
    children.delete(child);
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not say it was listening within 30 s:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Otto mock API listening on (\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code ?? signal}) before listening:\n${output}`));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { url, output: () => output, stop, kill };
}
