// Direct requests, through Node's own http and https agents (keep-alive, four connections per
// origin). Not undici, which carries the proxied ones: its HTTP/1 parser is llhttp compiled to
// WebAssembly, and once a response has been parsed V8 compiles that parser again, optimised, on a
// background thread that Node waits for before the process may exit: 45 to 80 ms at the end of every
// command that talks to the service, more than the rest of `msgstat message` (docs/bench.md). Node's
// own client runs the same llhttp as native code.
import http from "node:http";
import https from "node:https";
import type { Transport, TransportRequest, TransportResponse } from "./exchange.js";

const AGENT = { keepAlive: true, maxSockets: 4 };

export function directTransport(ca: readonly string[] | undefined): Transport {
  let plain: http.Agent | undefined;
  let secure: https.Agent | undefined;
  const agentFor = (url: URL): http.Agent =>
    url.protocol === "https:" ? (secure ??= new https.Agent({ ...AGENT, ...(ca === undefined ? {} : { ca: [...ca] }) })) : (plain ??= new http.Agent(AGENT));
  const end = async () => {
    plain?.destroy();
    secure?.destroy();
  };
  return {
    request: (request) => send(request, agentFor(new URL(request.origin))),
    // Called once every response msgstat wanted has been read: a connection still busy carries a page
    // read ahead that nobody will read, so closing does not wait for it.
    close: end,
    destroy: end,
  };
}

function send({ origin, path, headers, signal }: TransportRequest, agent: http.Agent): Promise<TransportResponse> {
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
    request.on("response", (response) => resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, body: response }));
    request.end();
  });
}
