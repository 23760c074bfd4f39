"""Super 9 roulette game (shared/rules/super-9.txt)."""

from controller.promotions.super9.feature import Super9

__all__ = ["Super9"]
