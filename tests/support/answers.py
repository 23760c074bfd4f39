"""The console's answers as the MC meets them: in view after the press, and in words.

After every press on a panel its answer (the box beside the button, or the sheet the press
opened) must have come and lie wholly inside the viewport (issue 48: "every panel's primary
action and its answer are in view after each press"); and an MC never reads an event's class
name, an id, JSON, a full card number or an epoch in it.
"""

from __future__ import annotations

import re

from playwright.async_api import Locator, Page, expect

EVENT_CLASS = re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z0-9]+)+\b")  # "WildcardDrawn"
LONG_NUMBER = re.compile(r"\d{5,}")  # a card number (7+ digits), an epoch in ms (13)
ISO_ID = re.compile(r"\d{4}-\d\d-\d\dT\d\d")  # a session's id ("2026-12-07T19:00")
# an entry's id: slots "S1", poker "P1", "T1"; a roulette id ("R1") reads as an amount ("R200")
# unless quoted, as a refusal quotes an id
ENTRY_ID = re.compile(r"\b[SPT]\d+\b|'[A-Z]\d+'")
JSON = re.compile(r"[{}\[\]]|\"\w+\":")


async def in_view(page: Page, box: Locator) -> None:
    """The answer has come (not "Sending…") and lies wholly inside the viewport."""
    await expect(box).to_be_visible()
    await expect(box).not_to_have_attribute("data-kind", "pending")
    rect, size = await box.bounding_box(), page.viewport_size
    assert rect is not None and size is not None
    # within a pixel: a box at a fractional offset scrolled to the viewport's edge (the page
    # scrolls by whole pixels) may end 0.1 px past it
    assert rect["y"] >= -1 and rect["y"] + rect["height"] <= size["height"] + 1, (rect, size)
    assert rect["x"] >= -1 and rect["x"] + rect["width"] <= size["width"] + 1, (rect, size)
    # and not scrolled out of the panel's own scroll area (the console scrolls its pages under
    # the tab bar, not the window: a box there is inside the viewport but out of sight)
    assert await box.evaluate(CLIPPED_BY) == [], await box.inner_text()


CLIPPED_BY = """(box) => {
  const r = box.getBoundingClientRect();
  const by = [];
  for (let a = box.parentElement; a; a = a.parentElement) {
    const style = getComputedStyle(a);
    if (style.overflowX === "visible" && style.overflowY === "visible") continue;
    const c = a.getBoundingClientRect();
    if (r.top < c.top - 1 || r.bottom > c.bottom + 1 || r.left < c.left - 1 ||
        r.right > c.right + 1) by.push(`${a.tagName}.${a.className}`);
  }
  return by;
}"""


def in_words(text: str) -> str:
    """`text` (an answer as shown) holds no event class name, id, JSON, full card number or
    epoch; returned for the caller's own checks."""
    for pattern in (EVENT_CLASS, LONG_NUMBER, ISO_ID, ENTRY_ID, JSON):
        assert not pattern.search(text), (pattern.pattern, text)
    return text


async def answered(page: Page, box: Locator) -> str:
    """In view (`in_view`) and in words (`in_words`): the answer's text."""
    await in_view(page, box)
    return in_words(await box.inner_text())
