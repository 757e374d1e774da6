// TLS trust: --ca-file (or MSGSTAT_CA_FILE, or a profile's ca-file) adds certificates to the default
// trust and NODE_EXTRA_CA_CERTS keeps counting; a refused certificate is one line naming the host and
// the reason, with what to try, and is not retried; https:// to a plain-HTTP port says so.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../../src/sandbox/index.js";
import { configFolder } from "../../support/profiles.js";
import { runCli } from "../../support/run-cli.js";
import {
  makeCertificates,
  ONE_PAGE,
  startTlsPageServer,
  type TestCertificates,
  type TlsPageServer,
} from "../../support/tls.js";
import { NOW, startTestSandbox } from "../../support/cli-helpers.js";

let certs: TestCertificates;
let issued: TlsPageServer;
let selfSigned: TlsPageServer;
let expired: TlsPageServer;
let otherName: TlsPageServer;
let sandbox: Sandbox;
beforeAll(async () => {
  certs = makeCertificates();
  [issued, selfSigned, expired, otherName, sandbox] = await Promise.all([
    startTlsPageServer(certs.leaf),
    startTlsPageServer(certs.selfSigned),
    startTlsPageServer(certs.expired),
    startTlsPageServer(certs.otherName),
    startTestSandbox({ messages: 5 }),
  ]);
});
afterAll(async () => {
  await Promise.all([issued, selfSigned, expired, otherName].map((server) => server.close()));
  await sandbox.close();
  certs.remove();
});

const PAGE_JSONL = `${JSON.stringify(ONE_PAGE.data[0])}\n`;
const listing = (server: TlsPageServer, ...args: string[]) =>
  runCli(["--base-url", server.url, "messages", "cmp-tls", "--jsonl", ...args], { now: NOW });
const failureLine = (server: TlsPageServer, reason: string) =>
  `msgstat: GET ${server.url}/campaigns/cmp-tls/messages?limit=1000 failed after 1 attempt: ${reason}\n`;
const CA_FILE_HINT =
  "  If the service's certificate comes from your organisation's own authority, trust it with --ca-file <pem> (or NODE_EXTRA_CA_CERTS).\n";

describe("--ca-file adds to the default trust", () => {
  it("a certificate issued by the file's authority is trusted with --ca-file, and the listing is exact", async () => {
    expect(await listing(issued, "--ca-file", certs.ca.certFile)).toEqual({ code: 0, stdout: PAGE_JSONL, stderr: "" });
  });

  it("a self-signed certificate given as --ca-file is trusted", async () => {
    expect(await listing(selfSigned, "--ca-file", certs.selfSigned.certFile)).toEqual({
      code: 0,
      stdout: PAGE_JSONL,
      stderr: "",
    });
  });

  it("MSGSTAT_CA_FILE and a profile's ca-file do the same", async () => {
    const fromEnv = await runCli(["--base-url", issued.url, "messages", "cmp-tls", "--jsonl"], {
      now: NOW,
      env: { MSGSTAT_CA_FILE: certs.ca.certFile },
    });
    expect(fromEnv).toEqual({ code: 0, stdout: PAGE_JSONL, stderr: "" });
    const config = configFolder();
    config.write({ default: { "base-url": issued.url, "ca-file": certs.ca.certFile } });
    expect(await config.run(["messages", "cmp-tls", "--jsonl"], { now: NOW })).toEqual({
      code: 0,
      stdout: PAGE_JSONL,
      stderr: "",
    });
  });

  it("NODE_EXTRA_CA_CERTS still counts when --ca-file names another file (Node drops it once msgstat gives a list)", async () => {
    const both = await runCli(
      ["--base-url", selfSigned.url, "--ca-file", certs.ca.certFile, "messages", "cmp-tls", "--jsonl"],
      { now: NOW, env: { NODE_EXTRA_CA_CERTS: certs.selfSigned.certFile } },
    );
    expect(both).toEqual({ code: 0, stdout: PAGE_JSONL, stderr: "" });
  });

  it("a file of several certificates: each is trusted", async () => {
    const bundle = path.join(certs.dir, "bundle.pem");
    writeFileSync(bundle, certs.selfSigned.cert + certs.ca.cert);
    expect(await listing(issued, "--ca-file", bundle)).toEqual({ code: 0, stdout: PAGE_JSONL, stderr: "" });
    expect(await listing(selfSigned, "--ca-file", bundle)).toEqual({ code: 0, stdout: PAGE_JSONL, stderr: "" });
  });

  it.each<[string, () => string, string]>([
    ["a missing file", () => path.join(certs.dir, "missing.pem"), "cannot be read (ENOENT)"],
    [
      "a file without a certificate",
      () => certs.ca.certFile.replace("ca.pem", "ca.key"),
      "holds no PEM certificate (-----BEGIN CERTIFICATE-----)",
    ],
    ["a damaged certificate", () => writeBroken(), "certificate 1 of 1 is not a valid certificate"],
  ])("%s is a usage error naming the file, before any request", async (_name, file, reason) => {
    const before = issued.handshakes();
    expect(await listing(issued, "--ca-file", file())).toEqual({
      code: 2,
      stdout: "",
      stderr: `msgstat: --ca-file ${file()}: ${reason}\n`,
    });
    expect(issued.handshakes()).toBe(before);
  });
});

