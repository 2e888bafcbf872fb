#!/usr/bin/env python3
"""Fetches real documentation text for measurements (not for tests).

Every text comes from Debian packages fetched with `apt-get download` (nothing is installed)
and unpacked with `dpkg-deb -x` into a temporary folder; HTML pages and man pages are turned
into plain text. Only the Debian archive is contacted.

    python3 scripts/corpus.py [OUT]      # default OUT: ~/.cache/simprint/corpus

Prints the folder. Running it again fetches only what is missing (a corpus folder counts as
present once its `.done` file is written), so interrupted runs resume.

scripts/corpus.tsv is the manifest of the corpus every figure in docs/ was measured on (package
versions, files, characters). Debian's archive serves only the current version of a package,
and point releases update some of these (LibreOffice's help with each security fix), so this
script cannot pin versions; it fetches what the archive has and, at the end, names every corpus
whose line differs from that manifest: figures measured on it may differ from the docs'.
`bench/evaluate.rs` says the same of the folder it reads.

Layout of OUT (stable: other programs read it; add to it, do not move things):

    en/*.txt, zh/*.txt          the Debian Administrator's Handbook in English and Simplified
                                Chinese, one file per HTML page, code blocks left out (the
                                first layout; kept byte for byte as it was)
    en.txt, zh.txt              all pages of en/ or zh/ joined
    other-en/*.txt, other-zh/*.txt   the Debian Reference in English and Chinese, the same way

    <corpus>/<lang>/*.txt       one file per section of a page (HTML) or per man page
    manifest.tsv                one line per <corpus>/<lang>: package, version, files,
                                characters, and the share of CJK, Hangul and ASCII characters
                                among the non-space characters

<lang> is one of en, zh (Simplified Chinese), ja, ko, de, fr. <corpus> is one of

    handbook        debian-handbook (one package holds every translation): book prose
    handbook-code   the same sections with their code blocks (<pre>: commands, their output,
                    configuration files) kept, each as one paragraph with its line breaks
    reference       debian-reference-<lang> (no Korean): a reference dense with commands,
                    package names and paths
    reference-code  the same with code blocks
    faq             debian-faq, debian-faq-<lang>: questions and answers
    faq-code        the same with code blocks
    help            libreoffice-help-<lang>: LibreOffice's help, short pages about menus,
                    dialogs and functions (Korean's second source of a different shape: the
                    handbook's Korean translation is mostly untranslated)
    help-code       the same with code blocks (Basic and formula examples)
    man             manpages, manpages-<lang> (no Korean; Chinese from zh_CN only): man pages
                    rendered from troff by this script (not by groff, so the text does not
                    depend on the groff version or terminal width): option lists, synopses
                    and examples mixed with prose

In every .txt file paragraphs are separated by one blank line; a paragraph of prose is one
line, a code block or a man page's unfilled block (.nf, .EX) keeps its line breaks.
Navigation, tables of contents and banners are left out. A file is kept if it has at least
1,000 characters; for a translation, also only if it is mostly translated: pages whose
non-space characters are under 10 % CJK (zh, ja) or Hangul (ko), or (de, fr) whose words
are over 4 % English function words ("the", "and", "of", "is", "to"), are left out, since
the handbook's Chinese and Japanese translations leave some pages in English. Paragraphs
left in English inside translated pages stay: mixed text is what the evaluation wants.

An HTML page is cut at its <h2> headings (text before the first one goes with the first
section) and named <page>-<nn>.txt; a page without <h2> is <page>-00.txt (LibreOffice help
pages: their path under text/ with dots for slashes, e.g. shared.optionen.01030300-00.txt).
Man pages are <name>.<section>.txt.

Three more corpora, in English, Chinese and Japanese only, of other documentation families
than the handbook's, for the evaluation's second and third corpora (B and C in
docs/evaluation.md):

    gnome           gnome-user-docs: GNOME's desktop help (Mallard pages, C = English,
                    zh_CN, ja): short task pages, one file per page (<page>-00.txt), the
                    page's <info> (credits, links, revision dates) left out
    install         installation-guide-amd64: the Debian installation guide (DocBook HTML,
                    en, zh_CN, ja), cut at <h2> as above, code blocks left out
    devref          developers-reference, developers-reference-ja: the Debian developer's
                    reference (Sphinx HTML, en and ja; it has no Chinese), cut at <h2>

Five more, Chinese and Japanese only, of applications' own manuals (other projects and
translators than any above, none of them used to tune the library): samples that
fingerprinting speed is reported on (issue 30), code blocks kept, cut at <h2> as above, files
of at least 300 characters:

    kicad           kicad-doc-zh, kicad-doc-ja: KiCad's manuals (electronics design)
    gimp            gimp-help-zh-cn, gimp-help-ja: GIMP's help (mostly untranslated in
                    Chinese: what is left is its licence, history, bibliography and key lists)
    lilypond        lilypond-doc-html-zh, -ja: LilyPond's web pages and manuals (its music
                    input language in every example), the one-page copies left out
    edu             debian-edu-doc-zh-cn, -ja: the Debian Edu bookworm manual
    help-tw         libreoffice-help-zh-tw under zh/: LibreOffice's help in Traditional
                    Chinese, with code blocks (`help-code`'s pages, another translation)
"""
import gzip
import html.parser
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

