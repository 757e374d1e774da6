// What msgstat's bundle gets when src/ imports "undici": the Agent, with the request API mixed into
// the Dispatcher prototype exactly as undici's own index.js does, and none of fetch, WebSocket, the
// mocks, caches and interceptors that index.js also loads: the full index is a large part of the
// start-up of every command that talks to the service (docs/bench.md). scripts/build.mjs checks that
// every name src/ imports from "undici" is exported here.
import Agent from "undici/lib/dispatcher/agent.js";
import Dispatcher from "undici/lib/dispatcher/dispatcher.js";
import api from "undici/lib/api/index.js";

Object.assign(Dispatcher.prototype, api);

export { Agent, Dispatcher };
