"""Which features make up the show. The one place a new promotion is plugged in."""

from __future__ import annotations

from controller.application.settings import shipped
from controller.domain.certification import Certification
from controller.domain.cues import Cues, CueSource
from controller.domain.feature import Feature
from controller.domain.keys import Keys
from controller.domain.members import Members
from controller.domain.rehearsal import Rehearsal
from controller.domain.users import Users
from controller.domain.venue import Venue
from controller.promotions.poker import Poker
from controller.promotions.poker.config import PokerConfig
from controller.promotions.roulette import Roulette
from controller.promotions.roulette.config import RouletteConfig
from controller.promotions.slots import Slots
from controller.promotions.slots.config import SlotsConfig
from controller.promotions.slots.cues import SlotsCues
from controller.promotions.super9 import Super9
from controller.promotions.super9.config import Super9Config
from controller.promotions.tournament.cues import SeatDrawCues
from controller.promotions.wildcard import Wildcard
from controller.promotions.wildcard.config import WildcardConfig
from controller.promotions.wildcard.cues import WildcardCues
from controller.register import Register
from controller.register.cues import RegisterCues
from controller.screens.feature import Screens
from controller.wheels import Wheels


def build_features() -> list[Feature]:
    """Every feature, on the shipped configs: the log's `PromotionConfigured` events set the
    ones a venue runs under (controller/application/configs.py records them at start-up)."""
    members = Members()
    slots = Slots(members, shipped("slots", SlotsConfig))
    poker = Poker(members, shipped("poker", PokerConfig))
    wildcard = Wildcard(members, slots, shipped("wildcard", WildcardConfig))
    cue_sources: list[CueSource] = [WildcardCues(wildcard), SeatDrawCues(slots), SlotsCues(slots),
                   SeatDrawCues(poker)]
    roulette = Roulette(members, shipped("roulette", RouletteConfig))
    super9 = Super9(members, shipped("super9", Super9Config))
    register = Register(members)
    cue_sources.append(RegisterCues(register))
    wheels = Wheels(super9, roulette)  # after both: it folds their spins once they have
    return [members, slots, roulette, poker, super9, wildcard, register, wheels,
            Cues(cue_sources), Screens(), Keys(), Users(), Rehearsal(), Venue(), Certification()]
