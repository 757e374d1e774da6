// No line of src/ over 120 characters: Prettier keeps code within its width but does not break long
// strings or comments, which this catches (npm test runs it).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const LIMIT = 120;
const root = path.join(import.meta.dirname, "..", "src");
const long = [];
for (const name of readdirSync(root, { recursive: true, encoding: "utf8" })) {
  if (!name.endsWith(".ts")) continue;
  const lines = readFileSync(path.join(root, name), "utf8").split("\n");
  lines.forEach((line, index) => {
    const length = [...line].length;
    if (length > LIMIT) long.push(`src/${name}:${index + 1}: ${length} characters`);
  });
}
if (long.length > 0) {
  console.error(`${long.length} lines over ${LIMIT} characters (wrap comments, split strings):\n${long.join("\n")}`);
  process.exit(1);
}
