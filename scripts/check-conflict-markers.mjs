// No tracked file keeps a merge's conflict markers: a bad merge once committed them into
// docs/formats.md, where Prettier (which leaves Markdown tables alone) and every test let them pass.
import { execFileSync } from "node:child_process";

const root = new URL("..", import.meta.url);
const markers = "^(<<<<<<< |>>>>>>> |=======$)";
let found = "";
try {
  found = execFileSync("git", ["grep", "-n", "-I", "-E", markers, "--", ".", ":!package-lock.json"], {
    cwd: root,
    encoding: "utf8",
  });
} catch (error) {
  // git grep exits 1 when nothing matches; anything else (no git, not a repository) is a real failure.
  if (error.status !== 1) throw error;
}
if (found !== "") {
  console.error(`merge conflict markers left in:\n${found}`);
  process.exit(1);
}
