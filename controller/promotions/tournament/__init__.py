"""The tournament building block every tournament promotion is made of."""

from controller.promotions.tournament.feature import Tournament

__all__ = ["Tournament"]
