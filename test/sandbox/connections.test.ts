// Keep-alive on a busy machine. A client in the sandbox's own process (every test) may not run for
// seconds; if the server closed idle connections on a timer of its own, such a client could write its
// next request on a connection the server had just closed and get ECONNRESET. So the server leaves idle
// connections to the client, the only side that knows when it will reuse one.
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { FIXED_NOW } from "./http-helpers.js";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ now: FIXED_NOW, messages: 100 });
});
afterAll(() => sandbox.close());

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
    const connection = await RawConnection.open(sandbox.url);
    try {
      await connection.get("/campaigns/cmp-otp-alerts/messages?limit=1");
      // Waiting out the old server timeout is the point of this test: it sleeps, it does not synchronise.
      await new Promise((resolve) => setTimeout(resolve, 7_000));
      expect(connection.ended).toBe(false);
      const { head, body } = await connection.get("/campaigns/cmp-otp-alerts/messages?limit=2");
      expect(head).toMatch(/^HTTP\/1\.1 200 /);
      expect((JSON.parse(body) as { data: unknown[] }).data).toHaveLength(2);
    } finally {
      connection.socket.destroy();
    }
  });
});
