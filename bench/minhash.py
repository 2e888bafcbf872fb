#!/usr/bin/env python3
"""MinHash on the pairs of the detection-quality evaluation, to say where SimHash stands.

    cargo run --release --example evaluate       # writes ~/.cache/simprint/eval/
    pip install datasketch==2.0.0                  # PyPI; brings numpy and scipy
    python3 bench/minhash.py [EVAL_DIR]            # every corpus of the cross-corpus tables
    SIMPRINT_MINHASH=single python3 bench/minhash.py   # the first corpus's tables, both halves

Reads texts.jsonl and pairs.tsv that bench/evaluate.rs writes (the same texts, pairs, labels,
groups and tune / held-out split), computes datasketch MinHash signatures (128 permutations,
seed 1) of each text under four shinglings, and decides each pair two ways:

- LSH: datasketch's MinHashLSH at a threshold t (its bands and rows, chosen by datasketch for
  t), a pair flagged when the second text is a candidate of the first: what a deployment
  would do;
- estimate: the estimated Jaccard similarity of the two signatures at least t (no banding):
  the best MinHash can do with 128 permutations.

For each shingling and way, t is chosen on the tuning half (best F1 over t = 0.05 to 0.95 in
steps of 0.05); the tables give precision, recall and F1 per group on the held-out half at
that t, beside SimHash at recommended_k (the distances and k the evaluation wrote).

Shinglings (text NFKC-folded and lowercased; words are runs of \\w outside CJK runs, CJK runs
are the characters simprint's auto tokenizer cuts into n-grams):
  words+cjk2   single words and CJK character bigrams (simprint's default features)
  w2+cjk2      word 2-shingles and CJK character bigrams
  w3+cjk3      word 3-shingles and CJK character trigrams
  chars5       character 5-grams over the whole text (spaces collapsed)
"""
import collections
import json
import os
import pathlib
import re
import sys
import time
import unicodedata

from datasketch import MinHash, MinHashLSH

NUM_PERM = 128
THRESHOLDS = [round(0.05 * i, 2) for i in range(1, 20)]
GROUPS = ["en", "en+code", "zh", "zh+code", "ja", "ja+code", "ko", "de", "fr"]


def is_cjk(c):
    o = ord(c)
    return (0x2E80 <= o <= 0x2FDF or o in (0x3005, 0x3007) or 0x3021 <= o <= 0x3029
            or 0x3038 <= o <= 0x303B or 0x3040 <= o <= 0x30FF or 0x3100 <= o <= 0x312F
            or 0x31A0 <= o <= 0x31FF or 0x3400 <= o <= 0x4DBF or 0x4E00 <= o <= 0x9FFF
            or 0xF900 <= o <= 0xFAFF or 0xFF66 <= o <= 0xFF9F or 0x20000 <= o <= 0x2FA1F
            or 0x30000 <= o <= 0x323AF)


WORD = re.compile(r"\w+")


def pieces(text):
    """Yields ('cjk', run) and ('words', [words]) in order of appearance."""
    text = unicodedata.normalize("NFKC", text).lower()
    run, other = [], []
    for c in text:
        if is_cjk(c):
            if other:
                yield "words", WORD.findall("".join(other))
                other = []
            run.append(c)
        else:
            if run:
                yield "cjk", "".join(run)
                run = []
            other.append(c)
    if run:
        yield "cjk", "".join(run)
    if other:
        yield "words", WORD.findall("".join(other))


def grams(seq, n, joiner):
    if len(seq) <= n:
        return [joiner.join(seq)] if seq else []
    return [joiner.join(seq[i:i + n]) for i in range(len(seq) - n + 1)]


def shingles(text, word_n, cjk_n):
    out, words = set(), []
    for kind, piece in pieces(text):
        if kind == "cjk":
            out.update(grams(list(piece), cjk_n, ""))
        else:
            words.extend(piece)
    out.update(grams(words, word_n, " "))
    return out


def chars5(text):
    text = " ".join(unicodedata.normalize("NFKC", text).lower().split())
    return set(grams(list(text), 5, ""))


SHINGLINGS = {
    "words+cjk2": lambda t: shingles(t, 1, 2),
    "w2+cjk2": lambda t: shingles(t, 2, 2),
    "w3+cjk3": lambda t: shingles(t, 3, 3),
    "chars5": chars5,
}


