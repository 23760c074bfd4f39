"""Every command line the docs show runs as written (issue 47: six pages told the technician to
run `showrunner-controller key issue`, which did not exist). The commands are read from
README.md, docs/*.md and the pages' hints (tests/docs/commands.py says how) and checked in
process, each by the program's own parser:

- an admin command of the log (`key`, `user`, `audit`) is run for real, in the doc's order, on
  a scratch log the test makes for each doc (a fresh SQLite log in a temp dir with its
  checkpoint key and one checkpoint, as a venue's PC has them): it must succeed (exit 0);
- a command that would start a service, use a device or reach a controller (`serve`, `wheel`,
  `screens`, the display, a bench...) runs up to its argument parsing and stops there: every
  word must parse, required arguments included unless the doc shows only part of it (a
  mention in a sentence, or `...`). `--help` appended would not do: argparse prints the help
  and exits before it says an option is unknown;
- a script (`scripts/...`) must be there, executable and valid shell; `scripts/demo`'s
  arguments must parse as `showrunner-controller demo`'s, to which it hands them.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import runpy
import shlex
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from controller.cli.main import main as controller_main
from controller.store.target import open_log
from showrunner.cli import main as display_main
from tests.docs.commands import ROOT, DocCommand, all_doc_commands, doc_commands

DOCS = all_doc_commands()
ADMIN = {"key", "user", "audit"}
#: an option that names a file the reader already has: when the doc's own steps made none, the
#: scratch's is given (the log's checkpoints, their signing key and its public half)
INPUTS = {"--checkpoint": "show.db.checkpoints", "--public-key": "show.db.checkpoint-key.pub",
          "--key": "show.db.checkpoint-key"}
PASSWORD = "a password of the doc's reader\n"


class _Parsed(Exception):
    """Raised by the program's parser once it took every word: the program goes no further."""


def _waive_required(parser: argparse.ArgumentParser) -> None:
    """A doc that shows part of a command: what it leaves out may be required."""
    for action in parser._actions:
        action.required = False
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                _waive_required(sub)
    for group in parser._mutually_exclusive_groups:
        group.required = False


@contextlib.contextmanager
def _parse_only(monkeypatch: pytest.MonkeyPatch, partial: bool) -> Iterator[None]:
    real = argparse.ArgumentParser.parse_args

    def parse_args(self, args=None, namespace=None):
        if partial:
            _waive_required(self)
        real(self, args, namespace)
        raise _Parsed

    with monkeypatch.context() as patch:
        patch.setattr(argparse.ArgumentParser, "parse_args", parse_args)
        yield


Program = Callable[[list[str]], object]


def parse(program: Program, argv: list[str], monkeypatch: pytest.MonkeyPatch,
          partial: bool = False) -> str | None:
    """None when the program's parser takes `argv`, else what the parser said. A part of a
    command may end on an option whose value it leaves to the sentence (`--key-file`)."""
    said = io.StringIO()
    with (_parse_only(monkeypatch, partial), contextlib.redirect_stderr(said),
          contextlib.redirect_stdout(io.StringIO())):
        try:
            program(argv)
        except _Parsed:
            return None
        except SystemExit as exit_:
            problem = said.getvalue().strip() or f"exit {exit_.code}"
        except Exception as exc:
            return f"it failed before its arguments were parsed: {exc!r}"
        else:
            return "the program never parsed its arguments"
    if partial and argv and argv[-1].startswith("--") and problem.endswith(
            f"argument {argv[-1]}: expected one argument"):
        return parse(program, [*argv, "VALUE"], monkeypatch, partial)
    return problem


def scratch_log(directory: Path) -> None:
    """A fresh log with its checkpoint signing key (the default place) and one checkpoint."""
    with contextlib.chdir(directory), contextlib.redirect_stdout(io.StringIO()):
        open_log(Path("show.db")).close()
        assert controller_main(["audit", "keygen", "--out", "show.db.checkpoint-key"]) == 0
        assert controller_main(["audit", "checkpoint", "--db", "show.db"]) == 0


def scratch_words(argv: list[str], scratch: Path) -> list[str]:
    """The admin command's words on the scratch: every log is the scratch log, an absolute
    path is under the scratch, and a file the reader would have is the scratch's."""
    out: list[str] = []
    for i, word in enumerate(argv):
        option = argv[i - 1] if i else ""
        if option == "--db":
            word = "show.db"
        elif word.startswith("/"):
            word = str(scratch / word.lstrip("/"))
            Path(word).parent.mkdir(parents=True, exist_ok=True)
        if option in INPUTS and not (scratch / word).exists():
            word = INPUTS[option]
        out.append(word)
    return out


def run_admin(argv: list[str], scratch: Path, monkeypatch: pytest.MonkeyPatch) -> str | None:
    said, out = io.StringIO(), io.StringIO()
    with (monkeypatch.context() as patch, contextlib.chdir(scratch),
          contextlib.redirect_stderr(said), contextlib.redirect_stdout(out)):
        patch.setattr(sys, "stdin", io.StringIO(PASSWORD))  # `user add` reads it
        try:
            code = controller_main(scratch_words(argv, scratch))
        except SystemExit as exit_:
            code = exit_.code
    return None if code == 0 else f"exit {code}: {said.getvalue().strip() or out.getvalue()}"


