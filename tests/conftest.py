"""Test-wide settings: pygame runs headless everywhere in the suite, property tests have no
deadline, and every test may ask for `log_at` (a log on each store, tests/support/stores.py),
the PostgreSQL fixtures and `small_disk` (a real tmpfs, tests/support/disk.py). What a
controller run in the test's process froze (controller/application/heap.py) is thawed after
each test: frozen objects are left out of `gc.get_objects()`, which the heap's tests walk."""

import gc
import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

# hypothesis fails an example that takes over 200 ms by default: a timing threshold, which a
# loaded machine crosses (speed is measured in bench/, not asserted in tests)
settings.register_profile("showrunner", deadline=None)
settings.load_profile("showrunner")

pytest_plugins = ["tests.support.stores", "tests.support.disk"]


@pytest.fixture(autouse=True)
def _thawed() -> Iterator[None]:
    yield
    gc.unfreeze()
