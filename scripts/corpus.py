#!/usr/bin/env python3
"""Fetches real documentation text for measurements (not for tests).

Downloads Debian's `debian-handbook` package (and, as a second, unrelated source,
`debian-reference-en` and `debian-reference-zh-cn`) with `apt-get download` (nothing is
installed), unpacks them with `dpkg-deb -x`, and turns the English and Simplified Chinese
HTML pages into plain-text documents: one file per page, paragraphs separated by blank lines.

    python3 scripts/corpus.py [OUT]      # default OUT: ~/.cache/simprint/corpus

Prints the folder; it holds en/*.txt and zh/*.txt (the handbook), en.txt / zh.txt (all its
pages joined), and other-en/*.txt, other-zh/*.txt (the Debian Reference).
"""
import html.parser
import os
import pathlib
import subprocess
import sys
import tempfile

PACKAGE = "debian-handbook"
OTHER = {"en": "debian-reference-en", "zh": "debian-reference-zh-cn"}


class Text(html.parser.HTMLParser):
    """Collects the text of block elements as paragraphs; skips navigation and code."""

    BLOCKS = {"p", "li", "td", "th", "h1", "h2", "h3", "h4", "dt", "dd", "blockquote"}
    SKIP = {"script", "style", "pre", "head", "nav"}

    def __init__(self):
        super().__init__()
        self.paragraphs, self.current, self.skip = [], [], 0

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self.skip += 1
        elif tag in self.BLOCKS:
            self.flush()

    def handle_endtag(self, tag):
        if tag in self.SKIP:
            self.skip = max(0, self.skip - 1)
        elif tag in self.BLOCKS:
            self.flush()

    def handle_data(self, data):
        if not self.skip:
            self.current.append(data)

    def flush(self):
        text = " ".join("".join(self.current).split())
        if len(text) > 1:
            self.paragraphs.append(text)
        self.current = []


def main():
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.expanduser("~/.cache/simprint/corpus"))
    if (out / "en.txt").exists() and (out / "zh.txt").exists() and (out / "other-zh").exists():
        print(out)
        return
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["apt-get", "download", PACKAGE], cwd=tmp, check=True,
                       stdout=subprocess.DEVNULL)
        deb = next(pathlib.Path(tmp).glob(f"{PACKAGE}_*.deb"))
        subprocess.run(["dpkg-deb", "-x", str(deb), f"{tmp}/x"], check=True)
        html_root = pathlib.Path(tmp) / "x/usr/share/doc" / PACKAGE / "html"
        for lang, folder in (("en", "en-US"), ("zh", "zh-CN")):
            (out / lang).mkdir(parents=True, exist_ok=True)
            joined = []
            for page in sorted((html_root / folder).glob("*.html")):
                parser = Text()
                parser.feed(page.read_text(encoding="utf-8"))
                parser.flush()
                text = "\n\n".join(parser.paragraphs)
                if len(text) >= 2000:
                    (out / lang / (page.stem + ".txt")).write_text(text + "\n", encoding="utf-8")
                    joined.append(text)
            (out / f"{lang}.txt").write_text("\n\n".join(joined) + "\n", encoding="utf-8")
        for lang, package in OTHER.items():
            subprocess.run(["apt-get", "download", package], cwd=tmp, check=True,
                           stdout=subprocess.DEVNULL)
            deb = next(pathlib.Path(tmp).glob(f"{package}_*.deb"))
            subprocess.run(["dpkg-deb", "-x", str(deb), f"{tmp}/{package}"], check=True)
            suffix = ".en.html" if lang == "en" else ".zh-cn.html"
            (out / f"other-{lang}").mkdir(parents=True, exist_ok=True)
            for page in sorted(pathlib.Path(tmp, package).rglob(f"*{suffix}")):
                parser = Text()
                parser.feed(page.read_text(encoding="utf-8"))
                parser.flush()
                text = "\n\n".join(parser.paragraphs)
                if len(text) >= 2000:
                    name = page.name[: -len(suffix)] + ".txt"
                    (out / f"other-{lang}" / name).write_text(text + "\n", encoding="utf-8")
    print(out)


if __name__ == "__main__":
    main()
