// One `prism proxy` costs seconds to start and ~150 MB, and it has a single upstream. So the
// conformance test puts this pass-through switch behind one proxy: the `x-test-upstream`
// request header picks which real server (or deliberately broken responder) answers. It
// forwards method, path, headers and body unchanged and streams the answer back as it is.
// Targets are looked up per request, so a test may fill them in after the switch started.
import { createServer, request as httpRequest, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

export const upstreamHeader = 'x-test-upstream';

export async function startUpstreamSwitch(
  targets: Record<string, string | RequestListener>,
  fallback: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const name = (req.headers[upstreamHeader] as string | undefined) ?? fallback;
    const target = targets[name];
    if (!target) {
      res.writeHead(502, { 'content-type': 'text/plain' }).end(`no upstream named ${name}`);
      return;
    }
    if (typeof target === 'function') return target(req, res);
    const { [upstreamHeader]: _, host: __, ...headers } = req.headers;
    const upstream = new URL(target);
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.rawHeaders);
      answer.pipe(res);
    });
    forward.on('error', (error) => res.destroy(error));
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