def check(command: DocCommand, scratch: Path, monkeypatch: pytest.MonkeyPatch) -> str | None:
    """None when the command runs as written, else what is wrong."""
    words = list(command.words)
    program = words[0].rsplit("/", 1)[-1]
    if program in {"python", "python3"} and words[1] == "-m":
        program, words = "showrunner-controller", words[2:]
    if program == "showrunner-controller":
        return check_controller(words[1:], command.partial, scratch, monkeypatch)
    if program == "showrunner":
        return parse(display_main, words[1:], monkeypatch, command.partial)
    if program in {"python", "python3"}:
        return parse(python_script(ROOT / words[1]), words[2:], monkeypatch)
    return check_script(words, monkeypatch)


def check_controller(argv: list[str], partial: bool, scratch: Path,
                     monkeypatch: pytest.MonkeyPatch) -> str | None:
    whole = parse(controller_main, argv, monkeypatch)
    if whole is None and argv and argv[0] in ADMIN:
        return run_admin(argv, scratch, monkeypatch)
    if whole is not None and partial:  # a part of a command: what it shows must parse
        return parse(controller_main, argv, monkeypatch, partial=True)
    return whole


def python_script(path: Path) -> Program:
    """A Python script run as `python path ARGS` runs it: its folder first on sys.path."""

    def run(argv: list[str]) -> None:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(sys, "argv", [str(path), *argv])
            patch.setattr(sys, "path", [str(path.parent), *sys.path])
            runpy.run_path(str(path), run_name="__main__")

    return run


def check_script(words: list[str], monkeypatch: pytest.MonkeyPatch) -> str | None:
    path = ROOT / "scripts" / words[0].rsplit("scripts/", 1)[1]
    if not (path.is_file() and os.access(path, os.X_OK)):
        return f"{path.relative_to(ROOT)} is not an executable file"
    text = path.read_text(encoding="utf-8")
    if text.startswith("#!/usr/bin/env bash"):
        checked = subprocess.run(["bash", "-n", str(path)], capture_output=True, text=True)
        if checked.returncode:
            return checked.stderr
    else:
        compile(text, str(path), "exec")
    if path.name == "demo":  # it hands its arguments to `showrunner-controller demo`
        return parse(controller_main, ["demo", *words[1:]], monkeypatch)
    return None


@pytest.mark.parametrize("doc", sorted(DOCS))
def test_every_command_line_the_doc_shows_runs_as_written(doc, tmp_path, monkeypatch):
    scratch_log(tmp_path)
    wrong = [f"{command}\n    {problem}" for command in DOCS[doc]
             if (problem := check(command, tmp_path, monkeypatch))]
    assert not wrong, "\n".join(wrong)


def test_the_docs_command_lines_are_all_found():
    commands = {(doc, shlex.join(c.words)) for doc, found in DOCS.items() for c in found}
    assert len(commands) > 120
    for seen in (  # one of each form the docs use (by doc, not line: others edit them too)
        ("docs/wheel.md", "showrunner-controller key issue --role device --name AR14 --db "
         "var/show.db"),  # an indented block's, its `> ar14.key` a redirection
        ("docs/ehost.md", "showrunner-controller key issue --db /var/lib/showrunner/show.db "
         "--role kiosk --name 'Lobby kiosk'"),  # in a list item
        ("docs/slots-feed-tools.md", "showrunner-controller key issue --role device --name "
         "bank-1 --db /var/lib/showrunner/show.db"),  # `\` continued, then `&& chmod`
        ("docs/wheel-reader.md", "showrunner-controller wheel-sim --pty /tmp/wheel "
         "--interval 0.5 --numbers 17,5,32"),  # `&`
        ("README.md", "showrunner-controller audit checkpoint --db show.db"),  # `A | B`
        ("controller/web/screens.html", "showrunner-controller key issue --db show.db "
         "--role kiosk --name 'Lobby kiosk'"),  # the kiosk hint
        ("docs/people.md", "showrunner-controller user add 'PA desk' --role announcer --db "
         "show.db"),  # piped into
        ("docs/slots-feed-tools.md", "python bench/feed.py --machines 300 --rate 2 --json "
         "--screens 20 --seconds 20 --bursts 40"),  # `[optional]`
    ):
        assert seen in commands


def test_a_doc_with_a_wrong_command_line_is_found(tmp_path, monkeypatch):
    doc = tmp_path / "new.md"
    doc.write_text("\n".join([
        "Issue it:", "", "```sh",
        "showrunner-controller key issue --db show.db --role operator --name MC --reason lost",
        "showrunner-controller serve --db show.db \\", "    --bogus 1   # a wrong flag",
        "showrunner-controller key issue --db show.db   # --role and --name left out",
        "showrunner-controller key list --db show.db",
        "```", "",
        "Then `showrunner display --screen-size 1920x1080` (validate's) and",
        "`showrunner-controller audit verify --db show.db` and `showrunner-controller wheel`.",
        "", "    showrunner-controller enrol --screen s1   # --group left out", "",
    ]), encoding="utf-8")
    scratch_log(tmp_path)
    problems = [(c.line, check(c, tmp_path, monkeypatch)) for c in doc_commands(doc, "new.md")]
    assert [line for line, _ in problems] == [4, 5, 7, 8, 11, 12, 12, 14]
    said = [problem or "" for _, problem in problems]
    assert "unrecognized arguments: --reason lost" in said[0]  # revoke's, not issue's
    assert "unrecognized arguments: --bogus" in said[1]
    assert "the following arguments are required: --role, --name" in said[2]
    assert said[3:5] == ["", ""] or "--screen-size" in said[4]
    assert "unrecognized arguments: --screen-size" in said[4]
    assert said[5:7] == ["", ""]  # run on the scratch log; a bare name, a mention
    assert "the following arguments are required: --group" in said[7]
