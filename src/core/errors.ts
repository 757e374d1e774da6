// Typed errors: commands throw these, and src/cli.ts alone turns them into exit codes and messages.

export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  notFound: 3,
  unauthorized: 4,
  thresholdExceeded: 5,
  messageFailed: 6,
  notFinalInTime: 7,
  interrupted: 130,
  terminated: 143,
} as const;

export abstract class MsgstatError extends Error {
  abstract readonly exitCode: number;
  /** Lines shown after the message, such as what to try next. */
  hints: string[] = [];

  withHint(hint: string): this {
    this.hints.push(hint);
    return this;
  }
}

/** The command line was wrong: nothing was sent. */
export class UsageError extends MsgstatError {
  readonly exitCode = ExitCode.usage;
}

/** The service answered, or failed to, in a way msgstat cannot use. */
export class ServiceError extends MsgstatError {
  readonly exitCode: number = ExitCode.failure;
  constructor(
    message: string,
    readonly status?: number,
    readonly serverMessage?: string,
    /** The failure was of a kind that may pass (network, timeout, 408/429/5xx): trying again later can help. */
    readonly transient = false,
  ) {
    super(message);
  }
}

export class NotFoundError extends ServiceError {
  override readonly exitCode = ExitCode.notFound;
}

export class AuthError extends ServiceError {
  override readonly exitCode = ExitCode.unauthorized;
}

/** A response arrived but is not what the API reference describes (not JSON, wrong shape, too large). */
export class ResponseError extends ServiceError {}

/**
 * No usable credentials: a token-command that failed, a credentials file others can read, a profile without a token.
 */
export class CredentialsError extends MsgstatError {
  readonly exitCode = ExitCode.unauthorized;
}

/** The run was stopped by a signal; the exit code follows the shell's 128 + signal number convention. */
export class InterruptedError extends MsgstatError {
  readonly exitCode: number;
  constructor(readonly signal: "SIGINT" | "SIGTERM") {
    super(signal === "SIGINT" ? "interrupted" : "terminated");
    this.exitCode = signal === "SIGINT" ? ExitCode.interrupted : ExitCode.terminated;
  }
}

/** `stats --max-failure-rate` was exceeded: the report was printed, the exit code raises the alarm. */
export class ThresholdError extends MsgstatError {
  readonly exitCode = ExitCode.thresholdExceeded;
}

/** `message --wait`: the message ended in `failure` (it was printed; the exit code says how it ended). */
export class MessageFailedError extends MsgstatError {
  readonly exitCode = ExitCode.messageFailed;
}

/** `message --wait`: the time allowed ran out before the message was final (its last state was printed). */
export class NotFinalInTimeError extends MsgstatError {
  readonly exitCode = ExitCode.notFinalInTime;
}

/** stdout was closed by the reader (`msgstat ... | head -1`): not an error for the user. */
export class OutputClosedError extends Error {}

/**
 * The output could not be written (disk full, a device that refuses): says what failed and what became of the target.
 */
export class OutputError extends MsgstatError {
  readonly exitCode = ExitCode.failure;
}

/**
 * Several campaigns were asked for and some could not be read to their end (each was named on stderr as it
 * failed): the exit code is their cause's (3 not found, 4 not authorised, 1 otherwise), 1 when causes differ.
 */
export class IncompleteCampaignsError extends MsgstatError {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}
