"""Slots PAYOFF tournament (shared/rules/slots-payoff-tournament.txt)."""

from controller.promotions.slots.feature import Slots

__all__ = ["Slots"]
