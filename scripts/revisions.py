#!/usr/bin/env python3
"""Fetches real revisions for the evaluation: documentation files of npm and PyPI packages in
several consecutive versions, each written by the package's authors (not for tests).

    python3 scripts/revisions.py [OUT]      # default OUT: ~/.cache/simprint/revisions

Packages are fetched with the ordinary clients only: `npm pack` for npm, `pip download
--only-binary :all:` for PyPI (a wheel: nothing is built; its METADATA carries the README).
Only the registries are contacted. Running it again fetches only what is missing or what
differs from the pinned list.

**The versions are pinned** in scripts/revisions.tsv (package, registry, language, versions
oldest first, and the number of files kept), so the corpus, and every figure of
docs/evaluation.md over it, is the same whenever it is fetched: a list of "the last N
releases" moves as packages publish, and a version whose download failed was once skipped in
silence. A pinned version that cannot be fetched, or a file count that differs from the pin,
stops the script with an error. `--latest` fetches the newest releases instead (the last
`VERSIONS[lang]` that are not pre-releases, as the pin was made on 2026-11-27) and prints the
table to pin them; the evaluation's figures then need to be run again.

Layout of OUT:

    <lang>/<package>/<version>/<path>.txt   one file of documentation of one version, as
                                            plain text: Markdown and reStructuredText markup
                                            and code blocks dropped, paragraphs separated by
                                            a blank line, a paragraph on one line
    <lang>/<package>/versions.txt           the versions fetched, oldest first
    manifest.tsv                            package, registry, language, versions, files

<lang> is en, zh or ja: the language the package's documentation is written in (for zh and
ja, files under 10 % CJK characters are left out, as translations left in English are in
scripts/corpus.py). Changelogs and licences are left out: a changelog only grows at its top.

The packages were chosen by hand for documentation that is revised from version to version;
the versions pinned are the last 8 releases in English and 30 in Chinese and Japanese (where
documentation is scarcer) as of 2026-11-27. bench/evaluate.rs pairs the versions of each file
and labels each pair by its measured word-level change, and says whether the folder it reads
holds the pinned versions.
"""
import email.parser
import html
import io
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile

# Versions per language for --latest: Chinese and Japanese documentation is scarcer, so more
# of its history is read.
VERSIONS = {"en": 8, "zh": 30, "ja": 30}
# package, registry, language, pinned versions (oldest first), files kept. npm tarballs hold
# the README and often docs/; PyPI wheels hold the README in METADATA. The Chinese and
# Japanese lists were extended on 2026-11-27 (the first gave 57 and 32 near-duplicate pairs,
# too few to judge a language by).
PINNED = pathlib.Path(__file__).with_name("revisions.tsv")


def pinned():
    """[(registry, name, lang, versions, files)] from scripts/revisions.tsv."""
    rows = PINNED.read_text(encoding="utf-8").splitlines()
    out = []
    for line in rows[1:]:
        name, registry, lang, versions, files = line.split("\t")
        out.append((registry, name, lang, versions.split(), int(files)))
    return out


DOC = re.compile(r"(^|/)(readme[^/]*|docs?/.*)\.(md|markdown|rst|txt)$", re.IGNORECASE)
SKIP = re.compile(r"(changelog|changes|history|license|licence|authors|contributors|release)",
                  re.IGNORECASE)
STABLE = re.compile(r"^\d+(\.\d+)*$")


def is_cjk(c):
    o = ord(c)
    return (0x3040 <= o <= 0x30FF or 0x3400 <= o <= 0x4DBF or 0x4E00 <= o <= 0x9FFF
            or 0xF900 <= o <= 0xFAFF)


def version_key(v):
    return [int(x) for x in v.split(".")]


def npm_versions(name):
    out = subprocess.run(["npm", "view", name, "versions", "--json"], check=True,
                         capture_output=True, text=True).stdout
    versions = json.loads(out)
    return sorted((v for v in versions if STABLE.match(v)), key=version_key)


