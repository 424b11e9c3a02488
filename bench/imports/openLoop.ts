// Requests sent at a fixed rate whatever the answers do (an open loop), each kind in turn,
// and each answer's latency counted from when its request was due: a slow answer delays no
// later request, so the figures say what a change file does to readers at that rate, not
// how a saturated service queues (issue 59; a closed loop at ten connections measured
// queueing). Latencies by kind. It runs in a worker thread of its own (LoadGenerator,
// loadGenerator.ts), so that nothing else the bench does delays its sends.
import { Agent, request } from 'node:http';
import { getPriority } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { runQueueWaitSeconds } from '../cpu.js';
import type { HttpRequestSpec } from '../scenarios.js';
import { percentile, round } from '../stats.js';
import { SLOW_ANSWER_SECONDS } from './serviceLatency.js';

export interface OpenLoopLoad {
  url: string;
  token: string;
  /** Each kind's requests, taken in turn within the kind; the kinds take turns too. */
  kinds: Record<string, HttpRequestSpec[]>;
  /** Requests per second, over every kind. */
  rate: number;
  /** Sends until this settles, or for `seconds`. */
  until: Promise<unknown> | { seconds: number };
}

export interface KindLatency {
  answered: number;
  p50: number;
  p99: number;
  /** Answers other than 2xx, and requests that failed or timed out: not in the percentiles. */
  failed: number;
  /** The failures by what they were: an answer's status and error code, or the request's error. */
  failedBy?: Record<string, number>;
}

export interface OpenLoopFigures {
  rate: number;
  seconds: number;
  sent: number;
  byKind: Record<string, KindLatency>;
}

/** One period's answers, kept whole so that periods can be summed (figuresOf). */
export interface OpenLoopSamples {
  rate: number;
  seconds: number;
  sent: number;
  latencies: Record<string, number[]>;
  /** Each kind's failures by what they were (KindLatency.failedBy). */
  failed: Record<string, Record<string, number>>;
  /** Requests the load generator itself sent more than `lateMs` after they were due. */
  sentLate: number;
  lateMs: number;
  /** The thread that sent them and read the answers, over the period. */
  generator?: GeneratorThread;
}

/** What delayed the load generator's own thread: a latency it counts includes its waits. */
export interface GeneratorThread {
  /** Its scheduling priority (nice: lower runs first; 0 is every other process's). */
  nice: number;
  /** Seconds it was ready to run but waited for a core (0 where /proc cannot say). */
  waitedForCoreSeconds: number;
  /** Its event loop's longest delay, ms. */
  delayMaxMs: number;
}

/** The periods' generator threads together: their waits summed, the longest delay, the first's priority. */
export function generatorOf(periods: readonly OpenLoopSamples[]): GeneratorThread | undefined {
  const threads = periods.flatMap((p) => p.generator ?? []);
  if (!threads.length) return undefined;
  return {
    nice: threads[0]!.nice,
    waitedForCoreSeconds: round(
      threads.reduce((n, t) => n + t.waitedForCoreSeconds, 0),
      2,
    ),
    delayMaxMs: round(Math.max(...threads.map((t) => t.delayMaxMs)), 1),
  };
}

const TICK_MS = 2;
/** A send this late is the load generator's own delay, not the service's: the bound of a slow answer (serviceLatency.ts). */
const LATE_SEND_MS = SLOW_ANSWER_SECONDS * 1000;
const TIMEOUT_MS = 10_000;
// Idle sockets close well before the service's keep-alive timeout (5 s by default), so the
// service never closes one as a request is written to it.
const IDLE_SOCKET_MS = 2_000;

