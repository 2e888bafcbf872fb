#!/usr/bin/env python3
"""Builds www/sample.json, the bundled sample of the demo's index view.

    python3 scripts/demo_sample.py [CORPUS] [OUT]

CORPUS defaults to the folder `scripts/corpus.py` prints (it fetches the text once); OUT to
www/sample.json. The output is deterministic for a given corpus (fixed seed, sorted input):
short real paragraphs of the Debian Administrator's Handbook, English and Chinese, then
planted near-duplicates, each a copy of one of them with a few words (English) or characters
(Chinese) substituted, with `copyOf` naming the original and `edits` listing the
substitutions as [old, new] pairs.

A planted copy is a near-duplicate by the library's own measure: of TRIES random sets of
substitutions, the first whose fingerprint lies within recommendedK of the original's (and at
least 1 bit from it) is kept, so the demo's index finds every one at the recommended k. The
distances come from the built package (pkg/, built by scripts/lib.sh's build_pkg), asked once
through node.
"""
import json
import pathlib
import random
import re
import subprocess
import sys

SEED = 6
ENGLISH = 200  # paragraphs of 150 to 400 characters
CHINESE = 100  # paragraphs of 80 to 250 characters
COPIES = 40  # planted near-duplicates, two thirds of them English
EDITS = (2, 3)  # substitutions per copy, at least and at most
TRIES = 12  # random substitutions drawn per copy; the first within the recommended k is kept
MAX_BYTES = 150_000

ROOT = pathlib.Path(__file__).resolve().parent.parent
ATTRIBUTION = (
    "Text from The Debian Administrator's Handbook by Raphaël Hertzog and Roland Mas "
    "(https://debian-handbook.info/), English and Simplified Chinese editions, "
    "as packaged in Debian's debian-handbook; licensed GPL-2+ or CC-BY-SA-3.0. "
    "Near-duplicates made by scripts/demo_sample.py substituting a few words or characters, "
    "each kept only when its fingerprint lies within the library's recommended k of the original's."
)
LICENSE = "GPL-2.0-or-later OR CC-BY-SA-3.0"

WORD = re.compile(r"[A-Za-z]{4,}")
HAN = re.compile(r"[\u4e00-\u9fff]")


def corpus_folder():
    if len(sys.argv) > 1:
        return pathlib.Path(sys.argv[1])
    out = subprocess.run([sys.executable, str(ROOT / "scripts/corpus.py")], check=True,
                         capture_output=True, text=True).stdout.strip().splitlines()[-1]
    return pathlib.Path(out)


def paragraphs(path, low, high):
    """Distinct paragraphs of low..high characters, sorted so the choice depends on the text only."""
    text = path.read_text(encoding="utf-8")
    found = {" ".join(p.split()) for p in text.split("\n\n")}
    return sorted(p for p in found if low <= len(p) <= high)


def substitute(rng, text, pattern, vocabulary):
    """Replaces a few distinct matches of pattern with different words from vocabulary."""
    spots = [m for m in pattern.finditer(text)]
    chosen = sorted(rng.sample(spots, min(len(spots), rng.randint(*EDITS))), key=lambda m: m.start())
    edits, out, last = [], [], 0
    for m in chosen:
        old = m.group()
        new = rng.choice(vocabulary)
        while new.lower() == old.lower():
            new = rng.choice(vocabulary)
        if old[0].isupper():
            new = new[0].upper() + new[1:]
        out += [text[last:m.start()], new]
        last = m.end()
        edits.append([old, new])
    out.append(text[last:])
    return "".join(out), edits


# Reads [[original, candidate, ...], ...] on stdin; prints, per group, each candidate's
# [distance to the original, the smaller recommendedK of the two texts].
DISTANCES_JS = """
import { readFileSync } from 'node:fs';
import * as sp from '%(pkg)s/simprint.js';
sp.initSync({ module: readFileSync('%(pkg)s/simprint_bg.wasm') });
const groups = JSON.parse(readFileSync(0, 'utf8'));
console.log(JSON.stringify(groups.map(([original, ...copies]) => copies.map((copy) => [
  sp.hamming(sp.fingerprint(original), sp.fingerprint(copy)),
  Math.min(sp.recommendedK(original), sp.recommendedK(copy)),
]))));
"""


def library_distances(groups):
    """Asks the built package for each candidate's distance to its original and the recommended k."""
    pkg = ROOT / "pkg"
    if not (pkg / "simprint_bg.wasm").exists():
        sys.exit("pkg/ is not built: run `source scripts/lib.sh && setup_all && build_pkg` first")
    out = subprocess.run(["node", "--input-type=module", "-e", DISTANCES_JS % {"pkg": pkg.as_posix()}],
                         input=json.dumps(groups), check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    folder = corpus_folder()
    out_path = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / "www/sample.json"
    rng = random.Random(SEED)

    english = rng.sample(paragraphs(folder / "en.txt", 150, 400), ENGLISH)
    chinese = rng.sample(paragraphs(folder / "zh.txt", 80, 250), CHINESE)
    docs = [{"id": i, "lang": "en", "text": t} for i, t in enumerate(english)]
    docs += [{"id": len(docs) + i, "lang": "zh", "text": t} for i, t in enumerate(chinese)]

    # Substitutes come from the chosen texts themselves, so they read like the handbook.
    words = sorted({w.lower() for t in english for w in WORD.findall(t)})
    hans = sorted({c for t in chinese for c in HAN.findall(t)})

    english_copies = round(COPIES * 2 / 3)
    originals = rng.sample(range(ENGLISH), english_copies)
    originals += rng.sample(range(ENGLISH, ENGLISH + CHINESE), COPIES - english_copies)
    # Every try is drawn whatever the distances, so the output depends on the corpus alone.
    drawn = []
    for original in originals:
        source = docs[original]
        pattern, vocabulary = (WORD, words) if source["lang"] == "en" else (HAN, hans)
        drawn.append([substitute(rng, source["text"], pattern, vocabulary) for _ in range(TRIES)])
    measured = library_distances([[docs[o]["text"]] + [t for t, _ in tries]
                                  for o, tries in zip(originals, drawn)])
    for original, tries, found in zip(originals, drawn, measured):
        keep = next((i for i, (d, k) in enumerate(found) if 1 <= d <= k), None)
        if keep is None:
            sys.exit(f"no copy of document {original} within the recommended k in {TRIES} tries: {found}")
        text, edits = tries[keep]
        docs.append({"id": len(docs), "lang": docs[original]["lang"], "text": text,
                     "copyOf": original, "edits": edits})

    sample = {
        "attribution": ATTRIBUTION,
        "license": LICENSE,
        "generator": f"scripts/demo_sample.py (seed {SEED})",
        "documents": docs,
    }
    # One document per line: compact, yet readable and diffable.
    dump = lambda value: json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    head = dump({k: v for k, v in sample.items() if k != "documents"})[:-1]
    data = head + ',"documents":[\n' + ",\n".join(dump(d) for d in docs) + "\n]}\n"
    assert json.loads(data) == sample
    size = len(data.encode("utf-8"))
    if size > MAX_BYTES:
        sys.exit(f"{out_path}: {size} bytes is over the {MAX_BYTES} budget")
    out_path.write_text(data, encoding="utf-8")
    print(f"{out_path}: {len(docs)} documents ({COPIES} planted near-duplicates), {size} bytes")


if __name__ == "__main__":
    main()
