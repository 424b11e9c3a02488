// The machine the figures come from, and how the bench splits its cores: the load generator
// on one, the process under test on another (taskset), so neither steals the other's time.
// PostgreSQL, not ours to pin, runs where the kernel puts it.
import { spawnSync } from 'node:child_process';
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

/** When, from which code and on what machine a run was made, as each results file keeps it. */
export interface RunStamp {
  startedAt: string;
  finishedAt: string;
  machine: Machine;
  /** The commit measured (short), or "unknown" outside a git checkout. */
  revision: string;
  /** Server files that differ from that commit: uncommitted work, measured too. */
  uncommittedServerFiles: string[];
  /** 1-minute load average when measuring started and ended: how busy the (shared) machine was. */
  loadAverage: { start: number; end: number };
}

const tasksetAvailable = () => process.platform === 'linux' && spawnSync('taskset', ['--version']).status === 0;
const git = (...args: string[]) => spawnSync('git', args, { encoding: 'utf8' }).stdout ?? '';

/**
 * A run begun: machine and code described, this process (the load generator) pinned to its
 * core. `measuring()` marks where the load average is first read; `stamp()` ends the run.
 */
export function beginRun() {
  const startedAt = new Date().toISOString();
  const nproc = os.availableParallelism();
  const pinning = tasksetAvailable() && nproc >= 2 ? { loadCpu: 0, targetCpu: 1 } : undefined;
  const machine: Machine = {
    nproc,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    pinning,
  };
  if (pinning) {
    const pinned = spawnSync('taskset', ['-a', '-p', '-c', String(pinning.loadCpu), String(process.pid)]);
    if (pinned.status !== 0) throw new Error(`taskset could not pin the bench: ${pinned.stderr}`);
  }
  const revision = git('rev-parse', '--short', 'HEAD').trim() || 'unknown';
  // (Not trimmed: a porcelain line starts with its two status columns, the first often a space.)
  const uncommittedServerFiles = git('status', '--porcelain', '--', 'server')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.slice(3));
  let loadAtStart = os.loadavg()[0]!;
  return {
    machine,
    /** The core of the processes under test; undefined without pinning. */
    cpu: pinning?.targetCpu,
    measuring: () => {
      loadAtStart = os.loadavg()[0]!;
    },
    stamp: (): RunStamp => ({
      startedAt,
      finishedAt: new Date().toISOString(),
      machine,
      revision,
      uncommittedServerFiles,
      loadAverage: { start: round(loadAtStart, 2), end: round(os.loadavg()[0]!, 2) },
    }),
  };
}

/** The command line that runs `argv` on `cpu` (unchanged without pinning). */
export function onCpu(argv: string[], cpu: number | undefined): string[] {
  return cpu === undefined ? argv : ['taskset', '-c', String(cpu), ...argv];
}

/** `argv` on every core, as an operator's `npm run import` runs (its check workers beside its own thread). */
export function onEveryCpu(argv: string[]): string[] {
  return tasksetAvailable() ? ['taskset', '-c', `0-${os.cpus().length - 1}`, ...argv] : argv;
}
