// HTTP written by hand on a socket, for what fetch will not send: lying Content-Length,
// oversized or half-sent headers, bodies that stop halfway.
import net from 'node:net';

export interface RawExchange {
  /** Everything the server sent. */
  text: string;
  /** Whether the server closed the connection (rather than the wait running out). */
  closedByServer: boolean;
  ms: number;
}

export interface RawConnection {
  socket: net.Socket;
  /** Resolves when the server closes the connection, or after `waitMs`. */
  done: Promise<RawExchange>;
}

/** `allowHalfOpen`: a client that keeps its side open after the server's FIN (node's sockets end theirs by default). */
export function openRaw(baseUrl: string, waitMs = 5_000, { allowHalfOpen = false } = {}): Promise<RawConnection> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = net.connect({ port: Number(port), host: hostname, allowHalfOpen });
    let text = '';
    const done = new Promise<RawExchange>((finish) => {
      const timer = setTimeout(() => {
        socket.destroy();
        finish({ text, closedByServer: false, ms: performance.now() - started });
      }, waitMs);
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('close', () => {
        clearTimeout(timer);
        finish({ text, closedByServer: true, ms: performance.now() - started });
      });
      socket.on('error', () => {});
    });
    socket.once('connect', () => resolve({ socket, done }));
    socket.once('error', reject);
  });
}

export async function rawExchange(baseUrl: string, request: string, waitMs = 5_000): Promise<RawExchange> {
  const connection = await openRaw(baseUrl, waitMs);
  connection.socket.write(request);
  return connection.done;
}

/** Status, headers (lower-case names) and body of the first response in `text`. */
export function parseResponse(text: string): { status: number; headers: Record<string, string>; body: string } {
  const end = text.indexOf('\r\n\r\n');
  const [statusLine, ...headerLines] = text.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(end + 4) };
}

/**
 * Sends each request on its own connection, all connections opened first and every
 * request written in the same tick, so the server sees them as nearly at once as TCP
 * allows (fetch spreads them out over its connection setup). Answers in request order.
 */
export async function sendAtOnce(baseUrl: string, requests: string[], waitMs = 20_000): Promise<RawExchange[]> {
  const connections = await Promise.all(requests.map(() => openRaw(baseUrl, waitMs)));
  for (const [i, connection] of connections.entries()) connection.socket.write(requests[i]!);
  return Promise.all(connections.map((connection) => connection.done));
}

export interface Upload {
  /** Everything the server sent. */
  text: string;
  /** Body bytes the socket accepted before the server closed or reset the connection. */
  bodyBytesWritten: number;
  /** How the connection ended for the client: closed cleanly, or reset. */
  ended: 'closed' | 'reset' | 'timeout';
  ms: number;
}

/**
 * Sends `head` (request line and headers, without the blank line) and then a body of
 * `bodyBytes` as fast as the connection takes it, declared (Content-Length) or chunked.
 * `readWhileSending: false` is a client that reads nothing until its whole body is out
 * (many HTTP clients): the one a server that closes early loses.
 */
export function upload(
  baseUrl: string,
  head: string,
  bodyBytes: number,
  options: { chunked: boolean; readWhileSending: boolean; waitMs?: number },
): Promise<Upload> {
  const { hostname, port } = new URL(baseUrl);
  const started = performance.now();
  const piece = Buffer.alloc(64 * 1024, 'a');
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let text = '';
    let written = 0;
    let ended: Upload['ended'] | undefined;
    const finish = (how: Upload['ended']) => {
      ended ??= how;
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, bodyBytesWritten: written, ended, ms: performance.now() - started });
    };
    const timer = setTimeout(() => finish('timeout'), options.waitMs ?? 15_000);
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('error', () => (ended ??= 'reset')); // ECONNRESET or EPIPE: the server reset the connection
    socket.on('close', () => finish('closed'));
    if (!options.readWhileSending) socket.pause();
    socket.once('connect', async () => {
      socket.write(`${head}${options.chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${bodyBytes}`}\r\n\r\n`);
      while (written < bodyBytes && !socket.destroyed && socket.writable) {
        const size = Math.min(piece.length, bodyBytes - written);
        const data = options.chunked
          ? Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), piece.subarray(0, size), Buffer.from('\r\n')])
          : piece.subarray(0, size);
        const more = socket.write(data);
        written += size;
        if (!more) await new Promise((r) => socket.once('drain', r).once('close', r));
      }
      if (options.chunked && socket.writable) socket.write('0\r\n\r\n');
      socket.resume();
    });
  });
}