LEGACY_PACKAGE = "debian-handbook"
LEGACY_OTHER = {"en": "debian-reference-en", "zh": "debian-reference-zh-cn"}

LANGS = ("en", "zh", "ja", "ko", "de", "fr")
HANDBOOK_LOCALE = {"en": "en-US", "zh": "zh-CN", "ja": "ja-JP", "ko": "ko-KR", "de": "de-DE",
                   "fr": "fr-FR"}
# Debian's language codes in package and file names.
DEBIAN_CODE = {"en": "en", "zh": "zh-cn", "ja": "ja", "ko": "ko", "de": "de", "fr": "fr"}
MAN_FOLDER = {"en": "", "zh": "zh_CN", "ja": "ja", "de": "de", "fr": "fr"}
HELP_LOCALE = {"en": "en-US", "zh": "zh-CN", "ja": "ja", "ko": "ko", "de": "de", "fr": "fr"}
MIN_CHARS = 1000


class Text(html.parser.HTMLParser):
    """The first layout's extractor, kept unchanged so en/, zh/ and other-*/ stay as they
    were: text of block elements as paragraphs; skips navigation and code."""

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


def is_cjk(c):
    o = ord(c)
    return (0x2E80 <= o <= 0x2FDF or 0x3005 <= o <= 0x3007 or 0x3040 <= o <= 0x30FF
            or 0x3100 <= o <= 0x312F or 0x31A0 <= o <= 0x31FF or 0x3400 <= o <= 0x4DBF
            or 0x4E00 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF or 0xFF66 <= o <= 0xFF9F
            or 0x20000 <= o <= 0x323AF)


def is_hangul(c):
    o = ord(c)
    return 0xAC00 <= o <= 0xD7AF or 0x1100 <= o <= 0x11FF or 0x3130 <= o <= 0x318F


