"""Which scenes exist and which parameters each takes: what the validator checks against.

The scene classes are the one place this is defined (`name`, `default_view`, `params`); a
parameter's type is the type of its default, as the scenes convert it, and every scene also
takes `view`, the name of the view it reads. Imported lazily: the controller validates
playlists without opening a window.
"""

from __future__ import annotations

import functools
from typing import Any

#: what a screen shows when it has no playlist at all
DEFAULT_SCENE = "attract"


@functools.cache
def scene_params() -> dict[str, dict[str, Any]]:
    """Scene name -> {parameter: default}."""
    from showrunner.scenes import REGISTRY

    return {name: {"view": getattr(factory, "default_view", None),
                   **getattr(factory, "params", {})}
            for name, factory in REGISTRY.items()}


@functools.cache
def transitions() -> tuple[str, ...]:
    from showrunner.engine.transitions import KINDS

    return KINDS
