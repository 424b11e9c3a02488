// Searches through the service while a change file is applied: what an import does to the
// people reading (`--imports`). The rate is set below saturation both idle and while the
// import runs: the service's throughput is measured in a closed loop at `connections` idle
// and while a change file applies (throughputAround) (on 2 cores the import's own backend
// takes one, and half the idle throughput was then the service's whole capacity: queueing
// again, which issue 59 asked not to measure). At a share of the lower of the two (open
// loop, openLoop.ts): a warm-up (not kept: one stall right after a closed loop once set
// every kind's idle p99), an idle period, then the change file applied DURING_WINDOWS
// times (restored in between, and the database brought back to the stated state before
// each, as before the first), each kind's p99 over those windows set against its own idle
// p99 at that rate.
import { type HostCpu, type HostTicks, hostCpuOf, hostTicks, ticksBetween } from '../hostCpu.js';
import { measureHttp } from '../loadHttp.js';
import type { Running } from '../processes.js';
import type { HttpRequestSpec } from '../scenarios.js';
import { round } from '../stats.js';
import type { DatabaseState } from './databaseState.js';
import { LoadGenerator } from './loadGenerator.js';
import { figuresOf, type GeneratorThread, generatorOf, type OpenLoopFigures, type OpenLoopLoad, type OpenLoopSamples } from './openLoop.js';
import { type AnswerTally, between, clientTally, type ServiceTally, SLOW_ANSWER_SECONDS, serviceAnswers, sum } from './serviceLatency.js';

export interface SearchLoad {
  service: Running;
  token: string;
  /** Each kind's requests. */
  kinds: Record<string, HttpRequestSpec[]>;
  connections: number;
}

interface ClosedLoop {
  connections: number;
  seconds: number;
  rps: number;
  /**
   * During a change: counted only while the import's transaction was open (importWriting.ts),
   * since 2026-11-30; false where the import ended before it was seen open (a tiny file),
   * and then counted from the import's start, as every run before did.
   */
  whileImportWrote?: boolean;
}

export interface SearchFigures {
  /** Every kind at once, `connections` at a time, for SATURATION_SECONDS: the service's throughput idle. */
  saturated: ClosedLoop;
  /** The same while a change file applied: the throughput the open loop's rate is a share of. */
  saturatedDuringChange?: ClosedLoop;
  /** The share of that throughput the open loop sends at. */
  rateShare: number;
  idle: OpenLoopFigures;
  /** Over every application of the change file (`windows`). */
  during: OpenLoopFigures;
  windows?: number;
  /**
   * The state each window after the first began from (the first's is its row's). Until
   * 2026-11-30 those windows began right after the inverse, with no vacuum or checkpoint
   * between, as no other measured file did.
   */
  statesBetween?: DatabaseState[];
  /** Answers over `seconds`, as the load generator and as the service counted them, idle and during. */
  slowAnswers?: { seconds: number; idle: SlowAnswers; during: SlowAnswers };
}

export interface SlowAnswers {
  client: AnswerTally;
  /** The service's count; and (since 2026-11-30) what held its event loop: its longest delay, collections, page faults, waits for a core. */
  service: AnswerTally & Partial<ServiceTally>;
  /** Requests the load generator itself sent over `seconds` late (its own delay, in neither count's cause). */
  sentLate?: number;
  /** What delayed the load generator's own thread (since 2026-11-30). */
  generator?: GeneratorThread;
  /** The machine's cores over the period (since 2026-11-30, afternoon). */
  host?: HostCpu;
}

const SATURATION_SECONDS = 5;
const WARMUP_SECONDS = 3;
export const RATE_SHARE = 0.5;
/** Applications of the change file the searches run through: one gives a kind a few hundred answers at most, and its p99 is then its worst few. */
export const DURING_WINDOWS = 6;

/** Applies the change file (the row's application); restores the data it changed and brings the database to the stated state (databaseState.ts). */
export interface ChangeCycle<T> {
  apply: () => Promise<T>;
  restore: () => Promise<DatabaseState>;
}

/**
 * Every kind at once in a closed loop: idle, then while `changeAndRestore` runs, until its
 * change is applied, counted from when `importWrites` sees the import's transaction open.
 */
