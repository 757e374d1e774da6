// --fields reads only what the message itself holds: own properties, of the kind the shape declares.
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import type { CheckedMessage } from "../../src/core/message.js";
import { compileFields, DEFAULT_CSV_FIELDS } from "../../src/formats/fields.js";
import { UsageError } from "../../src/core/errors.js";
import { cli, useTestSandbox } from "../support/cli-helpers.js";
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

// From commands/shared/listing/options.test.ts: --fields compiled to getters, and the names it refuses.
function usageErrorOf(run: () => unknown): UsageError {
  try {
    run();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error("expected a usage error");
}

describe("compileFields", () => {
  const message = {
    id: "m1",
    recipient: "15550001111",
    latestStatus: "failure",
    values: { name: "Ana", "odd.key": "x" },
    templateBody: { body: "Hi {{name}}" },
    batches: [{ id: "b1", originalFileName: "wave-1.csv", BatchMessage: { batchId: "b1" } }],
    numAttempts: 3,
    messageAttempts: [
      {
        status: "failure",
        createdAt: "2025-05-01T10:00:00.000+00:00",
        errorType: "server_error",
        errorCode: "server_unknown_error",
      },
      {
        status: "failure",
        createdAt: "2025-05-01T12:00:00.000+02:00",
        errorType: "delivery_error",
        errorCode: "recipient_unavailable",
      },
      { status: "sent", createdAt: "2025-05-01T10:30:00.000+00:00", errorType: null, errorCode: null },
    ],
  } as unknown as CheckedMessage;
  const get = (name: string, context = {}) => compileFields([name], context)[0]!.get(message);

  it.each<[string, unknown]>([
    ["id", "m1"],
    ["values.name", "Ana"],
    ["values", { name: "Ana", "odd.key": "x" }],
    ["templateBody.body", "Hi {{name}}"],
    ["batches.0.originalFileName", "wave-1.csv"],
    ["batches.0.BatchMessage.batchId", "b1"],
    ["batches.1.id", undefined],
    ["messageAttempts.-1.status", "sent"],
    ["messageAttempts.0.errorCode", "server_unknown_error"],
    ["updatedAt", undefined],
    // Derived: the newest attempt by time (10:30Z); the newest failed one ties at 10:00Z (12:00+02:00), where the later listed wins.
    ["attemptCount", 3],
    ["lastAttemptStatus", "sent"],
    ["lastAttemptAt", "2025-05-01T10:30:00.000+00:00"],
    ["lastErrorType", "delivery_error"],
    ["lastErrorCode", "recipient_unavailable"],
    ["batchFile", "wave-1.csv"],
    ["batchId", "b1"],
  ])("%s reads %j", (name, value) => {
    expect(get(name)).toEqual(value);
  });

  it("batchId in a batch listing (no batchId, no batches) is the listing's batch", () => {
    const bare = { id: "m2" } as CheckedMessage;
    expect(compileFields(["batchId"], { batchId: "bat-x" })[0]!.get(bare)).toBe("bat-x");
    expect(compileFields(["batchId"])[0]!.get(bare)).toBeUndefined();
  });

  it("the default CSV columns are the documented ones", () => {
    expect(DEFAULT_CSV_FIELDS).toEqual([
      "id",
      "recipient",
      "latestStatus",
      "createdAt",
      "attemptCount",
      "lastErrorType",
      "lastErrorCode",
      "batchId",
      "fullMessage",
    ]);
    expect(compileFields(DEFAULT_CSV_FIELDS).map((field) => field.name)).toEqual(DEFAULT_CSV_FIELDS);
  });

  it.each([
    ["Id", "Did you mean id?"],
    ["recipients", "Did you mean recipient?"],
    ["lastErrorcode", "Did you mean lastErrorCode?"],
    ["templateBody.bdy", "Did you mean templateBody.body?"],
    ["batches.0.BatchMesage.id", "Did you mean batches.0.BatchMessage.id?"],
    ["latestStatus.x", undefined],
    ["nope", undefined],
  ])("%j: a name a slip away from a known one is offered first", (name, guess) => {
    const hints = usageErrorOf(() => compileFields([name])).hints;
    expect(hints).toHaveLength(guess === undefined ? 1 : 2);
    if (guess !== undefined) expect(hints[0]).toBe(guess);
  });

  it.each([
    ["nope", '--fields: unknown field "nope"'],
    ["Id", '--fields: unknown field "Id"'],
    ["id.x", "--fields: id has no sub-fields"],
    ["attemptCount.x", "--fields: attemptCount has no sub-fields"],
    ["batches.originalFileName", "--fields: batches is a list: name an index, as in batches.0.id (or -1 for the last)"],
    [
      "templateBody.nope",
      '--fields: unknown field "nope" in templateBody (known: id, templateId, language, body, creatorId, createdAt, updatedAt)',
    ],
    [
      "batches.0.BatchMessage.nope",
      '--fields: unknown field "nope" in batches.0.BatchMessage (known: id, batchId, messageId, createdAt, updatedAt)',
    ],
    ["messageAttempts.-1.creator.name", '--fields: unknown field "name" in messageAttempts.-1.creator (known: email)'],
    [".id", "--fields: empty field name"],
  ])("refuses %j and lists the valid fields", (name, message) => {
    const error = usageErrorOf(() => compileFields(["id", name]));
    expect(error.message).toBe(message);
    const help = error.hints.join("\n");
    for (const valid of [
      "id",
      "recipient",
      "latestStatus",
      "values.<name>",
      "templateBody.body",
      "batches.0.originalFileName",
      "attemptCount",
      "lastErrorType",
      "lastErrorCode",
      "batchFile",
    ]) {
      expect(help).toContain(valid);
    }
  });
});
