#!/usr/bin/env python3
"""Fetches real revisions for the evaluation: documentation files of npm and PyPI packages in
several consecutive versions, each written by the package's authors (not for tests).

    python3 scripts/revisions.py [OUT]      # default OUT: ~/.cache/simprint/revisions

Packages are fetched with the ordinary clients only: `npm view` and `npm pack` for npm,
`pip index versions` and `pip download --only-binary :all:` (a wheel: nothing is built; its
METADATA carries the README) for PyPI. Only the registries are contacted. Running it again
fetches only what is missing.

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

The packages are a fixed list, chosen by hand for documentation that is revised from
version to version; the versions are the last `VERSIONS[lang]` releases that are not
pre-releases (8 in English, 30 in Chinese and Japanese, where documentation is scarcer). bench/evaluate.rs pairs the versions of each file and labels each pair by its
measured word-level change.
"""
import email.parser
import html
import io
import json
import os
import pathlib
import re
import subprocess
import sys
import tarfile
import tempfile
import zipfile

# Versions per language: Chinese and Japanese documentation is scarcer, so more of its
# history is read.
VERSIONS = {"en": 8, "zh": 30, "ja": 30}
# (registry, package, language). npm tarballs hold the README and often docs/; PyPI wheels
# hold the README in METADATA.
PACKAGES = [
    ("npm", "npm", "en"),
    ("npm", "commander", "en"),
    ("npm", "axios", "en"),
    ("npm", "yargs", "en"),
    ("npm", "eslint", "en"),
    ("pypi", "requests", "en"),
    ("pypi", "rich", "en"),
    ("npm", "pinyin-pro", "zh"),
    ("npm", "form-render", "zh"),
    ("npm", "@wangeditor/editor", "zh"),
    ("npm", "@ltd/j-toml", "zh"),
    ("npm", "mockjs", "zh"),
    ("pypi", "pypinyin", "zh"),
    ("pypi", "wechatpayv3", "zh"),
    ("pypi", "xpinyin", "zh"),
    ("npm", "textlint-rule-preset-ja-technical-writing", "ja"),
    ("npm", "textlint-rule-ja-no-redundant-expression", "ja"),
    ("npm", "textlint-rule-ja-no-abusage", "ja"),
    ("npm", "textlint-rule-no-doubled-joshi", "ja"),
    ("npm", "textlint-rule-preset-ja-spacing", "ja"),
    ("npm", "textlint-rule-preset-smarthr", "ja"),
    ("npm", "moji", "ja"),
    ("npm", "analyze-desumasu-dearu", "ja"),
    ("pypi", "japanize-matplotlib", "ja"),
    # Added 2026-11-27: the first Chinese and Japanese lists gave 57 and 32 near-duplicate
    # pairs, too few to judge a language by.
    ("npm", "cnchar", "zh"),
    ("npm", "xe-utils", "zh"),
    ("npm", "lunar-javascript", "zh"),
    ("npm", "nzh", "zh"),
    ("npm", "vxe-table", "zh"),
    ("npm", "uview-ui", "zh"),
    ("npm", "egg", "zh"),
    ("pypi", "akshare", "zh"),
    ("pypi", "efinance", "zh"),
    ("pypi", "jionlp", "zh"),
    ("pypi", "cnocr", "zh"),
    ("pypi", "ddddocr", "zh"),
    ("pypi", "qianfan", "zh"),
    ("pypi", "bilibili-api-python", "zh"),
    ("pypi", "nonebot2", "zh"),
    ("pypi", "tushare", "zh"),
    ("npm", "@geolonia/normalize-japanese-addresses", "ja"),
    ("npm", "japanese-holidays", "ja"),
    ("npm", "textlint-rule-preset-jtf-style", "ja"),
    ("npm", "textlint-rule-ja-no-mixed-period", "ja"),
    ("npm", "textlint-rule-ja-hiragana-keishikimeishi", "ja"),
    ("npm", "textlint-rule-no-mix-dearu-desumasu", "ja"),
    ("npm", "textlint-rule-max-ten", "ja"),
    ("npm", "textlint-rule-ja-unnatural-alphabet", "ja"),
    ("npm", "textlint-rule-ja-no-successive-word", "ja"),
    ("npm", "textlint-rule-preset-japanese", "ja"),
    ("npm", "@textlint-ja/textlint-rule-no-synonyms", "ja"),
    ("npm", "kuroshiro", "ja"),
    ("pypi", "neologdn", "ja"),
    ("pypi", "jpholiday", "ja"),
    ("pypi", "japanize-kivy", "ja"),
]
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


def main():
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.expanduser("~/.cache/simprint/revisions"))
    out.mkdir(parents=True, exist_ok=True)
    manifest = []
    with tempfile.TemporaryDirectory() as tmp:
        for registry, name, lang in PACKAGES:
            folder = out / lang / name.replace("/", "+")
            done = folder / "versions.txt"
            if not done.exists():
                try:
                    versions = (npm_versions if registry == "npm" else pypi_versions)(name)
                except (subprocess.CalledProcessError, json.JSONDecodeError) as e:
                    print(f"{name}: no versions ({e})", file=sys.stderr)
                    continue
                versions = versions[-VERSIONS[lang]:]
                fetched = []
                for version in versions:
                    try:
                        files = (npm_files if registry == "npm" else pypi_files)(name, version,
                                                                                  tmp)
                    except (subprocess.CalledProcessError, tarfile.TarError) as e:
                        print(f"{name}@{version}: {e}", file=sys.stderr)
                        continue
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
                folder.mkdir(parents=True, exist_ok=True)
                done.write_text("".join(v + "\n" for v in fetched))
            versions = done.read_text().split()
            files = sum(1 for v in versions for _ in (folder / v).glob("*.txt"))
            manifest.append("\t".join([name, registry, lang, " ".join(versions), str(files)]))
            print(f"{name}: {len(versions)} versions, {files} files", file=sys.stderr)
    (out / "manifest.tsv").write_text("package\tregistry\tlang\tversions\tfiles\n" +
                                      "".join(line + "\n" for line in manifest),
                                      encoding="utf-8")
    print(out)


if __name__ == "__main__":
    main()
