"""The Wild Card draw of the Slots PAYOFF tournament (rules 16, 18, 33-45)."""

from controller.promotions.wildcard.feature import Wildcard

__all__ = ["Wildcard"]
