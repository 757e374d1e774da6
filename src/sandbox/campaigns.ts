// The campaigns a sandbox serves: a small plan per campaign (sizes, batch ranges, templates,
// clock) from which every message is derived on demand. Nothing here grows with campaign size.
import type { TemplateBody } from "../core/message.js";
import { hashParts, hashText } from "./hash.js";
import { formatTimestamp, utcOffset, type UtcOffset } from "./timestamps.js";
import { TEMPLATES, prepareTemplate, type PreparedTemplate, type TemplateSpec } from "./templates.js";

export interface Person {
  id: string;
  email: string;
}

export interface BatchPlan {
  id: string;
  campaignId: string;
  originalFileName: string;
  /** Campaign indices [start, end) of its members; one uploaded file's messages are contiguous. */
  start: number;
  end: number;
  uploader: Person;
  createdAt: string;
  updatedAt: string;
}

export interface CampaignTemplate extends PreparedTemplate {
  templateBody: TemplateBody;
}

export interface CampaignPlan {
  id: string;
  /** Short name used inside message ids, e.g. `spring`. */
  tag: string;
  size: number;
  seed: number;
  salt: number;
  offset: UtcOffset;
  nowMs: number;
  newestMs: number;
  spanMs: number;
  idWidth: number;
  owner: Person;
  templates: readonly CampaignTemplate[];
  batches: readonly BatchPlan[];
}

interface CampaignBlueprint {
  id: string;
  tag: string;
  offsetMinutes: number;
  sizeFor(messages: number): number;
  templates: TemplateSpec[];
  owner: Person;
  /** Batch ranges as fractions of the campaign, newest first; the oldest is wave 1. */
  batchRanges: [number, number][];
  batchFilePrefix: string;
  uploader: Person;
}

const DAY_MS = 86_400_000;
/** createdAt spans about three weeks so that both `--since 24h` and `--since 7d` cut a campaign. */
const SPAN_MS = 21 * DAY_MS;
/** Share of messages created in the same millisecond as the previous one. */
const TIE_SHARE = 0.03;
const TIE_TAG = hashText("tie");

const BLUEPRINTS: CampaignBlueprint[] = [
  {
    id: "cmp-spring-sale",
    tag: "spring",
    offsetMinutes: 330,
    sizeFor: (messages) => messages,
    templates: [TEMPLATES.saleEnglish, TEMPLATES.saleSpanish, TEMPLATES.orderEnglish],
    owner: { id: "usr-maria-lopez", email: "maria.lopez@example.com" },
    batchRanges: [
      [0.06, 0.18],
      [0.25, 0.41],
      [0.52, 0.58],
      [0.66, 0.88],
    ],
    batchFilePrefix: "spring-sale-wave",
    uploader: { id: "usr-growth-team", email: "growth-team@example.com" },
  },
  {
    id: "cmp-loyalty-es",
    tag: "loyalty",
    offsetMinutes: -240,
    sizeFor: (messages) => Math.round(messages / 5),
    templates: [TEMPLATES.pointsSpanish, TEMPLATES.pointsEnglish],
    owner: { id: "usr-diego-ruiz", email: "diego.ruiz@example.com" },
    batchRanges: [
      [0.1, 0.35],
      [0.6, 0.7],
    ],
    batchFilePrefix: "loyalty-members",
    uploader: { id: "usr-crm-import", email: "crm-import@example.com" },
  },
  {
    id: "cmp-otp-alerts",
    tag: "otp",
    offsetMinutes: 0,
    sizeFor: (messages) => Math.max(3, Math.round(messages / 50)),
    templates: [TEMPLATES.otpEnglish, TEMPLATES.otpHindi],
    owner: { id: "usr-platform-bot", email: "platform-bot@example.com" },
    batchRanges: [],
    batchFilePrefix: "otp",
    uploader: { id: "usr-platform-bot", email: "platform-bot@example.com" },
  },
  {
    id: "cmp-empty",
    tag: "empty",
    offsetMinutes: 540,
    sizeFor: () => 0,
    templates: [TEMPLATES.saleEnglish],
    owner: { id: "usr-maria-lopez", email: "maria.lopez@example.com" },
    batchRanges: [],
    batchFilePrefix: "empty",
    uploader: { id: "usr-maria-lopez", email: "maria.lopez@example.com" },
  },
];

// The generated campaigns (--campaigns N) take these in turn, so they differ in zone and language.
const GENERATED_OFFSETS = [0, 330, -240, 60, 540, -300];
const GENERATED_TEMPLATES: TemplateSpec[][] = [
  [TEMPLATES.saleEnglish, TEMPLATES.orderEnglish],
  [TEMPLATES.pointsSpanish, TEMPLATES.pointsEnglish],
  [TEMPLATES.otpEnglish, TEMPLATES.otpHindi],
  [TEMPLATES.saleSpanish],
];

/**
 * `cmp-many-01` .. : campaigns of `messages` messages each, for the fan-out's tests and benchmark. Each
 * spans the same three weeks from a newest message a few minutes old, so their createdAt interleave.
 */
