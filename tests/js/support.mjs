// What several JavaScript tests share: deterministic generators and a reference popcount.

/** splitmix64 in BigInt: 64-bit test fingerprints, the same sequence as tests/support/splitmix64.rs. */
export function splitmix64(seed) {
  let s = BigInt(seed);
  const M = (1n << 64n) - 1n;
  return () => {
    s = (s + 0x9e3779b97f4a7c15n) & M;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M;
    return z ^ (z >> 31n);
  };
}

/** The bits set in a BigInt: the brute-force side of every distance check. */
export const popcount = (x) => {
  let n = 0;
  for (; x; x &= x - 1n) n++;
  return n;
};

/** mulberry32: floats in [0, 1) from a 32-bit seed, for random texts. */
export function mulberry32(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Syllables the Worker tests and benchmarks build words of. */
// biome-ignore format: one short list, kept on one line
export const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'sat', 'vo', 'qui', 'der', 'an', 'tor', 'bel', 'ix', 'nu', 'pra', 'sel'];

/** A made-up word of 1 to 3 syllables, drawn with `random` (numbers in [0, 1)). */
export const syllableWord = (random) =>
  Array.from(
    { length: 1 + Math.floor(random() * 3) },
    () => SYLLABLES[Math.floor(random() * SYLLABLES.length)],
  ).join('');
