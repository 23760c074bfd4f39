"""The pure core: payload checking, refusals that change nothing, money splits."""

import pickle

from hypothesis import given
from hypothesis import strategies as st

from controller.application.features import build_features
from controller.application.show import Show
from controller.domain.commands import Context
from controller.domain.errors import Rejected
from controller.domain.money import split
from showrunner.contract.money import format_zar

MC = Context("mc", "operator", 0)


def run(show: Show, type_: str, payload: dict) -> None:
    for event in show.decide(type_, payload, MC):
        show.apply(event)


def refusal(show: Show, type_: str, payload, ctx=MC) -> Rejected:
    try:
        show.decide(type_, payload, ctx)
    except Rejected as exc:
        return exc
    raise AssertionError("not refused")


def test_payloads_are_checked_with_sentences():
    show = Show(build_features())
    assert refusal(show, "register_member", {"card": "1234567"}).message == (
        "Display name is required.")
    assert refusal(show, "register_member", {"card": 1234567, "display_name": "A"}).message == (
        "Card must be text.")
    assert refusal(show, "register_member", [1]).code == "bad_payload"
    unknown = {"card": "1234567", "display_name": "A", "x": 1}
    assert refusal(show, "register_member", unknown).message == "Unknown field(s): x."
    assert refusal(show, "register_member", {"card": "1234567", "display_name": "A"},
                   Context("screen", "display", 0)).code == "forbidden"


def test_ineligible_member_is_refused_with_the_reason():
    show = Show(build_features())
    run(show, "register_member", {"card": "1234567", "display_name": "Thandi Mokoena",
                                  "flags": ["self_excluded"]})
    exc = refusal(show, "slots.enter", {"card": "1234567"})
    assert exc.code == "ineligible"
    assert exc.message == "Thandi M. may not take part: self-excluded (rules 2-3)."


@given(st.lists(st.tuples(st.sampled_from(["slots.record_score", "slots.enter"]),
                          st.sampled_from(["S1", "S7", "", "1234567", "999"]),
                          st.integers(-5, 5)), max_size=12))
def test_a_refused_command_leaves_state_unchanged(commands):
    show = Show(build_features())
    run(show, "register_member", {"card": "1234567", "display_name": "Thandi Mokoena"})
    run(show, "slots.enter", {"card": "1234567"})
    for type_, ref, score in commands:
        payload = ({"entry": ref, "score": score} if type_ == "slots.record_score"
                   else {"card": ref})
        before = pickle.dumps(show.features)
        try:
            events = show.decide(type_, payload, MC)
        except Rejected:
            assert pickle.dumps(show.features) == before
            continue
        for event in events:
            show.apply(event)


@given(st.integers(0, 10**12), st.lists(st.integers(0, 100), min_size=1, max_size=8))
def test_splits_sum_exactly_to_the_pool(pool, weights):
    if sum(weights) == 0:
        weights = [*weights, 1]
    parts = split(pool, weights)
    assert sum(parts) == pool
    assert all(p >= 0 for p in parts)
    total = sum(weights)
    # each part is its exact share rounded down, plus at most the one remainder cent
    assert all(-total < p * total - pool * w <= total for p, w in zip(parts, weights, strict=True))


def test_money_is_formatted_in_one_place():
    assert format_zar(15_000_000) == "R150\u00a0000"
    assert format_zar(1_234_567) == "R12\u00a0345.67"
    assert format_zar(-500) == "-R5"
    assert split(100, [50, 20, 15, 10, 5]) == [50, 20, 15, 10, 5]
    assert split(7, [1, 1, 1]) == [3, 2, 2]
