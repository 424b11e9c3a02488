// The machine the figures come from, and how the bench splits its cores: the load
// generator on one core, the process under test on another (taskset), so that they do
// not steal each other's time. PostgreSQL, not ours to pin, runs where the kernel puts it.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface Machine {
  nproc: number;
  cpuModel: string;
  memoryGb: number;
  node: string;
  os: string;
  /** Core of the load generator and core of the processes under test, when pinned. */
  pinning?: { loadCpu: number; targetCpu: number };
}

export function describeMachine(): Machine {
  let cpuModel = os.cpus()[0]?.model ?? 'unknown';
  try {
    cpuModel = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? cpuModel;
  } catch {
    // not Linux: os.cpus() it is
  }
  const nproc = os.availableParallelism();
  const taskset = process.platform === 'linux' && spawnSync('taskset', ['--version']).status === 0;
  return {
    nproc,
    cpuModel,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    pinning: taskset && nproc >= 2 ? { loadCpu: 0, targetCpu: 1 } : undefined,
  };
}

/** Pins this process (every thread: the load generator) to `cpu`. */
export function pinSelf(cpu: number): void {
  const result = spawnSync('taskset', ['-a', '-p', '-c', String(cpu), String(process.pid)]);
  if (result.status !== 0) throw new Error(`taskset could not pin the bench: ${result.stderr}`);
}

/** The command line that runs `argv` on `cpu` (unchanged without pinning). */
export function onCpu(argv: string[], cpu: number | undefined): string[] {
  return cpu === undefined ? argv : ['taskset', '-c', String(cpu), ...argv];
}

/**
 * The command line that runs `argv` on every core, whatever the bench is pinned to (where
 * taskset exists): an operator's `npm run import` is not pinned, and its check workers
 * run beside its own thread.
 */
export function onEveryCpu(argv: string[]): string[] {
  const taskset = process.platform === 'linux' && spawnSync('taskset', ['--version']).status === 0;
  return taskset ? ['taskset', '-c', `0-${os.cpus().length - 1}`, ...argv] : argv;
}

/** The commit measured (short), or "unknown" outside a git checkout. */
export const gitCommit = (): string => spawnSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout?.trim() || 'unknown';
