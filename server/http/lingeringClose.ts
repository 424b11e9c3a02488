// Closing a connection whose request body is still arriving, without losing the answer
// (RFC 9112 §9.6). The server answers such requests early (413, 415, 401, 404, a body
// nobody asked for) and reads no more of the body than the limit. Closing at once would
// make the kernel reset the connection as soon as more of the body arrived, and a reset
// can destroy the answer before the client reads it, or fail the client's upload before
// it looks for an answer. Closing late, as node does by default, reads the whole upload.
//
// So: the answer says `Connection: close`; once it is out, the write side is half-closed
// (FIN after the answer) and the rest of the body is read and discarded until the client
// has sent it all or closed its side, but never more than LINGER_BYTES and never longer
// than LINGER_MS; then the connection is closed. Nothing of the discarded body is kept.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Enough for a client that sends its whole body before it reads (many do) to get its
 * answer for bodies of several MB (this plus the network's buffers), and no more.
 */
export const LINGER_BYTES = 4 * 1024 * 1024;
export const LINGER_MS = 5_000;

const lingering = new WeakSet<object>();

/** Whether bytes of this request's body may still be on their way. */
export function bodyStillArriving(req: IncomingMessage): boolean {
  if (req.complete) return false;
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Whether the connection is closing after an answer: any further request on it is ignored. */
export function isLingering(socket: object): boolean {
  return lingering.has(socket);
}

/**
 * Call before writing the answer to a request whose body is still arriving: the answer
 * says `Connection: close`, the rest of the body is discarded within the bounds above,
 * and the connection closes gracefully once the answer is out.
 */
export function closeAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  const socket = req.socket as Socket;
  if (lingering.has(socket)) return;
  lingering.add(socket);
  if (!res.headersSent) res.setHeader('Connection', 'close');

  let answered = false;
  let bodyDone = false; // all of it discarded, or as much as we are willing to
  const destroy = () => socket.destroy();
  // Once the answer and the FIN have left node's buffer for the kernel, which sends them
  // whatever happens to the socket after.
  const close = () => (socket.writableFinished ? destroy() : socket.once('finish', destroy));
  const closeIfDone = () => {
    if (answered && bodyDone) close();
  };
  const timer = setTimeout(destroy, LINGER_MS).unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', close); // the client closed its side: nothing more will come
  res.once('finish', () => {
    answered = true;
    closeIfDone();
  });

  let discarded = 0;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded <= LINGER_BYTES) return;
    req.pause(); // TCP holds the client back from here on
    bodyDone = true;
    closeIfDone();
  });
  req.once('end', () => {
    bodyDone = true;
    closeIfDone();
  });
  req.resume();

  // With `Connection: close`, node ends the connection by calling destroySoon() once the
  // answer is written: end, then destroy as soon as the end is flushed, unread body or
  // not. Here it only half-closes, and the discarding above decides when to destroy.
  socket.destroySoon = () => {
    socket.end();
  };
}
