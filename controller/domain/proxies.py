"""Proxies: a nominee plays one seat on a participant's behalf, on a form of their own.

Shared by the tournaments (slots rules 21-23, roulette rule 14, poker rules 25 and 41): one signed
form per nominee, a nominee may not be a co-participant in the stage, and the seat's credits stay
the participant's (never pooled with the nominee's).
"""

from __future__ import annotations

from collections.abc import Collection

from controller.domain.errors import Rejected
from controller.domain.members import Member


def check_nominee(nominee: Member, owner: Member, stage_title: str,
                  participants: Collection[str], acting: Collection[str],
                  forms: Collection[str], form: str, rule: str) -> None:
    """Refuse a nominee who plays in the stage, already acts for a seat, or a reused form."""
    if nominee.card == owner.card:
        raise Rejected("bad_proxy", f"{owner.display_name} cannot be their own proxy.")
    if nominee.card in participants:
        raise Rejected("proxy_is_participant",
                       f"{nominee.display_name} plays in the {stage_title} and may not act as a "
                       f"proxy in it ({rule}).")
    if nominee.card in acting:
        raise Rejected("proxy_is_participant",
                       f"{nominee.display_name} already plays a seat as a proxy in the "
                       f"{stage_title} ({rule}).")
    if not form.strip():
        raise Rejected("form_required", f"A signed proxy form is required for each nominee "
                                        f"({rule}).")
    if form.strip() in forms:
        raise Rejected("form_reused", f"Proxy form {form.strip()} is already used; every "
                                      f"nominee needs a separate form ({rule}).")
