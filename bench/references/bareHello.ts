// Reference: hello on a bare node:http handler, the practical limit of this machine for
// an authenticated JSON answer (route match by one regex, the bearer check, JSON.stringify).
import { createServer } from 'node:http';
import { bearerCheck, HELLO_PATH, statusOf } from './bearer.js';

const check = bearerCheck();

createServer((req, res) => {
  const match = req.method === 'GET' ? HELLO_PATH.exec(req.url ?? '') : null;
  let status = 404;
  let body: object = { error: 'not_found' };
  if (match) {
    const outcome = check(req.headers.authorization, match[1]!);
    if (outcome === 'ok') [status, body] = [200, { message: `Hello, ${match[1]}!` }];
    else [status, body] = [statusOf[outcome], { error: outcome }];
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}).listen(Number(process.env.PORT), '127.0.0.1');
