// Counts keyed by server text (statuses, error codes, batch ids). The server decides how many
// distinct keys there are, so past a cap the rest share one "other" entry: memory stays flat
// even when every message carries a value of its own.

export class BoundedCounts<V> {
  private readonly entries = new Map<string, V>();
  private overflow: V | undefined;

  constructor(
    private readonly cap: number,
    private readonly fresh: () => V,
  ) {}

  /** The entry for `key`: created while under the cap, else the shared overflow entry. */
  entry(key: string): V {
    const found = this.entries.get(key);
    if (found !== undefined) return found;
    if (this.entries.size < this.cap) {
      const created = this.fresh();
      this.entries.set(key, created);
      return created;
    }
    this.overflow ??= this.fresh();
    return this.overflow;
  }

  /** Entries in the order their keys were first seen. */
  known(): IterableIterator<[string, V]> {
    return this.entries.entries();
  }

  /** The shared entry of the keys past the cap, when there were any. */
  rest(): V | undefined {
    return this.overflow;
  }

  /** Adds another's counts into these, key by key (`add` adds one entry into another); its rest into the rest. */
  absorb(other: BoundedCounts<V>, add: (into: V, from: V) => void): void {
    for (const [key, value] of other.known()) add(this.entry(key), value);
    const rest = other.rest();
    if (rest !== undefined) add((this.overflow ??= this.fresh()), rest);
  }
}
