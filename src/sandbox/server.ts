// The HTTP server: counts and records each request, applies scripted faults, latency, rate limit,
// auth and random failures, then answers from the API and writes the response.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { SandboxApi, errorReply, type JsonReply } from "./api.js";
import { planCampaigns, type CampaignPlan } from "./campaigns.js";
import { CursorCodec } from "./cursor.js";
import { liveCount, planLive, type LivePlan } from "./live.js";
import { Delivery, JSON_TYPE, type Outgoing } from "./delivery.js";
import { chooseCoding } from "./front-end.js";
import { FaultSchedule, type FaultRule } from "./faults.js";
import { hashParts, hashText, normaliseSeed } from "./hash.js";
import { Pauses } from "./pauses.js";
import { TokenBucket } from "./rate-limit.js";
import { isListingRoute, parseTarget, type ParsedTarget } from "./routes.js";
import type { Sandbox, SandboxCampaign, SandboxOptions, SandboxRequest } from "./types.js";

const FAIL_TAG = hashText("fail");
const FAIL_STATUS_TAG = hashText("fail-status");

/** Generated campaigns (--campaigns): enough for any fan-out test or benchmark. */
export const MAX_GENERATED_CAMPAIGNS = 1000;

interface Settings {
  host: string;
  port: number;
  seed: number;
  messages: number;
  campaigns: number;
  nowMs: number;
  token: string | undefined;
  latencyMs: number;
  failRate: number;
  rateLimit: number | undefined;
  clock: () => number;
  compression: boolean;
  bytesPerSecond: number | undefined;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const settings = settle(options);
  const plans = planCampaigns(settings.seed, settings.messages, settings.nowMs, settings.campaigns);
  const live = options.live
    ? planLive(settings.seed, settings.clock(), options.live === true ? {} : options.live)
    : undefined;
  const handler = new RequestHandler(settings, plans, options, live);
  const server = createServer((req, res) => void handler.handle(req, res));
  // Idle keep-alive connections are left for the client to close. With Node's default 5 s timeout the
  // server may close one just as a client reuses it (a client whose event loop was busy, such as a test
  // in this very process, has not yet seen its own idle timer fire), and the request dies with ECONNRESET.
  // Without the timeout no Keep-Alive hint is sent, so clients close idle sockets themselves; close() ends the rest.
  server.keepAliveTimeout = 0;
  await listen(server, settings);
  const address = server.address() as AddressInfo;
  const host = address.address.includes(":") ? `[${address.address}]` : address.address;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= new Promise<void>((resolve) => {
      handler.pauses.cancelAll();
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closing;
  };
  const campaigns = plans.map(describeCampaign);
  if (live) campaigns.push({ id: live.campaign.id, size: liveCount(live, settings.clock()), live: true, batches: [] });
  return { url: `http://${host}:${address.port}`, campaigns, requests: handler.requests, close };
}

function settle(options: SandboxOptions): Settings {
  const clock = options.clock ?? Date.now;
  const now =
    options.now instanceof Date ? options.now.getTime() : (options.now ?? Math.floor(clock() / 60_000) * 60_000);
  const messages = options.messages ?? 5000;
  const failRate = options.failRate ?? 0;
  const campaigns = options.campaigns ?? 0;
  if (!Number.isSafeInteger(campaigns) || campaigns < 0 || campaigns > MAX_GENERATED_CAMPAIGNS)
    throw new RangeError(`campaigns must be a whole number from 0 to ${MAX_GENERATED_CAMPAIGNS}`);
  if (!Number.isFinite(now)) throw new RangeError("now must be a valid time");
  if (!Number.isSafeInteger(messages) || messages < 0) throw new RangeError("messages must be a whole number ≥ 0");
  if (!(failRate >= 0 && failRate <= 1)) throw new RangeError("failRate must be between 0 and 1");
  if (options.rateLimit !== undefined && !(options.rateLimit > 0))
    throw new RangeError("rateLimit must be > 0 requests per second");
  if (options.latencyMs !== undefined && !(options.latencyMs >= 0)) throw new RangeError("latencyMs must be ≥ 0");
  if (options.bandwidth !== undefined && !(options.bandwidth > 0))
    throw new RangeError("bandwidth must be > 0 bytes per second");
  return {
    host: options.host ?? "127.0.0.1",
    port: options.port ?? 0,
    seed: normaliseSeed(options.seed ?? 1),
    messages,
    campaigns,
    nowMs: now,
    token: options.token,
    latencyMs: options.latencyMs ?? 0,
    failRate,
    rateLimit: options.rateLimit,
    clock,
    compression: options.compression ?? true,
    bytesPerSecond: options.bandwidth,
  };
}

function listen(server: ReturnType<typeof createServer>, settings: Settings): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(settings.port, settings.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/** A throwing `transform` (or a sandbox bug) must not take the process down: answer 500 instead. */
function answerInternalError(res: ServerResponse, record: SandboxRequest, error: unknown): void {
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({
    error: "sandbox_error",
    message: error instanceof Error ? error.message : String(error),
  });
  record.status = 500;
  res.writeHead(500, { "Content-Type": JSON_TYPE, "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

function describeCampaign(plan: CampaignPlan): SandboxCampaign {
  return {
    id: plan.id,
    size: plan.size,
    batches: plan.batches.map((batch) => ({
      id: batch.id,
      size: batch.end - batch.start,
      originalFileName: batch.originalFileName,
    })),
  };
}

class RequestHandler {
  readonly requests: SandboxRequest[] = [];
  readonly pauses = new Pauses();
  private readonly api: SandboxApi;
  private readonly schedule: FaultSchedule;
  private readonly bucket: TokenBucket | undefined;
  private lastListingBody: string | Buffer | undefined;
  /** Listing pages as sent, by request target (cachePages). */
  private readonly pages = new Map<string, Outgoing & { body: Buffer }>();
  private readonly liveCampaignId: string | undefined;

  constructor(
    private readonly settings: Settings,
    plans: CampaignPlan[],
    private readonly options: SandboxOptions,
    live: LivePlan | undefined,
  ) {
    this.liveCampaignId = live?.campaign.id;
    this.api = new SandboxApi(plans, new CursorCodec(`msgstat-sandbox:${settings.seed}:${settings.nowMs}`), live);
    this.schedule = new FaultSchedule(options.faults ?? []);
    this.bucket = settings.rateLimit === undefined ? undefined : new TokenBucket(settings.rateLimit, settings.clock());
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const record: SandboxRequest = {
      n: this.requests.length + 1,
      method: req.method ?? "",
      url: req.url ?? "",
      headers: { ...req.headers },
      status: 0,
      receivedAt: Date.now(),
    };
    this.requests.push(record);
    try {
      await this.serve(req, res, record);
    } catch (error) {
      answerInternalError(res, record, error);
    }
  }

  private async serve(req: IncomingMessage, res: ServerResponse, record: SandboxRequest): Promise<void> {
    const target = parseTarget(record.url);
    const isListing = record.method === "GET" && isListingRoute(target.route);
    const fault = this.schedule.take(record.n, record.url, isListing);
    const delivery = new Delivery(res, record, this.pauses, {
      coding: this.settings.compression ? chooseCoding(headerText(req.headers["accept-encoding"])) : undefined,
      bytesPerSecond: this.settings.bytesPerSecond,
    });
    if (this.settings.latencyMs > 0 && !(await this.pauses.wait(this.settings.latencyMs))) return;
    if (fault && (await delivery.replace(fault))) return;
    const refused = this.gate(req, record.n);
    const cacheKey = refused === undefined && this.cacheable(target, isListing, fault) ? record.url : undefined;
    const cached = cacheKey === undefined ? undefined : this.pages.get(cacheKey);
    if (cached) {
      this.lastListingBody = cached.body;
      return delivery.send(cached, fault);
    }
    const reply = refused ?? this.api.answer(target.route, record.method, target.query, this.settings.clock());
    const body = this.serialise(reply, target, record.n, isListing, fault);
    const out = { status: reply.status, headers: { "Content-Type": JSON_TYPE, ...reply.headers }, body };
    if (cacheKey !== undefined && reply.status === 200) this.pages.set(cacheKey, { ...out, body: Buffer.from(body) });
    await delivery.send(out, fault);
  }

  /** A page of a static campaign, asked for without a fault: the same bytes every time (cachePages). */
  private cacheable(target: ParsedTarget, isListing: boolean, fault: FaultRule | undefined): boolean {
    if (!this.options.cachePages || !isListing || fault !== undefined || this.options.transform) return false;
    const route = target.route;
    return !("campaignId" in route) || route.campaignId !== this.liveCampaignId;
  }

  /**
   * Rate limit, then authentication, then random failure: the order a gateway in front of a flaky service applies them.
   */
  private gate(req: IncomingMessage, requestNumber: number): JsonReply | undefined {
    const waitSeconds = this.bucket?.take(this.settings.clock()) ?? 0;
    if (waitSeconds > 0)
      return errorReply(429, "rate_limited", `More than ${this.settings.rateLimit} requests per second.`, {
        "Retry-After": String(waitSeconds),
      });
    const token = this.settings.token;
    if (token !== undefined) {
      const authorization = req.headers.authorization;
      if (authorization === undefined)
        return errorReply(401, "unauthorized", "Missing Authorization: Bearer <token>.", {
          "WWW-Authenticate": "Bearer",
        });
      if (authorization !== `Bearer ${token}`)
        return errorReply(401, "unauthorized", "Invalid bearer token.", {
          "WWW-Authenticate": 'Bearer error="invalid_token"',
        });
    }
    if (hashParts(this.settings.seed, requestNumber, FAIL_TAG) / 4294967296 < this.settings.failRate) {
      return hashParts(this.settings.seed, requestNumber, FAIL_STATUS_TAG) % 2 === 0
        ? errorReply(500, "internal_error", "Injected failure (failRate).")
        : errorReply(503, "service_unavailable", "Injected failure (failRate).");
    }
    return undefined;
  }

  private serialise(
    reply: JsonReply,
    target: ParsedTarget,
    requestNumber: number,
    isListing: boolean,
    fault: FaultRule | undefined,
  ): string | Buffer {
    if (reply.status !== 200) return JSON.stringify(reply.body);
    if (isListing && fault?.kind === "repeat" && this.lastListingBody !== undefined) return this.lastListingBody;
    if (isListing && fault) bendPageData(reply.body, fault, target.query);
    const body = this.options.transform
      ? this.options.transform(reply.body, { path: target.path, query: target.query, n: requestNumber })
      : reply.body;
    const text = JSON.stringify(body) ?? "";
    if (isListing) this.lastListingBody = text;
    return text;
  }
}

/** The loop and no-end-cursor faults: pageData that would make a naive client page forever. */
function bendPageData(body: unknown, fault: FaultRule, query: URLSearchParams): void {
  const pageData = (body as { pageData?: Record<string, unknown> }).pageData;
  if (!pageData) return;
  if (fault.kind === "loop") {
    pageData.hasNextPage = true;
    pageData.endCursor = query.get("after") ?? query.get("before") ?? pageData.startCursor;
  } else if (fault.kind === "no-end-cursor") {
    pageData.hasNextPage = true;
    delete pageData.endCursor;
  }
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(",") : value;
}
