// Certificates made for a test file with openssl (EC keys: quick), and a small HTTPS server that
// answers every GET with one page of the listing, counting its TLS handshakes and keeping each
// request's headers.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export interface KeyPair {
  /** The certificate's PEM file. */
  certFile: string;
  cert: string;
  key: string;
}

export interface TestCertificates {
  dir: string;
  /** A certificate authority of the test's own, trusted by nothing until --ca-file names it. */
  ca: KeyPair;
  /** For 127.0.0.1 and localhost, issued by `ca`. */
  leaf: KeyPair;
  /** For 127.0.0.1, signed by itself. */
  selfSigned: KeyPair;
  /** For 127.0.0.1, issued by `ca`, expired a day ago. */
  expired: KeyPair;
  /** For other.example only, issued by `ca`. */
  otherName: KeyPair;
  remove(): void;
}

const EC = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];

export function makeCertificates(): TestCertificates {
  const dir = mkdtempSync(path.join(tmpdir(), "msgstat-tls-"));
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) =>
    execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
  const pair = (name: string): KeyPair => ({
    certFile: file(`${name}.pem`),
    cert: readFileSync(file(`${name}.pem`), "utf8"),
    key: readFileSync(file(`${name}.key`), "utf8"),
  });
  const selfSigned = (name: string, subject: string, extensions: string[]) => {
    openssl(
      "req",
      "-x509",
      ...EC,
      "-keyout",
      `${name}.key`,
      "-out",
      `${name}.pem`,
      "-days",
      "2",
      "-subj",
      subject,
      ...extensions.flatMap((extension) => ["-addext", extension]),
    );
    return pair(name);
  };
  const issued = (name: string, altNames: string, days: string) => {
    openssl("req", "-new", ...EC, "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", `/CN=${name}`);
    writeFileSync(file(`${name}.ext`), `subjectAltName=${altNames}\nbasicConstraints=CA:FALSE\n`);
    openssl(
      "x509",
      "-req",
      "-in",
      `${name}.csr`,
      "-CA",
      "ca.pem",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-days",
      days,
      "-extfile",
      `${name}.ext`,
      "-out",
      `${name}.pem`,
    );
    return pair(name);
  };
  const ca = selfSigned("ca", "/CN=msgstat test CA", [
    "basicConstraints=critical,CA:TRUE",
    "keyUsage=critical,keyCertSign,cRLSign",
  ]);
  return {
    dir,
    ca,
    leaf: issued("leaf", "IP:127.0.0.1,DNS:localhost,DNS:api.msgstat.test", "2"),
    selfSigned: selfSigned("self-signed", "/CN=127.0.0.1", ["subjectAltName=IP:127.0.0.1"]),
    // A negative -days puts the end a day before the start: expired from the moment it is made.
    expired: issued("expired", "IP:127.0.0.1", "-1"),
    otherName: issued("other-name", "DNS:other.example", "2"),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface TlsPageServer {
  url: string;
  port: number;
  /** The headers of every request received. */
  requests: IncomingHttpHeaders[];
  /** TLS handshakes begun, completed or not (a refused certificate still counts one). */
  handshakes(): number;
  close(): Promise<void>;
}

/** One page of one message, as the listing endpoints send it. */
export const ONE_PAGE = {
  data: [{ id: "msg-tls-1", latestStatus: "success", recipient: "15550100" }],
  pageData: { hasNextPage: false, hasPreviousPage: false },
};

export async function startTlsPageServer(pair: KeyPair): Promise<TlsPageServer> {
  const requests: IncomingHttpHeaders[] = [];
  let handshakes = 0;
  const server: Server = createServer({ key: pair.key, cert: pair.cert }, (req, res) => {
    requests.push(req.headers);
    const body = JSON.stringify(ONE_PAGE);
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) }).end(body);
  });
  server.keepAliveTimeout = 0;
  server.on("connection", () => handshakes++);
  server.on("tlsClientError", () => undefined);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    requests,
    handshakes: () => handshakes,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
