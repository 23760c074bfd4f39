"""Fixtures of the page tests: one browser, one live controller per test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, async_playwright

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS
from tests.support.live import LiveController, live_controller


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            await browser.close()


@pytest.fixture
async def ctl(tmp_path: Path) -> AsyncIterator[LiveController]:
    async with live_controller(tmp_path / "show.db") as controller:
        yield controller