function writeBroken(): string {
  const file = path.join(certs.dir, "broken.pem");
  writeFileSync(file, "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n");
  return file;
}

describe("a refused certificate: one line with the host and the reason, a hint, no retry", () => {
  it("self-signed, without --ca-file", async () => {
    const before = selfSigned.handshakes();
    const result = await listing(selfSigned, "--retries", "3");
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr:
        failureLine(
          selfSigned,
          "the server's certificate is self-signed, and not trusted here (DEPTH_ZERO_SELF_SIGNED_CERT)",
        ) + CA_FILE_HINT,
    });
    expect(selfSigned.handshakes() - before).toBe(1);
  });

  it("issued by an authority the machine does not trust, without --ca-file", async () => {
    const result = await listing(issued, "--retries", "3");
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr:
        failureLine(
          issued,
          "the server's certificate was issued by an authority not trusted here (UNABLE_TO_VERIFY_LEAF_SIGNATURE)",
        ) + CA_FILE_HINT,
    });
  });

  it("expired, though its authority is trusted", async () => {
    const before = expired.handshakes();
    const result = await listing(expired, "--retries", "3", "--ca-file", certs.ca.certFile);
    const hint =
      "  Check this machine's clock; if it is right, the service's certificate must be renewed by its operators.\n";
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: failureLine(expired, "the server's certificate has expired (CERT_HAS_EXPIRED)") + hint,
    });
    expect(expired.handshakes() - before).toBe(1);
  });

  it("for another host name, though its authority is trusted", async () => {
    const result = await listing(otherName, "--ca-file", certs.ca.certFile);
    const hint = "  Check the host name in --base-url: it must be one the certificate names.\n";
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr:
        failureLine(otherName, "the server's certificate is for DNS:other.example (ERR_TLS_CERT_ALTNAME_INVALID)") +
        hint,
    });
  });

  it("the host is the one in the base URL: localhost is named when it was asked for", async () => {
    const viaName = `https://localhost:${selfSigned.port}`;
    const result = await runCli(["--base-url", viaName, "messages", "cmp-tls"], { now: NOW });
    expect(result.stderr.split("\n")[0]).toBe(
      `msgstat: GET ${viaName}/campaigns/cmp-tls/messages?limit=50 failed after 1 attempt: the server's certificate is self-signed, and not trusted here (DEPTH_ZERO_SELF_SIGNED_CERT)`,
    );
  });
});

describe("https:// to a port that speaks plain HTTP", () => {
  it("says the server did not answer in TLS and suggests the http:// URL, without OpenSSL's text, not retried", async () => {
    const port = new URL(sandbox.url).port;
    const before = sandbox.requests.length;
    const result = await runCli(
      ["--base-url", `https://127.0.0.1:${port}`, "messages", "cmp-spring-sale", "--retries", "3"],
      { now: NOW },
    );
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: `msgstat: GET https://127.0.0.1:${port}/campaigns/cmp-spring-sale/messages?limit=50 failed after 1 attempt: the server did not answer in TLS: the port may speak plain HTTP (ERR_SSL_WRONG_VERSION_NUMBER)\n  If that port speaks plain HTTP, use http://127.0.0.1:${port} in --base-url.\n`,
    });
    expect(sandbox.requests.length).toBe(before);
  });
});
