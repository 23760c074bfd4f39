"""A folder watcher for slot tournament systems that can only drop files: each `*.csv` file in
the folder is one feed message (docs/slots-feed-tools.md), its kind from its name's prefix:

    heat_start-*.csv  feed_heat,machine,start_credits,duration_s  (one row a machine, in order)
    credits-*.csv     feed_heat,machine,credits
    heat_end-*.csv    feed_heat,machine,credits                   (every machine of the heat)

The folder is polled (no new dependency); a file is taken once its size and time stopped
changing between two polls, files in name order (a later one waits for an earlier still
growing). Posted, it moves to `done/`; malformed or refused, to `failed/` with
`NAME.error.txt` beside it saying why. When the controller does not answer the file stays
where it is and is tried again at the next poll.
"""

from __future__ import annotations

import asyncio
import csv
import io
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from stat import S_ISREG
from typing import Any

from controller.slotbank.api import BankClient, FeedError, Reading, Refused

POLL_S = 0.5
MAX_BYTES = 1 << 20  # a message larger than this is not one of these files
MAX_DIGITS = 18  # a count of credits or seconds; the controller's own bounds are far lower
HEADERS = {
    "heat_start": ("feed_heat", "machine", "start_credits", "duration_s"),
    "credits": ("feed_heat", "machine", "credits"),
    "heat_end": ("feed_heat", "machine", "credits"),
}


class Malformed(ValueError):
    """Why a file is not a feed message, as a sentence."""


@dataclass(frozen=True)
class Message:
    """One file's message: its kind, heat, readings in file order, and a heat start's terms."""

    kind: str
    feed_heat: str
    readings: list[Reading]
    start_credits: int = 0
    duration_s: int = 0


def kind_of(name: str) -> str:
    for kind in HEADERS:
        if name.startswith(f"{kind}-"):
            return kind
    raise Malformed(f"{name} is not named heat_start-*.csv, credits-*.csv or heat_end-*.csv, "
                    "so its kind is unknown.")


def parse(name: str, raw: bytes) -> Message:
    """The message in file `name`, or Malformed saying what is wrong where."""
    kind = kind_of(name)
    if len(raw) > MAX_BYTES:
        raise Malformed(f"{name} is larger than {MAX_BYTES // 1024} KiB.")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Malformed(f"{name} is not UTF-8 text.") from None
    try:
        rows = [row for row in csv.reader(io.StringIO(text)) if any(c.strip() for c in row)]
    except csv.Error as exc:  # a field over the csv module's limit (128 KiB), a stray NUL
        raise Malformed(f"{name} is not CSV this watcher reads ({exc}).") from None
    expected = HEADERS[kind]
    if not rows or tuple(c.strip().lower() for c in rows[0]) != expected:
        raise Malformed(f"{name} must start with the header line {','.join(expected)}.")
    if len(rows) < 2:
        raise Malformed(f"{name} has a header but no machines.")
    records = []
    for line, row in enumerate(rows[1:], start=2):
        if len(row) != len(expected):
            raise Malformed(f"{name} line {line} has {len(row)} values; "
                            f"{len(expected)} are needed ({','.join(expected)}).")
        records.append(dict(zip(expected, (c.strip() for c in row), strict=True)))
    heats = {r["feed_heat"] for r in records}
    if len(heats) != 1 or "" in heats:
        raise Malformed(f"{name} must name one feed heat on every line.")
    machines = [r["machine"] for r in records]
    if "" in machines:
        raise Malformed(f"{name} line {machines.index('') + 2} has no machine number.")
    if len(set(machines)) != len(machines):
        twice = next(m for m in machines if machines.count(m) > 1)
        raise Malformed(f"{name} lists machine {twice} twice.")
    if kind == "heat_start":
        terms = {(number(name, i, r, "start_credits"), number(name, i, r, "duration_s"))
                 for i, r in enumerate(records, start=2)}
        if len(terms) != 1:
            raise Malformed(f"{name} must give the same start_credits and duration_s on every "
                            "line.")
        ((start_credits, duration_s),) = terms
        return Message(kind, heats.pop(), [(m, 0) for m in machines], start_credits, duration_s)
    readings = [(r["machine"], number(name, i, r, "credits"))
                for i, r in enumerate(records, start=2)]
    return Message(kind, heats.pop(), readings)


def number(name: str, line: int, record: dict[str, str], column: str) -> int:
    value = record[column]
    if not value.isdigit() or not value.isascii() or len(value) > MAX_DIGITS:
        shown = value if len(value) <= MAX_DIGITS else f"{value[:MAX_DIGITS]}..."
        raise Malformed(f"{name} line {line}: {column} {shown!r} is not a whole number of 0 "
                        f"or more (at most {MAX_DIGITS} digits).")
    return int(value)


async def post(client: BankClient, message: Message) -> dict[str, Any]:
    if message.kind == "heat_start":
        return await client.start_heat(message.feed_heat, [m for m, _ in message.readings],
                                       message.start_credits, message.duration_s)
    if message.kind == "credits":
        return await client.credits(message.feed_heat, message.readings)
    return await client.end_heat(message.feed_heat, message.readings)


@dataclass
class Watcher:
    """Watches `folder` and posts its files through `client`; `say` reports each, in words."""

    folder: Path
    client: BankClient
    say: Callable[[str], None] = print
    seen: dict[str, tuple[int, int]] = field(default_factory=dict)  # name -> (size, mtime_ns)

    async def run(self) -> None:
        """Forever: poll, take what is ready."""
        for sub in ("done", "failed"):
            (self.folder / sub).mkdir(parents=True, exist_ok=True)
        while True:
            await self.poll()
            await asyncio.sleep(POLL_S)

    async def poll(self) -> None:
        """Take the files, in name order, that have not changed since the last poll."""
        now: dict[str, tuple[int, int]] = {}
        for path in sorted(self.folder.glob("*.csv")):
            try:
                stat = path.stat()
            except FileNotFoundError:
                continue
            if not S_ISREG(stat.st_mode):
                continue
            now[path.name] = (stat.st_size, stat.st_mtime_ns)
        before, self.seen = self.seen, now
        for name, size in now.items():
            if before.get(name) != size:
                return  # new or still growing: it and the files after it wait
            if not await self.take(self.folder / name):
                return  # the controller is away: keep the order, try again next poll

    async def take(self, path: Path) -> bool:
        """Post one file and move it; False when the controller did not answer."""
        try:
            raw = path.read_bytes()
        except OSError as exc:
            self.fail(path, f"{path.name} cannot be read: {exc.strerror}.")
            return True
        try:
            message = parse(path.name, raw)
            answer = await post(self.client, message)
        except (Malformed, Refused) as exc:
            self.fail(path, str(exc))
            return True
        except FeedError as exc:
            self.say(f"{path.name}: not sent yet: {exc}")
            return False
        path.replace(free_name(self.folder / "done", path.name))
        done = " (already done)" if answer.get("already") else ""
        self.say(f"{path.name}: {message.kind} of {message.feed_heat} sent{done}.")
        return True

    def fail(self, path: Path, sentence: str) -> None:
        target = free_name(self.folder / "failed", path.name)
        path.replace(target)
        target.with_name(target.name + ".error.txt").write_text(sentence + "\n",
                                                                  encoding="utf-8")
        self.say(f"{path.name}: failed: {sentence}")


def free_name(folder: Path, name: str) -> Path:
    """`folder/name`, or `name` with a number added when a file of that name is there."""
    target, n = folder / name, 1
    while target.exists():
        target = folder / f"{Path(name).stem}.{n}{Path(name).suffix}"
        n += 1
    return target
