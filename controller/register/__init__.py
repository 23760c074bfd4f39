"""The prize register: every prize the promotions award, from owed to paid or lapsed."""

from controller.register.feature import Register

__all__ = ["Register"]
