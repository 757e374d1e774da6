// Small, fast, deterministic number streams. Everything the sandbox serves is derived from these,
// so a message can be rebuilt from (seed, campaign, index) without storing anything.

/** Scrambles a 32-bit integer so that neighbouring inputs give unrelated outputs. */
export function scramble32(input: number): number {
  let x = input >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x21f0aaad);
  x = Math.imul(x ^ (x >>> 15), 0x735a2d97);
  return (x ^ (x >>> 15)) >>> 0;
}

/** FNV-1a over UTF-16 code units: turns a name (campaign id, tag) into a 32-bit salt. */
export function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  }
  return h >>> 0;
}

/** Combines several 32-bit parts into one hash; order matters. */
export function hashParts(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    h = scramble32((h ^ (part >>> 0)) + 0x7f4a7c15);
  }
  return h;
}

/** Any number the caller gives as a seed becomes a uint32 (non-integers are hashed by their text). */
export function normaliseSeed(seed: number): number {
  return Number.isInteger(seed) && Math.abs(seed) <= 0xffffffff ? seed >>> 0 : hashText(String(seed));
}

/** A sequence of pseudo-random draws from one starting hash (a Weyl sequence fed through scramble32). */
export class DrawStream {
  private state: number;

  constructor(start: number) {
    this.state = start >>> 0;
  }

  /** A uint32. */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    return scramble32(this.state);
  }

  /** A float in [0, 1). */
  fraction(): number {
    return this.next() / 4294967296;
  }

  /** An integer in [0, bound). */
  below(bound: number): number {
    return Math.floor(this.fraction() * bound);
  }

  chance(probability: number): boolean {
    return this.fraction() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.below(items.length)];
    if (item === undefined) throw new Error("pick from an empty list");
    return item;
  }

  /** `length` decimal digits. */
  digits(length: number): string {
    let out = "";
    while (out.length < length) out += String(this.next() % 100000).padStart(5, "0");
    return out.slice(0, length);
  }

  hex(length: number): string {
    let out = "";
    while (out.length < length) out += this.next().toString(16).padStart(8, "0");
    return out.slice(0, length);
  }
}
