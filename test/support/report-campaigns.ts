// Small campaigns for the HTML and Markdown reports' tests, served by test/support/listing-server.ts:
// a few messages whose every piece of server text (campaign id, batch id and file name, error type and
// code, status) can be one of the hostile payloads.
import { HOSTILE_PAYLOADS } from "./hostile-payloads.js";

const at = (minute: number, second = 0) =>
  `2026-11-20T10:${String(minute).padStart(2, "0")}:${String(second).padStart(2, "0")}.000+00:00`;

function attempt(status: string, created: string, updated: string, error?: { type: string; code: string }) {
  return {
    status,
    createdAt: created,
    updatedAt: updated,
    errorType: error?.type ?? null,
    errorCode: error?.code ?? null,
  };
}

/** Three messages: one delivered in a batch, one failed with `error`, one still created. */
export function smallCampaign(
  campaignId: string,
  text: { batchId: string; fileName: string; errorType: string; errorCode: string; status?: string },
) {
  const batch = { id: text.batchId, originalFileName: text.fileName, totalMessages: 2 };
  return [
    {
      id: `${campaignId}-m1`,
      campaignId,
      createdAt: at(5),
      latestStatus: "success",
      numAttempts: 1,
      messageAttempts: [attempt("success", at(5), at(5, 42))],
      batches: [batch],
      batchId: text.batchId,
    },
    {
      id: `${campaignId}-m2`,
      campaignId,
      createdAt: at(4),
      latestStatus: "failure",
      numAttempts: 2,
      messageAttempts: [
        attempt("failure", at(4), at(6), { type: text.errorType, code: text.errorCode }),
        attempt("failure", at(7), at(9, 30), { type: text.errorType, code: text.errorCode }),
      ],
      batches: [batch],
      batchId: text.batchId,
    },
    {
      id: `${campaignId}-m3`,
      campaignId,
      createdAt: at(3),
      latestStatus: text.status ?? "created",
      numAttempts: 1,
      messageAttempts: [attempt("sent", at(3), at(3))],
      batches: [],
    },
  ];
}

/** One campaign per payload, each payload in every server field (the campaign id itself too). */
export function hostileCampaigns(
  payloads: readonly string[] = HOSTILE_PAYLOADS,
): Record<string, ReturnType<typeof smallCampaign>> {
  return Object.fromEntries(
    payloads.map((payload, i) => [
      `${payload}`,
      smallCampaign(payload, {
        batchId: `${payload}#${i}`,
        fileName: `${payload}.csv`,
        errorType: payload,
        errorCode: `${payload}!`,
        status: payload,
      }),
    ]),
  );
}
