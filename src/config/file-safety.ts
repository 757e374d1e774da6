// The config folder and its files are trusted only when nobody but their owner can change them, and
// their owner is the person running msgstat (or root), as ssh treats ~/.ssh: config.json names a
// token-command that msgstat runs, and a file someone else can write could make it run theirs.
import type { Stats } from "node:fs";
import { userInfo } from "node:os";

export type Owned = Pick<Stats, "uid" | "mode">;

/** What is wrong with a file or folder another user could change, with what to do about it; undefined when safe. */
export function untrusted(
  what: string,
  where: string,
  stats: Owned,
  uid: number | null = process.getuid?.() ?? null,
): { reason: string; hint: string } | undefined {
  // Windows has no owner and mode of this kind (no getuid): its ACLs are left to it.
  if (uid === null) return undefined;
  if (stats.uid !== uid && stats.uid !== 0)
    return {
      reason: `refusing to use ${what} ${where}: it belongs to another user (uid ${stats.uid})`,
      hint:
        `Only your own files are trusted there, as ssh does; if it is yours: chown ${userName(uid)} ${where}` +
        (uid === 0 ? "" : " (as root)"),
    };
  if ((stats.mode & 0o022) !== 0)
    return {
      reason:
        `refusing to use ${what} ${where}: its mode ${(stats.mode & 0o777).toString(8).padStart(4, "0")} lets ` +
        `${(stats.mode & 0o002) !== 0 ? "others" : "its group"} change it`,
      hint: `Let only its owner write it, as ssh asks: chmod go-w ${where}`,
    };
  return undefined;
}

/** The user's name for the advice, or the number when the system has none for it (a container's uid). */
function userName(uid: number): string {
  try {
    return userInfo().username;
  } catch {
    return String(uid);
  }
}
