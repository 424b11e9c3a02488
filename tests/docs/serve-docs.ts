// A plain node:http server around the docs responder, for the browser test: the real
// server wires the same responder; this keeps the test independent of the rest of it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDocsResponder } from '../../server/http/docs.js';

export async function serveDocs(options: { draftsEnabled: boolean }): Promise<{ origin: string; close: () => Promise<void> }> {
  const respond = createDocsResponder(options);
  const server: Server = createServer((req, res) => {
    const answer = req.method === 'GET' ? respond(req.url ?? '/') : undefined;
    if (!answer) {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":"not_found"}');
      return;
    }
    res.writeHead(answer.status, { 'Content-Type': answer.contentType, ...answer.headers }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