class Sections(html.parser.HTMLParser):
    """Paragraphs of an HTML page, cut into sections at <h2>. With `code`, each <pre> block
    is one paragraph that keeps its line breaks; without, <pre> is left out."""

    BLOCKS = {"p", "div", "li", "td", "th", "h1", "h2", "h3", "h4", "h5", "dt", "dd",
              "blockquote", "tr", "table", "ul", "ol", "dl", "br", "title"}
    SKIP_TAGS = {"script", "style", "head", "nav", "header", "footer", "aside", "noscript"}
    # DocBook and publican navigation: the same on every page, not the page's text.
    SKIP_CLASSES = {"navheader", "navfooter", "docnav", "toc", "list-of-tables",
                    "list-of-figures", "list-of-examples", "relatedtopics"}
    SKIP_IDS = {"banner", "title"}

    def __init__(self, code):
        super().__init__(convert_charrefs=True)
        self.code = code
        self.sections = [[]]
        self.current = []
        self.skipping = None  # (tag, depth) of the element being left out
        self.pre = 0

    def handle_starttag(self, tag, attrs):
        if self.skipping:
            if tag == self.skipping[0]:
                self.skipping = (tag, self.skipping[1] + 1)
            return
        attrs = dict(attrs)
        classes = set((attrs.get("class") or "").split())
        if (tag in self.SKIP_TAGS or classes & self.SKIP_CLASSES or "hidden" in attrs
                or attrs.get("id") in self.SKIP_IDS or (tag == "pre" and not self.code)):
            self.flush()
            self.skipping = (tag, 1)
            return
        if tag == "pre":
            self.flush()
            self.pre += 1
        elif tag in self.BLOCKS and not self.pre:
            self.flush()
            if tag == "h2" and any(self.sections[-1]):
                self.sections.append([])

    def handle_startendtag(self, tag, attrs):
        # <br/> and friends: no end tag follows, so nothing to count for skipping.
        if not self.skipping and tag in self.BLOCKS and not self.pre:
            self.flush()

    def handle_endtag(self, tag):
        if self.skipping:
            if tag == self.skipping[0]:
                depth = self.skipping[1] - 1
                self.skipping = (tag, depth) if depth else None
            return
        if tag == "pre" and self.pre:
            self.pre -= 1
            if not self.pre:
                self.flush_pre()
        elif tag in self.BLOCKS and not self.pre:
            self.flush()

    def handle_data(self, data):
        if not self.skipping:
            self.current.append(data)

    def flush(self):
        text = join_words("".join(self.current).split())
        if len(text) > 1:
            self.sections[-1].append(text)
        self.current = []

    def flush_pre(self):
        lines = [line.rstrip() for line in "".join(self.current).split("\n")]
        text = "\n".join(line for line in lines if line.strip())
        if text:
            self.sections[-1].append(text)
        self.current = []


SPACE = "\0"  # a word of its own: the words either side are always apart


def join_words(words):
    """Words of filled text joined by spaces, except between two CJK characters (a line
    break inside Chinese or Japanese source text is no space)."""
    out, apart = "", False
    for w in words:
        if w == SPACE:
            apart = True
            continue
        if out and (apart or not (is_cjk(out[-1]) and is_cjk(w[0]))):
            out += " "
        out += w
        apart = False
    return out


# --- man pages -------------------------------------------------------------------------

NAMED = {"em": "—", "en": "–", "hy": "-", "aq": "'", "dq": '"', "lq": "“", "rq": "”",
         "oq": "‘", "cq": "’", "bu": "•", "co": "©", "rg": "®", "tm": "™", "ga": "`",
         "ti": "~", "ha": "^", "rs": "\\", "sl": "/", "mu": "×", "di": "÷", "+-": "±",
         "<=": "≤", ">=": "≥", "!=": "≠", "->": "→", "<-": "←", "fm": "′", "sd": "″",
         "de": "°", "Fo": "«", "Fc": "»", "fo": "‹", "fc": "›", "ba": "|", "br": "│",
         "ul": "_", "rn": "‾", "ct": "¢", "Po": "£", "Eu": "€", "Ye": "¥", "ss": "ß",
         "'e": "é", "`e": "è", "^e": "ê", ":a": "ä", ":o": "ö", ":u": "ü", ":A": "Ä",
         ":O": "Ö", ":U": "Ü", ",c": "ç", "'a": "á", "`a": "à", "^a": "â", "^o": "ô",
         "^i": "î", ":i": "ï", "^u": "û", "`u": "ù", "'E": "É", "ua": "↑", "da": "↓",
         "lB": "[", "rB": "]", "lC": "{", "rC": "}", "la": "⟨", "ra": "⟩", "at": "@",
         "sh": "#", "Do": "$", "pc": "·", "OK": "✓"}
STRINGS = {"R": "®", "Tm": "™", "lq": "“", "rq": "”", "aq": "'"}
ESCAPE = re.compile(r"""\\(?:
      \[(?P<bracket>[^\]]*)\]          # \[xx]
    | \((?P<paren>..)                  # \(xx
    | \*(?:\[(?P<sb>[^\]]*)\]|\((?P<sp>..)|(?P<s1>.))   # strings
    | f(?:\[[^\]]*\]|\(..|.)           # fonts
    | [nmgk](?:\[[^\]]*\]|\(..|.)      # registers, colours, marks
    | s[-+]?(?:\d\d?|\[[^\]]*\]|\(..)  # sizes
    | [hvwlLNXxDbCoZRSYA]'[^']*'       # motions, widths, boxes and the like
    | \$\d                             # macro arguments
    | (?P<char>.)                      # one-character escapes
    )""", re.VERBOSE)
