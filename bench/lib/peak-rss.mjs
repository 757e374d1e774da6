// Fallback peak-RSS probe, used only where GNU time (/usr/bin/time -f %M) is missing: loaded with
// `node --import`, it writes the kernel's high-water mark of this process (VmHWM, in kB) to the file
// named by BENCH_PEAK_RSS_FILE as the process exits. VmHWM is the peak itself, not a sample.
import { readFileSync, writeFileSync } from "node:fs";

const target = process.env.BENCH_PEAK_RSS_FILE;
if (target) {
  process.on("exit", () => {
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync("/proc/self/status", "utf8"));
    if (match) writeFileSync(target, match[1]);
  });
}
