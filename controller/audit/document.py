"""The auditor's report as a document: sections of tables, paragraphs and signature images,
the period it covers, the chain's end it states and the venue's clock its times are read on.

controller/audit/record.py fills it from the log; controller/audit/report.py lays it out in a PDF.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from zoneinfo import ZoneInfo

PROMOTIONS = {"slots": "Slots PAYOFF", "wildcard": "Wild Card draw",
              "roulette": "Roulette Spin-Off", "poker": "Heads-Up Poker Showdown",
              "super9": "Super 9"}
DEFAULT_ZONE = "Africa/Johannesburg"


@dataclass(frozen=True)
class Table:
    headers: list[str]
    rows: list[list[str]]
    widths: list[int]  # relative column widths


@dataclass(frozen=True)
class Para:
    text: str


@dataclass(frozen=True)
class Signature:
    """A signature image under a caption; `png` None when the store does not hold it."""

    caption: str
    sha256: str
    png: bytes | None


@dataclass(frozen=True)
class SignatureSheet:
    """Many signatures side by side: a stage's score sheet, each player's under their score."""

    signatures: list[Signature]


Block = Table | Para | Signature | SignatureSheet


@dataclass
class Section:
    title: str
    blocks: list[Block] = field(default_factory=list)

    def table(self, headers: list[str], rows: list[list[str]], widths: list[int],
              empty: str) -> None:
        self.blocks.append(Table(headers, rows, widths) if rows else Para(empty))


@dataclass(frozen=True)
class Period:
    """The venue's calendar days reported, both ends included; None: open."""

    start: dt.date | None = None
    end: dt.date | None = None

    def words(self) -> str:
        """"4 June 2025 to 5 June 2025", as the venue writes days (the Audit tab says the
        same)."""
        if self.start is None and self.end is None:
            return "the whole log"
        start = day_words(self.start) if self.start else "the log's start"
        end = day_words(self.end) if self.end else "the log's end"
        return f"{start} to {end}"


def day_words(day: dt.date) -> str:
    """2025-06-04 -> "4 June 2025": day, month in words, year, whatever the reader's locale."""
    return f"{day.day} {day:%B %Y}"


@dataclass(frozen=True)
class Chain:
    """The log's end and its last signed checkpoint, as the report's last page states them."""

    seq: int
    hash: str
    checkpoint: str  # a sentence: the last checkpoint and whether it verified, or why none
    signed_ms: int | None = None  # when the last checkpoint was signed


@dataclass
class Record:
    promotion: str
    title: str
    period: Period
    zone: str
    sections: list[Section]
    chain: Chain
    generated: str
    events: int  # the promotion's events in the period

    @property
    def clock(self) -> Clock:
        return Clock(self.zone)


def masked(card: str | None) -> str:
    """As screens show a card: its last four digits."""
    return "\u2022\u2022\u2022\u2022 " + card[-4:] if card else "-"


class Clock:
    """Times as people at the venue read them: "Thu 18 Jan 2024 18:00:05" in its zone."""

    def __init__(self, zone: str) -> None:
        self.zone = ZoneInfo(zone)

    def local(self, ms: int | None) -> dt.datetime:
        return dt.datetime.fromtimestamp((ms or 0) / 1000, dt.UTC).astimezone(self.zone)

    def __call__(self, ms: int | None) -> str:
        return "-" if not ms else self.local(ms).strftime("%a %d %b %Y %H:%M:%S")

    def time(self, ms: int | None) -> str:
        return "-" if not ms else self.local(ms).strftime("%H:%M:%S")
