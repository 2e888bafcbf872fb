// simprint fingerprint: one JSON line per document, {"id", "fingerprint" (hex), "k" (the
// text's recommended k), "features" (its distinct features: the pair rule's size)}, in input
// order.
import { Output, tempBeside, temporary } from './output.mjs';
import { forEachDocument } from './pipeline.mjs';

export async function fingerprint(files, settings, { progress, warn }) {
  const out = new Output(settings.output);
  let documents = 0;
  let skipped = 0;
  await forEachDocument(files, settings, {
    progress,
    recommend: true,
    count: true,
    temp: () => temporary(tempBeside(settings.output ?? 'simprint-input', 'parquet-input')),
    skipped: (message) => {
      skipped++;
      warn(message);
    },
    each: ({ id, hex, k, features }) => {
      documents++;
      out.line(JSON.stringify({ id, fingerprint: hex, k, features }));
    },
  });
  await out.commit();
  return { documents, skipped };
}
