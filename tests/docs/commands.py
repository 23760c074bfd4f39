"""The command lines the docs show, read from the markdown (README.md, docs/*.md) and the
pages' `<code>` hints (controller/web/*.html), as argument lists to run.

Where a command is found:
- fenced blocks: `sh`, `bash`, `shell` and `console` ones are shell (`\\` continues a line, `#`
  starts a comment, `|`, `&&`, `;` and `&` separate commands, `>` redirects); an untagged one is
  a synopsis (an indented line continues the command above it, `A | B` offers B as another
  command of A's program, `(A | B)` takes A);
- indented code blocks (4 spaces, as in a list item): shell;
- inline code spans and the pages' `<code>`: a synopsis, and a *mention*: a sentence may show
  only the part of a command it talks about, so its required arguments may be left out.
Within a command, `[...]` is optional and its contents are kept (an option shown must exist),
`WORD[...]` and `WORD...` are WORD, and a lone `...` or `…` elides the rest (required arguments
may be left out, as in a mention). A placeholder is given a value by `PLACEHOLDERS`.
"""

from __future__ import annotations

import html
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHELL_FENCES = {"sh", "bash", "shell", "console"}
#: a doc's placeholder words and the value a command is given for each
PLACEHOLDERS = {
    "NAME": "Sam", "ROLE": "operator", "P": "wildcard", "DATE": "2024-01-18", "N": "2",
    "SECONDS": "4", "WxH": "1920x1080", "HOURS": "12", "PORT": "8080", "MACHINE": "104",
    "ID": "stage-1", "URL": "http://127.0.0.1:8080", "SCENE": "leaderboard",
    "FILE": "file", "FILE.pub": "file.pub", "DIR": "dir", "PATH": "path", "OUT": "out",
    "KEY": "key", "LINK": "link", "PNG": "out.png", "DB": "show.db",
    "PLAYLIST.yaml": "playlists/demo.yaml", "k=v": "title=Tonight",
}
ELISIONS = {"...", "…"}
SEPARATORS = {"|", "||", "&&", ";", "&", "(", ")"}
REDIRECTS = {">", ">>", "<", ">&", "&>"}


@dataclass(frozen=True)
class DocCommand:
    """One command line of a doc: where it is, its words as typed, and whether it may leave
    required arguments out (a mention or an elided line)."""

    source: str  # "docs/wheel.md:21"
    line: int
    words: tuple[str, ...]  # the program first, placeholders given values
    partial: bool

    def __str__(self) -> str:
        return f"{self.source}: {shlex.join(self.words)}"


def is_program(word: str) -> bool:
    name = word.rsplit("/", 1)[-1]
    return (name in {"showrunner", "showrunner-controller"}
            or re.search(r"(^|/)scripts/[\w-]+$", word) is not None
            or (name in {"python", "python3"}))


def doc_commands(path: Path, name: str) -> list[DocCommand]:
    """Every command line of a markdown file or an HTML page, in the order they appear;
    `name` is how a failure names the file."""
    text = path.read_text(encoding="utf-8")
    found: list[tuple[int, str, str]] = []  # (line, text, kind: shell | synopsis | mention)
    if path.suffix == ".html":
        for m in re.finditer(r"<code>(.*?)</code>", text, re.S):
            found.append((_line_of(text, m.start()), html.unescape(m.group(1)), "mention"))
    else:
        found = _markdown(text)
    out: list[DocCommand] = []
    for line, chunk, kind in found:
        for words, partial in _commands(chunk, kind):
            out.append(DocCommand(f"{name}:{line}", line, words, partial))
    return out


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _markdown(text: str) -> list[tuple[int, str, str]]:
    lines = text.split("\n")
    found: list[tuple[int, str, str]] = []
    prose: list[str] = []  # outside fences, fenced lines blanked (their spans are not code)
    fence: str | None = None
    start, body = 0, []
    for n, line in enumerate(lines, 1):
        opening = re.match(r"\s*```(\S*)", line)
        if fence is None and opening:
            fence, start, body = opening.group(1), n, []
            prose.append("")
        elif fence is not None and line.strip().startswith("```"):
            kind = "shell" if fence in SHELL_FENCES else "synopsis" if fence == "" else None
            if kind:
                found += _block(body, start + 1, kind)
            fence = None
            prose.append("")
        elif fence is not None:
            body.append(line)
            prose.append("")
        else:
            prose.append(line)
    found += _indented(prose)
    joined = "\n".join(prose)
    for m in re.finditer(r"(?<!`)`([^`]+)`(?!`)", joined):
        found.append((_line_of(joined, m.start()), m.group(1), "mention"))
    return sorted(found, key=lambda f: f[0])


