// What to try next. The layers below raise typed errors that say only what went wrong; the words
// that name msgstat's options and environment are added here, once, for every command.
import { MsgstatError, ServiceError } from "../../core/errors.js";
import { RequestFailedError } from "../../http/errors.js";

/** The error a wrapper (a paging failure) was made from, down to the first. */
function rootOf(error: MsgstatError): MsgstatError {
  let root = error;
  while (root.cause instanceof MsgstatError) root = root.cause;
  return root;
}

/** Puts the advice for an error's cause before its other hints. */
export function advise(error: MsgstatError): void {
  const root = rootOf(error);
  const advice: string[] = [];
  if (root instanceof ServiceError && (root.status === 401 || root.status === 403)) {
    advice.push("Check the token (msgstat auth status says which is used) or the headers given with -H.");
  }
  if (root instanceof RequestFailedError && root.failure.kind === "timeout") {
    advice.push("Each attempt may take up to --timeout seconds; a slow service may need a larger --timeout.");
  }
  if (root instanceof RequestFailedError && root.failure.kind === "network" && root.failure.code === "ENOTFOUND") {
    advice.push("DNS knows no such host: check the host name in the base URL (--base-url, MSGSTAT_BASE_URL, or the profile's: msgstat config get base-url).");
  }
  error.hints.unshift(...advice);
}
