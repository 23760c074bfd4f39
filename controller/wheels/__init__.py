"""The wheel's number reader on the rules' side: readings routed to the game live at a table."""

from controller.wheels.feature import Wheels

__all__ = ["Wheels"]
