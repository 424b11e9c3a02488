// A real node:http server on a free port for client tests, whose behaviour each test scripts:
// answer, hang, drop the connection. It records every request it receives.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, received: ReceivedRequest) => void;

export interface LocalServer {
  url: `http://${string}`;
  requests: ReceivedRequest[];
  /** Handlers for the next requests, in order; the last one answers every later request. */
  script(...handlers: Handler[]): void;
  close(): Promise<void>;
}

export async function startLocalServer(): Promise<LocalServer> {
  let handlers: Handler[] = [];
  const requests: ReceivedRequest[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const received = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
    requests.push(received);
    const handler = handlers.length > 1 ? handlers.shift()! : handlers[0];
    if (!handler) throw new Error('no handler scripted');
    handler(req, res, received);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script: (...next) => {
      handlers = next;
      requests.length = 0;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * One local server for a whole test file: started before its first test, closed after its
 * last. Call it at the top of the file; the server it returns is usable inside the tests.
 */
export function useLocalServer(): LocalServer {
  let started: LocalServer | undefined;
  beforeAll(async () => {
    started = await startLocalServer();
  });
  afterAll(() => started?.close());
  const current = () => {
    if (!started) throw new Error('the local server starts in beforeAll: use it inside a test');
    return started;
  };
  return {
    get url() {
      return current().url;
    },
    get requests() {
      return current().requests;
    },
    script: (...handlers) => current().script(...handlers),
    close: () => current().close(),
  };
}

/** Hello for acme-corp, as the client calls it. */
export const helloAcme = { params: { path: { companyId: 'acme-corp' } } } as const;

/** Answers with a JSON body. */
export const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };

/** Hello's success for acme-corp. */
export const helloAcmeOk: Handler = json(200, { message: 'Hello, acme-corp!' });

/** Never answers (the test's timeout must end the call). */
export const hang: Handler = () => {};

/** Drops the TCP connection without any response: a network error for the client. */
export const drop: Handler = (req) => {
  req.socket.destroy();
};
