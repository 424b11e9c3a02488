// The machine the figures come from, and how the bench splits its cores: the load
// generator on one core, the process under test on another (taskset), so that they do
// not steal each other's time. PostgreSQL, not ours to pin, runs where the kernel puts it.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { round } from './stats.js';

export interface Machine {
  nproc: number;
  cpuModel: string;
  memoryGb: number;
  node: string;
  os: string;
  /** Core of the load generator and core of the processes under test, when pinned. */
  pinning?: { loadCpu: number; targetCpu: number };
}

/** When, from which commit and on what machine a run was made, as each results file keeps it. */
export interface RunStamp {
  startedAt: string;
  finishedAt: string;
  machine: Machine;
  /** The commit measured (short), or "unknown" outside a git checkout. */
  revision: string;
  /** 1-minute load average when measuring started and when it ended: how busy the (shared) machine was. */
  loadAverage: { start: number; end: number };
}

const tasksetAvailable = () => process.platform === 'linux' && spawnSync('taskset', ['--version']).status === 0;

/**
 * A run begun: the machine described, and this process (the load generator) pinned to its
 * core, every thread. `measuring()` marks where the load average is first read (after the
 * datasets are built); `stamp()` ends the run.
 */
export function beginRun() {
  const startedAt = new Date().toISOString();
  let cpuModel = os.cpus()[0]?.model ?? 'unknown';
  try {
    cpuModel = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? cpuModel;
  } catch {
    // not Linux: os.cpus() it is
  }
  const nproc = os.availableParallelism();
  const pinning = tasksetAvailable() && nproc >= 2 ? { loadCpu: 0, targetCpu: 1 } : undefined;
  const machine: Machine = {
    nproc,
    cpuModel,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    pinning,
  };
  if (machine.pinning) {
    const pinned = spawnSync('taskset', ['-a', '-p', '-c', String(machine.pinning.loadCpu), String(process.pid)]);
    if (pinned.status !== 0) throw new Error(`taskset could not pin the bench: ${pinned.stderr}`);
  }
  let loadAtStart = os.loadavg()[0]!;
  const revision = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout?.trim() || 'unknown';
  return {
    machine,
    /** The core of the processes under test; undefined without pinning. */
    cpu: machine.pinning?.targetCpu,
    measuring: () => {
      loadAtStart = os.loadavg()[0]!;
    },
    stamp: (): RunStamp => ({
      startedAt,
      finishedAt: new Date().toISOString(),
      machine,
      revision,
      loadAverage: { start: round(loadAtStart, 2), end: round(os.loadavg()[0]!, 2) },
    }),
  };
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
  return tasksetAvailable() ? ['taskset', '-c', `0-${os.cpus().length - 1}`, ...argv] : argv;
}
