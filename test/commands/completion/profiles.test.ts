// Shell completion of --profile: the names `msgstat config profiles` prints when the completion
// runs (profiles come and go), checked by sourcing the bash script with the built msgstat on PATH.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, runCli } from "../../support/run-cli.js";
import { scratchFolder } from "../../support/scratch.js";

describe("completion of --profile", () => {
  it("offers the saved profiles' names, in bash", async () => {
    const folder = scratchFolder("msgstat-completion-profiles-");
    const configDir = path.join(folder, "config");
    mkdirSync(configDir);
    writeFileSync(
      path.join(configDir, "config.json"),
      JSON.stringify({ profiles: { staging: {}, prod: {}, sandbox: {} } }),
    );
    writeFileSync(path.join(folder, "msgstat"), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(path.join(folder, "msgstat"), 0o755);
    const script = path.join(folder, "msgstat.bash");
    writeFileSync(script, (await runCli(["completion", "bash"])).stdout);
    const complete = (words: string[]) =>
      execFileSync(
        "bash",
        [
          "-c",
          `source "$1"; COMP_WORDS=(${words.map((word) => `'${word}'`).join(" ")}); COMP_CWORD=${words.length - 1}; _msgstat; printf '%s\\n' "\${COMPREPLY[@]}"`,
          "bash",
          script,
        ],
        {
          encoding: "utf8",
          env: { PATH: `${folder}:${process.env.PATH}`, MSGSTAT_CONFIG_DIR: configDir },
        },
      )
        .split("\n")
        .filter((word) => word !== "");
    expect(complete(["msgstat", "--profile", ""])).toEqual(["prod", "sandbox", "staging"]);
    expect(complete(["msgstat", "messages", "c", "--profile", "st"])).toEqual(["staging"]);
  });
});
