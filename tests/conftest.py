"""Test-wide settings: pygame runs headless everywhere in the suite, and every test may ask for
`log_at` (a log on each store, tests/support/stores.py) and the PostgreSQL fixtures."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

pytest_plugins = ["tests.support.stores"]
