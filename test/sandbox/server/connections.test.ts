// Keep-alive on a busy machine. A client in the sandbox's own process (every test) may not run for
// seconds; if the server closed idle connections on a timer of its own, such a client could write its
// next request on a connection the server had just closed and get ECONNRESET. So the server leaves idle
// connections to the client, the only side that knows when it will reuse one.
// Whether the server would close an idle connection is read from the idle timer Node puts on the
// server's side of it after each response, rather than by waiting out Node's default of 5 s.
import { createServer, type Server } from "node:http";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startSandbox, type Sandbox } from "../../../src/sandbox/index.js";
import { FIXED_NOW } from "../http-helpers.js";

/** The servers node:http made in this file (the sandbox's among them), to reach their side of a connection. */
const servers = vi.hoisted(() => [] as Server[]);
vi.mock("node:http", async (original) => {
  const http = await original<typeof import("node:http")>();
  const make = ((...args: Parameters<typeof http.createServer>) => {
    const server = http.createServer(...args);
    servers.push(server);
    return server;
  }) as typeof http.createServer;
  return { ...http, default: { ...http, createServer: make }, createServer: make };
});

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ now: FIXED_NOW, messages: 100 });
});
afterAll(() => sandbox.close());

/** The server's side of a connection `client` opened to a tracked server, once the server has accepted it. */
async function serverSide(server: Server, client: Socket): Promise<Socket> {
  for (;;) {
    const found = accepted.get(server)!.find((socket) => socket.remotePort === client.localPort);
    if (found) return found;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Each tracked server's accepted connections. */
const accepted = new Map<Server, Socket[]>();
function track(server: Server): void {
  if (accepted.has(server)) return;
  const sockets: Socket[] = [];
  accepted.set(server, sockets);
  server.on("connection", (socket: Socket) => sockets.push(socket));
}

/** A raw keep-alive connection that reads one response at a time and notes whether the server ended it. */
class RawConnection {
  ended = false;
  private received = Buffer.alloc(0);
  private waiting: (() => void) | undefined;

  private constructor(readonly socket: Socket) {
    socket.on("data", (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      this.waiting?.();
    });
    socket.on("end", () => {
      this.ended = true;
      this.waiting?.();
    });
  }

  static open(url: string): Promise<RawConnection> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => resolve(new RawConnection(socket)));
      socket.once("error", reject);
    });
  }

  /** Sends a GET and resolves with the response's head and body once Content-Length bytes arrived. */
  async get(path: string): Promise<{ head: string; body: string }> {
    this.socket.write(`GET ${path} HTTP/1.1\r\nHost: sandbox\r\nConnection: keep-alive\r\n\r\n`);
    for (;;) {
      const split = this.received.indexOf("\r\n\r\n");
      if (split >= 0) {
        const head = this.received.subarray(0, split).toString("latin1");
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1]);
        if (this.received.length >= split + 4 + length) {
          const body = this.received.subarray(split + 4, split + 4 + length).toString("utf8");
          this.received = this.received.subarray(split + 4 + length);
          return { head, body };
        }
      }
      if (this.ended) throw new Error("the server ended the connection");
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }
}

describe("keep-alive", () => {
  it("sends no idle timeout hint, so clients close idle connections themselves", async () => {
    const connection = await RawConnection.open(sandbox.url);
    try {
      const { head } = await connection.get("/campaigns/cmp-otp-alerts/messages?limit=1");
      expect(head).toMatch(/^HTTP\/1\.1 200 /);
      expect(head).toMatch(/\r\nconnection: keep-alive/i);
      expect(head).not.toMatch(/\r\nkeep-alive:/i);
    } finally {
      connection.socket.destroy();
    }
  });

  it("keeps an idle connection open past Node's default (5 s, closed at about 6 s) and answers on it", async () => {
    const sandboxServer = servers.find((server) => server.listening && sandbox.url.endsWith(`:${port(server)}`));
    expect(sandboxServer).toBeDefined();
    track(sandboxServer!);
    const connection = await RawConnection.open(sandbox.url);
    try {
      const accepted = serverSide(sandboxServer!, connection.socket);
      await connection.get("/campaigns/cmp-otp-alerts/messages?limit=1");
      // After a response Node arms an idle timer of keepAliveTimeout (+1 s) on the server's side, and
      // closes the connection when it fires; the sandbox's side has none, so it never closes it.
      expect((await accepted).timeout ?? 0).toBe(0);
      expect(connection.ended).toBe(false);
      const { head, body } = await connection.get("/campaigns/cmp-otp-alerts/messages?limit=2");
      expect(head).toMatch(/^HTTP\/1\.1 200 /);
      expect((JSON.parse(body) as { data: unknown[] }).data).toHaveLength(2);
      expect((await accepted).timeout ?? 0).toBe(0);
    } finally {
      connection.socket.destroy();
    }
  });

  it("(the check above can fail: a server with Node's defaults arms that timer, about 6 s)", async () => {
    const plain = createServer((_req, res) => res.end("{}"));
    track(plain);
    await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
    const connection = await RawConnection.open(`http://127.0.0.1:${port(plain)}`);
    try {
      const accepted = serverSide(plain, connection.socket);
      await connection.get("/");
      expect((await accepted).timeout).toBeGreaterThanOrEqual(5_000);
    } finally {
      connection.socket.destroy();
      plain.closeAllConnections();
      await new Promise((resolve) => plain.close(resolve));
    }
  });
});

function port(server: Server): number {
  const address = server.address();
  return typeof address === "object" && address !== null ? address.port : -1;
}
