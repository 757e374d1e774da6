// A temporary config folder per test, and msgstat run against it in-process.
import { readFileSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { runCli, type CliOptions, type CliResult } from "./run-cli.js";
import { scratchFolder } from "./scratch.js";

export interface ConfigFolder {
  dir: string;
  configFile: string;
  credentialsFile: string;
  /** runCli with MSGSTAT_CONFIG_DIR set to this folder (options.env adds to it). */
  run(args: string[], options?: CliOptions): Promise<CliResult>;
  /** The config file, parsed. */
  read(): { profiles: Record<string, Record<string, unknown>> };
  /** Writes the config file as a person would. */
  write(profiles: Record<string, Record<string, unknown>>): void;
  /** The credentials file's mode bits (e.g. 0o600), or undefined when it does not exist. */
  credentialsMode(): number | undefined;
}

export function configFolder(): ConfigFolder {
  const dir = path.join(scratchFolder("msgstat-config-"), "msgstat");
  const configFile = path.join(dir, "config.json");
  const credentialsFile = path.join(dir, "credentials");
  return {
    dir,
    configFile,
    credentialsFile,
    run: (args, options = {}) => runCli(args, { ...options, env: { MSGSTAT_CONFIG_DIR: dir, ...options.env } }),
    read: () => JSON.parse(readFileSync(configFile, "utf8")) as { profiles: Record<string, Record<string, unknown>> },
    write: (profiles) => {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileSync(configFile, JSON.stringify({ profiles }, null, 2));
    },
    credentialsMode: () => {
      try {
        return statSync(credentialsFile).mode & 0o777;
      } catch {
        return undefined;
      }
    },
  };
}

/** The Authorization header of each request a sandbox received. */
export function authorizations(
  requests: readonly { headers: Record<string, string | string[] | undefined> }[],
): Array<string | undefined> {
  return requests.map((request) => request.headers.authorization as string | undefined);
}
