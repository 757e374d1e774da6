// What a transport is given and gives back: one GET, its response, and the connections behind them.
import type { Readable } from "node:stream";
import type { ProxyRoutes } from "./proxy.js";

export interface TransportOptions {
  proxy?: ProxyRoutes;
  /** The certificates trusted for https://, PEM: the default ones and the user's (undefined: Node's own trust). */
  ca?: readonly string[];
  /**
   * Each request's --timeout: it bounds a proxy's answer to CONNECT (undici's own default is 300 s),
   * and connecting directly is given the smaller of it and 10 s.
   */
  timeoutMs?: number;
}

/** One GET: origin and path apart, so that the path is sent exactly as given (client.ts says why). */
export interface TransportRequest {
  readonly origin: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Ends the request, from connect to last byte. */
  readonly signal: AbortSignal;
}

export interface TransportResponse {
  readonly statusCode: number;
  /** Names in lower case. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Readable;
}

export interface Connections {
  /**
   * Closes every connection, once msgstat has read what it wanted: directly at once (what is still
   * under way is a page read ahead that nobody will read), through a proxy once undici's requests end.
   */
  close(): Promise<void>;
  /** Closes every connection now. */
  destroy(): Promise<void>;
}

export interface Transport extends Connections {
  request(request: TransportRequest): Promise<TransportResponse>;
}
