"""Heads-Up Poker Showdown (shared/rules/heads-up-poker-showdown.txt)."""

from controller.promotions.poker.feature import Poker

__all__ = ["Poker"]
