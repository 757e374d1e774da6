// msgstat's local stand-in for the delivery-status API (docs/sandbox.md; as a library, docs/dev/sandbox.md).
export { startSandbox } from "./server.js";
export { parseFaultSpec } from "./faults.js";
export type { FaultRule, FaultMatch, FaultAction, FaultKind } from "./faults.js";
export type { Sandbox, SandboxCampaign, SandboxOptions, SandboxRequest } from "./types.js";
export { LIVE_CAMPAIGN_ID, LIVE_BATCH_SIZE } from "./live.js";
export type { LiveOptions } from "./live.js";
export { parseBandwidth } from "./front-end.js";
