// The live campaign (`msgstat sandbox --live`): cmp-live keeps sending. Message k (0 is the first ever
// sent) is created at a time drawn from (seed, k) at the live rate; its attempts, their timing and their
// outcomes are drawn from (seed, k) too. A request sees that plan cut at the clock, so the state at any
// moment is a pure function of the seed, the sandbox's start time and the clock: the same request at
// the same moment gets the same answer, and a test can run the clock at any speed.
import type { Message } from "../core/message.js";
import { planCampaigns, type BatchPlan, type CampaignPlan } from "./campaigns.js";
import { DrawStream, hashParts, hashText } from "./hash.js";
import {
  ATTEMPT_ERRORS,
  assembleMessage,
  basicsOf,
  carrierMetadata,
  externalIdFrom,
  messageIdFor,
  recipientFor,
  type AttemptPlan,
  type MessageView,
} from "./messages.js";
import type { ListingRange } from "./paging.js";
import { formatTimestamp } from "./timestamps.js";

export const LIVE_CAMPAIGN_ID = "cmp-live";
/** Messages per uploaded file: batch j holds messages j·1000 to j·1000 + 999, and exists once its first is sent. */
export const LIVE_BATCH_SIZE = 1000;
/** History already there when the sandbox starts, so a listing has something to show at once. */
const BACKLOG_MS = 10 * 60_000;
/**
 * Listing position of message k is TOP − k: positions grow toward older messages (index order is
 * newest-first order, as for the static campaigns), and a position, hence a cursor, keeps its meaning
 * while new messages arrive above it.
 */
const TOP = 999_999_999;
const CREATED_TAG = hashText("live-created");
const ATTEMPTS_TAG = hashText("live-attempts");

export interface LiveOptions {
  /** New messages per second; default 5. */
  ratePerSecond?: number;
  /** When the live campaign starts sending now; default the sandbox's start time. */
  startMs?: number;
}

export interface LivePlan {
  campaign: CampaignPlan;
  /** When message 0 was created. */
  originMs: number;
  /** Milliseconds between messages on average: 1000 / rate. */
  periodMs: number;
}

/** One attempt as planned: when it starts, when it settles, and how. */
interface PlannedAttempt {
  createdMs: number;
  settledMs: number;
  outcome: "success" | "failure";
  errorType: string | null;
  errorCode: string | null;
  externalAttemptId: string;
  metadata: Record<string, unknown>;
}

export function planLive(seed: number, startMs: number, options: LiveOptions = {}): LivePlan {
  const rate = options.ratePerSecond ?? 5;
  if (!(rate > 0 && rate <= 1000))
    throw new RangeError("the live rate must be above 0 and at most 1000 messages per second");
  const start = options.startMs ?? startMs;
  // The live campaign borrows the OTP campaign's look (templates, owner, offset) under its own id.
  const [otp] = planCampaigns(seed, 0, start).filter((plan) => plan.tag === "otp");
  const campaign: CampaignPlan = {
    ...otp!,
    id: LIVE_CAMPAIGN_ID,
    tag: "live",
    size: 0,
    salt: hashText(LIVE_CAMPAIGN_ID),
    batches: [],
    idWidth: 7,
  };
  campaign.templates = otp!.templates.map((template) => ({
    ...template,
    templateBody: {
      ...template.templateBody,
      id: template.templateBody.id.replace("-otp-", "-live-"),
      templateId: template.templateBody.templateId.replace("-otp", "-live"),
    },
  }));
  return { campaign, originMs: start - BACKLOG_MS, periodMs: 1000 / rate };
}

/** When message k was created: inside its own slot of the period, so creation order is k order. */
export function liveCreatedMs(live: LivePlan, k: number): number {
  const jitter = hashParts(live.campaign.seed, live.campaign.salt, k, CREATED_TAG) / 4294967296;
  return live.originMs + Math.floor((k + jitter) * live.periodMs);
}

/** How many messages exist at `nowMs`. */
export function liveCount(live: LivePlan, nowMs: number): number {
  if (nowMs < live.originMs) return 0;
  const whole = Math.floor((nowMs - live.originMs) / live.periodMs);
  return whole + (liveCreatedMs(live, whole) <= nowMs ? 1 : 0);
}

export const liveIndexOf = (k: number) => TOP - k;
export const liveSerialOf = (index: number) => TOP - index;

/** The listing's positions at `nowMs`: the whole campaign, or one batch's messages sent so far. */
export function liveRange(live: LivePlan, nowMs: number, batch?: BatchPlan): ListingRange {
  const count = liveCount(live, nowMs);
  const first = batch ? batch.start : 0;
  const end = Math.min(count, batch ? batch.end : count);
  if (end <= first) return { start: TOP + 1, end: TOP + 1 };
  return { start: liveIndexOf(end - 1), end: liveIndexOf(first) + 1 };
}

