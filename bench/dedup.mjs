// `simprint dedup` and `simprint fingerprint` on a million documents of real text, with 1 and 2
// threads, against datatrove's MinHash deduplication on the same file where it is installed.
// Wall time, documents/s, MB/s (of the input file), peak memory (resident, /usr/bin/time).
//
//   python3 scripts/corpus.py && python3 bench/dedup-corpus.py     # the input, once
//   source scripts/lib.sh && setup_all && build_pkg                  # pkg/
//   python3 -m venv ~/.cache/simprint/dedup-venv
//   ~/.cache/simprint/dedup-venv/bin/pip install datatrove==0.10.1 tokenizers==0.23.3 spacy==3.8.18 \
//     orjson==3.13.0 xxhash==3.5.0 text-dedup==0.4.0
//   node bench/dedup.mjs [CORPUS] [THREADS=1,2]
//
// (datatrove 0.10.1 hashes str with xxhash, which xxhash 4 refuses: hence xxhash 3.5.0; its
// English word tokenizer is spaCy's, without a model.) Runs one after another (never two at
// once: the machine has 2 cores). SIMPRINT_TOOLS=simprint,datatrove,text-dedup picks the tools
// (default all); SIMPRINT_DEDUP_PYTHON names the venv's python.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const corpus =
  process.argv[2] ?? join(homedir(), '.cache', 'simprint', 'dedup', 'corpus-1000000.jsonl');
const threads = (process.argv[3] ?? '1,2').split(',').map(Number);
if (!existsSync(corpus)) throw new Error(`no ${corpus}: run python3 bench/dedup-corpus.py first`);
const bytes = statSync(corpus).size;
const documents = Number(execFileSync('wc', ['-l', corpus], { encoding: 'utf8' }).split(' ')[0]);
const work = mkdtempSync(join(tmpdir(), 'simprint-bench-dedup-'));
const python =
  process.env.SIMPRINT_DEDUP_PYTHON ??
  join(homedir(), '.cache', 'simprint', 'dedup-venv', 'bin', 'python');

/** Runs `argv` under /usr/bin/time: wall seconds, peak resident KB, stdout, stderr. */
function timed(argv) {
  const run = spawnSync('/usr/bin/time', ['-f', '%e %M', ...argv], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (run.status !== 0) throw new Error(`${argv.join(' ')} failed: ${run.stderr.slice(-2000)}`);
  const [seconds, kb] = run.stderr.trim().split('\n').at(-1).split(' ').map(Number);
  return { seconds, peakMB: Math.round(kb / 1024), stdout: run.stdout, stderr: run.stderr };
}
const rates = (seconds) => ({
  seconds,
  docsPerS: Math.round(documents / seconds),
  MBPerS: +(bytes / 1e6 / seconds).toFixed(2),
});

const cli = join(root, 'pkg', 'cli', 'simprint.mjs');
const results = {
  date: new Date().toISOString().slice(0, 10),
  corpus,
  documents,
  bytes,
  cpu: execFileSync('sh', ['-c', "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"], {
    encoding: 'utf8',
  }).trim(),
  cores: Number(execFileSync('nproc', { encoding: 'utf8' })),
  runs: [],
};
const tools = (process.env.SIMPRINT_TOOLS ?? 'simprint,datatrove,text-dedup').split(',');
const hasModule = (module) =>
  existsSync(python) && spawnSync(python, ['-c', `import ${module}`]).status === 0;
try {
  for (const t of tools.includes('simprint') ? threads : []) {
    const fp = timed([
      process.execPath,
      cli,
      'fingerprint',
      corpus,
      '--threads',
      String(t),
      '-o',
      join(work, 'fps.jsonl'),
    ]);
    results.runs.push({
      tool: 'simprint fingerprint',
      threads: t,
      ...rates(fp.seconds),
      peakMB: fp.peakMB,
    });
    console.log(JSON.stringify(results.runs.at(-1)));
    for (const extra of [[], ['--expected', String(documents)]]) {
      const run = timed([
        process.execPath,
        cli,
        'dedup',
        corpus,
        '--threads',
        String(t),
        '--progress',
        ...extra,
        '-o',
        join(work, 'dups.jsonl'),
      ]);
      const summary = run.stderr.split('\r\x1b[K').at(-1).split('\n')[0];
      results.runs.push({
        tool: `simprint dedup${extra.length ? ' --expected' : ''}`,
        threads: t,
        ...rates(run.seconds),
        peakMB: run.peakMB,
        summary,
      });
      console.log(JSON.stringify(results.runs.at(-1)));
    }
  }
  if (tools.includes('datatrove')) {
    if (!hasModule('datatrove')) {
      results.runs.push({ tool: 'datatrove', skipped: `not installed in ${python}` });
    } else {
      for (const t of threads) {
        const run = timed([
          python,
          join(root, 'bench', 'datatrove_minhash.py'),
          corpus,
          join(work, 'datatrove'),
          String(t),
        ]);
        const out = JSON.parse(run.stdout.trim().split('\n').at(-1));
        results.runs.push({
          tool: 'datatrove MinHash',
          threads: t,
          ...rates(run.seconds),
          peakMB: run.peakMB,
          stages: out.seconds,
          kept: out.kept,
        });
        console.log(JSON.stringify(results.runs.at(-1)));
      }
    }
  }
  if (tools.includes('text-dedup')) {
    if (!hasModule('text_dedup')) {
      results.runs.push({ tool: 'text-dedup', skipped: `not installed in ${python}` });
    } else {
      // Its MinHash (250 permutations, 5-grams, threshold 0.7) through Hugging Face datasets,
      // offline: the json builder reads the local file.
      for (const t of threads) {
        const run = timed([
          'env',
          'HF_DATASETS_OFFLINE=1',
          'HF_HUB_OFFLINE=1',
          python,
          '-m',
          'text_dedup.minhash',
          '--path',
          'json',
          '--data_files',
          corpus,
          '--split',
          'train',
          '--cache_dir',
          join(work, `td-cache-${t}`),
          '--output',
          join(work, `td-out-${t}`),
          '--column',
          'text',
          '--num_proc',
          String(t),
        ]);
        const after = run.stdout
          .concat(run.stderr)
          .match(/After\s*:\s*(?:minhash\.py:\d+\s*)?(\d+)/);
        results.runs.push({
          tool: 'text-dedup MinHash',
          threads: t,
          ...rates(run.seconds),
          peakMB: run.peakMB,
          kept: after ? Number(after[1]) : undefined,
        });
        console.log(JSON.stringify(results.runs.at(-1)));
        rmSync(join(work, `td-cache-${t}`), { recursive: true, force: true });
        rmSync(join(work, `td-out-${t}`), { recursive: true, force: true });
      }
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(JSON.stringify(results, null, 1));
