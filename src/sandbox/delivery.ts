// Writing a response to the socket, faithfully or in one of the scripted broken ways.
import type { ServerResponse } from "node:http";
import { DEFAULT_HUGE_BYTES, type FaultRule } from "./faults.js";
import { encodeBody, PACE_CHUNK, type ContentCoding } from "./front-end.js";
import type { Pauses } from "./pauses.js";
import type { SandboxRequest } from "./types.js";

export const JSON_TYPE = "application/json; charset=utf-8";
const HTML_TYPE = "text/html; charset=utf-8";
const HUGE_CHUNK = Buffer.alloc(64 * 1024, "x");

export interface Outgoing {
  status: number;
  headers: Record<string, string>;
  /** Text, sent as UTF-8, or bytes as they are. */
  body: string | Buffer;
}

/** How the front end treats this response: the coding the client accepted, and the link's speed. */
export interface FrontEnd {
  coding?: ContentCoding;
  /** Bytes per second of the simulated link; undefined for loopback speed. */
  bytesPerSecond?: number;
}

export class Delivery {
  constructor(
    private readonly res: ServerResponse,
    private readonly record: SandboxRequest,
    private readonly pauses: Pauses,
    private readonly frontEnd: FrontEnd = {},
  ) {}

  private writeHead(status: number, headers: Record<string, string | number>): void {
    this.record.status = status;
    this.res.writeHead(status, headers);
  }

  /**
   * Sends `out` intact (compressed when the client asked, paced to the link), or broken as `fault`
   * says (stall, truncate, close-early); other faults send it intact. A broken one breaks the bytes
   * on the wire, compressed or not, as a failing front end would.
   */
  async send(out: Outgoing, fault: FaultRule | undefined): Promise<void> {
    if (this.res.destroyed) return;
    const plain = typeof out.body === "string" ? Buffer.from(out.body, "utf8") : out.body;
    const { coding } = this.frontEnd;
    const bytes = coding ? encodeBody(plain, coding) : plain;
    const headers: Record<string, string | number> = {
      ...out.headers,
      "Content-Length": bytes.length,
      Vary: "Accept-Encoding",
    };
    if (coding) headers["Content-Encoding"] = coding;
    switch (fault?.kind) {
      case "stall":
        return fault.phase === "body"
          ? this.stallBody(out.status, headers, bytes, fault.ms)
          : this.stallHeaders(out, fault.ms);
      case "truncate":
        return this.truncate(out.status, headers, bytes);
      case "close-early":
        return this.closeEarly(out.status, headers, bytes);
      default:
        this.writeHead(out.status, headers);
        await this.writePaced(bytes);
    }
  }

  /** The body at the link's speed: PACE_CHUNK at a time, each when the link would have carried it. */
  private async writePaced(bytes: Buffer): Promise<void> {
    const rate = this.frontEnd.bytesPerSecond;
    if (rate === undefined) {
      this.res.end(bytes);
      return;
    }
    const started = Date.now();
    for (let sent = 0; sent < bytes.length && !this.res.destroyed;) {
      const chunk = bytes.subarray(sent, sent + PACE_CHUNK);
      sent += chunk.length;
      if (!this.res.write(chunk)) await drainedOrClosed(this.res);
      const due = started + (sent / rate) * 1000 - Date.now();
      if (due > 0 && !(await this.pauses.wait(due))) return;
    }
    if (!this.res.destroyed) this.res.end();
  }

  /** Handles the faults that replace the response entirely; false when `fault` is not one of them. */
  async replace(fault: FaultRule): Promise<boolean> {
    switch (fault.kind) {
      case "reset":
        this.res.destroy();
        return true;
      case "status":
        this.sendStatusFault(fault.status, fault.retryAfter, fault.body, fault.contentType);
        return true;
      case "empty":
        this.writeHead(200, { "Content-Type": JSON_TYPE, "Content-Length": 0 });
        this.res.end();
        return true;
      case "html":
        this.sendText(200, HTML_TYPE, PORTAL_PAGE, {});
        return true;
      case "huge":
        await this.streamHuge(fault.bytes ?? DEFAULT_HUGE_BYTES);
        return true;
      case "redirect":
        this.sendText(
          fault.status ?? 302,
          JSON_TYPE,
          JSON.stringify({ error: "moved", message: `See ${fault.location}` }),
          { Location: fault.location },
        );
        return true;
      default:
        return false;
    }
  }

  private sendStatusFault(
    status: number,
    retryAfter: string | undefined,
    body: string | undefined,
    contentType: string | undefined,
  ): void {
    const extra: Record<string, string> = retryAfter === undefined ? {} : { "Retry-After": retryAfter };
    // These statuses never carry a body on the wire.
    if (status === 204 || status === 304) {
      this.writeHead(status, extra);
      this.res.end();
      return;
    }
    const text = body ?? JSON.stringify({ error: "injected_fault", message: `Injected fault: status ${status}.` });
    this.sendText(status, contentType ?? JSON_TYPE, text, extra);
  }

  private sendText(status: number, contentType: string, text: string, extra: Record<string, string>): void {
    const bytes = Buffer.from(text, "utf8");
    this.writeHead(status, { "Content-Type": contentType, "Content-Length": bytes.length, ...extra });
    this.res.end(bytes);
  }

  private async stallHeaders(out: Outgoing, ms: number): Promise<void> {
    if (!(await this.pauses.wait(ms))) return;
    await this.send(out, undefined);
  }

  private async stallBody(
    status: number,
    headers: Record<string, string | number>,
    bytes: Buffer,
    ms: number,
  ): Promise<void> {
    this.writeHead(status, headers);
    this.res.flushHeaders();
    if (!(await this.pauses.wait(ms)) || this.res.destroyed) return;
    await this.writePaced(bytes);
  }

  /** Chunked framing ends cleanly, so the client sees a complete response holding half a JSON document. */
  private truncate(status: number, headers: Record<string, string | number>, bytes: Buffer): void {
    const { "Content-Length": _length, ...rest } = headers;
    this.writeHead(status, { ...rest, Connection: "close" });
    this.res.end(bytes.subarray(0, Math.floor(bytes.length / 2)));
  }

  /** Content-Length promises the whole body; the socket dies after half of it. */
  private closeEarly(status: number, headers: Record<string, string | number>, bytes: Buffer): void {
    this.writeHead(status, headers);
    this.res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => this.res.destroy());
  }

  private async streamHuge(size: number): Promise<void> {
    const opening = Buffer.from('{"padding":"');
    const closing = Buffer.from('"}');
    this.writeHead(200, { "Content-Type": JSON_TYPE, "Content-Length": size });
    const framed = size >= opening.length + closing.length;
    let remaining = framed ? size - opening.length - closing.length : size;
    if (framed) this.res.write(opening);
    while (remaining > 0 && !this.res.destroyed) {
      const chunk = HUGE_CHUNK.subarray(0, Math.min(remaining, HUGE_CHUNK.length));
      remaining -= chunk.length;
      if (!this.res.write(chunk)) await drainedOrClosed(this.res);
    }
    if (!this.res.destroyed) this.res.end(framed ? closing : undefined);
  }
}

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

const PORTAL_PAGE = `<!DOCTYPE html>
<html><head><title>Sign in to continue</title></head>
<body><h1>Network login required</h1><p>Please accept the terms of use to access the Internet.</p></body></html>
`;
