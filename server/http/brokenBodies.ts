// Requests whose body node's parser refused part-way (an unknown transfer coding, a chunk
// size that overflows, chunk lines ending in a bare LF): the request was already handed to
// the pipeline, but its body will never end. Its answer is 400 invalid_request, like any
// malformed request, and whatever waits for the body is told so at once rather than
// waiting for a body that will never come.
import type { IncomingMessage } from 'node:http';

const broken = new WeakSet<IncomingMessage>();
const waiting = new WeakMap<IncomingMessage, () => void>();

/** Marks `req`'s body as refused by the parser, and wakes what waits for it. */
export function markBodyBroken(req: IncomingMessage): void {
  broken.add(req);
  const wake = waiting.get(req);
  waiting.delete(req);
  wake?.();
}

export function isBodyBroken(req: IncomingMessage): boolean {
  return broken.has(req);
}

/** Calls `wake` once if `req`'s body is refused; returns the function that stops waiting. */
export function whenBodyBroken(req: IncomingMessage, wake: () => void): () => void {
  waiting.set(req, wake);
  return () => {
    if (waiting.get(req) === wake) waiting.delete(req);
  };
}