ONE = {"-": "-", "e": "\\", "\\": "\\", " ": " ", "~": " ", "0": " ", "'": "´", "`": "`",
       ".": ".", "t": "\t", "_": "_", "|": "", "^": "", "&": "", "/": "", ",": "", ")": "",
       "%": "", ":": "", "c": "", "{": "", "}": "", "p": "", "r": "", "u": "", "d": "",
       "a": "", "z": "", "E": "", "!": "", "?": ""}


def unescape(s):
    def one(m):
        for name in ("bracket", "paren"):
            if m.group(name) is not None:
                return NAMED.get(m.group(name), "")
        for name in ("sb", "sp", "s1"):
            if m.group(name) is not None:
                return STRINGS.get(m.group(name), "")
        if m.group("char") is not None:
            return ONE.get(m.group("char"), m.group("char"))
        return ""

    return ESCAPE.sub(one, s)


def macro_args(rest):
    """The arguments of a request line: space-separated, double quotes group."""
    args, cur, quoted, i = [], "", False, 0
    while i < len(rest):
        c = rest[i]
        if c == '"':
            if quoted and i + 1 < len(rest) and rest[i + 1] == '"':
                cur += '"'
                i += 1
            else:
                quoted = not quoted
        elif c in " \t" and not quoted:
            if cur:
                args.append(cur)
            cur = ""
        else:
            cur += c
        i += 1
    if cur:
        args.append(cur)
    return args


BREAKS = {"PP", "LP", "P", "sp", "TP", "IP", "HP", "RS", "RE", "br", "in", "ti", "TQ",
          "PD", "SH", "SS", "ne", "bp", "YS", "SY", "EX", "EE", "nf", "fi", "TS", "TE",
          "UR", "MT", "Bd", "Ed", "Pp", "Sh", "Ss", "Bl", "El", "It"}
FONTS = {"B", "I", "SM", "SB", "Nm", "Ar", "Fl", "Cm", "Pa", "Em", "Sy", "Li", "Dv", "Ev",
         "Va", "Fn", "Ic", "Xr"}
ALTERNATING = {"BR", "BI", "IB", "IR", "RB", "RI"}