def pypi_versions(name):
    out = subprocess.run([sys.executable, "-m", "pip", "index", "versions", name],
                         check=True, capture_output=True, text=True).stdout
    m = re.search(r"Available versions: (.*)", out)
    versions = [v.strip() for v in m.group(1).split(",")] if m else []
    return sorted((v for v in versions if STABLE.match(v)), key=version_key)


def npm_files(name, version, tmp):
    """{path: text} of the package's documentation files at `version`."""
    subprocess.run(["npm", "pack", f"{name}@{version}", "--pack-destination", tmp],
                   check=True, capture_output=True)
    tgz = max(pathlib.Path(tmp).glob("*.tgz"), key=os.path.getmtime)
    files = {}
    with tarfile.open(tgz) as tar:
        for member in tar.getmembers():
            path = member.name.split("/", 1)[-1]
            if member.isfile() and DOC.search(path) and not SKIP.search(path):
                files[path] = tar.extractfile(member).read().decode("utf-8", "replace")
    tgz.unlink()
    return files


def pypi_files(name, version, tmp):
    """{"README": text} from the wheel's METADATA (its long description)."""
    result = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps",
                             "--only-binary", ":all:", "-d", tmp, f"{name}=={version}"],
                            capture_output=True)
    wheels = sorted(pathlib.Path(tmp).glob("*.whl"), key=os.path.getmtime)
    if result.returncode != 0 or not wheels:
        return {}
    files = {}
    with zipfile.ZipFile(wheels[-1]) as whl:
        for info in whl.namelist():
            if info.endswith(".dist-info/METADATA"):
                message = email.parser.Parser().parsestr(whl.read(info).decode("utf-8", "replace"))
                body = message.get_payload() or message.get("Description", "")
                if body.strip():
                    files["README"] = body
    wheels[-1].unlink()
    return files


FENCE = re.compile(r"^(```|~~~)")
RST_UNDERLINE = re.compile(r"^([=\-~^\"'`#*+])\1{2,}\s*$")


def plain(text):
    """Markdown or reStructuredText as paragraphs of plain text: code blocks, tables, HTML
    tags, images and link targets dropped, emphasis marks and heading marks removed."""
    paragraphs, current, fenced, literal = [], [], False, False
    # HTML first, over the whole text: tags and comments span lines.
    text = re.sub(r"<!--.*?-->", " ", text.replace("\r\n", "\n"), flags=re.DOTALL)
    text = re.sub(r"<[a-zA-Z/][^>]*>", " ", text, flags=re.DOTALL)
    text = html.unescape(text)
    for raw in text.split("\n"):
        line = raw.rstrip()
        if FENCE.match(line.strip()):
            fenced = not fenced
            continue
        if fenced:
            continue
        if literal:
            if not line.strip() or line.startswith((" ", "\t")):
                continue
            literal = False
        if line.strip().startswith(".. ") or line.strip().endswith("::"):
            # rst directives and literal blocks: their indented body is code or markup.
            literal = True
            line = line.strip()[:-2] if line.strip().endswith("::") else ""
        if RST_UNDERLINE.match(line) or line.strip().startswith("|") or not line.strip():
            if current:
                paragraphs.append(" ".join(current))
                current = []
            continue
        if raw.startswith("    ") and not current:
            continue  # an indented code block
        line = re.sub(r"!\[[^\]]*\]\([^)]*\)", " ", line)
        line = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", line)
        line = re.sub(r"`([^`]*)`_?", r"\1", line)
        line = re.sub(r"[*_]{1,3}([^*_]+)[*_]{1,3}", r"\1", line)
        line = re.sub(r"^\s*(#{1,6}|[-*+]|\d+\.)\s+", "", line)
        words = line.split()
        if words:
            current.append(" ".join(words))
    if current:
        paragraphs.append(" ".join(current))
    # CJK text wrapped over lines gained spaces between its characters at the joins.
    joined = [re.sub(r"(?<=[\u3040-\u30ff\u4e00-\u9fff。、，]) (?=[\u3040-\u30ff\u4e00-\u9fff])",
                     "", p) for p in paragraphs]
    return "\n\n".join(p for p in joined if len(p) > 1)


