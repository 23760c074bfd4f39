"""Fixtures of the page tests: one Chromium for the whole run (a launch per test cost about a
second each), a fresh browser context for every page a test opens (its own cookies and
storage, closed after the test), one live controller per test, on each store.

The shared browser's Playwright connection lives on one event loop, so every test here runs on
the session's loop (pytest-asyncio's `loop_scope`), and so do the fixtures below.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import Browser, async_playwright
from pytest_asyncio import is_async_test

from controller.store.target import LogAt
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS
from tests.support.live import LiveController, live_controller

HERE = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The page tests (only these: the hook sees every collected test) on the session's loop."""
    on_session_loop = pytest.mark.asyncio(loop_scope="session")
    for item in items:
        if is_async_test(item) and item.path.is_relative_to(HERE):
            item.add_marker(on_session_loop, append=False)


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def chromium() -> AsyncIterator[Browser]:
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            await browser.close()


@pytest_asyncio.fixture(loop_scope="session")
async def browser(chromium: Browser) -> AsyncIterator[Browser]:
    """The shared Chromium; every context the test opened (`new_context`, `new_page`) is closed
    after it, so the next test starts with none of its cookies, storage or pages."""
    yield chromium
    for context in chromium.contexts:
        await context.close()


@pytest_asyncio.fixture(loop_scope="session")
async def ctl(log_at: LogAt) -> AsyncIterator[LiveController]:
    """A controller on each store in turn (`log_at`)."""
    async with live_controller(log_at) as controller:
        yield controller
