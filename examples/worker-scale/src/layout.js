// A tenant's layout: the settings that decide where its documents are filed. OBJECTS names the
// objects (routing.js), MAX_K sets the routing tables (which object owns which key), and
// STORE_SUBSTRINGS the keys an object files a document under in SQLite (key-store.js). A
// deployment with another layout would look for the same documents elsewhere and miss them,
// without an error. So the tenant's object (limiter.js) records the layout of the first write,
// and a request under another one is refused while the tenant holds documents filed under the
// recorded one; once none is left, the record moves to the new layout. (WIDTH and SIPHASH_KEY
// are the scheme's, which each object checks itself.) Pure JavaScript: the tests import it.

/** The layout of settings `s`, as the string the tenant's object records and compares. */
export const layoutOf = (s) =>
  JSON.stringify({ objects: s.objects, maxK: s.maxK, storeSubstrings: s.storeSubstrings });

/** `layout` (a layoutOf string) as the settings' names say it. */
export function describeLayout(layout) {
  const { objects, maxK, storeSubstrings } = JSON.parse(layout);
  return `OBJECTS = ${objects}, MAX_K = ${maxK}, STORE_SUBSTRINGS = ${storeSubstrings}`;
}

/** The objects count of `layout`: where the documents filed under it are. */
export const objectsOf = (layout) => JSON.parse(layout).objects;

/** The refusal's message: `documents` filed under `recorded`, this deployment's `layout`. */
export const layoutConflict = (recorded, layout, documents) =>
  `bad configuration: this tenant holds ${documents} document${documents === 1 ? '' : 's'} filed under ` +
  `${describeLayout(recorded)}, and this deployment has ${describeLayout(layout)}: it would ` +
  'miss them. Deploy the earlier settings again, or delete those documents under them first ' +
  '(GET /documents lists them); a tenant with no documents takes any layout';
