// Reference: hello on stock openapi-backend, as its README wires it: api.handleRequest
// per request, so openapi-backend matches the route itself (its router walks the
// operations on every request) and validates, then calls the registered handler. Same
// contract and validator set-up as the service (server/contract.ts), same bearer check;
// the difference measured is the service's find-my-way routing and direct validation.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Context } from 'openapi-backend';
import { loadContract } from '../../server/contract.js';
import { bearerChecker, statusOf } from './bearer.js';

const check = bearerChecker();
const api = loadContract();

const send = (res: ServerResponse, status: number, body: object) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

api.register({
  hello: (c: Context, _req: IncomingMessage, res: ServerResponse) => {
    const companyId = c.request.params.companyId as string;
    const outcome = check(c.request.headers.authorization as string | undefined, companyId);
    if (outcome !== 'ok') return send(res, statusOf[outcome], { error: outcome });
    send(res, 200, { message: `Hello, ${companyId}!` });
  },
  validationFail: (_c: Context, _req: IncomingMessage, res: ServerResponse) => send(res, 400, { error: 'invalid_request' }),
  notFound: (_c: Context, _req: IncomingMessage, res: ServerResponse) => send(res, 404, { error: 'not_found' }),
  methodNotAllowed: (_c: Context, _req: IncomingMessage, res: ServerResponse) => send(res, 404, { error: 'not_found' }),
  notImplemented: (_c: Context, _req: IncomingMessage, res: ServerResponse) => send(res, 501, { error: 'not_implemented' }),
});

createServer((req, res) => {
  api.handleRequest({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers as Record<string, string | string[]> }, req, res).catch(() => send(res, 500, { error: 'internal_error' }));
}).listen(Number(process.env.PORT), '127.0.0.1');
