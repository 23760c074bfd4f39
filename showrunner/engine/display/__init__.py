"""The display process: one screen, one window, a loop that never waits on the network and
draws only when the picture changes.

At rest the loop waits on the inbox until a view changes or the next moment the picture
changes (a countdown's next second, a page turn, a scene switch), so a leaderboard that stands
still costs almost nothing. Where only part of the screen moves (a ticker, a countdown ring) a
frame is drawn and presented only there (`Scene.moving_rects`, showrunner.engine.present);
anything else that changed the picture (a view, a switch, a transition, an overlay) makes a
whole frame. A scene that raises is logged and skipped; the screen goes on with the next one.

The parts: `loop` (Display: the loop and its plan), `inbox` (the link's messages applied),
`overlays` (badge and offline mark), `upkeep` (saving, snapshot, memory), `telemetry`
(heartbeat, screenshot), `window` (the window and PNG snapshots), `options`, `state`.
"""

from showrunner.engine.display.loop import FPS, Display
from showrunner.engine.display.options import DisplayOptions, Timebase
from showrunner.engine.display.window import NoSuchOutput, open_window, save_png

__all__ = ["FPS", "Display", "DisplayOptions", "NoSuchOutput", "Timebase", "open_window",
           "save_png"]
