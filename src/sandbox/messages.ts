// Builds one message from (seed, campaign, index) alone, in the shape each endpoint returns.
import type { AttemptSummary, Batch, Message, MessageAttempt } from "../core/message.js";
import {
  batchAt,
  createdAtMs,
  type BatchPlan,
  type CampaignPlan,
  type CampaignTemplate,
  type Person,
} from "./campaigns.js";
import { DrawStream, hashParts, hashText } from "./hash.js";
import { HOSTILE_SHARE, HOSTILE_VALUES } from "./hostile-text.js";
import { renderTemplate, valueForPlaceholder, type PreparedTemplate } from "./templates.js";
import { formatTimestamp } from "./timestamps.js";

/** campaign: campaign listing; batch: batch listing; single: the single-message endpoint. */
export type MessageView = "campaign" | "batch" | "single";

export interface AttemptPlan {
  status: "sent" | "success" | "failure";
  createdMs: number;
  sentMs: number;
  updatedMs: number;
  errorType: string | null;
  errorCode: string | null;
  externalAttemptId: string;
  metadata: Record<string, unknown>;
}

const RECIPIENT_TAG = hashText("recipient");
/** Country code and national number length: totals of 11 to 13 digits. */
const COUNTRIES: readonly [string, number][] = [
  ["1", 10],
  ["1", 10],
  ["44", 10],
  ["91", 10],
  ["234", 10],
  ["34", 9],
  ["52", 10],
  ["971", 9],
  ["33", 9],
];
export const ATTEMPT_ERRORS: readonly [string, string][] = [
  ["server_error", "server_unknown_error"],
  ["delivery_error", "delivery_unknown_error"],
  ["delivery_error", "recipient_unavailable"],
];
const CARRIERS = ["movistar", "airtel", "mtn", "vodafone", "telcel", "etisalat"];
const HOUR_MS = 3_600_000;

/** Zero-padded to a fixed width, so id order is index order (ties on createdAt are broken by id). */
function serialOf(plan: CampaignPlan, index: number): string {
  return String(index).padStart(plan.idWidth, "0");
}

export function messageIdFor(plan: CampaignPlan, index: number): string {
  return `msg-${plan.tag}-${serialOf(plan, index)}`;
}

/** The campaign index a message id denotes, or undefined when it is not one of this campaign's ids. */
export function indexOfMessageId(plan: CampaignPlan, id: string): number | undefined {
  const prefix = `msg-${plan.tag}-`;
  if (!id.startsWith(prefix)) return undefined;
  const digits = id.slice(prefix.length);
  if (!/^[0-9]+$/.test(digits)) return undefined;
  const index = Number(digits);
  return index < plan.size && messageIdFor(plan, index) === id ? index : undefined;
}

/** Derived from its own stream so that search can scan recipients without building messages. */
export function recipientFor(plan: CampaignPlan, index: number): string {
  const draw = new DrawStream(hashParts(plan.seed, plan.salt, index, RECIPIENT_TAG));
  const [countryCode, nationalLength] = draw.pick(COUNTRIES);
  return countryCode + String(1 + draw.below(9)) + draw.digits(nationalLength - 1);
}

/** What a message is made of besides its attempts: drawn first from the message's own stream. */
export interface MessageBasics {
  index: number;
  id: string;
  createdMs: number;
  template: CampaignTemplate;
  values: Record<string, string>;
  batch: BatchPlan | undefined;
  creator: Person;
}

export function basicsOf(
  plan: CampaignPlan,
  index: number,
  createdMs: number,
  batch: BatchPlan | undefined,
  draw: DrawStream,
): MessageBasics {
  const template = draw.pick(plan.templates);
  const values = valuesFor(template, draw);
  return {
    index,
    id: messageIdFor(plan, index),
    createdMs,
    template,
    values,
    batch,
    creator: batch ? batch.uploader : plan.owner,
  };
}

export function deriveMessage(plan: CampaignPlan, index: number, view: MessageView): Message {
  const draw = new DrawStream(hashParts(plan.seed, plan.salt, index));
  const createdMs = createdAtMs(plan, index);
  const basics = basicsOf(plan, index, createdMs, batchAt(plan, index), draw);
  const attempts = planAttempts(plan.nowMs - createdMs, createdMs, draw);
  const latest = attempts[attempts.length - 1] as AttemptPlan;
  // A message whose only attempt is still `sent` has not settled yet: it is `created`.
  return assembleMessage(plan, basics, attempts, latest.status === "sent" ? "created" : latest.status, view);
}

/** The message in the shape `view` returns, from its basics, its attempts as they stand, and its status. */
export function assembleMessage(
  plan: CampaignPlan,
  basics: MessageBasics,
  attempts: readonly AttemptPlan[],
  latestStatus: string,
  view: MessageView,
): Message {
  const { index, id, template, values, batch, creator } = basics;
  const stamp = (ms: number) => formatTimestamp(ms, plan.offset);
  // Attempts follow one another, so the last one holds the latest change.
  const updatedMs = attempts[attempts.length - 1]?.updatedMs ?? basics.createdMs;
  const message: Message = {
    id,
    createdAt: stamp(basics.createdMs),
    updatedAt: stamp(updatedMs),
    recipient: recipientFor(plan, index),
    values,
    fullMessage: renderTemplate(template, values),
    latestStatus,
    templateBodyId: template.templateBody.id,
    campaignId: plan.id,
    templateBody: { ...template.templateBody },
    language: template.language,
    creatorEmail: creator.email,
  };
  if (view !== "batch") message.batches = batch ? [batchWithLink(batch, id, message.createdAt)] : [];
  if (view === "single") {
    message.attempts = attempts.map((attempt) => attemptSummary(attempt, stamp)).reverse();
  } else {
    message.messageAttempts = attempts.map((attempt, i) =>
      messageAttempt(attempt, `att-${plan.tag}-${serialOf(plan, index)}-${i + 1}`, id, creator, stamp),
    );
  }
  if (view === "campaign" && batch) message.batchId = batch.id;
  if (view !== "single") message.numAttempts = attempts.length;
  return message;
}