def _block(body: list[str], first: int, kind: str) -> list[tuple[int, str, str]]:
    """A block's commands, comments dropped: lines joined by `\\` (or, in a synopsis, an
    indented line by the one above it)."""
    out: list[tuple[int, str, str]] = []
    for n, raw in enumerate(body, first):
        line = re.sub(r"(^|\s)#.*$", "", raw).rstrip()
        if not line:
            continue
        if out and (out[-1][1].endswith("\\") or (kind == "synopsis" and raw[:1].isspace())):
            start, text, _ = out[-1]
            out[-1] = (start, text.removesuffix("\\") + " " + line.strip(), kind)
        else:
            out.append((n, line, kind))
    return out


def _indented(prose: list[str]) -> list[tuple[int, str, str]]:
    """Indented code blocks (4 spaces or more after a blank line) that hold a command."""
    body: list[str] = []
    out: list[tuple[int, str, str]] = []
    for n, line in enumerate([*prose, ""], 1):
        indented = re.match(r" {4,}(\S+)", line)
        starts = indented and (is_program(indented.group(1)) or indented.group(1) == "#")
        if indented and (body or (starts and not prose[n - 2].strip())):
            body.append(line.strip())
        elif body:
            out += _block(body, n - len(body), "shell")
            body = []
    return out


def _commands(text: str, kind: str) -> list[tuple[tuple[str, ...], bool]]:
    """The commands of one line of `kind`: each program's words, and whether partial."""
    if kind != "shell":
        text = re.sub(r"\(\s*([^()|]*?)\s*\|[^()]*\)", r"\1", text)  # (A | B): A
    text = re.sub(r"<([\w-]+)>", lambda m: m.group(1).upper(), text)  # <controller>
    lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = ""  # comments are gone; a `#` in a word (an address's fragment) stays
    try:
        tokens = list(lexer)
    except ValueError as exc:  # an unclosed quote: prose, unless a command is in it
        if any(is_program(word) for word in text.split()):
            raise ValueError(f"{text!r}: {exc}") from None
        return []
    segments: list[list[str]] = [[]]
    for token in tokens:
        if token in SEPARATORS:
            segments.append([])
        else:
            segments[-1].append(token)
    out: list[tuple[tuple[str, ...], bool]] = []
    program: list[str] = []
    for segment in segments:
        if not segment:
            continue
        words = _program_words(segment)
        if words:
            program = words
        elif kind != "shell" and program and re.fullmatch(r"[a-z][\w-]*", segment[0]):
            # a synopsis's `A | B`: B is A's program's too, and a bare B only names it
            segment = program + segment
            if not any(word.startswith("-") for word in segment):
                out.append(_words(segment, True))
                continue
        else:
            continue
        out.append(_words(segment, kind == "mention"))
    return [(w, p) for w, p in out if w]


def _program_words(segment: list[str]) -> list[str]:
    """The words that name the program (`python bench/x.py` is two), or none."""
    first = segment[0]
    if not is_program(first):
        return []
    if first.rsplit("/", 1)[-1] in {"python", "python3"}:
        if len(segment) > 1 and re.fullmatch(r"bench/[\w-]+\.py", segment[1]):
            return segment[:2]
        if segment[1:3] == ["-m", "controller.cli"]:
            return segment[:3]
        return []
    return [first]


def _words(segment: list[str], mention: bool) -> tuple[tuple[str, ...], bool]:
    words: list[str] = []
    partial = mention
    skip = False
    for token in segment:
        if skip:
            skip = False
            continue
        if token in REDIRECTS:
            skip = True
            continue
        if token in ELISIONS:
            if words and words[-1].startswith("--") and "=" not in words[-1]:
                words.append("…")  # an option's value left to the reader
            partial = True
            continue
        token = re.sub(r"(?<=\S)\[[^\[\]\s]*\]", "", token)  # URL[,URL...]: URL
        token = token.strip("[]")
        token = token.removesuffix("...")  # PATH...: PATH, repeatable
        if token:
            words.append(PLACEHOLDERS.get(token, token))
    return tuple(words), partial


def all_doc_commands() -> dict[str, list[DocCommand]]:
    """Each doc's commands, by the doc's path from the repository's root."""
    paths = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
             *sorted((ROOT / "controller" / "web").glob("*.html"))]
    return {(name := p.relative_to(ROOT).as_posix()): doc_commands(p, name) for p in paths}
