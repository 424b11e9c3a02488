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

export function openRaw(baseUrl: string, waitMs = 5_000): Promise<RawConnection> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = net.connect(Number(port), hostname);
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
  connections.forEach((connection, i) => connection.socket.write(requests[i]!));
  return Promise.all(connections.map((connection) => connection.done));
}
