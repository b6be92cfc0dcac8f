import { cpus, loadavg, release, totalmem, type as osType } from 'node:os';

export interface Machine {
  date: string;
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  chromium: string;
  /** 1-minute load average when the run started and ended: above the core count, other work competed for the CPU. */
  load: { start: number; end?: number };
}

export function describeMachine(chromium: string): Machine {
  const list = cpus();
  return {
    date: new Date().toISOString(),
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    os: `${osType()} ${release()}`,
    node: process.version,
    chromium,
    load: { start: Math.round((loadavg()[0] ?? 0) * 100) / 100 },
  };
}

/** The 1-minute load average now. */
export function currentLoad(): number {
  return Math.round((loadavg()[0] ?? 0) * 100) / 100;
}
