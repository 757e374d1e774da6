import { describe, expect, it } from "vitest";
import { manPage } from "../../../src/commands/help/man-page.js";

describe("manPage", () => {
  const page = manPage({
    version: "1.2.3",
    summary: "inspect the delivery status of SMS campaigns",
    description:
      "A paragraph with `--json` and **bold**, **`MSGSTAT_TOKEN`**, a [link](docs/x.md) and " +
      "![an image](docs/images/a.png).\n\n## Install\n\n```sh\nnpm install -g msgstat\n```\n",
    commands: [{ name: "msgstat stats", help: "Usage: msgstat stats [options] <campaignId>\n.not a request\n\n" }],
    sections: [
      {
        title: "Exit status",
        markdown: [
          "# Exit codes",
          "",
          "## Codes",
          "",
          "| code | meaning |",
          "|---|---|",
          "| 0 | success |",
          "",
          "- one \\ backslash",
          "",
          "### Deeper",
          "",
          "'quoted at the start of a line",
        ].join("\n"),
      },
    ],
    topics: [{ name: "exit-codes", summary: "what each exit code means" }],
  });

  it("is man(7) roff: name, synopsis, description, commands as laid out, sections, topics in SEE ALSO", () => {
    expect(page.split("\n")).toEqual([
      '.TH MSGSTAT 1 "" "msgstat 1.2.3" "User Commands"',
      ".ad l",
      ".nh",
      ".SH NAME",
      "msgstat \\- inspect the delivery status of SMS campaigns",
      ".SH SYNOPSIS",
      ".B msgstat",
      "[\\fIoptions\\fR] \\fIcommand\\fR [\\fIarguments\\fR]",
      ".br",
      ".B msgstat help",
      "[\\fIcommand\\fR | \\fItopic\\fR]",
      ".SH DESCRIPTION",
      ".PP",
      "A paragraph with \\fB\\-\\-json\\fR and \\fBbold\\fR, \\fBMSGSTAT_TOKEN\\fR, a link (docs/x.md) and " +
        "an image (docs/images/a.png).",
      ".SS Install",
      ".PP",
      ".RS 2",
      ".nf",
      "npm install \\-g msgstat",
      ".fi",
      ".RE",
      ".SH COMMANDS",
      ".SS msgstat stats",
      ".nf",
      "Usage: msgstat stats [options] <campaignId>",
      "\\&.not a request",
      ".fi",
      ".SH EXIT STATUS",
      ".SS Codes",
      ".TP",
      "\\fB0\\fR",
      "success",
      '.IP "\\(bu" 4',
      "one \\e backslash",
      ".PP",
      "\\fBDeeper\\fR",
      ".PP",
      "\\&'quoted at the start of a line",
      ".SH SEE ALSO",
      ".PP",
      "Each topic, at the terminal's width:",
      ".TP",
      "\\fBmsgstat help exit\\-codes\\fR",
      "what each exit code means",
      "",
    ]);
  });

  // A page of this description alone.
  const pageDescribing = (description: string) =>
    manPage({ version: "1", summary: "s", description, commands: [], sections: [], topics: [] });

  it("gives the characters an ASCII terminal lacks a fallback where the page uses them, and no others", () => {
    const withBars = pageDescribing("```\nbat-w1  spring-sa\u2026  83.2%  \u2588\u2588\u258f\n```\n");
    expect(withBars.split("\n").filter((line) => line.startsWith(".if"))).toEqual([
      ".if \\n(.g .fchar \\[u2026] ...",
      ".if \\n(.g .fchar \\[u2588] #",
      ".if \\n(.g .fchar \\[u258F] #",
    ]);
    expect(page).not.toContain(".fchar");
  });

  it("lets a long list of names in code break after its commas", () => {
    const withList = pageDescribing("`a,b,c` and `x, y`\n");
    expect(withList).toContain("\\fBa,\\:b,\\:c\\fR and \\fBx, y\\fR");
  });
});
