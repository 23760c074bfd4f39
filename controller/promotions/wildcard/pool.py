"""The Wild Card pool as an auditor sees it: a canonical listing, its digest, and the pick.

Canonical listing (docs/draws.md): one line per ticket holder, `card,tickets\\n`, sorted by card
number as text, UTF-8. The pool digest is the lowercase hex SHA-256 of that text. Holder i owns
the ticket numbers that follow the previous holders' tickets, so ticket numbers are 1-based
positions in the listing; the draw picks `randbelow(total)` (0-based) = ticket number pick + 1.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from controller.domain.commands import Randomness
from controller.domain.draws import locate_ticket, pick_weighted

Listing = Sequence[Sequence[str | int]]  # [[card, tickets], ...] as stored in the log


def canonical_text(listing: Listing) -> str:
    """The exact text whose SHA-256 is the pool digest."""
    # rows in order of card then tickets, compared element by element
    return "".join(f"{card},{tickets}\n" for card, tickets in sorted(listing, key=tuple))


def pool_digest(listing: Listing) -> str:
    return hashlib.sha256(canonical_text(listing).encode("utf-8")).hexdigest()


def total_tickets(listing: Listing) -> int:
    return sum(int(tickets) for _, tickets in listing)


def holder_of(listing: Listing, pick: int) -> str:
    """The card that owns the 0-based `pick` in a (sorted) listing."""
    return str(listing[locate_ticket([int(t) for _, t in listing], pick)][0])


def draw_ticket(listing: Listing, rng: Randomness) -> tuple[str, int]:
    """(winning card, 0-based pick): one ticket uniformly from all tickets, integers only."""
    index, pick = pick_weighted([int(t) for _, t in listing], rng)
    return str(listing[index][0]), pick
