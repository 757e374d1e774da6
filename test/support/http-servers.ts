// Small servers on 127.0.0.1 for what the sandbox does not model at the HTTP level: a handler that
// answers as the test says (codings, charsets, statuses), or raw bytes node:http will not send. Each
// is closed when the test that started it ends.
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { onTestFinished } from "vitest";

export interface Seen {
  url: string;
  headers: http.IncomingHttpHeaders;
}

export type Handler = (request: http.IncomingMessage, response: http.ServerResponse, n: number) => void;

/** Answers each request with `handler` (`n` counts requests from 1); `seen` lists them in order. */
export async function serveHttp(handler: Handler): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = http.createServer((request, response) => {
    seen.push({ url: request.url!, headers: request.headers });
    handler(request, response, seen.length);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** A server that answers each request with these bytes, and with `close`, then closes the connection. */
export async function serveRaw(
  answer: () => string,
  { close = false } = {},
): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("data", () => {
      requests++;
      if (close) socket.end(answer());
      else socket.write(answer());
    });
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => requests };
}
