// --fields reads only what the message itself holds: own properties, of the kind the shape declares.
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import type { CheckedMessage } from "../../src/core/message.js";
import { compileFields } from "../../src/render/fields.js";
import { cli, useTestSandbox } from "../cli/cli-helpers.js";
import type { Sandbox } from "../../src/sandbox/index.js";

const message = (fields: Record<string, unknown>): CheckedMessage => ({ id: "m1", ...fields });

describe("field getters", () => {
  it.each([
    "values.constructor",
    "values.toString",
    "values.__proto__",
    "values.hasOwnProperty",
    "templateBody.constructor",
  ])("%s is nothing unless the message holds it", (name) => {
    const [field] = compileFields([name]);
    expect(field!.get(message({ values: { first_name: "Ada" }, templateBody: { body: "x" } }))).toBeUndefined();
  });

  it("an own property of that name is read like any other", () => {
    const [field] = compileFields(["values.constructor"]);
    expect(field!.get(message({ values: JSON.parse('{"constructor":"Ada"}') }))).toBe("Ada");
  });

  it("a value of another kind than the shape declares reads as nothing", () => {
    const [recipient, count, first] = compileFields(["recipient", "numAttempts", "values.first_name"]);
    const odd = message({ recipient: 4915112345678, numAttempts: "2", values: { first_name: { text: "Ada" } } });
    expect([recipient!.get(odd), count!.get(odd), first!.get(odd)]).toEqual([undefined, undefined, undefined]);
  });

  it("an index counts from the end when negative, and past either end is nothing", () => {
    const [last, first, beyond] = compileFields([
      "messageAttempts.-1.status",
      "messageAttempts.0.status",
      "messageAttempts.5.status",
    ]);
    const m = message({ messageAttempts: [{ status: "failure" }, { status: "success" }] });
    expect([last!.get(m), first!.get(m), beyond!.get(m)]).toEqual(["success", "failure", undefined]);
  });

  it("metadata holds anything: its values pass as they are", () => {
    const [field] = compileFields(["messageAttempts.0.metadata.route"]);
    expect(field!.get(message({ messageAttempts: [{ metadata: { route: { carrier: "x" } } }] }))).toEqual({
      carrier: "x",
    });
  });
});

describe("prototype names in a CSV export", () => {
  let sandbox: Sandbox;
  useTestSandbox((started) => {
    sandbox = started;
  });

  it("print empty cells, never a function's source", async () => {
    const { code, stdout } = await cli(sandbox, [
      "messages",
      "cmp-spring-sale",
      "-n",
      "5",
      "--csv",
      "--fields",
      "id,values.constructor,values.toString,values.__proto__",
    ]);
    expect(code).toBe(0);
    const rows = parse<Record<string, string>>(stdout, { columns: true });
    expect(rows).toHaveLength(5);
    for (const row of rows)
      expect([row["values.constructor"], row["values.toString"], row["values.__proto__"]]).toEqual(["", "", ""]);
    expect(stdout).not.toContain("native code");
  });
});
