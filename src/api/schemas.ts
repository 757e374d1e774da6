// The shapes of the delivery-status API (../shared/api-reference.md), in two layers:
// - `wire` types: everything the reference shows, used by the sandbox to build responses;
// - zod schemas: only what msgstat relies on. Objects are loose (unknown keys pass through) and
//   fields whose presence the reference does not promise are optional, so a newer server still reads.
import { z } from "zod";

export type Timestamp = string;

export interface TemplateBody {
  id: string;
  templateId: string;
  language: string;
  body: string;
  creatorId: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface BatchMessageLink {
  id: string;
  batchId: string;
  messageId: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface Batch {
  id: string;
  originalFileName: string;
  status: string;
  campaignId: string;
  creatorId: string;
  totalMessages: number;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  BatchMessage: BatchMessageLink;
}

export interface MessageAttempt {
  id: string;
  messageId: string;
  status: string;
  sentAt: Timestamp;
  deliveredAt: Timestamp | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  externalAttemptId: string;
  errorType: string | null;
  errorCode: string | null;
  metadata: Record<string, unknown>;
  creatorId: string;
  creator: { email: string };
}

export interface AttemptSummary {
  status: string;
  createdAt: Timestamp;
  error?: { type: string; code: string };
}

export interface Message {
  id: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  recipient: string;
  values: Record<string, string>;
  fullMessage: string;
  latestStatus: string;
  templateBodyId: string;
  campaignId: string;
  templateBody: TemplateBody;
  batches?: Batch[];
  messageAttempts?: MessageAttempt[];
  attempts?: AttemptSummary[];
  language: string;
  batchId?: string;
  creatorEmail: string;
  numAttempts?: number;
}

export interface PageData {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor?: string;
  endCursor?: string;
}

export interface MessagePage {
  data: Message[];
  pageData: PageData;
}

/** Statuses the reference shows; others are accepted and passed through. */
export const KNOWN_MESSAGE_STATUSES = ["created", "success", "failure"] as const;

const attemptSchema = z.looseObject({
  status: z.string().optional(),
  createdAt: z.string().optional(),
  errorType: z.string().nullable().optional(),
  errorCode: z.string().nullable().optional(),
});

const attemptSummarySchema = z.looseObject({
  status: z.string().optional(),
  createdAt: z.string().optional(),
  error: z.looseObject({ type: z.string().optional(), code: z.string().optional() }).nullable().optional(),
});

const batchSchema = z.looseObject({
  id: z.string(),
  originalFileName: z.string().optional(),
});

/** A message as msgstat reads it: an id, and the fields it filters and renders, when present. */
export const messageSchema = z.looseObject({
  id: z.string(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  recipient: z.string().optional(),
  latestStatus: z.string().optional(),
  fullMessage: z.string().optional(),
  campaignId: z.string().optional(),
  batchId: z.string().optional(),
  numAttempts: z.number().optional(),
  values: z.record(z.string(), z.unknown()).optional(),
  templateBody: z.looseObject({ body: z.string().optional() }).optional(),
  batches: z.array(batchSchema).optional(),
  messageAttempts: z.array(attemptSchema).optional(),
  attempts: z.array(attemptSummarySchema).optional(),
});

export const pageDataSchema = z.looseObject({
  hasNextPage: z.boolean(),
  hasPreviousPage: z.boolean().optional(),
  startCursor: z.string().nullable().optional(),
  endCursor: z.string().nullable().optional(),
});

export const messagePageSchema = z.looseObject({
  data: z.array(messageSchema),
  pageData: pageDataSchema,
});

export type CheckedMessage = z.infer<typeof messageSchema>;
export type CheckedPage = z.infer<typeof messagePageSchema>;
