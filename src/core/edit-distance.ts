// How far apart two words are, for a guess at what was meant: an unknown status (--status failed), an
// unknown command or option (commands/shared/parser-errors.ts), field (--fields), profile or calendar word
// (--since lastweek).

/** Insertions, deletions, substitutions and swaps of neighbours between two words (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The candidates closest to `word`: a slip of a key or two, or the start of one name only. */
export function closest(word: string, candidates: readonly string[]): string[] {
  // Edits allowed grow with the word (its dashes aside): one in "stat", two in "--serach", three at most.
  const letters = word.replace(/^-+/, "").length;
  const allowed = Math.max(1, Math.min(3, Math.floor(letters / 3)));
  let best: string[] = [];
  let bestDistance = allowed;
  for (const candidate of new Set(candidates)) {
    const distance = editDistance(word, candidate);
    if (distance < bestDistance) [best, bestDistance] = [[candidate], distance];
    else if (distance === bestDistance) best.push(candidate);
  }
  if (best.length > 0) return best;
  const started = candidates.filter((candidate) => letters >= 3 && candidate.startsWith(word));
  return started.length === 1 ? started : [];
}

/** The hint that offers what `closest` found, each as it would be typed; undefined when nothing is close. */
export function didYouMean(names: readonly string[]): string | undefined {
  if (names.length === 0) return undefined;
  return names.length === 1 ? `Did you mean ${names[0]}?` : `Did you mean one of ${names.join(", ")}?`;
}
