// The command line read into settings: pure (no I/O but the config file's text, which the
// caller reads), so the tests check every rule without a process.
//
// A flag's settings name is its camelCase spelling (--text-field is textField); a config file
// (--config FILE, JSON) holds the same names, and flags given on the line override it.

/** A usage error: the message says what was wrong; the CLI prints it with a pointer to --help. */
export class UsageError extends Error {}

const number = (name, value, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}) => {
  const n = typeof value === 'number' ? value : Number(String(value).trim());
  if (String(value).trim() === '' || !Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(
      `--${kebab(name)} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`,
    );
  }
  return n;
};
const share = (name, value) => {
  const n = typeof value === 'number' ? value : Number(String(value).trim());
  if (String(value).trim() === '' || !Number.isFinite(n))
    throw new UsageError(`--${kebab(name)} must be a number, got ${JSON.stringify(value)}`);
  return n; // the library checks its range and says so
};
const text = (name, value) => {
  if (typeof value !== 'string' || value === '')
    throw new UsageError(`--${kebab(name)} needs a value`);
  return value;
};
const oneOf = (choices) => (name, value) => {
  if (!choices.includes(value))
    throw new UsageError(
      `--${kebab(name)} must be one of ${choices.join(', ')}, got ${JSON.stringify(value)}`,
    );
  return value;
};
const flag = (name, value) => {
  if (value === true || value === false) return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new UsageError(`--${kebab(name)} is true or false, got ${JSON.stringify(value)}`);
};

/** Every setting: its reader, which commands take it, and whether it is a switch (no value). */
const SETTINGS = {
  // What the library computes: passed to new Fingerprinter() and recommendedK as given; the
  // library checks the values and words the errors.
  width: {
    read: (n, v) => number(n, v, { min: 0, max: 1000 }),
    commands: ['fingerprint', 'dedup', 'keys', 'calibrate'],
  },
  tokenizer: { read: text, commands: ['fingerprint', 'dedup', 'calibrate'] },
  n: {
    read: (n, v) => number(n, v, { max: 1000 }),
    commands: ['fingerprint', 'dedup', 'calibrate'],
  },
  wordN: {
    read: (n, v) => number(n, v, { max: 1000 }),
    commands: ['fingerprint', 'dedup', 'calibrate'],
  },
  charN: {
    read: (n, v) => number(n, v, { max: 1000 }),
    commands: ['fingerprint', 'dedup', 'calibrate'],
  },
  normalization: { read: text, commands: ['fingerprint', 'dedup', 'calibrate'] },
  caseFold: { read: flag, switch: true, commands: ['fingerprint', 'dedup', 'calibrate'] },
  weighting: { read: text, commands: ['fingerprint', 'dedup', 'calibrate'] },
  key: { read: text, commands: ['fingerprint', 'dedup', 'calibrate'] },
  algorithm: { read: text, commands: ['fingerprint', 'dedup', 'calibrate'] },
  tolerance: { read: share, commands: ['fingerprint', 'dedup', 'keys'] },
  far: { read: share, commands: ['fingerprint', 'dedup', 'keys'] },
  // Input.
  format: {
    read: oneOf(['jsonl', 'csv', 'text', 'parquet']),
    commands: ['fingerprint', 'dedup', 'keys'],
  },
  textField: { read: text, commands: ['fingerprint', 'dedup'] },
  idField: { read: text, commands: ['fingerprint', 'dedup', 'keys'] },
  fingerprintField: { read: text, commands: ['keys'] },
  onError: { read: oneOf(['fail', 'skip']), commands: ['fingerprint', 'dedup'] },
  // The run.
  threads: {
    read: (n, v) => number(n, v, { min: 1, max: 256 }),
    commands: ['fingerprint', 'dedup'],
  },
  output: { read: text, commands: ['fingerprint', 'dedup', 'keys', 'calibrate'] },
  progress: { read: flag, switch: true, commands: ['fingerprint', 'dedup', 'keys', 'calibrate'] },
  // Dedup.
  rule: { read: oneOf(['pair', 'text']), commands: ['dedup'] },
  k: { read: (n, v) => number(n, v, { max: 128 }), commands: ['dedup', 'keys'] },
  maxK: { read: (n, v) => number(n, v, { max: 128 }), commands: ['dedup'] },
  expected: { read: (n, v) => number(n, v), commands: ['dedup'] },
  index: { read: text, commands: ['dedup'] },
  keep: { read: text, commands: ['dedup'] },
  clusters: { read: flag, switch: true, commands: ['dedup'] },
  // Keys: the plan, as the Plan class takes it.
  blocks: { read: (n, v) => number(n, v, { min: 1, max: 128 }), commands: ['keys'] },
  keyBlocks: { read: (n, v) => number(n, v, { min: 1, max: 128 }), commands: ['keys'] },
  substrings: { read: (n, v) => number(n, v, { min: 1, max: 128 }), commands: ['keys'] },
  size: { read: (n, v) => number(n, v), commands: ['keys'] },
  flips: { read: flag, switch: true, commands: ['keys'] },
  pairLimits: { read: flag, switch: true, commands: ['keys'] },
  plan: { read: flag, switch: true, commands: ['keys'] },
};

