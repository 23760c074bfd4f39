"""American Roulette Spin-Off (shared/rules/roulette-spin-off.txt)."""

from controller.promotions.roulette.feature import Roulette

__all__ = ["Roulette"]
