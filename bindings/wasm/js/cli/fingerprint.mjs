// simprint fingerprint: one JSON line per document, {"id", "fingerprint" (hex), "k" (the
// text's recommended k)}, in input order.
import { Output, tempBeside, temporary } from './output.mjs';
import { forEachDocument } from './pipeline.mjs';

export async function fingerprint(files, settings, { progress, warn }) {
  const out = new Output(settings.output);
  let documents = 0;
  let skipped = 0;
  await forEachDocument(files, settings, {
    progress,
    recommend: true,
    temp: () => temporary(tempBeside(settings.output ?? 'simprint-input', 'parquet-input')),
    skipped: (message) => {
      skipped++;
      warn(message);
    },
    each: ({ id, hex, k }) => {
      documents++;
      out.line(JSON.stringify({ id, fingerprint: hex, k }));
    },
  });
  await out.commit();
  return { documents, skipped };
}
