"""Invariants over random command sequences on all three tournaments."""

from __future__ import annotations

import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.domain.errors import Rejected
from controller.domain.handoffs import WildcardFinalist
from tests.promotions.helpers import NOW, Driver
from tests.promotions.test_poker import at
from tests.promotions.test_slots import qualify, stage_entries

ENTRIES = [f"{p}{n}" for p in "SRP" for n in range(1, 5)] + ["X9"]
CARDS = ["1000000", "1000001", "1000002", "9999999"]
STAGES = ["qualifying", "semi", "final", "nope"]
CLOCK = {"poker": at(0)}  # each tournament's commands inside its buy-in hours

payloads = {
    "slots.enter": st.fixed_dictionaries({"card": st.sampled_from(CARDS)},
                                         optional={"heat": st.sampled_from(["Heat 1", "Heat 9"]),
                                                   "payment": st.sampled_from(["cash", "free",
                                                                               "gift"])}),
    "roulette.enter": st.fixed_dictionaries({"card": st.sampled_from(CARDS)}),
    "poker.enter": st.fixed_dictionaries({"card": st.sampled_from(CARDS)}),
    "slots.record_score": st.fixed_dictionaries({"entry": st.sampled_from(ENTRIES),
                                                 "score": st.integers(-3, 50)}),
    "poker.record_score": st.fixed_dictionaries({"entry": st.sampled_from(ENTRIES),
                                                 "score": st.integers(-3, 50),
                                                 "hands": st.sampled_from([9, 10, 12])}),
    "roulette.open_betting": st.fixed_dictionaries({"stage": st.just("qualifying"),
                                                    "heat": st.just("Heat 1")}),
    "roulette.spin": st.fixed_dictionaries({"stage": st.just("qualifying"),
                                            "heat": st.just("Heat 1")}),
    "roulette.record_score": st.fixed_dictionaries({"entry": st.sampled_from(ENTRIES),
                                                    "score": st.integers(-3, 50)}),
    "slots.correct_score": st.fixed_dictionaries({"entry": st.sampled_from(ENTRIES),
                                                  "score": st.integers(-3, 50),
                                                  "reason": st.sampled_from(["", "typo"])}),
    "poker.void_score": st.fixed_dictionaries({"entry": st.sampled_from(ENTRIES),
                                               "reason": st.sampled_from(["", "typo"])}),
    "slots.close_stage": st.fixed_dictionaries({"stage": st.sampled_from(STAGES)}),
    "roulette.close_stage": st.fixed_dictionaries({"stage": st.sampled_from(STAGES)}),
    "poker.close_stage": st.fixed_dictionaries({"stage": st.sampled_from(STAGES)}),
    "slots.tie_break": st.fixed_dictionaries({"stage": st.just("qualifying"),
                                              "entries": st.lists(st.sampled_from(ENTRIES),
                                                                  max_size=3),
                                              "electronic": st.booleans()}),
    "slots.set_split": st.fixed_dictionaries({"percents": st.lists(st.integers(0, 60),
                                                                   max_size=3),
                                              "reason": st.just("advert")}),
    "poker.disqualify": st.fixed_dictionaries({"entry": st.sampled_from(ENTRIES),
                                               "reason": st.sampled_from(["", "collusion"])}),
    "slots.register_proxy": st.fixed_dictionaries({"entry": st.sampled_from(ENTRIES),
                                                   "nominee": st.sampled_from(CARDS),
                                                   "form": st.just("F1")}),
}
commands = st.lists(st.sampled_from(sorted(payloads)).flatmap(
    lambda t: payloads[t].map(lambda p: (t, p))), max_size=25)


@settings(max_examples=40, deadline=None)
@given(commands)
def test_a_refused_command_leaves_state_unchanged_and_ranks_stay_a_permutation(sequence):
    d = Driver()
    d.members(3)
    for type_, payload in sequence:
        d.now = CLOCK.get(type_.partition(".")[0], NOW)
        before = pickle.dumps(d.show.features)
        try:
            events = d.show.decide(type_, payload, d.ctx())
        except Rejected as exc:
            assert exc.message.endswith((".", ")")), exc.message
            assert pickle.dumps(d.show.features) == before
            continue
        for event in events:
            d.apply(event)
    for name in ("slots", "roulette", "poker"):
        feature = d.feature(name)
        for stage in feature.stages.values():
            ranking = stage.standings.ranking()
            assert len(ranking) == len(set(ranking))
        pool = feature.pools[feature.prize_pool]
        assert sum(p["amount"] for p in d.view(f"prizes:{name}")["places"]) == pool


def test_state_is_the_fold_of_the_log():
    """Replaying a whole slots tournament's events rebuilds the same views (restart)."""
    d = Driver(seed=11)
    qualify(d, 40)
    d.do("slots.close_stage", {"stage": "qualifying"})
    d.do("slots.draw_seats", {"stage": "semi"})
    for i, e in enumerate(stage_entries(d, "semi")):
        d.do("slots.record_score", {"entry": e.id, "score": 5_000 - i})
    d.do("slots.close_stage", {"stage": "semi"})
    d.member("2000000", "Wild Card")
    d.apply(WildcardFinalist("2000000", False))
    d.do("slots.draw_seats", {"stage": "final"})
    replayed = Driver(seed=99).show
    for event in d.log:
        replayed.apply(event)
    names = d.show.published_view_names()
    assert names == replayed.published_view_names()
    live = {n: d.view(n) for n in names}
    again = {n: next(f for f in replayed.features if n in set(f.view_names())).view(n)
             for n in names}
    assert again == live