def man_text(source):
    """A man page's troff source as paragraphs (see the module docs), or None for a page
    that only points at another (.so)."""
    paragraphs, words, block = [], [], None
    lines = source.replace("\r\n", "\n").split("\n")
    i, in_table_format, skip_to, tag_next = 0, False, None, False

    def flush():
        nonlocal words
        text = join_words([w for line in words for w in line.split()])
        if len(text) > 1:
            paragraphs.append(text)
        words = []

    def add(text):
        nonlocal tag_next
        if block is not None:
            block.append(text)
        elif text.strip():
            words.append(text)
            if tag_next:
                words.append(SPACE)
                tag_next = False

    while i < len(lines):
        line = lines[i]
        i += 1
        if skip_to is not None:
            if line.strip() == skip_to:
                skip_to = None
            continue
        # Comments, whole-line and trailing.
        line = re.sub(r'\\".*', "", line)
        if re.match(r"^[.']\s*$", line) or line.startswith(".\\#"):
            continue
        if in_table_format:
            if line.rstrip().endswith("."):
                in_table_format = False
            continue
        if line.startswith(".") or line.startswith("'"):
            m = re.match(r"^[.']\s*(\S+)\s*(.*)$", line)
            if not m:
                continue
            name, rest = m.group(1), m.group(2)
            if name == "so" and not paragraphs and not words:
                return None
            if name in ("de", "de1", "am", "ig"):
                # Macro definitions and ignored blocks run to "..", or for ".ig XX" to ".XX".
                end = rest.split()[0] if name == "ig" and rest.split() else "."
                skip_to = "." + end
                continue
            if name in ("nf", "EX"):
                flush()
                block = []
                continue
            if name in ("fi", "EE"):
                if block is not None:
                    text = "\n".join(x.rstrip() for x in block if x.strip())
                    if text:
                        paragraphs.append(text)
                block = None
                continue
            if name == "TS":
                flush()
                block, in_table_format = [], True
                # Table options line (ends with ';') comes first when present.
                if i < len(lines) and lines[i].rstrip().endswith(";"):
                    i += 1
                continue
            if name == "TE":
                if block is not None:
                    text = "\n".join(" ".join(unescape(x).split("\t")).rstrip()
                                     for x in block if x.strip() and x.strip() not in ("_", "="))
                    if text:
                        paragraphs.append(text)
                block = None
                continue
            args = [unescape(a) for a in macro_args(rest)]
            if name in BREAKS:
                if block is None:
                    flush()
                if name in ("SH", "SS", "Sh", "Ss") and args:
                    paragraphs.append(join_words(" ".join(args).split()))
                elif name in ("IP", "SY", "It") and args:
                    add(args[0] if name == "IP" else " ".join(args))
                elif name == "UR" and args:
                    pass  # the link text follows; the address itself is not prose
                # A .TP tag is the next line: keep it apart from the text it introduces.
                tag_next = name == "TP"
                continue
            if name in FONTS:
                add(" ".join(args))
            elif name in ALTERNATING:
                add("".join(args))
            elif name == "OP":
                add("[" + " ".join(args) + "]")
            elif name in ("UE", "ME"):
                add("".join(args))
            # Every other request (.TH, .ds, .nr, .ad, .hy, .ft, .if ...) sets up the page
            # and carries no text worth keeping.
            continue
        text = unescape(line)
        if block is not None:
            block.append(text)
        elif not text.strip():
            flush()  # a blank line in filled text starts a paragraph
        else:
            add(text)
    if block:
        text = "\n".join(x.rstrip() for x in block if x.strip())
        if text:
            paragraphs.append(text)
    flush()
    return paragraphs


# --- fetching and writing --------------------------------------------------------------

def download(package, tmp):
    """Unpacks `package` into tmp/<package>; returns (folder, version)."""
    folder = pathlib.Path(tmp, package)
    if not folder.exists():
        subprocess.run(["apt-get", "download", package], cwd=tmp, check=True,
                       stdout=subprocess.DEVNULL)
        deb = next(pathlib.Path(tmp).glob(f"{package}_*.deb"))
        subprocess.run(["dpkg-deb", "-x", str(deb), str(folder)], check=True)
    deb = next(pathlib.Path(tmp).glob(f"{package}_*.deb"))
    version = deb.name[len(package) + 1:].rsplit("_", 1)[0].replace("%3a", ":")
    return folder, version


def translated(lang, text):
    """Whether a page of a translation is mostly in its language (see the module docs)."""
    chars = [c for c in text if not c.isspace()]
    if not chars:
        return False
    if lang in ("zh", "ja"):
        return sum(map(is_cjk, chars)) >= 0.10 * len(chars)
    if lang == "ko":
        return sum(map(is_hangul, chars)) >= 0.10 * len(chars)
    if lang in ("de", "fr"):
        words = re.findall(r"\w+", text.lower())
        english = sum(w in ("the", "and", "of", "is", "to") for w in words)
        return english <= 0.04 * max(1, len(words))
    return True


def write_corpus(out, corpus, lang, files, package, version, min_chars=MIN_CHARS):
    """Writes {name: paragraphs} to out/<corpus>/<lang>/ (through a temporary folder, so a
    half-written corpus is never taken for a finished one) and returns its manifest line."""
    final = out / corpus / lang
    staging = out / corpus / f".{lang}.partial"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    count = chars = cjk = hangul = ascii_ = nonspace = 0
    for name, paragraphs in sorted(files.items()):
        text = "\n\n".join(paragraphs)
        if len(text) < min_chars or (lang != "en" and not translated(lang, text)):
            continue
        (staging / name).write_text(text + "\n", encoding="utf-8")
        count += 1
        chars += len(text)
        for c in text:
            if not c.isspace():
                nonspace += 1
                cjk += is_cjk(c)
                hangul += is_hangul(c)
                ascii_ += c.isascii()
    shutil.rmtree(final, ignore_errors=True)
    staging.rename(final)
    (final / ".done").write_text("")
    share = (lambda n: f"{n / max(1, nonspace):.3f}")
    return "\t".join([corpus, lang, package, version, str(count), str(chars), share(cjk),
                      share(hangul), share(ascii_)])


