// A webhook receiver in the test process: plain http on 127.0.0.1 (the worker runs with
// WEBHOOK_ALLOW_PRIVATE_TARGETS' setting on), which keeps every request it gets and checks
// each signature with the client's verifyWebhook. It can fail (500), hang past the
// worker's timeout, redirect, and stop and start again on the same port.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook, type WebhookChange } from '../../client/src/drafts.js';

export interface Received {
  id: string;
  timestamp: string;
  signatures: string[];
  body: string;
  changes: WebhookChange[];
  /** What the receiver answered. */
  answered: number | 'nothing';
}

export type ReceiverMode = 'ok' | 'fail' | 'hang' | { redirectTo: string };

export class WebhookReceiver {
  mode: ReceiverMode = 'ok';
  readonly received: Received[] = [];
  /** Deliveries whose signature did not verify with any of `secrets`. */
  readonly badSignatures: Received[] = [];
  secrets: string[] = [];
  /** How long it takes to answer, in milliseconds. */
  delayMs = 0;
  /** The most requests it was working on at once. */
  maxConcurrent = 0;
  private working = 0;
  private server?: Server;
  private port = 0;
  private readonly hanging = new Set<ServerResponse>();

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  /** The deliveries answered 2xx, in arrival order. */
  get accepted(): Received[] {
    return this.received.filter((r) => typeof r.answered === 'number' && r.answered < 300);
  }

  async start(): Promise<this> {
    const server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.hanging.clear();
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.working++;
    this.maxConcurrent = Math.max(this.maxConcurrent, this.working);
    res.on('close', () => this.working--);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const header = (name: string) => String(req.headers[name] ?? '');
    const received: Received = {
      id: header('webhook-id'),
      timestamp: header('webhook-timestamp'),
      signatures: header('webhook-signature').split(' '),
      body,
      changes: [],
      answered: 'nothing',
    };
    this.received.push(received);
    try {
      // The worker's clock may be a test's: the timestamp is checked against itself, the signature for real.
      received.changes = (await verifyWebhook(this.secrets, req.headers, body, { now: () => Number(received.timestamp) * 1000 })).changes;
    } catch {
      this.badSignatures.push(received);
    }
    const mode = this.mode;
    if (mode === 'hang') {
      this.hanging.add(res);
      return;
    }
    if (this.delayMs) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    const status = mode === 'ok' ? 204 : mode === 'fail' ? 500 : 302;
    received.answered = status;
    res.writeHead(status, typeof mode === 'object' ? { location: mode.redirectTo } : {});
    res.end();
  }
}