class Score:
    def __init__(self):
        self.tp = self.fp = self.fn = 0

    def add(self, flagged, dup):
        if flagged and dup:
            self.tp += 1
        elif flagged:
            self.fp += 1
        elif dup:
            self.fn += 1

    def prf(self):
        p = self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0
        r = self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0
        f = 2 * p * r / (p + r) if p + r else 0.0
        return p, r, f


def table(pairs, flagged):
    """Held-out scores per group, short texts and all, for a list of flagged booleans."""
    scores = collections.defaultdict(Score)
    for p, f in zip(pairs, flagged):
        if p["split"] != "held-out":
            continue
        for key in (p["group"], "short" if p["length"] == "short" else None, "all"):
            if key:
                scores[key].add(f, p["dup"])
    return scores


def best_threshold(pairs, decide):
    """The t with the best F1 on the tuning half; `decide(t)` gives the flagged list."""
    best = (None, -1.0, None)
    for t in THRESHOLDS:
        flagged = decide(t)
        s = Score()
        for p, f in zip(pairs, flagged):
            if p["split"] == "tune":
                s.add(f, p["dup"])
        f1 = s.prf()[2]
        if f1 > best[1]:
            best = (t, f1, flagged)
    return best


def lsh_flags(signatures, used, pairs, t):
    """Whether each pair's second text is a MinHashLSH candidate of its first at threshold t."""
    lsh = MinHashLSH(threshold=t, num_perm=NUM_PERM)
    for i in used:
        lsh.insert(i, signatures[i])
    candidates, out = {}, []
    for p in pairs:
        if p["a"] not in candidates:
            candidates[p["a"]] = set(lsh.query(signatures[p["a"]]))
        out.append(p["b"] in candidates[p["a"]])
    return out


def cross(folder):
    """Every corpus of the cross-corpus evaluation (cross-pairs.tsv), per language, beside
    SimHash at recommended_k at 64 and 128 bits: MinHash LSH at two thresholds, the one chosen
    on the first corpus's tuning half (as the rule's free choices are, so both methods are
    chosen on the same pairs and reported on the others) and each corpus's own best (chosen on
    the pairs it is scored on: an oracle). The tuning half is scored on by neither."""
    texts = [json.loads(line) for line in open(folder / "cross-texts.jsonl", encoding="utf-8")]
    rows = open(folder / "cross-pairs.tsv", encoding="utf-8").read().splitlines()
    header = rows[0].split("\t")
    pairs, tune = [], []
    for line in rows[1:]:
        p = dict(zip(header, line.split("\t")))
        p["a"], p["b"], p["dup"] = int(p["a"]), int(p["b"]), p["duplicate"] == "1"
        (tune if p["split"] == "tune" else pairs).append(p)
    corpora = sorted({p["corpus"] for p in pairs})
    used = sorted({p["a"] for p in pairs + tune} | {p["b"] for p in pairs + tune})
    thresholds = [round(0.05 * i, 2) for i in range(4, 20)]

    def best(signatures, sub):
        out = (None, -1.0, None)
        for t in thresholds:
            flagged = lsh_flags(signatures, used, sub, t)
            s = Score()
            for p, f in zip(sub, flagged):
                s.add(f, p["dup"])
            if s.prf()[2] > out[1]:
                out = (t, s.prf()[2], flagged)
        return out

    signatures, chosen = {}, {}
    for name in ("words+cjk2", "w3+cjk3"):
        shingle = SHINGLINGS[name]
        signatures[name] = dict(zip(used, MinHash.bulk(
            ([x.encode("utf-8") for x in shingle(texts[i])] for i in used),
            num_perm=NUM_PERM, seed=1)))
        chosen[name] = best(signatures[name], tune)[0]
    print(f"# MinHash LSH against SimHash on every corpus (bench/minhash.py, datasketch, "
          f"{NUM_PERM} permutations)\n")
    print(f"{len(pairs)} pairs (the first corpus's held-out half and every other corpus); "
          f"thresholds chosen on its tuning half ({len(tune)} pairs): "
          + ", ".join(f"{name} {t}" for name, t in chosen.items()) + "\n")
    print(f"{'corpus':<12} {'lang':<4} {'method':<36} {'pairs':>6}  P     R     F1")
    for corpus in corpora:
        sub = [p for p in pairs if p["corpus"] == corpus]
        langs = sorted({p["lang"] for p in sub}) + ["all"]
        results = {
            "SimHash 64, recommended_k": [int(p["d64"]) <= int(p["k64"]) for p in sub],
            "SimHash 128, recommended_k": [int(p["d128"]) <= int(p["k128"]) for p in sub],
        }
        for name in ("words+cjk2", "w3+cjk3"):
            t = chosen[name]
            results[f"MinHash {name}, LSH at A's {t}"] = lsh_flags(signatures[name], used, sub, t)
            oracle = best(signatures[name], sub)
            results[f"MinHash {name}, LSH at best {oracle[0]}"] = oracle[2]
        for lang in langs:
            for name, flagged in results.items():
                s = Score()
                n = 0
                for p, f in zip(sub, flagged):
                    if lang in ("all", p["lang"]):
                        s.add(f, p["dup"])
                        n += 1
                print(f"{corpus:<12} {lang:<4} {name:<36} {n:>6}  " +
                      " ".join(f"{x:.3f}" for x in s.prf()))
        sys.stdout.flush()