export async function throughputAround(
  load: SearchLoad,
  changeAndRestore: (applied: () => void) => Promise<unknown>,
  importWrites: (ended: Promise<unknown>) => Promise<boolean>,
): Promise<Throughput> {
  const { service, token, kinds, connections } = load;
  const mixed = interleave(Object.values(kinds));
  const closedLoop = async (until?: Promise<unknown>, countFrom?: Promise<unknown>): Promise<ClosedLoop> => {
    const m = await measureHttp({
      url: service.url,
      pid: service.pid,
      token,
      requests: mixed,
      connections,
      durationS: until ? 3600 : SATURATION_SECONDS,
      until,
      countFrom,
    });
    return { connections, seconds: round(m.seconds, 1), rps: round(m.rps, 1), ...(countFrom && { whileImportWrote: m.countedFrom }) };
  };
  // (Unkept: measured right after the service started, its idle throughput once came out
  // below what it kept during a change.)
  await closedLoop();
  const saturated = await closedLoop();
  let applied!: () => void;
  const changeApplied = new Promise<void>((resolve) => (applied = resolve));
  const cycle = changeAndRestore(applied);
  const ended = Promise.race([changeApplied, cycle]);
  const writing = importWrites(ended);
  // (Where the import ended before it was seen writing, the whole run is counted.)
  const saturatedDuringChange = await closedLoop(
    ended,
    writing.then((seen) => (seen ? undefined : new Promise(() => {}))),
  );
  await cycle;
  return { saturated, saturatedDuringChange };
}

export type Throughput = Required<Pick<SearchFigures, 'saturated' | 'saturatedDuringChange'>>;

/**
 * What the searches' rate is a share of: the lower of the two throughputs, so that the rate
 * is below saturation both idle and during the change. (Until 2026-12-02 the throughput
 * during the change alone, which a run whose closed loop kept more during the change than
 * idle set above what the idle service kept.)
 */
export const rateBasis = ({ saturated, saturatedDuringChange }: Throughput) => Math.min(saturated.rps, saturatedDuringChange.rps);
export const rateFor = (throughput: Throughput) => rateBasis(throughput) * RATE_SHARE;

/**
 * The searches at a share of what the service kept (rateFor); the change file
 * is left applied after its last window (the caller restores it). Returns the figures and
 * the first window's application, which started from the caller's stated state.
 */
export async function searchesAround<T>(load: SearchLoad, throughput: Throughput, idleSeconds: number, change: ChangeCycle<T>) {
  const { service, token, kinds } = load;
  const { saturated, saturatedDuringChange } = throughput;
  const rate = rateFor(throughput);
  const generator = await LoadGenerator.start();
  const openLoop = (until: OpenLoopLoad['until']) => generator.run({ url: service.url, token, kinds, rate, until });
  const readService = () => serviceAnswers(service.url, service.pid);
  const windows: OpenLoopSamples[] = [];
  const statesBetween: DatabaseState[] = [];
  const serviceWindows: ServiceTally[] = [];
  const hostWindows: (HostTicks | undefined)[] = [];
  let idle: OpenLoopSamples;
  let serviceIdle: ServiceTally;
  let hostIdle: HostTicks | undefined;
  let first: T | undefined;
  try {
    await openLoop({ seconds: WARMUP_SECONDS });
    const beforeIdle = await readService();
    const hostBeforeIdle = hostTicks();
    idle = await openLoop({ seconds: idleSeconds });
    hostIdle = ticksBetween(hostBeforeIdle, hostTicks());
    serviceIdle = between(beforeIdle, await readService());
    for (let window = 1; window <= DURING_WINDOWS; window++) {
      if (window > 1) statesBetween.push(await change.restore());
      const beforeWindow = await readService();
      const hostBeforeWindow = hostTicks();
      const applying = change.apply();
      windows.push(await openLoop(applying));
      hostWindows.push(ticksBetween(hostBeforeWindow, hostTicks()));
      serviceWindows.push(between(beforeWindow, await readService()));
      const applied = await applying;
      first ??= applied;
    }
  } finally {
    await generator.close();
  }
  const clientOf = (periods: OpenLoopSamples[]) => clientTally(periods.flatMap((p) => Object.values(p.latencies).flat()));
  const sentLate = (periods: OpenLoopSamples[]) => periods.reduce((n, p) => n + p.sentLate, 0);
  const figures: SearchFigures = {
    saturated,
    saturatedDuringChange,
    rateShare: RATE_SHARE,
    idle: figuresOf([idle]),
    during: figuresOf(windows),
    windows: DURING_WINDOWS,
    statesBetween,
    slowAnswers: {
      seconds: SLOW_ANSWER_SECONDS,
      idle: { client: clientOf([idle]), service: serviceIdle, sentLate: sentLate([idle]), generator: generatorOf([idle]), host: hostCpuOf([hostIdle]) },
      during: {
        client: clientOf(windows),
        service: sum(serviceWindows),
        sentLate: sentLate(windows),
        generator: generatorOf(windows),
        host: hostCpuOf(hostWindows),
      },
    },
  };
  return { figures, applied: first! };
}

/** The kinds' requests taken in turn: a closed loop then asks each kind alike. */
function interleave(pools: HttpRequestSpec[][]): HttpRequestSpec[] {
  const longest = Math.max(...pools.map((p) => p.length));
  return Array.from({ length: longest }, (_, i) => pools.map((p) => p[i % p.length]!)).flat();
}
