"""The wrong-key counter on its own, with a hand-turned clock (the live tests use real time)."""

from __future__ import annotations

from controller.access.attempts import MAX_TRACKED, KeyAttempts, KeyLimit, plain_key


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_blocked_after_the_limit_until_the_oldest_failure_leaves_the_window():
    clock = Clock()
    attempts = KeyAttempts(KeyLimit(failures=3, window_s=60), clock)
    for _ in range(3):
        assert not attempts.blocked("10.0.0.7", "/control")
        attempts.failed("10.0.0.7", "/control", "Unknown or revoked key.")
        clock.now += 10
    assert attempts.blocked("10.0.0.7", "/control")
    assert not attempts.blocked("10.0.0.7", "/cue")  # its own count per namespace
    assert not attempts.blocked("10.0.0.8", "/control")  # and per address
    clock.now = 1000.0 + 60  # the first failure is now 60 s old
    assert not attempts.blocked("10.0.0.7", "/control")


def test_expired_addresses_are_forgotten_when_many_are_tracked():
    clock = Clock()
    attempts = KeyAttempts(KeyLimit(failures=5, window_s=60), clock)
    for n in range(MAX_TRACKED):
        attempts.failed(f"10.0.{n // 256}.{n % 256}", "/control", "Unknown or revoked key.")
    clock.now += 61
    attempts.failed("192.0.2.1", "/control", "Unknown or revoked key.")
    assert len(attempts._failures) == 1


def test_plain_keys_are_printable_ascii():
    assert plain_key("0f" * 24)
    for bad in ("ab\ud800", "ab\x00", "é", "a" * 201, None, 7, b"ab"):
        assert not plain_key(bad)
