// Where msgstat keeps its profiles and stored tokens: $MSGSTAT_CONFIG_DIR, else
// $XDG_CONFIG_HOME/msgstat, else the platform's own config folder (env-paths knows each platform's).
import path from "node:path";
import envPaths from "env-paths";

export type Env = Record<string, string | undefined>;

export interface ConfigPaths {
  dir: string;
  /** The human-editable settings: profiles, never a credential. */
  configFile: string;
  /** Tokens stored without a keyring, mode 0600. */
  credentialsFile: string;
}

export function configPaths(env: Env): ConfigPaths {
  const dir = configDir(env);
  return { dir, configFile: path.join(dir, "config.json"), credentialsFile: path.join(dir, "credentials") };
}

function configDir(env: Env): string {
  const own = env.MSGSTAT_CONFIG_DIR;
  if (own !== undefined && own !== "") return path.resolve(own);
  // The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg !== undefined && path.isAbsolute(xdg)) return path.join(xdg, "msgstat");
  return envPaths("msgstat", { suffix: "" }).config;
}
