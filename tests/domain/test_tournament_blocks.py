"""Shared tournament building blocks: standings, ties, prizes, heats, config."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.application.settings import load, shipped
from controller.domain.config import ConfigError
from controller.domain.errors import Rejected
from controller.domain.heats import first_free_seat, take_seat
from controller.domain.prizes import check_split, prize_table
from controller.domain.standings import Standings
from controller.domain.ties import card_value, electronic_rounds
from controller.promotions.poker.config import PokerConfig
from controller.promotions.roulette.config import RouletteConfig
from controller.promotions.slots.config import SlotsConfig
from tests.promotions.helpers import SeededRandomness

# (entry, guest, score) operations; a score of None removes the entry's score
operations = st.lists(st.tuples(st.integers(0, 30), st.integers(0, 6),
                                st.one_of(st.none(), st.integers(0, 50))), max_size=60)


@settings(max_examples=60)
@given(operations, st.booleans())
def test_ranks_are_a_permutation_of_the_scored_keys(ops, best):
    board = Standings(best_per_guest=best)
    scores: dict[str, tuple[str, int]] = {}
    for seq, (entry, guest, score) in enumerate(ops):
        e, card = f"E{entry}", f"G{guest}"
        card = scores.get(e, (card, 0))[0]  # an entry belongs to one guest
        if score is None:
            board.drop(e, card)
            scores.pop(e, None)
        else:
            board.put(e, card, score, seq)
            scores[e] = (card, score)
    ranking = board.ranking()
    keys = {card for card, _ in scores.values()} if best else set(scores)
    assert sorted(ranking) == sorted(keys) and len(ranking) == len(set(ranking))
    values = [board.score(k) for k in ranking]
    assert values == sorted(values, reverse=True)
    assert [board.position(k) for k in ranking] == list(range(1, len(ranking) + 1))
    if best:  # roulette rule 19: one line per guest, with the guest's best score
        for card in keys:
            assert board.score(card) == max(s for c, s in scores.values() if c == card)


def test_ties_are_broken_in_rounds_and_reopened_by_a_newcomer():
    board = Standings()
    for seq, e in enumerate(["A", "B", "C"]):
        board.put(e, e, 10, seq)
    assert board.unresolved([1]) == [(1, ["A", "B", "C"])]
    board.break_tie(["A", "B", "C"], [5, 9, 9])
    assert board.ranking() == ["B", "C", "A"]  # B and C still tied: earlier score first
    assert board.unresolved([1]) == [(1, ["B", "C"])]
    board.break_tie(["B", "C"], [1, 2])
    assert board.ranking() == ["C", "B", "A"] and board.unresolved([1, 2]) == []
    board.put("D", "D", 10, 9)  # a newcomer on the tied score re-opens the tie
    assert board.unresolved([1])[0][1] == ["A", "B", "C", "D"]


def test_playing_cards_are_ace_low_and_electronic_draws_end_all_different():
    assert [card_value(c) for c in ("A\u2660", "10h", "K")] == [1, 10, 13]  # slots rule 26
    with pytest.raises(Rejected):
        card_value("Z")
    rounds = electronic_rounds(["a", "b", "c", "d"], SeededRandomness(4))
    final: dict[str, list[int]] = {}
    for r in rounds:
        for key, card in zip(r["keys"], r["cards"], strict=True):
            final.setdefault(key, []).append(card_value(card))
    assert len({tuple(v) for v in final.values()}) == 4


@settings(max_examples=100)
@given(st.integers(0, 10**11), st.lists(st.integers(0, 100), min_size=1, max_size=8))
def test_prize_splits_sum_to_the_pool(pool, percents):
    if sum(percents) != 100:
        with pytest.raises(Rejected) as exc:
            check_split(percents, "prize split")
        assert "not 100% of the pool" in exc.value.message or "none negative" in (
            exc.value.message)
        return
    prizes = prize_table(pool, percents)
    assert sum(p.cents for p in prizes) == pool
    assert [p.place for p in prizes] == list(range(1, len(percents) + 1))


def test_remainder_cents_go_to_the_higher_places_first():
    assert [p.cents for p in prize_table(101, [50, 50])] == [51, 50]
    assert [p.cents for p in prize_table(7, [60, 10, 9, 8, 7, 6])] == [5, 1, 1, 0, 0, 0]


def test_seats_are_given_in_order_and_named_heats_are_checked():
    taken = {("Heat 1", 1), ("Heat 1", 2), ("Heat 3", 1)}

    def free(seat):
        return seat not in taken

    assert first_free_seat(free, "Heat", 2) == ("Heat 2", 1)
    assert first_free_seat(free, "Heat", 1, after=2) == ("Heat 4", 1)
    assert take_seat(free, "Heat", 3, "Heat 1") == ("Heat 1", 3)
    with pytest.raises(Rejected, match="full"):
        take_seat(free, "Heat", 2, "Heat 1")
    with pytest.raises(Rejected, match="not a heat"):
        take_seat(free, "Heat", 2, "Final 1")


@pytest.mark.parametrize(("name", "cls"), [("slots", SlotsConfig), ("roulette", RouletteConfig),
                                           ("poker", PokerConfig)])
def test_shipped_promotion_files_load(name, cls):
    assert shipped(name, cls).title


def test_a_bad_promotion_file_is_refused_with_its_field(tmp_path: Path):
    text = (Path("controller/config/slots.yaml")).read_text().replace("buy_in: 5000",
                                                                      "buy_in: fifty")
    (tmp_path / "slots.yaml").write_text(text)
    with pytest.raises(ConfigError, match=r"key 'buy_in' \(line \d+\): must be a whole number"):
        load("slots", SlotsConfig, tmp_path / "slots.yaml")


def test_a_prize_split_in_a_file_must_add_up_to_100(tmp_path: Path):
    text = Path("controller/config/slots.yaml").read_text()
    (tmp_path / "slots.yaml").write_text(
        text.replace("prize_split: [35, 20, 15, 12, 10, 8]", "prize_split: [50, 40]"))
    with pytest.raises(ConfigError, match="adds up to 90%"):
        load("slots", SlotsConfig, tmp_path / "slots.yaml")


def test_a_bank_of_300_machines_is_one_qualifying_heat(tmp_path: Path):
    # slots rule 11: a heat's seats are the tournament bank's machines, in order; a venue's bank
    # (and bench/feed.py's) may hold hundreds, up to the rows a live heat's view holds
    text = Path("controller/config/slots.yaml").read_text()
    (tmp_path / "slots.yaml").write_text(text.replace("qualifying_seats_per_heat: 10",
                                                      "qualifying_seats_per_heat: 300"))
    assert load("slots", SlotsConfig, tmp_path / "slots.yaml").qualifying_seats_per_heat == 300
    (tmp_path / "slots.yaml").write_text(text.replace("qualifying_seats_per_heat: 10",
                                                      "qualifying_seats_per_heat: 1001"))
    with pytest.raises(ConfigError, match="qualifying_seats_per_heat"):
        load("slots", SlotsConfig, tmp_path / "slots.yaml")
