// Index byte buffers built by hand, for the tests and the soak benchmark that check what
// Index.fromBytes does with hostile ones: the format's checksum written out (SipHash-1-3 with
// the all-zero key, as tests/support/index_bytes.rs writes it for the Rust tests), a buffer
// written field by field from the documented format, and a buffer whose explicit plan
// describes an index far larger than itself.

const M = (1n << 64n) - 1n;
const rotl = (x, b) => ((x << BigInt(b)) | (x >> BigInt(64 - b))) & M;

/** SipHash-1-3 with the all-zero key: the index format's checksum. */
export function sip13ZeroKey(bytes) {
  const v = [0x736f6d6570736575n, 0x646f72616e646f6dn, 0x6c7967656e657261n, 0x7465646279746573n];
  const round = () => {
    v[0] = (v[0] + v[1]) & M;
    v[1] = rotl(v[1], 13) ^ v[0];
    v[0] = rotl(v[0], 32);
    v[2] = (v[2] + v[3]) & M;
    v[3] = rotl(v[3], 16) ^ v[2];
    v[0] = (v[0] + v[3]) & M;
    v[3] = rotl(v[3], 21) ^ v[0];
    v[2] = (v[2] + v[1]) & M;
    v[1] = rotl(v[1], 17) ^ v[2];
    v[2] = rotl(v[2], 32);
  };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const whole = bytes.length - (bytes.length % 8);
  const absorb = (m) => {
    v[3] ^= m;
    round();
    v[0] ^= m;
  };
  for (let i = 0; i < whole; i += 8) absorb(view.getBigUint64(i, true));
  let last = BigInt(bytes.length & 0xff) << 56n;
  for (let i = whole; i < bytes.length; i++) last |= BigInt(bytes[i]) << BigInt(8 * (i - whole));
  absorb(last);
  v[2] ^= 0xffn;
  round();
  round();
  round();
  return v[0] ^ v[1] ^ v[2] ^ v[3];
}

/**
 * A checksum-valid buffer of `n` 65-bit entries whose explicit plan has 23 blocks at k = 21:
 * 253 tables, so 24 bytes an entry describe about 3 KB of index each.
 */
export function hostileIndexBytes(n) {
  const bytes = new Uint8Array(24 + n * 24 + 8);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode('SIMPIDX\0'));
  view.setUint16(8, 1, true);
  bytes.set([65, 21, 1, 23, 0, 0], 10);
  view.setBigUint64(16, BigInt(n), true);
  for (let i = 0; i < n; i++) {
    view.setBigUint64(24 + i * 24, BigInt(i), true);
    view.setBigUint64(24 + i * 24 + 8, (BigInt(i) * 0x9e3779b97f4a7c15n) & M, true);
    view.setBigUint64(24 + i * 24 + 16, BigInt(i & 1), true);
  }
  view.setBigUint64(bytes.length - 8, sip13ZeroKey(bytes.subarray(0, bytes.length - 8)), true);
  return bytes;
}

/**
 * A checksum-valid buffer of an index of `width`-bit fingerprints (1 to 64) at `k` with an
 * automatic plan: `entries` ([id, fingerprint] BigInts, ids ascending) and, when `names` is not
 * empty, a version 3 names section ([id, string], ids ascending). Written field by field from
 * docs/index.md (as index_bytes() in tests/support/index_bytes.rs), so it can say what no
 * writer would.
 */
export function indexBytes(width, k, entries, names = []) {
  const utf8 = names.map(([, name]) => new TextEncoder().encode(name));
  const namesLength = names.length ? 8 + utf8.reduce((sum, n) => sum + 12 + n.length, 0) : 0;
  const bytes = new Uint8Array(24 + entries.length * 16 + namesLength + 8);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode('SIMPIDX\0'));
  view.setUint16(8, names.length ? 3 : 1, true);
  bytes.set([width, k, 0, 0, 0, names.length ? 1 : 0], 10);
  view.setBigUint64(16, BigInt(entries.length), true);
  let at = 24;
  for (const [id, fp] of entries) {
    view.setBigUint64(at, id, true);
    view.setBigUint64(at + 8, fp, true);
    at += 16;
  }
  if (names.length) {
    view.setBigUint64(at, BigInt(names.length), true);
    at += 8;
    names.forEach(([id], i) => {
      view.setBigUint64(at, id, true);
      view.setUint32(at + 8, utf8[i].length, true);
      bytes.set(utf8[i], at + 12);
      at += 12 + utf8[i].length;
    });
  }
  view.setBigUint64(at, sip13ZeroKey(bytes.subarray(0, at)), true);
  return bytes;
}
