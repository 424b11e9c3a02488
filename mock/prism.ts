// Starts Prism 5 (the pinned @stoplight/prism-cli) on the full contract and stops it again.
// Used by `npm run mock` (mock/start.ts) and by the mock tests, so both run the same thing;
// the proxy the conformance tests put in front of the server runs the same way (runPrism).
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contractPaths } from '../server/contract.js';

export interface MockOptions {
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** Generate bodies from the schemas (json-schema-faker) instead of serving the examples. */
  dynamic?: boolean;
  /** Seed for dynamic mode, so the generated bodies are the same on every start. */
  seed?: string;
  /** The contract to serve; the full one (drafts included) by default. */
  document?: string;
  /** More arguments for `prism mock`, as typed on its command line. */
  extraArgs?: string[];
  /** Receives every line Prism prints (its request log, with contract violations). */
  onLog?: (line: string) => void;
}

export interface MockServer {
  url: `http://${string}`;
  port: number;
  /** Settles when Prism exits, for whatever reason, with its exit code. */
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

export const defaultSeed = 'lookup';
const prismBin = join(dirname(createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json')), 'dist/index.js');
// Loaded into Prism's process: the contract's `x-faker` values follow --seed too, and a
// generated page agrees with its pagination (see each file).
const preloads = ['./seeded-faker.cjs', './coherent-bodies.cjs'].flatMap((file) => ['--require', fileURLToPath(new URL(file, import.meta.url))]);
// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC starts the ANSI colour codes this strips
const ansi = /\x1b\[[0-9;]*m/g;

export function prismArgs(options: MockOptions): string[] {
  const { port, host = '127.0.0.1', dynamic = false, seed = defaultSeed, document = contractPaths.full, extraArgs = [] } = options;
  return ['mock', '--port', String(port), '--host', host, ...(dynamic ? ['--dynamic', '--seed', seed] : []), ...extraArgs, document];
}

export function startPrism(options: MockOptions, startTimeoutMs = 60_000): Promise<MockServer> {
  return runPrism(prismArgs(options), { nodeArgs: preloads, onLog: options.onLog, startTimeoutMs });
}

export interface PrismProcess extends MockServer {
  /** The last lines Prism printed (its request log, with contract violations), for failure messages. */
  recent: string[];
}

export interface PrismRunOptions {
  /** Arguments for node before Prism's own (a module to preload). */
  nodeArgs?: string[];
  onLog?: (line: string) => void;
  startTimeoutMs?: number;
  /** How many of the last lines `recent` keeps. */
  keptLines?: number;
}

/** Runs Prism with `args` (`mock ...` or `proxy ...`) and resolves once it says where it listens. */
export function runPrism(args: string[], { nodeArgs = [], onLog, startTimeoutMs = 60_000, keptLines = 50 }: PrismRunOptions = {}): Promise<PrismProcess> {
  const child = spawn(process.execPath, [...nodeArgs, prismBin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const recent: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`Prism did not start: ${why}\n${recent.join('\n')}`));
    };
    const timer = setTimeout(() => fail(`not listening after ${startTimeoutMs} ms`), startTimeoutMs);
    child.once('error', (error) => fail(error.message));
    child.once('exit', (code, signal) => fail(`exited (${signal ?? code})`));
    const onLine = (line: string) => {
      line = line.replace(ansi, '');
      recent.push(line);
      if (recent.length > keptLines) recent.shift();
      onLog?.(line);
      const listening = /Prism is listening on (http:\/\/\S+)/.exec(line);
      if (!listening) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      const url = listening[1]!.replace(/\/$/, '') as `http://${string}`;
      resolve({ url, port: Number(new URL(url).port), exited, recent, stop: () => stop(child) });
    };
    for (const stream of [child.stdout!, child.stderr!]) {
      let buffered = '';
      stream.setEncoding('utf8').on('data', (chunk: string) => {
        const lines = (buffered + chunk).split('\n');
        buffered = lines.pop()!;
        lines.forEach(onLine);
      });
    }
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
