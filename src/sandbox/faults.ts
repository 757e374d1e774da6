// Scripted faults: a rule says which requests it hits (by number and/or URL) and what goes wrong.

/** Which requests a rule applies to. With neither field, every request matches. */
export interface FaultMatch {
  /** 1-based number of the request, counting every request the sandbox received. */
  request?: number;
  /** Matched against the raw request target (path and query, as sent): substring or RegExp. */
  path?: string | RegExp;
  /** How many matching requests the rule hits before it retires; unlimited when omitted. */
  times?: number;
}

export type FaultAction =
  /** Any status; the body defaults to a JSON error. */
  | { kind: "status"; status: number; retryAfter?: string; body?: string; contentType?: string }
  /** Destroy the socket without any response. */
  | { kind: "reset" }
  /** Headers (with the full Content-Length) and half the body, then destroy the socket. */
  | { kind: "close-early" }
  /** Hold the response `ms` before anything is sent, or (phase "body") send headers first, then hold the body. */
  | { kind: "stall"; ms: number; phase?: "headers" | "body" }
  /** A well-framed response whose body is the first half of the real one; the connection is then closed. */
  | { kind: "truncate" }
  /** 200, JSON content type, empty body. */
  | { kind: "empty" }
  /** 200 with an HTML page (a captive portal or proxy page). */
  | { kind: "html" }
  /** 200 with a JSON-typed body of `bytes` bytes, streamed. */
  | { kind: "huge"; bytes?: number }
  /** Listing pages only: hasNextPage true and endCursor equal to the cursor the request came with. */
  | { kind: "loop" }
  /** Listing pages only: hasNextPage true and no endCursor. */
  | { kind: "no-end-cursor" }
  /** A redirect (302 unless `status` says otherwise) to a relative path or an absolute URL. */
  | { kind: "redirect"; location: string; status?: number }
  /** Listing pages only: the body the previous listing request got, again. */
  | { kind: "repeat" };

export type FaultRule = FaultMatch & FaultAction;
export type FaultKind = FaultAction["kind"];

/** Faults that only make sense on a successful listing page; they never fire on other requests. */
const LISTING_FAULTS: ReadonlySet<FaultKind> = new Set(["loop", "no-end-cursor", "repeat"]);

export function isListingFault(rule: FaultRule): boolean {
  return LISTING_FAULTS.has(rule.kind);
}

export const DEFAULT_HUGE_BYTES = 32 * 1024 * 1024;
const MAX_SPEC_RANGE = 10_000;

/** Holds the rules and how often each has fired; the first matching live rule wins. */
export class FaultSchedule {
  private readonly fired: number[];

  constructor(private readonly rules: readonly FaultRule[]) {
    this.fired = rules.map(() => 0);
  }

  take(requestNumber: number, target: string, isListing: boolean): FaultRule | undefined {
    const position = this.rules.findIndex(
      (rule, i) => this.isLive(rule, i) && ruleMatches(rule, requestNumber, target, isListing),
    );
    if (position < 0) return undefined;
    this.fired[position] = (this.fired[position] ?? 0) + 1;
    return this.rules[position];
  }

  private isLive(rule: FaultRule, position: number): boolean {
    return rule.times === undefined || (this.fired[position] ?? 0) < rule.times;
  }
}

function ruleMatches(rule: FaultRule, requestNumber: number, target: string, isListing: boolean): boolean {
  if (rule.request !== undefined && rule.request !== requestNumber) return false;
  if (rule.path !== undefined && !(typeof rule.path === "string" ? target.includes(rule.path) : rule.path.test(target)))
    return false;
  return isListing || !isListingFault(rule);
}

/**
 * Parses the CLI form: comma-separated `WHEN:ACTION`. WHEN is a request number (`3`), a range
 * (`3-5`) or `*` (every request). ACTION is a 2xx-5xx status with an optional Retry-After (`503`,
 * `429=2`), `reset`, `close-early`, `stall=MS`, `stall-body=MS`, `truncate`, `empty`, `html`,
 * `huge[=BYTES]` (suffix k or m allowed), `loop`, `no-end-cursor`, `redirect=LOCATION` or
 * `redirect=3XX@LOCATION`, `repeat`.
 */
export function parseFaultSpec(spec: string): FaultRule[] {
  return spec
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "")
    .flatMap(parseFaultItem);
}

function parseFaultItem(item: string): FaultRule[] {
  const colon = item.indexOf(":");
  if (colon < 0) throw new Error(`fault "${item}": expected WHEN:ACTION, e.g. 2:503`);
  const action = parseFaultAction(item.slice(colon + 1).trim(), item);
  const when = item.slice(0, colon).trim();
  return requestNumbersOf(when, item).map((request) =>
    request === undefined ? { ...action } : { request, ...action },
  );
}

function requestNumbersOf(when: string, item: string): (number | undefined)[] {
  if (when === "*") return [undefined];
  const range = /^(\d+)(?:-(\d+))?$/.exec(when);
  if (!range) throw new Error(`fault "${item}": WHEN must be a request number, a range like 3-5, or *`);
  const first = Number(range[1]);
  const last = range[2] === undefined ? first : Number(range[2]);
  if (first < 1 || last < first || last - first >= MAX_SPEC_RANGE)
    throw new Error(`fault "${item}": bad request range`);
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

function parseFaultAction(action: string, item: string): FaultAction {
  const equals = action.indexOf("=");
  const name = equals < 0 ? action : action.slice(0, equals);
  const argument = equals < 0 ? undefined : action.slice(equals + 1);
  const fail = (why: string): never => {
    throw new Error(`fault "${item}": ${why}`);
  };
  if (/^[2-5]\d\d$/.test(name)) {
    return argument === undefined
      ? { kind: "status", status: Number(name) }
      : { kind: "status", status: Number(name), retryAfter: argument };
  }
  switch (name) {
    case "reset":
    case "close-early":
    case "truncate":
    case "empty":
    case "html":
    case "loop":
    case "no-end-cursor":
    case "repeat":
      if (argument !== undefined) fail(`${name} takes no value`);
      return { kind: name };
    case "stall":
    case "stall-body":
      return {
        kind: "stall",
        ms: parseCount(argument ?? fail(`${name} needs a duration in ms, e.g. ${name}=5000`), item, false),
        phase: name === "stall" ? "headers" : "body",
      };
    case "huge":
      return argument === undefined ? { kind: "huge" } : { kind: "huge", bytes: parseCount(argument, item, true) };
    case "redirect":
      return parseRedirect(argument ?? fail("redirect needs a location, e.g. redirect=/elsewhere"));
    default:
      return fail(`unknown action "${name}"`);
  }
}

function parseRedirect(argument: string): FaultAction {
  const withStatus = /^(3\d\d)@(.+)$/.exec(argument);
  if (withStatus) return { kind: "redirect", status: Number(withStatus[1]), location: withStatus[2] ?? "" };
  return { kind: "redirect", location: argument };
}

function parseCount(text: string, item: string, allowSizeUnit: boolean): number {
  const match = (allowSizeUnit ? /^(\d+)([kKmM]?)$/ : /^(\d+)()$/).exec(text);
  if (!match) throw new Error(`fault "${item}": "${text}" is not a whole number`);
  const unit = match[2]?.toLowerCase();
  const scale = unit === "k" ? 1024 : unit === "m" ? 1024 * 1024 : 1;
  return Number(match[1]) * scale;
}
