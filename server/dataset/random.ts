// The one seeded PRNG of the generated data: the bench's dataset, the demo's and the
// randomized model tests' (server/dataset/generate.ts), faker's draws among them
// (fakerRandomizer), and any random choice the bench or the tests make from a seed. Same
// seed, same stream, on every machine, so a failing test's seed replays it.
//
// sfc32 (Chris Doty-Humphrey's Small Fast Counting generator), not mulberry32: 128 bits
// of state with a 32-bit counter in it (no cycle shorter than 2^32, about 2^127 expected),
// where mulberry32's 32 bits make one cycle that every seed only enters at another point,
// so the streams of two seeds are one stream shifted and can overlap; sfc32 has no known
// failure in PractRand or BigCrush. Both cost a few integer operations per draw.
import type { Randomizer } from '@faker-js/faker';

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    // sfc32, seeded through splitmix32 so that nearby seeds give unrelated streams.
    let s = seed >>> 0;
    const next = () => {
      s = (s + 0x9e3779b9) | 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.uint32();
  }

  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** A version-4-shaped UUID from this stream (deterministic, unlike crypto.randomUUID). */
  uuid(): string {
    const w1 = hex8(this.uint32());
    const w2 = hex8(this.uint32());
    const w3 = hex8(this.uint32());
    const w4 = hex8(this.uint32());
    return `${w1}-${w2.slice(0, 4)}-4${w2.slice(5, 8)}-${VARIANT[w3.charCodeAt(0) & 3]}${w3.slice(1, 4)}-${w3.slice(4)}${w4}`;
  }

  /** `n` decimal digits (n <= 9), leading zeros allowed. */
  digits(n: number): string {
    return String(this.uint32() % POWERS[n]!).padStart(n, '0');
  }
}

const VARIANT = ['8', '9', 'a', 'b'];
const POWERS = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000];
// Number#toString(16) costs microseconds on V8; a byte table makes a UUID ~100x cheaper.
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const hex8 = (n: number) => HEX[n >>> 24]! + HEX[(n >>> 16) & 255]! + HEX[(n >>> 8) & 255]! + HEX[n & 255]!;

/**
 * Draws from `values` with the given weights in O(log n) per draw (cumulative weights,
 * binary search): the shape of every skewed choice in the dataset.
 */
export class WeightedSampler<T> {
  private readonly cumulative: Float64Array;
  private readonly total: number;

  constructor(
    readonly values: readonly T[],
    weights: readonly number[],
  ) {
    if (values.length === 0 || values.length !== weights.length) throw new Error('WeightedSampler needs one weight per value');
    this.cumulative = new Float64Array(weights.length);
    let sum = 0;
    weights.forEach((w, i) => {
      sum += w;
      this.cumulative[i] = sum;
    });
    this.total = sum;
  }

  draw(random: Random): T {
    const target = random.next() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cumulative[mid]! > target) hi = mid;
      else lo = mid + 1;
    }
    return this.values[lo]!;
  }

  /** The share of draws that land on values[i]. */
  share(i: number): number {
    return (this.cumulative[i]! - (i ? this.cumulative[i - 1]! : 0)) / this.total;
  }
}

/**
 * Zipf–Mandelbrot weights 1/(rank+q)^s: a head of frequent values and a long tail of
 * rare ones; q flattens the head (q=0 is plain Zipf).
 */
export function zipfWeights(n: number, s: number, q = 0): number[] {
  return Array.from({ length: n }, (_, i) => 1 / (i + 1 + q) ** s);
}

/**
 * Faker's randomizer drawing from `random`, so that the words faker picks come from the
 * same one stream (faker's own is a Mersenne Twister).
 */
export function fakerRandomizer(random: Random): Randomizer {
  return {
    next: () => random.next(),
    seed: () => {
      throw new Error('seed the Random, not faker');
    },
  };
}