function liveBatch(live: LivePlan, j: number): BatchPlan {
  const start = j * LIVE_BATCH_SIZE;
  const uploadedMs = liveCreatedMs(live, start) - 30_000;
  return {
    id: `bat-live-${j + 1}`,
    campaignId: LIVE_CAMPAIGN_ID,
    originalFileName: `live-upload-${j + 1}.csv`,
    start,
    end: start + LIVE_BATCH_SIZE,
    uploader: live.campaign.owner,
    createdAt: formatTimestamp(uploadedMs, live.campaign.offset),
    updatedAt: formatTimestamp(uploadedMs + 5_000, live.campaign.offset),
  };
}

/** The batches that exist at `nowMs`, newest first. */
export function liveBatches(live: LivePlan, nowMs: number): BatchPlan[] {
  const count = liveCount(live, nowMs);
  const batches: BatchPlan[] = [];
  for (let j = Math.ceil(count / LIVE_BATCH_SIZE) - 1; j >= 0; j--) batches.push(liveBatch(live, j));
  return batches;
}

export function liveBatchById(live: LivePlan, id: string, nowMs: number): BatchPlan | undefined {
  const match = /^bat-live-([1-9][0-9]*)$/.exec(id);
  if (!match) return undefined;
  const j = Number(match[1]) - 1;
  return j * LIVE_BATCH_SIZE < liveCount(live, nowMs) ? liveBatch(live, j) : undefined;
}

/**
 * Every attempt message k will ever make. The first starts when the message is created and settles a
 * few seconds later; a failure is tried again, up to three attempts in all, after a short pause.
 */
function plannedAttempts(live: LivePlan, k: number, createdMs: number): PlannedAttempt[] {
  const draw = new DrawStream(hashParts(live.campaign.seed, live.campaign.salt, k, ATTEMPTS_TAG));
  const attempts: PlannedAttempt[] = [];
  let startMs = createdMs;
  for (let i = 0; i < 3; i++) {
    const settledMs = startMs + 2_000 + draw.below(6_000);
    if (!draw.chance(i === 0 ? 0.2 : 0.45)) {
      attempts.push({
        createdMs: startMs,
        settledMs,
        outcome: "success",
        errorType: null,
        errorCode: null,
        externalAttemptId: externalIdFrom(draw),
        metadata: carrierMetadata(draw),
      });
      break;
    }
    const [errorType, errorCode] = draw.pick(ATTEMPT_ERRORS);
    const reachedProvider = errorType === "delivery_error";
    attempts.push({
      createdMs: startMs,
      settledMs,
      outcome: "failure",
      errorType,
      errorCode,
      externalAttemptId: reachedProvider ? externalIdFrom(draw) : "",
      metadata: reachedProvider ? carrierMetadata(draw) : {},
    });
    if (i === 2 || !draw.chance(0.55)) break;
    startMs = settledMs + 1_500 + draw.below(3_500);
  }
  return attempts;
}

/** The attempts as they stand at `nowMs`: started ones only, `sent` until they settle. */
function attemptsAt(planned: readonly PlannedAttempt[], nowMs: number): AttemptPlan[] {
  return planned
    .filter((attempt) => attempt.createdMs <= nowMs)
    .map((attempt) => {
      const settled = attempt.settledMs <= nowMs;
      return {
        status: settled ? attempt.outcome : "sent",
        createdMs: attempt.createdMs,
        sentMs: attempt.createdMs,
        updatedMs: settled ? attempt.settledMs : attempt.createdMs,
        errorType: settled ? attempt.errorType : null,
        errorCode: settled ? attempt.errorCode : null,
        externalAttemptId: settled ? attempt.externalAttemptId : "",
        metadata: settled ? attempt.metadata : {},
      };
    });
}

/**
 * Message k as it stands at `nowMs`. Its latestStatus stays `created` while an attempt is under way or
 * another is still to come, and becomes `success` or `failure` once the last attempt settles: a final
 * status never changes again.
 */
export function liveMessage(live: LivePlan, k: number, view: MessageView, nowMs: number): Message {
  const { campaign } = live;
  const createdMs = liveCreatedMs(live, k);
  const batch = liveBatch(live, Math.floor(k / LIVE_BATCH_SIZE));
  const basics = basicsOf(campaign, k, createdMs, batch, new DrawStream(hashParts(campaign.seed, campaign.salt, k)));
  const planned = plannedAttempts(live, k, createdMs);
  const last = planned[planned.length - 1]!;
  const latestStatus = last.settledMs <= nowMs ? last.outcome : "created";
  return assembleMessage(campaign, basics, attemptsAt(planned, nowMs), latestStatus, view);
}

/** Message k's id, and back: undefined for an id that is not one of the messages sent by `nowMs`. */
export const liveMessageId = (live: LivePlan, k: number) => messageIdFor(live.campaign, k);

export function liveSerialOfId(live: LivePlan, id: string, nowMs: number): number | undefined {
  const match = /^msg-live-([0-9]{7,})$/.exec(id);
  if (!match) return undefined;
  const k = Number(match[1]);
  return Number.isSafeInteger(k) && k < liveCount(live, nowMs) && liveMessageId(live, k) === id ? k : undefined;
}

export const liveRecipient = (live: LivePlan, k: number) => recipientFor(live.campaign, k);