class SphinxSections(Sections):
    """Sections of a Sphinx page: also without its navigation bars, sidebar and footer."""

    SKIP_CLASSES = Sections.SKIP_CLASSES | {"related", "sphinxsidebar", "footer", "headerlink"}


def html_files(pages, code, parser_class=None):
    files = {}
    for stem, path in pages:
        parser = (parser_class or Sections)(code)
        parser.feed(path.read_text(encoding="utf-8", errors="replace"))
        parser.close()
        parser.flush()
        for n, section in enumerate(s for s in parser.sections if s):
            files[f"{stem}-{n:02}.txt"] = section
    return files


def html_pages(corpus, lang, tmp):
    """(package, version, [(stem, path)]) of the HTML corpus `corpus` in `lang`, or None."""
    code = DEBIAN_CODE[lang]
    if corpus == "handbook":
        folder, version = download("debian-handbook", tmp)
        root = folder / "usr/share/doc/debian-handbook/html" / HANDBOOK_LOCALE[lang]
        return "debian-handbook", version, [(p.stem, p) for p in sorted(root.glob("*.html"))]
    if corpus == "reference" and lang == "ko":
        return None
    if corpus == "help":
        package = f"libreoffice-help-{HELP_LOCALE[lang].lower()}"
        folder, version = download(package, tmp)
        root = folder / "usr/share/libreoffice/help" / HELP_LOCALE[lang] / "text"
        return package, version, [(".".join(p.relative_to(root).with_suffix("").parts), p)
                                  for p in sorted(root.rglob("*.html"))]
    package = {"reference": f"debian-reference-{code}",
               "faq": "debian-faq" if lang == "en" else f"debian-faq-{code}"}[corpus]
    folder, version = download(package, tmp)
    suffix = f".{code}.html"
    pages = [(p.name[: -len(suffix)], p) for p in sorted(folder.rglob(f"*{suffix}"))
             if not p.is_symlink()]
    return package, version, pages


def man_files(lang, tmp):
    if lang == "ko":
        return None
    package = "manpages" if lang == "en" else f"manpages-{lang}"
    folder, version = download(package, tmp)
    root = folder / "usr/share/man" / MAN_FOLDER[lang]
    files = {}
    for path in sorted(root.glob("man*/*.gz")):
        if path.is_symlink():
            continue
        try:
            source = gzip.decompress(path.read_bytes()).decode("utf-8")
        except UnicodeDecodeError:
            continue  # a few old translations are in legacy encodings; not worth guessing
        paragraphs = man_text(source)
        if paragraphs:
            name = path.name[:-3]  # ls.1
            files[f"{name}.txt"] = paragraphs
    return package, version, files


def legacy(out, tmp):
    """The first layout: en/, zh/, en.txt, zh.txt, other-en/, other-zh/."""
    folder, _ = download(LEGACY_PACKAGE, tmp)
    html_root = folder / "usr/share/doc" / LEGACY_PACKAGE / "html"
    for lang, locale in (("en", "en-US"), ("zh", "zh-CN")):
        (out / lang).mkdir(parents=True, exist_ok=True)
        joined = []
        for page in sorted((html_root / locale).glob("*.html")):
            parser = Text()
            parser.feed(page.read_text(encoding="utf-8"))
            parser.flush()
            text = "\n\n".join(parser.paragraphs)
            if len(text) >= 2000:
                (out / lang / (page.stem + ".txt")).write_text(text + "\n", encoding="utf-8")
                joined.append(text)
        (out / f"{lang}.txt").write_text("\n\n".join(joined) + "\n", encoding="utf-8")
    for lang, package in LEGACY_OTHER.items():
        folder, _ = download(package, tmp)
        suffix = ".en.html" if lang == "en" else ".zh-cn.html"
        (out / f"other-{lang}").mkdir(parents=True, exist_ok=True)
        for page in sorted(folder.rglob(f"*{suffix}")):
            parser = Text()
            parser.feed(page.read_text(encoding="utf-8"))
            parser.flush()
            text = "\n\n".join(parser.paragraphs)
            if len(text) >= 2000:
                name = page.name[: -len(suffix)] + ".txt"
                (out / f"other-{lang}" / name).write_text(text + "\n", encoding="utf-8")