function generatedBlueprints(count: number): CampaignBlueprint[] {
  const width = Math.max(2, String(count).length);
  return Array.from({ length: count }, (_, i) => {
    const number = String(i + 1).padStart(width, "0");
    const owner = { id: "usr-ops-bot", email: "ops-bot@example.com" };
    return {
      id: `cmp-many-${number}`,
      tag: `many${number}`,
      offsetMinutes: GENERATED_OFFSETS[i % GENERATED_OFFSETS.length]!,
      sizeFor: (messages: number) => messages,
      templates: GENERATED_TEMPLATES[i % GENERATED_TEMPLATES.length]!,
      owner,
      batchRanges: [[0.2, 0.4]],
      batchFilePrefix: `many-${number}-upload`,
      uploader: owner,
    };
  });
}

export function planCampaigns(seed: number, messages: number, nowMs: number, generated = 0): CampaignPlan[] {
  return [...BLUEPRINTS, ...generatedBlueprints(generated)].map((blueprint) =>
    planCampaign(blueprint, seed, messages, nowMs),
  );
}

function planCampaign(blueprint: CampaignBlueprint, seed: number, messages: number, nowMs: number): CampaignPlan {
  const size = Math.max(0, Math.floor(blueprint.sizeFor(messages)));
  const salt = hashText(blueprint.id);
  const offset = utcOffset(blueprint.offsetMinutes);
  // The newest message is one to three minutes old, so "created" messages still look fresh.
  const newestMs = nowMs - 60_000 - (hashParts(seed, salt) % 120_000);
  const plan: CampaignPlan = {
    id: blueprint.id,
    tag: blueprint.tag,
    size,
    seed,
    salt,
    offset,
    nowMs,
    newestMs,
    spanMs: SPAN_MS,
    idWidth: Math.max(7, String(Math.max(0, size - 1)).length),
    owner: blueprint.owner,
    templates: [],
    batches: [],
  };
  plan.templates = blueprint.templates.map((spec, i) => campaignTemplate(plan, spec, i));
  plan.batches = planBatches(plan, blueprint);
  return plan;
}

function campaignTemplate(plan: CampaignPlan, spec: TemplateSpec, position: number): CampaignTemplate {
  const createdMs = plan.newestMs - plan.spanMs - 3 * DAY_MS + position * 3_600_000;
  const stamp = (ms: number) => formatTimestamp(ms, plan.offset);
  const templateBody: TemplateBody = {
    id: `tb-${plan.tag}-${spec.key}`,
    templateId: `tpl-${plan.tag}-${spec.key.split("-")[0]}`,
    language: spec.language,
    body: spec.body,
    creatorId: plan.owner.id,
    createdAt: stamp(createdMs),
    updatedAt: stamp(createdMs + 1_800_000),
  };
  return { ...prepareTemplate(spec), templateBody };
}

function planBatches(plan: CampaignPlan, blueprint: CampaignBlueprint): BatchPlan[] {
  const ranges = blueprint.batchRanges
    .map(([from, to]) => ({ start: Math.floor(from * plan.size), end: Math.floor(to * plan.size) }))
    .filter((range) => range.end > range.start);
  return ranges.map((range, i) => {
    const wave = ranges.length - i;
    // Upload starts just before the oldest member was created and ends just after the newest one.
    const uploadedMs = createdAtMs(plan, range.end - 1) - 30_000;
    const enqueuedMs = Math.min(createdAtMs(plan, range.start) + 5_000, plan.nowMs - 1);
    return {
      id: `bat-${plan.tag}-w${wave}`,
      campaignId: plan.id,
      originalFileName: `${blueprint.batchFilePrefix}-${wave}.csv`,
      start: range.start,
      end: range.end,
      uploader: blueprint.uploader,
      createdAt: formatTimestamp(uploadedMs, plan.offset),
      updatedAt: formatTimestamp(enqueuedMs, plan.offset),
    };
  });
}

/**
 * createdAt of the message at `index` (0 = newest). Non-increasing in index, with a density that
 * varies over the three weeks and a few messages sharing the millisecond of their predecessor.
 */
export function createdAtMs(plan: CampaignPlan, index: number): number {
  const tiedWithPrevious = index > 0 && hashParts(plan.seed, plan.salt, index, TIE_TAG) / 4294967296 < TIE_SHARE;
  return plan.newestMs - ageStep(plan, tiedWithPrevious ? index - 1 : index);
}

function ageStep(plan: CampaignPlan, index: number): number {
  const x = index / Math.max(1, plan.size);
  // A monotonic warp (derivative 1 + 0.6·cos ≥ 0.4) so some days are busier than others.
  const k = 2 * Math.PI * 5;
  const warped = x + (0.6 * Math.sin(k * x)) / k;
  return Math.floor(plan.spanMs * warped);
}

export function batchAt(plan: CampaignPlan, index: number): BatchPlan | undefined {
  return plan.batches.find((batch) => index >= batch.start && index < batch.end);
}