function valuesFor(template: PreparedTemplate, draw: DrawStream): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of template.placeholders) values[name] = valueForPlaceholder(name, draw);
  if (draw.chance(HOSTILE_SHARE)) {
    const target = draw.pick(template.placeholders);
    values[target] = draw.pick(HOSTILE_VALUES);
  }
  return values;
}

/** Recent messages are more often still `created`; older ones have settled, mostly on success. */
function chanceStillCreated(ageMs: number): number {
  return 0.02 + 0.7 * Math.exp(-ageMs / (4 * HOUR_MS));
}

function planAttempts(ageMs: number, createdMs: number, draw: DrawStream): AttemptPlan[] {
  if (draw.chance(chanceStillCreated(ageMs))) return [planAttempt(ageMs, createdMs, 0, 1, "sent", draw)];
  const failed = draw.chance(0.13);
  const count = failed ? 1 + weightedIndex(draw, [60, 25, 15]) : 1 + weightedIndex(draw, [82, 12, 4, 2]);
  const attempts: AttemptPlan[] = [];
  for (let i = 0; i < count; i++) {
    const finalSuccess = !failed && i === count - 1;
    attempts.push(planAttempt(ageMs, createdMs, i, count, finalSuccess ? "success" : "failure", draw));
  }
  return attempts;
}

/** Attempts share the time between the message's creation and now, however recent the message is. */
function planAttempt(
  ageMs: number,
  createdMs: number,
  position: number,
  count: number,
  status: AttemptPlan["status"],
  draw: DrawStream,
): AttemptPlan {
  const slot = Math.floor(Math.max(0, Math.min(30 * 60_000, ageMs - 5_000)) / count);
  const startMs = createdMs + 100 + position * slot + draw.below(Math.max(1, Math.floor(slot / 4)));
  const sentMs = startMs + 20 + draw.below(200);
  const updatedMs = status === "sent" ? sentMs : sentMs + Math.min(Math.floor(slot / 2), 500 + draw.below(20_000));
  const attempt: AttemptPlan = {
    status,
    createdMs: startMs,
    sentMs,
    updatedMs,
    errorType: null,
    errorCode: null,
    externalAttemptId: "",
    metadata: {},
  };
  if (status === "success") {
    attempt.externalAttemptId = externalIdFrom(draw);
    attempt.metadata = carrierMetadata(draw);
  } else if (status === "failure") {
    const [errorType, errorCode] = draw.pick(ATTEMPT_ERRORS);
    attempt.errorType = errorType;
    attempt.errorCode = errorCode;
    // A server error never reached a provider, so there is no external id to report.
    if (errorType === "delivery_error") {
      attempt.externalAttemptId = externalIdFrom(draw);
      attempt.metadata = carrierMetadata(draw);
    }
  }
  return attempt;
}

export function externalIdFrom(draw: DrawStream): string {
  return `ext-${draw.next().toString(36)}${draw.next().toString(36)}`;
}

export function carrierMetadata(draw: DrawStream): Record<string, unknown> {
  return draw.chance(0.5) ? {} : { carrier: draw.pick(CARRIERS), segments: 1 + draw.below(3) };
}

function weightedIndex(draw: DrawStream, weights: readonly number[]): number {
  let roll = draw.below(weights.reduce((sum, w) => sum + w, 0));
  for (let i = 0; i < weights.length; i++) {
    roll -= weights[i] ?? 0;
    if (roll < 0) return i;
  }
  return weights.length - 1;
}

function messageAttempt(
  attempt: AttemptPlan,
  attemptId: string,
  messageId: string,
  creator: Person,
  stamp: (ms: number) => string,
): MessageAttempt {
  return {
    id: attemptId,
    messageId,
    status: attempt.status,
    sentAt: stamp(attempt.sentMs),
    deliveredAt: null,
    createdAt: stamp(attempt.createdMs),
    updatedAt: stamp(attempt.updatedMs),
    externalAttemptId: attempt.externalAttemptId,
    errorType: attempt.errorType,
    errorCode: attempt.errorCode,
    metadata: attempt.metadata,
    creatorId: creator.id,
    creator: { email: creator.email },
  };
}

function attemptSummary(attempt: AttemptPlan, stamp: (ms: number) => string): AttemptSummary {
  const summary: AttemptSummary = { status: attempt.status, createdAt: stamp(attempt.createdMs) };
  if (attempt.errorType !== null && attempt.errorCode !== null)
    summary.error = { type: attempt.errorType, code: attempt.errorCode };
  return summary;
}

function batchWithLink(batch: BatchPlan, messageId: string, messageCreatedAt: string): Batch {
  return {
    id: batch.id,
    originalFileName: batch.originalFileName,
    status: "messages_enqueued",
    campaignId: batch.campaignId,
    creatorId: batch.uploader.id,
    totalMessages: batch.end - batch.start,
    createdAt: batch.createdAt,
    updatedAt: batch.updatedAt,
    BatchMessage: {
      id: `bm-${batch.id.slice(4)}-${messageId.slice(4)}`,
      batchId: batch.id,
      messageId,
      createdAt: messageCreatedAt,
      updatedAt: messageCreatedAt,
    },
  };
}
