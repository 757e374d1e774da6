// Direct requests, through Node's own http and https agents (keep-alive, four connections per
// origin). Not undici, which carries the proxied ones: its HTTP/1 parser is llhttp compiled to
// WebAssembly, and once a response has been parsed V8 compiles that parser again, optimised, on a
// background thread that Node waits for before the process may exit: 45 to 80 ms at the end of every
// command that talks to the service, more than the rest of `msgstat message` (docs/bench.md). Node's
// own client runs the same llhttp as native code.
import http from "node:http";
import https from "node:https";
import type { Socket } from "node:net";
import type { Transport, TransportOptions, TransportRequest, TransportResponse } from "./exchange.js";

// An idle connection is closed after this long, before the 5 s after which many servers close theirs
// (Node's own server, for one), so that a request is rarely sent on a connection the server is closing.
// Node's agent keeps one for ever, and does not read a Keep-Alive: timeout hint.
const IDLE_MS = 4_000;
// Connecting is given at most this long (undici's default, which this route had before), so that a
// host that drops the connection attempt is said to be unreachable, and retried, long before --timeout.
export const CONNECT_TIMEOUT_MS = 10_000;

export function directTransport(options: Pick<TransportOptions, "ca" | "timeoutMs"> = {}): Transport {
  const agentOptions = { keepAlive: true, maxSockets: 4, timeout: IDLE_MS };
  let plain: http.Agent | undefined;
  let secure: https.Agent | undefined;
  const agentFor = (url: URL): http.Agent =>
    url.protocol === "https:"
      ? (secure ??= new https.Agent({ ...agentOptions, ...(options.ca === undefined ? {} : { ca: [...options.ca] }) }))
      : (plain ??= new http.Agent(agentOptions));
  const connectMs = Math.min(CONNECT_TIMEOUT_MS, options.timeoutMs ?? CONNECT_TIMEOUT_MS);
  const end = async () => {
    plain?.destroy();
    secure?.destroy();
  };
  return {
    request: (request) => send(request, agentFor(new URL(request.origin)), connectMs),
    // Called once every response msgstat wanted has been read: a connection still busy carries a page
    // read ahead that nobody will read, so this route's close does not wait for it, unlike the proxies'.
    close: end,
    destroy: end,
  };
}

function send(
  { origin, path, headers, signal }: TransportRequest,
  agent: http.Agent,
  connectMs: number,
): Promise<TransportResponse> {
  const url = new URL(origin);
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request({
      protocol: url.protocol,
      // [::1] in a URL, ::1 to connect to.
      hostname: url.hostname.replace(/^\[(.*)\]$/, "$1"),
      port: url.port,
      path,
      method: "GET",
      headers,
      agent,
      signal,
    });
    // Kept for the request's whole life: an error after the response began is the body's too, and
    // one without a listener would end the process.
    request.on("error", reject);
    request.on("socket", (socket: Socket) => {
      if (!socket.connecting) return;
      const seconds = connectMs / 1000;
      const timer = setTimeout(
        () => request.destroy(Object.assign(new Error(`could not connect within ${seconds} s`), { code: "ETIMEDOUT" })),
        connectMs,
      );
      const done = () => clearTimeout(timer);
      socket.once("connect", done);
      request.once("close", done);
    });
    request.on("response", (response) =>
      resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, body: response }),
    );
    request.end();
  });
}
