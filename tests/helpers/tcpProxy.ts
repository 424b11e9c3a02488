// A TCP proxy in front of PostgreSQL or Redis, to take the dependency away and bring it
// back without touching the real one: `cut` refuses new connections and resets open
// ones (the database is down), `stall` keeps connections open but stops reading from
// them, like a network partition (TCP holds the bytes back; nothing is lost), `restore`
// forwards again on the same port.
import net from 'node:net';

export interface TcpProxy {
  port: number;
  cut(): Promise<void>;
  stall(): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let stalled = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    }
    client.pipe(upstream);
    upstream.pipe(client);
    if (stalled) {
      client.pause();
      upstream.pause();
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  const closeServer = () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
  const resetAll = () => {
    for (const socket of sockets) socket.resetAndDestroy();
  };

  return {
    port,
    async cut() {
      const closed = closeServer();
      resetAll();
      await closed;
    },
    stall() {
      stalled = true;
      for (const socket of sockets) socket.pause();
    },
    async restore() {
      stalled = false;
      for (const socket of sockets) socket.resume();
      if (!server.listening) await listen(port);
    },
    async close() {
      const closed = closeServer();
      resetAll();
      await closed;
    },
  };
}
