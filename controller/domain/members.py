"""Rewards members and eligibility: who may play, and the name a public screen may show.

Every promotion's rules 1-3 say the same thing: under 18, refused entry, self-excluded and
insiders (employees, agents, their families) may not take part. Promotions call
`Members.eligible(card, rule=...)` so the refusal quotes their own rule number.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import Field

from controller.domain.commands import Command, Context, payload
from controller.domain.errors import Rejected
from controller.domain.events import DomainEvent
from controller.domain.feature import Feature, Handler
from showrunner.contract.fields import CardNumber, DisplayName, Flag, ShortText

FlagName = Literal["under_18", "refused_entry", "self_excluded", "insider"]
FLAGS: dict[str, str] = {  # keyed by FlagName
    "under_18": "under 18",
    "refused_entry": "refused entry to the casino",
    "self_excluded": "self-excluded",
    "insider": "an employee, agent or family member of the company",
}


@dataclass(frozen=True)
class MemberRegistered(DomainEvent, type_name="MemberRegistered"):
    card: str
    display_name: str
    rewards_member: bool
    flags: list[str]


@dataclass(frozen=True)
class MemberFlagged(DomainEvent, type_name="MemberFlagged"):
    card: str
    flag: str
    on: bool
    reason: str


@dataclass(frozen=True)
class MemberJoinedRewards(DomainEvent, type_name="MemberJoinedRewards"):
    """A non-member guest joined the Rewards Programme (e.g. to claim a prize, slots rule 4)."""

    card: str


@dataclass
class Member:
    card: str
    display_name: str
    rewards_member: bool
    flags: set[str] = field(default_factory=set)

    @property
    def masked_card(self) -> str:
        """What a public screen may show of the card number."""
        return "\u2022\u2022\u2022\u2022 " + self.card[-4:]


@payload
class RegisterMember:
    card: CardNumber
    display_name: DisplayName
    rewards_member: Flag = True
    flags: Annotated[list[FlagName], Field(max_length=len(FLAGS))] = field(default_factory=list)


@payload
class JoinRewards:
    card: CardNumber


@payload
class FlagMember:
    card: CardNumber
    flag: FlagName
    reason: ShortText
    on: Flag = True


def public_name(display_name: str) -> str:
    """"Thandi Mokoena" -> "Thandi M.": first name and surname initial, never more."""
    parts = display_name.split()
    if len(parts) < 2:
        return display_name.strip()
    return f"{parts[0]} {parts[-1][0].upper()}."


class Members(Feature):
    """The member register, shared by every promotion."""

    name = "members"

    def __init__(self) -> None:
        self.by_card: dict[str, Member] = {}

    def commands(self) -> Iterable[Command[Any]]:
        return (
            Command("register_member", "operator", RegisterMember, self.register,
                    "Register a rewards member (or a non-member guest) with a display name."),
            Command("flag_member", "operator", FlagMember, self.flag,
                    "Set or clear an eligibility flag on a member, with a reason."),
            Command("join_rewards", "operator", JoinRewards, self.join_rewards,
                    "Record that a non-member guest joined the Rewards Programme."),
        )

    def handlers(self) -> Mapping[type[DomainEvent], Handler]:
        return {MemberRegistered: self._registered, MemberFlagged: self._flagged,
                MemberJoinedRewards: self._joined_rewards}

    # -- commands ---------------------------------------------------------------------------
    def register(self, p: RegisterMember, ctx: Context) -> list[DomainEvent]:
        if p.card in self.by_card:
            raise Rejected("duplicate", f"Card {p.card} is already registered.")
        name = " ".join(p.display_name.split())
        if not name:
            raise Rejected("bad_name", "A display name cannot be only spaces.")
        return [MemberRegistered(p.card, public_name(name), p.rewards_member,
                                 sorted(set(p.flags)))]

    def flag(self, p: FlagMember, ctx: Context) -> list[DomainEvent]:
        self.get(p.card)
        if not p.reason.strip():
            raise Rejected("reason_required", "Say why the flag changes.")
        return [MemberFlagged(p.card, p.flag, p.on, p.reason.strip())]

    def join_rewards(self, p: JoinRewards, ctx: Context) -> list[DomainEvent]:
        if self.get(p.card).rewards_member:
            raise Rejected("already_member", f"Card {p.card} is already a Rewards member.")
        return [MemberJoinedRewards(p.card)]

    # -- state --------------------------------------------------------------------------------
    def _registered(self, event: MemberRegistered) -> Iterable[str]:
        self.by_card[event.card] = Member(
            event.card, event.display_name, event.rewards_member, set(event.flags)
        )
        return ()

    def _flagged(self, event: MemberFlagged) -> Iterable[str]:
        flags = self.by_card[event.card].flags
        if event.on:
            flags.add(event.flag)
        else:
            flags.discard(event.flag)
        return ()

    def _joined_rewards(self, event: MemberJoinedRewards) -> Iterable[str]:
        self.by_card[event.card].rewards_member = True
        return ()

    # -- queries used by promotions -----------------------------------------------------------
    def get(self, card: str) -> Member:
        member = self.by_card.get(card)
        if member is None:
            raise Rejected("unknown_member", f"No member is registered with card {card}.")
        return member

    def eligible(self, card: str, rule: str) -> Member:
        """The member, or a refusal naming the reason and the promotion's rule."""
        member = self.get(card)
        if member.flags:
            reasons = ", ".join(FLAGS[f] for f in sorted(member.flags))
            raise Rejected(
                "ineligible",
                f"{member.display_name} may not take part: {reasons} ({rule}).",
            )
        return member