export async function openLoop(load: OpenLoopLoad): Promise<OpenLoopSamples> {
  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY, timeout: IDLE_SOCKET_MS });
  const names = Object.keys(load.kinds);
  const latencies: Record<string, number[]> = Object.fromEntries(names.map((k) => [k, []]));
  const failed: Record<string, Record<string, number>> = Object.fromEntries(names.map((k) => [k, {}]));
  const fail = (kind: string, reason: string) => {
    const byReason = failed[kind]!;
    byReason[reason] = (byReason[reason] ?? 0) + 1;
  };
  const nextOf: Record<string, number> = Object.fromEntries(names.map((k) => [k, 0]));
  const answers: Promise<void>[] = [];
  let stopped = false;
  const stopping = 'seconds' in load.until ? new Promise((resolve) => setTimeout(resolve, (load.until as { seconds: number }).seconds * 1000)) : load.until;
  void stopping.finally(() => (stopped = true)).catch(() => {});
  const delays = monitorEventLoopDelay({ resolution: 5 });
  delays.enable();
  const waitedBefore = runQueueWaitSeconds('thread-self');
  const started = performance.now();
  let sent = 0;
  let sentLate = 0;
  const send = (kind: string, due: number) => {
    if (performance.now() - due > LATE_SEND_MS) sentLate++;
    const pool = load.kinds[kind]!;
    const spec = pool[nextOf[kind]!++ % pool.length]!;
    answers.push(
      ask(agent, load, spec).then(
        (failure) => {
          if (failure === undefined) latencies[kind]!.push(performance.now() - due);
          else fail(kind, failure);
        },
        (error: Error & { code?: string }) => fail(kind, error.code ?? error.message),
      ),
    );
  };
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      // Every request due by now is sent; its latency is counted from when it was due.
      const due = Math.floor(((performance.now() - started) / 1000) * load.rate);
      for (; sent < due && !stopped; sent++) send(names[sent % names.length]!, started + (sent * 1000) / load.rate);
      if (stopped) {
        clearInterval(timer);
        resolve();
      }
    }, TICK_MS);
  });
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(answers);
  agent.destroy();
  delays.disable();
  const waitedAfter = runQueueWaitSeconds('thread-self');
  const generator: GeneratorThread = {
    nice: getPriority(),
    waitedForCoreSeconds: waitedBefore === undefined || waitedAfter === undefined ? 0 : waitedAfter - waitedBefore,
    delayMaxMs: delays.max / 1e6,
  };
  return { rate: load.rate, seconds, sent, latencies, failed, sentLate, lateMs: LATE_SEND_MS, generator };
}

/** The periods' answers together, by kind (periods at one rate: the first's is stated). */
export function figuresOf(periods: readonly OpenLoopSamples[]): OpenLoopFigures {
  const names = Object.keys(periods[0]!.latencies);
  const byKind = Object.fromEntries(
    names.map((k) => {
      const latencies = periods.flatMap((p) => p.latencies[k]!);
      const failedBy: Record<string, number> = {};
      for (const [reason, n] of periods.flatMap((p) => Object.entries(p.failed[k]!))) failedBy[reason] = (failedBy[reason] ?? 0) + n;
      const failed = Object.values(failedBy).reduce((n, m) => n + m, 0);
      const figures: KindLatency = {
        answered: latencies.length,
        p50: round(percentile(latencies, 0.5), 2),
        p99: round(percentile(latencies, 0.99), 2),
        failed,
      };
      return [k, failed ? { ...figures, failedBy } : figures];
    }),
  );
  const seconds = periods.reduce((n, p) => n + p.seconds, 0);
  const sent = periods.reduce((n, p) => n + p.sent, 0);
  return { rate: round(periods[0]!.rate, 1), seconds: round(seconds, 1), sent, byKind };
}

/**
 * One request: nothing for a 2xx answer read to its end, else its status and error code
 * ("503 service_unavailable"). A kept-alive socket the service closed as the request was
 * written never carried it: the request is sent again on a new socket, as Node's documentation
 * advises, and its latency still counts from when it was due. The new socket is one of its own
 * (`agent: false`), since the pool's other idle sockets may have been closed as well.
 */
async function ask(agent: Agent, load: OpenLoopLoad, spec: HttpRequestSpec): Promise<string | undefined> {
  try {
    return await askOnce(agent, load, spec);
  } catch (error) {
    if ((error as ResetOnReuse).resetOnReusedSocket) return askOnce(false, load, spec);
    throw error;
  }
}

type ResetOnReuse = Error & { code?: string; resetOnReusedSocket?: boolean };

function askOnce(agent: Agent | false, load: OpenLoopLoad, spec: HttpRequestSpec): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${load.token}` };
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    const req = request(new URL(spec.path, load.url), { method: spec.method, headers, agent, timeout: TIMEOUT_MS }, (res) => {
      const status = res.statusCode ?? 0;
      const body: Buffer[] = [];
      // A success's body is not kept; a failure's names its error code.
      res.on('data', (chunk: Buffer) => status >= 300 && body.push(chunk));
      res.on('end', () => resolve(status >= 200 && status < 300 ? undefined : `${status} ${errorCode(Buffer.concat(body).toString())}`.trim()));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (error: ResetOnReuse) => {
      if (req.reusedSocket && error.code === 'ECONNRESET') error.resetOnReusedSocket = true;
      reject(error);
    });
    req.end(spec.body);
  });
}

function errorCode(body: string): string {
  try {
    return String((JSON.parse(body) as { error?: unknown }).error ?? '');
  } catch {
    return '';
  }
}
