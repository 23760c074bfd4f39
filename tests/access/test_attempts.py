"""The wrong-key policy on its own, with a hand-turned clock and a sleep the test releases
(the live tests, tests/integration/test_keys.py, use real time): right keys are never its
business, wrong ones are counted per address and per key and slowed, within bounds."""

from __future__ import annotations

import asyncio

from controller.access.attempts import (
    MAX_TRACKED,
    SLOWED,
    KeyAttempts,
    KeyLimit,
    plain_key,
)

WRONG = "Unknown or revoked key."


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Sleeps:
    """Records each pause and holds it until the test releases it."""

    def __init__(self) -> None:
        self.asked: list[float] = []
        self.release = asyncio.Event()

    async def __call__(self, seconds: float) -> None:
        self.asked.append(seconds)
        await self.release.wait()


def test_waits_start_past_the_allowance_double_and_cap():
    limit = KeyLimit(failures=5, first_wait_s=0.5, max_wait_s=4.0)
    assert [limit.wait_s(n) for n in range(1, 12)] == \
        [0, 0, 0, 0, 0, 0.5, 1, 2, 4, 4, 4]
    assert limit.wait_s(10_000) == 4.0  # no overflow however many


def test_the_free_allowance_is_answered_at_once_then_each_wrong_key_waits_longer():
    clock = Clock()
    attempts = KeyAttempts(KeyLimit(failures=5, window_s=60), clock)
    waits = []
    for n in range(9):
        waits.append(attempts.failed("10.0.0.7", "/display", WRONG, f"guess-{n}"))
        clock.now += 1
    assert waits == [0, 0, 0, 0, 0, 0.5, 1, 2, 4]


def test_failures_count_per_address_across_doors_and_leave_with_the_window():
    clock = Clock()
    attempts = KeyAttempts(KeyLimit(failures=3, window_s=60), clock)
    for door in ("/control", "/cue", "http"):
        assert attempts.failed("10.0.0.7", door, WRONG, f"guess-{door}") == 0
    assert attempts.failed("10.0.0.7", "/display", WRONG, "guess-4") == 0.5  # any door
    assert attempts.failed("10.0.0.8", "/control", WRONG, "guess-5") == 0  # its own count
    clock.now += 61  # every failure of 10.0.0.7 is past the window
    assert attempts.failed("10.0.0.7", "/control", WRONG, "guess-6") == 0


def test_one_key_tried_from_many_addresses_is_slowed_by_its_own_count():
    """A revoked screen key retried through many addresses (or a NAT's changing ports)."""
    clock = Clock()
    attempts = KeyAttempts(KeyLimit(failures=5, window_s=60), clock)
    waits = [attempts.failed(f"10.0.1.{n}", "/display", WRONG, "revoked-key") for n in range(8)]
    assert waits == [0, 0, 0, 0, 0, 0.5, 1, 2]
    assert attempts.failed("10.0.1.99", "/display", WRONG, "another-key") == 0


async def test_a_right_key_is_no_business_of_the_policy_after_100_wrong_ones():
    """The doors check the key first (base.py on_connect, callers.py): only a wrong key
    reaches `refuse`, so 100 wrong keys from an address leave nothing that a right key from it
    would meet. What the policy holds is counts of failures; there is no `blocked`."""
    clock, sleeps = Clock(), Sleeps()
    attempts = KeyAttempts(KeyLimit(failures=5, window_s=60, waiting=200), clock, sleeps)
    sleeps.release.set()
    for n in range(100):
        sentence = await attempts.refuse("127.0.0.1", "/display", WRONG, f"guess-{n}")
        assert sentence == (WRONG if n < 5 else WRONG + SLOWED)
    assert len(sleeps.asked) == 95 and max(sleeps.asked) == 4.0
    assert not hasattr(attempts, "blocked")
    assert attempts._waiting == {}  # every pause let go of its slot


async def test_at_most_n_refusals_per_address_pause_at_once_the_rest_are_answered_at_once():
    clock, sleeps = Clock(), Sleeps()
    attempts = KeyAttempts(KeyLimit(failures=0, window_s=60, waiting=3), clock, sleeps)
    paused = [asyncio.create_task(attempts.refuse("10.0.0.7", "/display", WRONG, f"k{n}"))
              for n in range(3)]
    await asyncio.sleep(0)  # let the three reach their pause
    assert attempts._waiting == {"10.0.0.7": 3}
    # a fourth from the same address is not held; another address still may be
    assert await attempts.refuse("10.0.0.7", "/display", WRONG, "k3") == WRONG + SLOWED
    other = asyncio.create_task(attempts.refuse("10.0.0.8", "/display", WRONG, "k4"))
    await asyncio.sleep(0)
    assert attempts._waiting == {"10.0.0.7": 3, "10.0.0.8": 1}
    assert len(sleeps.asked) == 4
    sleeps.release.set()
    assert await asyncio.gather(*paused, other) == [WRONG + SLOWED] * 4
    assert attempts._waiting == {}


def test_memory_is_bounded_the_least_recently_failed_go_first():
    clock = Clock()
    attempts = KeyAttempts(KeyLimit(failures=5, window_s=60), clock)
    for n in range(MAX_TRACKED + 500):  # all within the window
        attempts.failed(f"10.{n // 65536}.{n // 256 % 256}.{n % 256}", "/control", WRONG,
                        f"guess-{n}")
    assert len(attempts._by_address) == MAX_TRACKED
    assert len(attempts._by_key) == MAX_TRACKED
    assert "10.0.0.0" not in attempts._by_address  # the oldest went
    for _ in range(1000):  # one address's history is bounded too
        attempts.failed("192.0.2.1", "/control", WRONG, "same")
    assert len(attempts._by_address["192.0.2.1"]) < 100


def test_expired_addresses_are_forgotten_as_new_ones_fail():
    clock = Clock()
    attempts = KeyAttempts(KeyLimit(failures=5, window_s=60), clock)
    for n in range(100):
        attempts.failed(f"10.0.0.{n}", "/control", WRONG)
    clock.now += 61
    attempts.failed("192.0.2.1", "/control", WRONG)
    assert list(attempts._by_address) == ["192.0.2.1"]
    assert attempts._by_key == {}  # no key presented, none counted


def test_a_wrong_key_is_logged_with_address_door_and_reason_never_the_key(caplog):
    attempts = KeyAttempts(KeyLimit(failures=1, window_s=60), Clock())
    with caplog.at_level("WARNING", logger="controller.keys"):
        attempts.failed("10.0.0.7", "/display", WRONG, "secret-guess")
        attempts.failed("10.0.0.7", "/display", WRONG, "secret-guess")
        attempts.failed("10.0.0.7", "/display", WRONG, "secret-guess")
    lines = [r.getMessage() for r in caplog.records]
    assert lines.count("wrong key from 10.0.0.7 on /display (1 in 60 s): " + WRONG) == 1
    assert sum("slowing wrong keys from 10.0.0.7" in line for line in lines) == 1
    assert sum("slowing a key tried 2 times" in line for line in lines) == 1
    assert len(lines) == 5 and not any("secret-guess" in line for line in lines)


def test_plain_keys_are_printable_ascii():
    assert plain_key("0f" * 24)
    for bad in ("ab\ud800", "ab\x00", "é", "a" * 201, None, 7, b"ab"):
        assert not plain_key(bad)
