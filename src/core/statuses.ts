// Status values the reference shows. It lists them as "values seen", not as the full set: any other
// value is passed through and shown as it is (msgstat never drops a message for an unknown status).

/** Message.latestStatus values seen in the reference. */
export const MESSAGE_STATUSES = ["created", "success", "failure"] as const;

/** MessageAttempt.status values seen in the reference (`sent` is an attempt still under way). */
export const ATTEMPT_STATUSES = ["sent", "success", "failure"] as const;

/** MessageAttempt.errorCode values seen in the reference (others are shown as they come). */
export const ERROR_CODES = ["recipient_unavailable", "server_unknown_error", "delivery_unknown_error"] as const;

/** The statuses after which nothing more happens to a message; `created` and unknown ones may still change. */
export const FINAL_STATUSES: ReadonlySet<string> = new Set(["success", "failure"]);

export function isFinalStatus(status: string | undefined): boolean {
  return status !== undefined && FINAL_STATUSES.has(status);
}
