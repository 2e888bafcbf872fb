// Sending a document's key entries to the objects that own them. Shared by the Worker (a
// write, a delete) and by a home object's alarm (healing a write that failed half way), so
// both do exactly the same thing. Pure JavaScript apart from the plan passed in.
import { keysObjectName, ownersOf } from './routing.js';

/** A stub of `tenant`'s object `i` of `n`. */
export function keysStub(env, tenant, i, n) {
  if (!env.KEYS) throw new Error('the KEYS Durable Object binding is missing (see wrangler.toml)');
  return env.KEYS.get(env.KEYS.idFromName(keysObjectName(tenant, i, n)));
}

/**
 * Map(owner -> items), each item `{ id, hex, mask, k?, features? }`: which of `hex`'s table
 * keys the owner holds (and the k the document is checked at, when it is, and its feature
 * count, which the owner stores for K = "pair"; null for a record made before counts were kept).
 */
function byOwner(docs, keysOf, n) {
  const out = new Map();
  for (const { id, hex, k, features } of docs) {
    for (const [owner, mask] of ownersOf(keysOf(hex), n)) {
      if (!out.has(owner)) out.set(owner, []);
      const item = { id, hex, mask };
      if (k !== undefined) item.k = k;
      if (features !== undefined) item.features = features;
      out.get(owner).push(item);
    }
  }
  return out;
}

/**
 * Sends the entries of `docs` (`[{ id, hex, k?, features?, stale: [hex…] }]`) to their owners: first the
 * removal of every stale fingerprint's entries (a replaced or deleted version), then, unless
 * `deleting`, the entries of `hex`. Removals finish before puts start, so an object that owns
 * keys of both versions ends with the new one. Every call is idempotent (an object keeps one
 * fingerprint per id and a mask of the tables it holds it for), so a retry or a heal may
 * repeat any of it. With `check`, each owner also checks the documents it just took (insert,
 * then check: key-store.js putEntries). Returns `{ calls, objects, answers }`: sub-requests
 * made, distinct objects touched, and with `check` Map(id -> the owners' answers for it).
 *
 * `stub(i)` gives object i; `keysOf(hex)` the routing keys as hex; `n` the number of objects.
 */
export async function deliver({ stub, keysOf, n, scheme, docs, deleting = false, check = false }) {
  const touched = new Set();
  let calls = 0;
  const stale = docs.flatMap(({ id, hex, stale: old = [] }) =>
    [...old, ...(deleting ? [hex] : [])].map((h) => ({ id, hex: h })),
  );
  const removals = byOwner(stale, keysOf, n);
  await Promise.all(
    [...removals].map(([owner, items]) => {
      touched.add(owner);
      calls++;
      return stub(owner).removeEntries({ items, scheme, owner });
    }),
  );
  const answers = new Map(docs.map(({ id }) => [id, []]));
  if (!deleting) {
    const puts = byOwner(docs, keysOf, n);
    await Promise.all(
      [...puts].map(async ([owner, items]) => {
        touched.add(owner);
        calls++;
        const put = await stub(owner).putEntries({ items, scheme, owner, check });
        if (check) items.forEach(({ id }, i) => answers.get(id).push(put.results[i]));
      }),
    );
  }
  return { calls, objects: touched.size, answers };
}
