// Reference: hello on stock openapi-backend, as its README wires it: api.handleRequest
// per request, so openapi-backend matches the route itself (its router walks the
// operations on every request), validates, runs the registered security handler (the
// contract's bearerAuth), then calls the operation handler. Same contract and validator
// set-up as the service (server/contract.ts) and the same bearer check; what differs is
// the service's find-my-way routing and direct validation.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Context } from 'openapi-backend';
import { loadContract } from '../../server/contract.js';
import { bearerCheck } from './bearer.js';

const bearer = bearerCheck();
const api = loadContract();

const send = (res: ServerResponse, status: number, body: object) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

type Handler = (c: Context, req: IncomingMessage, res: ServerResponse) => void;

api.registerSecurityHandler('bearerAuth', (c: Context) => bearer.companiesOf(c.request.headers.authorization as string | undefined) ?? false);
api.register({
  hello: ((c, _req, res) => {
    const companyId = c.request.params.companyId as string;
    const companies = c.security.bearerAuth as ReadonlySet<string>;
    if (!companies.has(companyId)) return send(res, 403, { error: 'forbidden' });
    send(res, 200, { message: `Hello, ${companyId}!` });
  }) satisfies Handler,
  unauthorizedHandler: ((_c, _req, res) => send(res, 401, { error: 'invalid_api_key' })) satisfies Handler,
  validationFail: ((_c, _req, res) => send(res, 400, { error: 'invalid_request' })) satisfies Handler,
  notFound: ((_c, _req, res) => send(res, 404, { error: 'not_found' })) satisfies Handler,
  methodNotAllowed: ((_c, _req, res) => send(res, 404, { error: 'not_found' })) satisfies Handler,
  notImplemented: ((_c, _req, res) => send(res, 501, { error: 'not_implemented' })) satisfies Handler,
});

createServer((req, res) => {
  api
    .handleRequest({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers as Record<string, string | string[]> }, req, res)
    .catch((error) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      send(res, 500, { error: 'internal_error' });
    });
}).listen(Number(process.env.PORT), '127.0.0.1');
