// Builds result arrays for the bindings (bindings/wasm/src/results.rs) in one call from wasm.
//
// Serializing a query's matches one object at a time costs several calls across the wasm
// boundary per match (about a third of a microsecond each under Node 20): at k = 18 a query
// among a million fingerprints has 300 matches and spent 100 µs there. Here the ids and
// distances arrive as views of wasm memory, read before this returns. Pairs likewise.

/** `[{ id, distance }]` from parallel arrays of numeric ids and distances. */
export function matchesOf(ids, distances) {
  const out = new Array(ids.length);
  for (let i = 0; i < ids.length; i++) out[i] = { id: ids[i], distance: distances[i] };
  return out;
}

/** `[{ a, b, distance }]` from parallel arrays of numeric ids and distances. */
export function pairsOf(as, bs, distances) {
  const out = new Array(as.length);
  for (let i = 0; i < as.length; i++) out[i] = { a: as[i], b: bs[i], distance: distances[i] };
  return out;
}

/** A `Comparison` in one call (Reflect.set per field cost a crossing and a string each);
 *  `near` is 0 or 1 for `nearDuplicate`, or 2 when no k was given (the field is absent). */
export function comparisonOf(distance, width, similarity, angle, cosine, near) {
  return near === 2
    ? { distance, width, similarity, angle, cosine }
    : { distance, width, similarity, angle, cosine, nearDuplicate: near === 1 };
}