export const COMMANDS = ['fingerprint', 'dedup', 'keys', 'calibrate'];
const ALIASES = { o: 'output', j: 'threads' };

const camel = (s) => s.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
function kebab(s) {
  return s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/**
 * `argv` (without node and the script) into `{ command, files, settings, config, help, version }`.
 * `settings` holds what the line gave; `config` the --config path, to be read and merged with
 * `merge`. Throws UsageError.
 */
export function parse(argv) {
  const out = {
    command: undefined,
    files: [],
    settings: {},
    config: undefined,
    help: false,
    version: false,
  };
  let rest = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (rest || arg === '-' || !arg.startsWith('-')) {
      if (out.command === undefined && !rest) {
        if (!COMMANDS.includes(arg))
          throw new UsageError(
            `unknown command ${JSON.stringify(arg)}: expected ${COMMANDS.join(', ')}`,
          );
        out.command = arg;
      } else out.files.push(arg);
      continue;
    }
    if (arg === '--') {
      rest = true;
      continue;
    }
    if (arg === '-h' || arg === '--help') {
      out.help = true;
      continue;
    }
    if (arg === '-V' || arg === '--version') {
      out.version = true;
      continue;
    }
    let [name, value] = arg.startsWith('--')
      ? splitOnce(arg.slice(2))
      : [ALIASES[arg.slice(1)] ?? arg.slice(1), undefined];
    if (arg.startsWith('--')) name = camel(name);
    if (name === 'config') {
      out.config = value ?? argv[++i];
      if (!out.config) throw new UsageError('--config needs a file');
      continue;
    }
    let negated = false;
    const positive = /^no[A-Z]/.test(name) ? name[2].toLowerCase() + name.slice(3) : undefined;
    if (!(name in SETTINGS) && positive && SETTINGS[positive]?.switch) {
      name = positive;
      negated = true;
    }
    const setting = SETTINGS[name];
    if (!setting) throw new UsageError(`unknown option ${arg.split('=')[0]}`);
    if (setting.switch) {
      if (negated && value !== undefined)
        throw new UsageError(`${arg.split('=')[0]} takes no value`);
      out.settings[name] = negated ? false : value === undefined ? true : setting.read(name, value);
    } else {
      if (negated) throw new UsageError(`unknown option ${arg.split('=')[0]}`);
      if (value === undefined) {
        if (i + 1 >= argv.length) throw new UsageError(`--${kebab(name)} needs a value`);
        value = argv[++i];
      }
      out.settings[name] = setting.read(name, value);
    }
  }
  return out;
}

function splitOnce(s) {
  const at = s.indexOf('=');
  return at < 0 ? [s, undefined] : [s.slice(0, at), s.slice(at + 1)];
}

/**
 * The settings of a run: the config file's (`configText`, JSON, from `configName`) under the
 * line's, each checked as its flag is; then checked against the command.
 */
export function merge(command, lineSettings, configText, configName = 'the config file') {
  const settings = {};
  if (configText !== undefined) {
    let config;
    try {
      config = JSON.parse(configText);
    } catch (e) {
      throw new UsageError(`${configName} is not JSON: ${e.message}`);
    }
    if (config === null || typeof config !== 'object' || Array.isArray(config))
      throw new UsageError(`${configName} must hold a JSON object of settings`);
    for (const [name, value] of Object.entries(config)) {
      const setting = SETTINGS[name];
      if (!setting)
        throw new UsageError(
          `${configName}: unknown setting ${JSON.stringify(name)} (settings are the flags in camelCase, e.g. "textField")`,
        );
      if (!setting.commands.includes(command)) continue; // one file may serve every command
      settings[name] = setting.read(name, value);
    }
  }
  for (const [name, value] of Object.entries(lineSettings)) {
    if (!SETTINGS[name].commands.includes(command))
      throw new UsageError(`--${kebab(name)} does not apply to simprint ${command}`);
    settings[name] = value;
  }
  if (command === 'dedup' && settings.k !== undefined && settings.maxK !== undefined) {
    throw new UsageError(
      '--k and --max-k do not go together: --k compares every document at that k',
    );
  }
  if (command === 'keys' && settings.substrings !== undefined && settings.blocks !== undefined) {
    throw new UsageError('--substrings and --blocks do not go together: give one plan');
  }
  return settings;
}

