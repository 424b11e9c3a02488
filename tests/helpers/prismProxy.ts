// `prism proxy` (the pinned @stoplight/prism-cli 5.14.2) in front of a live upstream, on a
// free port. With --errors=false it forwards every request, even an invalid one, and
// reports what broke the contract in an `sl-violations` response header instead of
// answering in the upstream's place. Its log is kept for failure messages.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface PrismProxy {
  url: string;
  /** The last lines Prism printed (request log, violations), for failure messages. */
  log: string[];
  stop(): Promise<void>;
}

const prismBin = join(dirname(createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json')), 'dist/index.js');
// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC starts the ANSI colour codes this strips
const ansi = /\x1b\[[0-9;]*m/g;

export function startPrismProxy(document: string, upstream: string, startTimeoutMs = 60_000): Promise<PrismProxy> {
  const args = ['proxy', document, upstream, '--port', '0', '--host', '127.0.0.1', '--errors=false'];
  const child = spawn(process.execPath, [prismBin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const log: string[] = [];
  const stop = (): Promise<void> =>
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise((resolve) => {
          const force = setTimeout(() => child.kill('SIGKILL'), 5000);
          child.once('exit', () => {
            clearTimeout(force);
            resolve();
          });
          child.kill('SIGTERM');
        });
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`prism proxy did not start: ${why}\n${log.join('\n')}`));
    };
    const timer = setTimeout(() => fail(`not listening after ${startTimeoutMs} ms`), startTimeoutMs);
    child.once('error', (error) => fail(error.message));
    child.once('exit', (code, signal) => fail(`exited (${signal ?? code})`));
    const onLine = (line: string) => {
      log.push(line.replace(ansi, ''));
      if (log.length > 200) log.shift();
      const listening = /Prism is listening on (http:\/\/\S+)/.exec(log.at(-1)!);
      if (!listening) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({ url: listening[1]!.replace(/\/$/, ''), log, stop });
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

export interface Violation {
  location: string[];
  severity: string;
  code?: string | number;
  message: string;
}

/** The violations Prism reported on a response, split by side. Throws on a header it truncated. */
export function violationsOf(headers: Headers): { request: Violation[]; response: Violation[] } {
  const header = headers.get('sl-violations');
  const all: Violation[] = header === null ? [] : JSON.parse(header); // "Too many violations! ..." does not parse: fails loudly
  return {
    request: all.filter((v) => v.location[0] === 'request'),
    response: all.filter((v) => v.location[0] !== 'request'),
  };
}
