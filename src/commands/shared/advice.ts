// What to try next. The layers below raise typed errors that say only what went wrong; the words
// that name msgstat's options and environment are added here, once, for every command.
import { MsgstatError, ServiceError } from "../../core/errors.js";
import { certificateProblem, isNotTls, RequestFailedError, type Failure } from "../../http/errors.js";
import type { Credentials } from "./client-config.js";

/** The error a wrapper (a paging failure) was made from, down to the first. */
function rootOf(error: MsgstatError): MsgstatError {
  let root = error;
  while (root.cause instanceof MsgstatError) root = root.cause;
  return root;
}

/** When running the same command again can work: once what failed (the service, or the proxy before it) answers. */
export function runAgainOnce(error: MsgstatError): string {
  const root = rootOf(error);
  const proxy =
    root instanceof RequestFailedError && root.failure.kind === "network" && root.failure.proxy?.unreachable
      ? root.failure.proxy.name
      : undefined;
  return proxy === undefined
    ? "Run the same command again once the service recovers."
    : `Run the same command again once the proxy ${proxy} can be reached.`;
}

/** Puts the advice for an error's cause before its other hints; `sent` is what the requests carried. */
export function advise(error: MsgstatError, sent?: Credentials): void {
  const root = rootOf(error);
  const advice: string[] = [];
  if (root instanceof ServiceError && (root.status === 401 || root.status === 403)) advice.push(authAdvice(sent));
  if (root instanceof RequestFailedError && root.failure.kind === "timeout") {
    advice.push("Each attempt may take up to --timeout seconds; a slow service may need a larger --timeout.");
  }
  if (
    root instanceof RequestFailedError &&
    root.failure.kind === "network" &&
    root.failure.code === "ENOTFOUND" &&
    root.failure.proxy === undefined
  ) {
    advice.push(
      "DNS knows no such host: check the host name in the base URL (--base-url, MSGSTAT_BASE_URL, or " +
        "the profile's: msgstat config get base-url).",
    );
  }
  if (root instanceof RequestFailedError && root.failure.kind === "network")
    advice.push(...networkAdvice(root.failure, root.target.origin));
  error.hints.unshift(...advice);
}

/** What to do about a 401 or 403: store a token when none was sent, else check the one that was. */
function authAdvice(sent: Credentials | undefined): string {
  if (sent === undefined)
    return "Check the token (msgstat auth status says which is sent) or the headers given with -H.";
  const { again } = sent;
  const headers = sent.headers ? " or the headers given with -H" : "";
  switch (sent.token) {
    case undefined:
      return sent.headers
        ? "Check the headers given with -H: no token was sent."
        : `No token was sent: store one with msgstat auth login${again} (it asks for it), or set MSGSTAT_TOKEN.`;
    case "flag":
      return `Check the token given with --token${headers}.`;
    case "environment":
      return `Check the token in MSGSTAT_TOKEN${headers}: it is sent before the profile's.`;
    case "token-command":
      return `Check the token the profile's token-command prints (msgstat auth status${again} runs it)${headers}.`;
    default:
      return (
        `Check the token (msgstat auth status${again} says where it comes from; msgstat auth ` +
        `login${again} stores another)${headers}.`
      );
  }
}

/** What to try for a certificate that was refused, a port that is not TLS, or a proxy that failed. */
function networkAdvice(failure: Failure & { kind: "network" }, origin: string): string[] {
  if (failure.proxy?.refused === 407 && failure.proxy.credentialsSent)
    return [
      "The proxy refused the user name and password in its URL (they were sent): check them, and that " +
        "characters such as @ : / are percent-encoded (@ as %40).",
    ];
  if (failure.proxy?.refused === 407)
    return [
      "The proxy wants a user name and password: give them in its URL, http://user:password@host:port " +
        "(HTTPS_PROXY, HTTP_PROXY or --proxy).",
    ];
  if (failure.proxy?.refused !== undefined)
    return [
      "The proxy would not carry this request: ask its operators, or list the host in NO_PROXY to connect directly.",
    ];
  switch (certificateProblem(failure.code)) {
    case "self-signed":
    case "unknown issuer":
    case "untrusted":
      return [
        "If the service's certificate comes from your organisation's own authority, trust it with " +
          "--ca-file <pem> (or NODE_EXTRA_CA_CERTS).",
      ];
    case "expired":
    case "not yet valid":
      return [
        "Check this machine's clock; if it is right, the service's certificate must be renewed by its operators.",
      ];
    case "name mismatch":
      return ["Check the host name in --base-url: it must be one the certificate names."];
    case "revoked":
      return ["Do not trust this server: its certificate was withdrawn by its issuer."];
    case undefined:
      break;
  }
  if (isNotTls(failure.code))
    return [`If that port speaks plain HTTP, use ${origin.replace(/^https:/, "http:")} in --base-url.`];
  if (failure.proxy?.unreachable)
    return [
      "Check the proxy's address (--proxy, MSGSTAT_PROXY, HTTPS_PROXY, HTTP_PROXY or the profile's " +
        "proxy), or list the host in NO_PROXY to connect directly.",
    ];
  return [];
}