def main():
    folder = pathlib.Path(sys.argv[1] if len(sys.argv) > 1
                          else os.path.expanduser("~/.cache/simprint/eval"))
    if (folder / "cross-pairs.tsv").exists() and os.environ.get("SIMPRINT_MINHASH") != "single":
        cross(folder)
        return
    texts = [json.loads(line) for line in open(folder / "texts.jsonl", encoding="utf-8")]
    rows = open(folder / "pairs.tsv", encoding="utf-8").read().splitlines()
    header = rows[0].split("\t")
    pairs = []
    for line in rows[1:]:
        p = dict(zip(header, line.split("\t")))
        p["a"], p["b"], p["dup"] = int(p["a"]), int(p["b"]), p["duplicate"] == "1"
        pairs.append(p)
    used = sorted({p["a"] for p in pairs} | {p["b"] for p in pairs})
    print(f"# MinHash against SimHash (bench/minhash.py, datasketch, {NUM_PERM} permutations)\n")
    print(f"{len(texts)} texts, {len(pairs)} pairs from {folder}\n")

    results = {"SimHash, recommended_k": table(
        pairs, [int(p["distance"]) <= int(p["k"]) for p in pairs])}
    chosen = {}
    for name, shingle in SHINGLINGS.items():
        started = time.time()
        sets = {i: shingle(texts[i]) for i in used}
        signatures = dict(zip(used, MinHash.bulk(
            ([s.encode("utf-8") for s in sets[i]] for i in used), num_perm=NUM_PERM, seed=1)))
        estimate = [signatures[p["a"]].jaccard(signatures[p["b"]]) for p in pairs]
        t, f1, flagged = best_threshold(pairs, lambda t: [e >= t for e in estimate])
        results[f"MinHash {name}, estimate ≥ {t}"] = table(pairs, flagged)
        chosen[(name, "estimate")] = (t, f1)

        def lsh_flags(t):
            lsh = MinHashLSH(threshold=t, num_perm=NUM_PERM)
            for i in used:
                lsh.insert(i, signatures[i])
            candidates = {}
            out = []
            for p in pairs:
                if p["a"] not in candidates:
                    candidates[p["a"]] = set(lsh.query(signatures[p["a"]]))
                out.append(p["b"] in candidates[p["a"]])
            return out

        t, f1, flagged = best_threshold(pairs, lsh_flags)
        results[f"MinHash {name}, LSH at {t}"] = table(pairs, flagged)
        chosen[(name, "LSH")] = (t, f1)
        print(f"({name}: {time.time() - started:.0f} s)", file=sys.stderr)

    print("Thresholds chosen on the tuning half (its F1 there):\n")
    for (name, way), (t, f1) in chosen.items():
        print(f"  {name:<11} {way:<8} t = {t:<5} F1 {f1:.4f}")
    print("\n## Held-out: precision recall F1 per group\n")
    keys = GROUPS + ["short", "all"]
    print(f"{'method':<36} | " + " | ".join(f"{k:^17}" for k in keys))
    for name, scores in results.items():
        cells = " | ".join("{:.3f} {:.3f} {:.3f}".format(*scores[k].prf()) for k in keys)
        print(f"{name:<36} | {cells}")
    print("\n## Held-out F1 only\n")
    print(f"{'method':<36} | " + " | ".join(f"{k:>7}" for k in keys))
    for name, scores in results.items():
        print(f"{name:<36} | " + " | ".join(f"{scores[k].prf()[2]:>7.3f}" for k in keys))


if __name__ == "__main__":
    main()
