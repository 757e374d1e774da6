// How requests reach the service: the proxies and the trusted certificates, resolved from the flags,
// the environment and the profile. Proxies: --proxy, else MSGSTAT_PROXY, else the scheme's own
// variable as curl reads them (https_proxy or HTTPS_PROXY for https://, http_proxy or HTTP_PROXY for
// http://, the lower-case form first), else the profile's `proxy`; NO_PROXY applies to all of them,
// as it does in curl. Certificates: --ca-file (or MSGSTAT_CA_FILE, or the profile's) adds to Node's.
import { UsageError } from "../core/errors.js";
import type { ProxyRoutes } from "../http/proxy.js";
import { checkProxy } from "./keys.js";
import type { Env } from "./paths.js";
import type { Settings } from "./settings.js";

// node:crypto, node:tls and node:fs/promises load only when a CA file is given: loading them on
// every run was a share of its start (docs/bench.md, "The executable's start-up").

/** The first of these variables that is set and not empty, with its name. */
function firstSet(env: Env, names: readonly string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && value.trim() !== "") return { name, value };
  }
  return undefined;
}

function proxyUrl(text: string, label: string): URL | undefined {
  const checked = checkProxy(text, "environment");
  if ("reason" in checked) {
    const error = new UsageError(`${label} ${checked.reason}`);
    throw checked.hint ? error.withHint(checked.hint) : error;
  }
  return checked.value === "" ? undefined : new URL(String(checked.value));
}

export function resolveProxy(settings: Pick<Settings, "proxy">, env: Env): ProxyRoutes {
  const noProxy = firstSet(env, ["no_proxy", "NO_PROXY"])?.value;
  const chosen = settings.proxy;
  // A flag or MSGSTAT_PROXY is one proxy for both schemes ("" from --proxy: none).
  if (chosen !== undefined && chosen.from.kind !== "profile") {
    const proxy = chosen.value === "" ? undefined : new URL(chosen.value);
    return { http: proxy, https: proxy, noProxy };
  }
  const fromProfile = chosen === undefined ? undefined : new URL(chosen.value);
  const forScheme = (names: readonly string[]) => {
    const set = firstSet(env, names);
    return set === undefined ? fromProfile : proxyUrl(set.value, set.name);
  };
  return { http: forScheme(["http_proxy", "HTTP_PROXY"]), https: forScheme(["https_proxy", "HTTPS_PROXY"]), noProxy };
}

/**
 * The certificates to trust when a CA file is given: Node's own, NODE_EXTRA_CA_CERTS's (Node drops
 * both once a list is given), and the file's. Undefined without a file: Node's trust as it is.
 */
export async function resolveTrust(settings: Pick<Settings, "caFile">, env: Env): Promise<string[] | undefined> {
  const file = settings.caFile;
  if (file === undefined) return undefined;
  const own = await certificatesIn(file.value, file.from.label);
  const extraFile = env.NODE_EXTRA_CA_CERTS;
  // Node itself warns at start-up when NODE_EXTRA_CA_CERTS cannot be read; nothing more to say here.
  const extra = extraFile ? await certificatesIn(extraFile, "NODE_EXTRA_CA_CERTS").catch(() => []) : [];
  return [...process.getBuiltinModule("node:tls").rootCertificates, ...extra, ...own];
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Every certificate of a PEM file, each checked, or a usage error naming the file and where it was given. */
async function certificatesIn(file: string, label: string): Promise<string[]> {
  let text: string;
  try {
    text = await process.getBuiltinModule("node:fs/promises").readFile(file, "latin1");
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new UsageError(`${label} ${file}: cannot be read${code ? ` (${code})` : ""}`);
  }
  const certificates = text.match(PEM_CERTIFICATE) ?? [];
  if (certificates.length === 0)
    throw new UsageError(`${label} ${file}: holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  for (const [index, pem] of certificates.entries()) {
    try {
      new (process.getBuiltinModule("node:crypto").X509Certificate)(pem);
    } catch {
      throw new UsageError(
        `${label} ${file}: certificate ${index + 1} of ${certificates.length} is not a valid certificate`,
      );
    }
  }
  return certificates;
}