/** The library's options (for new Fingerprinter) among `settings`. */
export function fingerprinterOptions(settings) {
  const out = {};
  for (const name of [
    'width',
    'tokenizer',
    'n',
    'wordN',
    'charN',
    'normalization',
    'caseFold',
    'weighting',
    'key',
    'algorithm',
  ]) {
    if (settings[name] !== undefined) out[name] = settings[name];
  }
  return out;
}

/** The options of recommendedK (`{ tolerance, far }`) among `settings`. */
export function toleranceOptions(settings) {
  const out = {};
  if (settings.tolerance !== undefined) out.tolerance = settings.tolerance;
  if (settings.far !== undefined) out.far = settings.far;
  return out;
}

/** The input format of `file`: --format if given, else by its name. */
export function formatOf(file, format, fallback = 'text') {
  if (format) return format;
  const name = file.toLowerCase().replace(/\.gz$/, '');
  if (file === '-') return 'jsonl';
  if (name.endsWith('.jsonl') || name.endsWith('.ndjson') || name.endsWith('.json')) return 'jsonl';
  if (name.endsWith('.csv')) return 'csv';
  if (name.endsWith('.parquet')) return 'parquet';
  return fallback;
}

export const HELP = `simprint: near-duplicate text by SimHash, from the command line

Usage:
  simprint fingerprint FILE…   one JSON line per document: {"id", "fingerprint", "k"}
  simprint dedup FILE…         the duplicates, each with the kept original and its distance
  simprint keys FILE…          the table keys of fingerprints (simprint fingerprint's output)
  simprint calibrate FILE…     the tolerance fitted to labelled pairs: JSONL lines
                               {"a": text, "b": text, "duplicate": true|false}; pass what it
                               gives to --tolerance

FILE is JSONL (.jsonl, .ndjson, .json: one object a line), CSV with a header (.csv), Parquet
(.parquet, needs @duckdb/node-api installed beside simprint) or any other file as one text
document; .gz is read as gzip; - is standard input (JSONL unless --format says otherwise).

Input:
  --text-field NAME      the field (column) holding the text (default "text")
  --id-field NAME        the field holding the id (default: "id" when present, else FILE:LINE;
                         a text file's id is its path)
  --format F             jsonl, csv, text or parquet, for every file (default: by name)
  --on-error fail|skip   a bad line stops the run (default) or is reported on stderr and left out

Fingerprints (as the library's options; defaults as defaults() gives them):
  --width N --tokenizer auto|words|chars --n N --word-n N --char-n N
  --normalization width|none --no-case-fold --weighting binary|tf|logtf --key HEX32
  --algorithm simhash|minhash   one-bit MinHash with --width 128 is the quality mode
  --tolerance T --far F  what the recommended k is derived from (recommendedK's options)

Dedup:
  --rule pair|text       the k of a document and a kept one: pair (default) from both texts'
                         feature counts, text from the document's own text (see below)
  --k K                  compare every document at this k, whatever the rule (default: the
                         rule's k, see below)
  --max-k K              the index's k: the largest any document is compared at
                         (default collectionK(1000): 16 at 64 bits; with --rule pair at
                         most pairK(n, n), 12)
  --expected N           the collection's expected size, for collectionK (default: the
                         documents kept so far)
  --keep FILE            write the kept documents (the deduplicated JSONL) to FILE
  --clusters             write clusters {"original", "duplicates": […]} instead of duplicates
  --index FILE           start from the index in FILE if it exists, and save it there at the
                         end, with the kept documents' feature counts in FILE.features

  Each document is compared with the kept ones before it: a duplicate of the nearest within
  the k of the pair (ties: the earliest kept), else kept. With cap = min(collectionK(documents
  kept so far), the index's k), a document of n features and a kept one of m are compared at
    --rule pair   min(pairK(n, m), cap)   (a document kept by an index without FILE.features:
                                           as --rule text)
    --rule text   min(recommendedK(text), cap), the same for every kept document
  Each duplicate's "k" is the k of its pair.

Keys:
  --k K --blocks B --key-blocks C --substrings M --size N   the plan (the Plan class's options)
  --flips                write each table's flip masks (the probe keys of 0) instead of keys
  --pair-limits          write SimHash's pair rule as a table for the join (pairKLimit:
                         {"d", "ratio"}), at --width and --tolerance/--far, instead of keys
  --plan                 write the plan (Plan.describe()) and stop

General:
  -o, --output FILE      write to FILE (temp file, renamed when complete) instead of stdout;
                         .parquet writes Parquet through @duckdb/node-api
  -j, --threads N        fingerprinting threads (default: the machine's cores); the output is
                         the same for any N
  --config FILE          settings from a JSON file: {"textField": "content", "width": 64, …};
                         flags override it
  --progress / --no-progress   the progress bar on stderr (default: when stderr is a terminal)
  -h, --help  -V, --version
`;
