#!/usr/bin/env node
// The simprint command (the package's `bin`): simprint fingerprint | dedup | keys | calibrate FILE…
// A thin layer over the package: every fingerprint, k, distance and key comes from it; this
// reads files, runs threads, draws progress and writes results (docs/cli.md).
import { readFileSync } from 'node:fs';
import { HELP, UsageError, merge, parse } from './args.mjs';
import { removeTemporaries } from './output.mjs';
import { Progress } from './progress.mjs';
import { totalBytes } from './input.mjs';

const version = () =>
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
const number = (n) => n.toLocaleString('en-US');

async function main(argv) {
  const line = parse(argv);
  if (line.version) return void process.stdout.write(`simprint ${version()}\n`);
  if (line.help || !line.command) return void process.stdout.write(HELP);
  let configText;
  if (line.config !== undefined) {
    try {
      configText = readFileSync(line.config, 'utf8');
    } catch (e) {
      throw new UsageError(
        `--config ${line.config}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`,
      );
    }
  }
  const settings = merge(line.command, line.settings, configText, line.config);
  const files = line.files.length
    ? line.files
    : line.command === 'keys' && (settings.flips || settings.plan || settings.pairLimits)
      ? []
      : undefined;
  if (!files)
    throw new UsageError(`simprint ${line.command} needs input files (- for standard input)`);
  if (files.filter((f) => f === '-').length > 1)
    throw new UsageError('standard input (-) can be given once');
  const progress = new Progress(process.stderr, totalBytes(files), settings.progress);
  const warn = (message) => {
    process.stderr.write(`${process.stderr.isTTY ? '\r\x1b[K' : ''}simprint: skipped ${message}\n`);
  };
  const command = await import(`./${line.command}.mjs`);
  const result = await command[line.command](files, settings, { progress, warn });
  const { seconds, bytes } = progress.state;
  const rate = `${number(Math.round(result.documents / Math.max(seconds, 1e-9)))} docs/s, ${(bytes / 1e6 / Math.max(seconds, 1e-9)).toFixed(1)} MB/s`;
  const c = result.calibration;
  const summary =
    line.command === 'dedup'
      ? `${number(result.documents)} documents: ${number(result.duplicates)} duplicates, ${number(result.kept)} kept${result.skipped ? `, ${number(result.skipped)} skipped` : ''} in ${seconds.toFixed(1)} s (${rate}); index: ${number(result.indexSize)} fingerprints${result.uncounted ? ` (${number(result.uncounted)} without a feature count: compared at each text's recommended k)` : ''}, k up to ${result.indexK}, ${number(result.indexBytes)} bytes`
      : c
        ? `${number(c.pairs)} pairs, ${number(c.duplicates)} near-duplicates: tolerance ${c.tolerance} gives F1 ${c.f1.toFixed(3)} on them (the default ${c.defaultF1.toFixed(3)}, the best single k ${c.fixedK} ${c.fixedF1.toFixed(3)}); pass --tolerance ${c.tolerance}`
        : `${number(result.documents)} documents${result.skipped ? `, ${number(result.skipped)} skipped` : ''} in ${seconds.toFixed(1)} s (${rate})`;
  progress.stop(summary);
}

// Ctrl-C and kill leave no temporary files behind (the outputs keep their earlier contents).
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    removeTemporaries();
    process.stderr.write(`\nsimprint: interrupted; nothing was written\n`);
    process.exit(130);
  });
}

try {
  await main(process.argv.slice(2));
} catch (e) {
  removeTemporaries();
  if (e.code === 'EPIPE') process.exit(0); // the reader of standard output went away (| head)
  process.stderr.write(`\r\x1b[K`.repeat(process.stderr.isTTY ? 1 : 0));
  if (e instanceof UsageError) {
    process.stderr.write(
      `simprint: ${e.message}\n(simprint --help lists the commands and options)\n`,
    );
    process.exit(2);
  }
  // Every expected failure is an InputError or the library's own message; a stack only on request.
  process.stderr.write(`simprint: ${process.env.SIMPRINT_DEBUG ? e.stack : e.message}\n`);
  process.exit(1);
}