class Mallard(html.parser.HTMLParser):
    """Paragraphs of a Mallard help page: titles, paragraphs, list and table items, and
    notes; its <info> block (credits, links, revisions) and code left out."""

    BLOCKS = {"title", "p", "item", "td", "note", "desc", "subtitle"}
    SKIP = {"info", "code", "screen", "media", "comment"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.paragraphs, self.current, self.skip = [], [], 0

    def handle_starttag(self, tag, attrs):
        tag = tag.split(":")[-1]
        if tag in self.SKIP:
            self.skip += 1
        elif tag in self.BLOCKS and not self.skip:
            self.flush()

    def handle_endtag(self, tag):
        tag = tag.split(":")[-1]
        if tag in self.SKIP:
            self.skip = max(0, self.skip - 1)
        elif tag in self.BLOCKS and not self.skip:
            self.flush()

    def handle_data(self, data):
        if not self.skip:
            self.current.append(data)

    def flush(self):
        text = join_words("".join(self.current).split())
        if len(text) > 1:
            self.paragraphs.append(text)
        self.current = []


GNOME_LOCALE = {"en": "C", "zh": "zh_CN", "ja": "ja"}
INSTALL_LOCALE = {"en": "en", "zh": "zh_CN", "ja": "ja"}
EXTRA_MIN_CHARS = 300  # help pages are short; the evaluation cuts documents of 40 characters up


def extra_corpus(corpus, lang, tmp):
    """(package, version, {name: paragraphs}) of the corpora added for B and C, or None."""
    if corpus == "gnome":
        folder, version = download("gnome-user-docs", tmp)
        root = folder / "usr/share/help" / GNOME_LOCALE[lang] / "gnome-help"
        files = {}
        for page in sorted(root.glob("*.page")):
            parser = Mallard()
            parser.feed(page.read_text(encoding="utf-8", errors="replace"))
            parser.close()
            parser.flush()
            if parser.paragraphs:
                files[f"{page.stem}-00.txt"] = parser.paragraphs
        return "gnome-user-docs", version, files
    if corpus == "install":
        folder, version = download("installation-guide-amd64", tmp)
        root = folder / "usr/share/doc/installation-guide-amd64" / INSTALL_LOCALE[lang]
        pages = [(p.stem, p) for p in sorted(root.glob("*.html"))]
        return "installation-guide-amd64", version, html_files(pages, False)
    if corpus == "devref":
        if lang == "zh":
            return None
        package = "developers-reference" if lang == "en" else f"developers-reference-{lang}"
        folder, version = download(package, tmp)
        root = folder / "usr/share/developers-reference" / ("" if lang == "en" else lang)
        pages = [(p.stem, p) for p in sorted(root.glob("*.html"))
                 if p.stem not in ("index", "search", "developers-reference")]
        return package, version, html_files(pages, False, SphinxSections)
    return None


# <corpus>: ({lang: package}, folder in the package, file pattern) of the applications' manuals.
APPS = {
    "kicad": ({"zh": "kicad-doc-zh", "ja": "kicad-doc-ja"},
              "usr/share/doc/kicad/help/{code}", "*.html", {"zh": "zh", "ja": "ja"}),
    "gimp": ({"zh": "gimp-help-zh-cn", "ja": "gimp-help-ja"},
             "usr/share/gimp/2.0/help/{code}", "*.html", {"zh": "zh_CN", "ja": "ja"}),
    "lilypond": ({"zh": "lilypond-doc-html-zh", "ja": "lilypond-doc-html-ja"},
                 "usr/share/doc/lilypond/html/Documentation", "**/*.{code}.html",
                 {"zh": "zh", "ja": "ja"}),
    "edu": ({"zh": "debian-edu-doc-zh-cn", "ja": "debian-edu-doc-ja"},
            "usr/share/doc/{code}", "debian-edu-bookworm-manual.html",
            {"zh": "debian-edu-doc-zh-cn", "ja": "debian-edu-doc-ja"}),
    "help-tw": ({"zh": "libreoffice-help-zh-tw"},
                "usr/share/libreoffice/help/zh-TW/text", "**/*.html", {"zh": ""}),
}


def apps_corpus(corpus, lang, tmp):
    """(package, version, {name: paragraphs}) of an application's manual, or None."""
    packages, folder_pattern, glob, codes = APPS[corpus]
    if lang not in packages:
        return None
    folder, version = download(packages[lang], tmp)
    root = folder / folder_pattern.format(code=codes[lang])
    pages = [(".".join(p.relative_to(root).with_suffix("").parts), p)
             for p in sorted(root.glob(glob.format(code=codes[lang])))
             if not p.is_symlink() and "big-page" not in p.name]
    return packages[lang], version, html_files(pages, True)


def main():
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.expanduser("~/.cache/simprint/corpus"))
    out.mkdir(parents=True, exist_ok=True)
    manifest_path = out / "manifest.tsv"
    manifest = {}
    if manifest_path.exists():
        for line in manifest_path.read_text(encoding="utf-8").splitlines()[1:]:
            fields = line.split("\t")
            manifest[(fields[0], fields[1])] = line
    with tempfile.TemporaryDirectory() as tmp:
        if not ((out / "en.txt").exists() and (out / "zh.txt").exists()
                and (out / "other-zh").exists()):
            legacy(out, tmp)
        for corpus in ("handbook", "reference", "faq", "help", "man"):
            for lang in LANGS:
                variants = [corpus] if corpus == "man" else [corpus, f"{corpus}-code"]
                if all((out / v / lang / ".done").exists() and (v, lang) in manifest
                       for v in variants):
                    continue
                if corpus == "man":
                    found = man_files(lang, tmp)
                    if found:
                        package, version, files = found
                        manifest[(corpus, lang)] = write_corpus(out, corpus, lang, files,
                                                                package, version)
                    continue
                found = html_pages(corpus, lang, tmp)
                if not found:
                    continue
                package, version, pages = found
                for variant, code in ((corpus, False), (f"{corpus}-code", True)):
                    files = html_files(pages, code)
                    manifest[(variant, lang)] = write_corpus(out, variant, lang, files,
                                                             package, version)
                # The manifest is rewritten after each corpus so an interrupted run keeps
                # what it finished.
                write_manifest(manifest_path, manifest)
            write_manifest(manifest_path, manifest)
        # The evaluation's B and C corpora, then the applications' manuals.
        more = [(corpus, ("en", "zh", "ja"), extra_corpus)
                for corpus in ("gnome", "install", "devref")]
        more += [(corpus, ("zh", "ja"), apps_corpus) for corpus in APPS]
        for corpus, langs, fetch in more:
            for lang in langs:
                if (out / corpus / lang / ".done").exists() and (corpus, lang) in manifest:
                    continue
                found = fetch(corpus, lang, tmp)
                if found:
                    package, version, files = found
                    manifest[(corpus, lang)] = write_corpus(out, corpus, lang, files, package,
                                                            version, EXTRA_MIN_CHARS)
                    write_manifest(manifest_path, manifest)
    differ = differences(manifest_path)
    if differ:
        print("not the corpus of scripts/corpus.tsv, which docs/ was measured on (the archive "
              "has other versions?): " + ", ".join(differ), file=sys.stderr)
    print(out)


def differences(manifest_path):
    """The corpus/lang of every line of the folder's manifest that differs from
    scripts/corpus.tsv, and those missing from either."""
    pinned = pathlib.Path(__file__).with_name("corpus.tsv").read_text(encoding="utf-8")
    have = manifest_path.read_text(encoding="utf-8")

    def lines(text):
        return {tuple(line.split("\t")[:2]): line for line in text.splitlines()[1:]}

    want, got = lines(pinned), lines(have)
    return sorted("/".join(key) for key in want.keys() | got.keys()
                  if want.get(key) != got.get(key))


def write_manifest(path, manifest):
    header = "corpus\tlang\tpackage\tversion\tfiles\tcharacters\tcjk\thangul\tascii"
    lines = [manifest[key] for key in sorted(manifest)]
    path.write_text("\n".join([header] + lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
