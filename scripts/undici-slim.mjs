// What msgstat's bundle gets when src/ imports "undici" (src/http/proxy-transport.ts, loaded for a
// request through a proxy): the ProxyAgent and its Pool, with the request API mixed into the
// Dispatcher prototype exactly as undici's own index.js does, and none of fetch, WebSocket, the
// mocks, caches and interceptors that index.js also loads (docs/bench.md, "What was changed").
// These are undici's private files, so undici is pinned to an exact version in package.json, and
// `npm test` runs the CLI suites against the built bundle (vitest project "bundle"): an upgrade that
// moves or changes them fails there. scripts/build.mjs checks that every name src/ imports from
// "undici" is exported here; another part of undici (a proxy agent, an interceptor) is one more line.
import Dispatcher from "undici/lib/dispatcher/dispatcher.js";
import Pool from "undici/lib/dispatcher/pool.js";
import ProxyAgent from "undici/lib/dispatcher/proxy-agent.js";
import api from "undici/lib/api/index.js";

Object.assign(Dispatcher.prototype, api);

export { Dispatcher, Pool, ProxyAgent };