def is_kana(c):
    return 0x3040 <= ord(c) <= 0x30FF


def in_language(text, lang):
    if lang == "en":
        return True
    chars = [c for c in text if not c.isspace()]
    cjk = [c for c in chars if is_cjk(c)]
    if not chars or len(cjk) < 0.10 * len(chars):
        return False
    # Packages ship translations side by side (README.ja-JP.md in a Chinese package,
    # README.zh-cn.md in a Japanese one): Japanese writes kana between its kanji (over half
    # of the CJK characters in every Japanese file kept), Chinese none.
    kana = sum(map(is_kana, cjk)) / len(cjk)
    return kana >= 0.2 if lang == "ja" else kana <= 0.02


def fetch(registry, name, lang, versions, folder, tmp):
    """Writes each version's documentation files under folder/<version>/; the versions that
    kept at least one file."""
    fetched = []
    for version in versions:
        try:
            files = (npm_files if registry == "npm" else pypi_files)(name, version, tmp)
        except (subprocess.CalledProcessError, tarfile.TarError, zipfile.BadZipFile) as e:
            # A corpus with a version quietly missing would give figures no one can reproduce;
            # the half-written folder is redone on the next run (its versions.txt is not written).
            sys.exit(f"{name}@{version}: could not fetch it ({e}); run the script again")
        kept = 0
        for path, text in files.items():
            text = plain(text)
            if len(text) < 40 or not in_language(text, lang):
                continue
            target = folder / version / (path.replace("/", "+") + ".txt")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text + "\n", encoding="utf-8")
            kept += 1
        if kept:
            fetched.append(version)
    return fetched


def main():
    args = [a for a in sys.argv[1:] if a != "--latest"]
    latest = "--latest" in sys.argv[1:]
    out = pathlib.Path(args[0] if args else os.path.expanduser("~/.cache/simprint/revisions"))
    out.mkdir(parents=True, exist_ok=True)
    manifest, wrong = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for registry, name, lang, pin, pin_files in pinned():
            folder = out / lang / name.replace("/", "+")
            done = folder / "versions.txt"
            if latest:
                listed = (npm_versions if registry == "npm" else pypi_versions)(name)
                want = listed[-VERSIONS[lang]:]
            else:
                want = pin
            have = done.read_text().split() if done.exists() else None
            if have != want:
                if folder.exists():
                    shutil.rmtree(folder)
                fetched = fetch(registry, name, lang, want, folder, tmp)
                folder.mkdir(parents=True, exist_ok=True)
                done.write_text("".join(v + "\n" for v in fetched))
            versions = done.read_text().split()
            files = sum(1 for v in versions for _ in (folder / v).glob("*.txt"))
            manifest.append("\t".join([name, registry, lang, " ".join(versions), str(files)]))
            print(f"{name}: {len(versions)} versions, {files} files", file=sys.stderr)
            if not latest and (versions != pin or files != pin_files):
                wrong.append(f"{name}: {len(versions)} versions and {files} files, pinned "
                             f"{len(pin)} and {pin_files}")
    table = "package\tregistry\tlang\tversions\tfiles\n" + "".join(l + "\n" for l in manifest)
    (out / "manifest.tsv").write_text(table, encoding="utf-8")
    if latest:
        print(f"# the newest releases; to pin them, write this to {PINNED}:", file=sys.stderr)
        print(table, end="")
        return
    if wrong:
        sys.exit("not as pinned in scripts/revisions.tsv (a registry's text changed?):\n  "
                 + "\n  ".join(wrong))
    print(out)


if __name__ == "__main__":
    main()
