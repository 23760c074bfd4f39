"""Work shared over the cores (showrunner.engine.cores): every job run once, each core's share
in order, a failure raised to the caller, the bands covering every row once."""

from __future__ import annotations

import threading
import time
from itertools import pairwise

import pytest

from showrunner.engine.cores import CORES, cuts, on_every_core


@pytest.mark.parametrize("count", [0, 1, 2, 3, 7, 32])
def test_every_job_runs_once_and_each_share_in_order(count):
    done: list[tuple[int, int]] = []  # (job, thread): a list's append is atomic

    def job(number: int) -> None:
        done.append((number, threading.get_ident()))

    on_every_core([lambda n=n: job(n) for n in range(count)])
    assert sorted(number for number, _ in done) == list(range(count))
    threads = {thread for _, thread in done}
    assert len(threads) <= CORES
    for thread in threads:  # a core's share is a run of neighbouring jobs, done in order
        mine = [number for number, ran_on in done if ran_on == thread]
        assert mine == list(range(mine[0], mine[0] + len(mine)))


def test_a_failing_job_on_this_thread_is_raised_once_the_helpers_are_done():
    done: list[int] = []

    def slow(n: int) -> None:
        time.sleep(0.2)
        done.append(n)

    def fail() -> None:
        raise ValueError("the last band failed")

    with pytest.raises(ValueError, match="the last band failed"):
        on_every_core([*(lambda n=n: slow(n) for n in range(CORES - 1)), fail])
    assert sorted(done) == list(range(CORES - 1))  # none left working on the caller's pixels


def test_a_failing_job_is_raised_to_the_caller_after_the_others_ran():
    done: list[int] = []

    def fail() -> None:
        raise ValueError("a band failed")

    with pytest.raises(ValueError, match="a band failed"):
        on_every_core([fail] + [lambda n=n: done.append(n) for n in range(1, CORES * 2)])
    assert done  # the other cores' shares are not abandoned half done


@pytest.mark.parametrize("rows", [0, 1, 3, 1080, 2161])
def test_the_bands_cover_every_row_once(rows):
    bands = cuts(rows)
    assert bands[0] == 0 and bands[-1] == rows and len(bands) == CORES + 1
    assert all(top <= bottom for top, bottom in pairwise(bands))
