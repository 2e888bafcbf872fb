// What tests/golden.json pins, computed by a simprint module, in any runtime: Node
// (tests/js/golden.test.mjs), Chromium and workerd (the function's source is sent there, so it
// uses nothing but its arguments), and what the file says the answers must be.

/**
 * The answers of the simprint module `sp` (initialised) to every vector of `golden`, as plain
 * JSON: fingerprints as hex, each index's bytes as hex (built, and read back then written
 * again), each plan's keys and probe keys as the Worker stores them (hex without leading zeros).
 */
export function goldenAnswers(sp, golden) {
  const attempt = (name, f) => {
    try {
      return { name, ...f() };
    } catch (error) {
      return { name, threw: String(error?.message ?? error) };
    }
  };
  const hexOfBytes = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  const bytesOfHex = (hex) =>
    Uint8Array.from(hex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
  const keyHex = (key) => key.toString(16);
  const MASK_128 = (1n << 128n) - 1n;
  const fingerprints = golden.vectors.map(({ name, text, options }) =>
    attempt(name, () => ({ hex: sp.toHex(sp.fingerprint(text, options), options.width ?? 64) })),
  );
  const indexBytes = golden.indexBytes.vectors.map(({ name, options, entries, hex }) =>
    attempt(name, () => {
      const index = new sp.Index(options);
      for (const [id, fp] of entries) index.insert(id, fp);
      const written = hexOfBytes(index.toBytes());
      index.free();
      // The file's bytes read back: every entry under its id or name, written again unchanged.
      const read = sp.Index.fromBytes(bytesOfHex(hex));
      const readEntries = entries.map(([id]) => [id, sp.toHex(read.get(id), options.width)]);
      const rewritten = hexOfBytes(read.toBytes());
      read.free();
      return { hex: written, readEntries, rewritten };
    }),
  );
  const keys = golden.keys.vectors.map(({ name, plan, fingerprint }) =>
    attempt(name, () => {
      const p = new sp.Plan(plan);
      const out = {
        keys: p.keys(fingerprint).map(keyHex),
        probeKeys: p.probeKeysByTable(fingerprint).map((list) => ({
          count: list.length,
          head: list.slice(0, 12).map(keyHex), // the file lists the first 12 of each table
          digest: keyHex(list.reduce((sum, key, i) => (sum + BigInt(i + 1) * key) & MASK_128, 0n)),
        })),
      };
      p.free();
      return out;
    }),
  );
  return { fingerprints, indexBytes, keys };
}

/** What goldenAnswers must return for `golden`. */
export function expectedAnswers(golden) {
  return {
    fingerprints: golden.vectors.map(({ name, hex }) => ({ name, hex })),
    indexBytes: golden.indexBytes.vectors.map(({ name, entries, hex }) => ({
      name,
      hex,
      readEntries: entries,
      rewritten: hex,
    })),
    keys: golden.keys.vectors.map(({ name, keys, probeKeys }) => ({ name, keys, probeKeys })),
  };
}
