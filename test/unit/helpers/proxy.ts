/**
 * A real forward proxy (the `proxy` package: CONNECT tunnels and plain proxy requests) with Basic
 * authentication, for tests that go through it. It keeps its own log of every request line and header it
 * received, and maps test host names to 127.0.0.1 the way a corporate proxy resolves internal names.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface TestProxy {
  /** `http://user:password@127.0.0.1:port` */
  urlWithCredentials: string;
  /** `http://127.0.0.1:port` */
  url: string;
  /** One line per request the proxy received: the request line, then every header as `name: value`. */
  log: string[];
  /** Closes every open connection (tunnels included), so a client's next request opens a new one. */
  dropConnections(): void;
  close(): Promise<void>;
}

export async function startProxy(options: {
  user: string;
  password: string;
  /** Host names (without port) the proxy resolves to 127.0.0.1. */
  hosts: string[];
}): Promise<TestProxy> {
  // The package is an ES module; Node 20.19+ loads it from CommonJS as well.
  const { createProxy } = await import('proxy');
  const log: string[] = [];
  const server = createProxy(createServer());
  const expected = `Basic ${Buffer.from(`${options.user}:${options.password}`).toString('base64')}`;
  server.authenticate = (req) => req.headers['proxy-authorization'] === expected;
  const remap = (req: IncomingMessage): void => {
    const headers: string[] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      headers.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
    }
    log.push([`${req.method} ${req.url}`, ...headers].join('\n'));
    for (const host of options.hosts) {
      req.url = (req.url ?? '').split(host).join('127.0.0.1');
    }
  };
  // Before the package's own handlers, which read req.url.
  server.prependListener('connect', remap);
  server.prependListener('request', remap);
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    urlWithCredentials: `http://${encodeURIComponent(options.user)}:${encodeURIComponent(options.password)}@127.0.0.1:${port}`,
    log,
    dropConnections: () => {
      for (const s of sockets) {
        s.destroy();
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) {
          s.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
