// `prism proxy` (the pinned @stoplight/prism-cli 5.14.2) in front of a live upstream, on a
// free port. With --errors=false it forwards every request, even an invalid one, and
// reports what broke the contract in an `sl-violations` response header instead of
// answering in the upstream's place. Its log is kept for failure messages.
import { runPrism } from '../../mock/prism.js';

export interface PrismProxy {
  url: string;
  /** The last lines Prism printed (request log, violations), for failure messages. */
  log: string[];
  stop(): Promise<void>;
}

export async function startPrismProxy(document: string, upstream: string, startTimeoutMs = 60_000): Promise<PrismProxy> {
  const prism = await runPrism(['proxy', document, upstream, '--port', '0', '--host', '127.0.0.1', '--errors=false'], { startTimeoutMs, keptLines: 200 });
  return { url: prism.url, log: prism.recent, stop: prism.stop };
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
