"""The payload contract: one typed dataclass per command checks the payload and gives the
tablet its JSON Schema; a bad value is refused with one sentence naming the field."""

from __future__ import annotations

import pytest

from controller.application.features import build_features
from controller.application.show import Show
from controller.domain.commands import Context, payload_schema
from controller.domain.errors import Rejected
from controller.domain.members import RegisterMember
from showrunner.contract.fields import MAX_SCORE

MC = Context("mc", "operator", 0)


def refusal(show: Show, type_: str, payload: object) -> Rejected:
    with pytest.raises(Rejected) as caught:
        show.decide(type_, payload, MC)
    return caught.value


@pytest.fixture
def show() -> Show:
    """A show with one member entered in slots, so score commands reach their rules."""
    show = Show(build_features())
    for type_, body in [("register_member", {"card": "1234567", "display_name": "Thandi M"}),
                        ("slots.enter", {"card": "1234567"})]:
        for event in show.decide(type_, body, MC):
            show.apply(event)
    return show


def test_the_schema_carries_types_defaults_bounds_and_enums():
    schema = payload_schema(RegisterMember)
    assert schema["required"] == ["card", "display_name"]
    assert schema["additionalProperties"] is False
    card, name, rewards, flags = (schema["properties"][k] for k in
                                  ("card", "display_name", "rewards_member", "flags"))
    assert card["type"] == "string" and card["pattern"] == "^[0-9]{6,20}$"
    assert name["maxLength"] == 40 and name["minLength"] == 1
    assert rewards == {"default": True, "title": "Rewards Member", "type": "boolean"}
    assert flags["type"] == "array" and "self_excluded" in flags["items"]["enum"]


def test_the_catalogue_gives_every_command_a_json_schema(show: Show):
    by_type = {c["type"]: c for c in show.catalogue()}
    score = by_type["slots.record_score"]["payload"]["properties"]["score"]
    assert score["maximum"] == MAX_SCORE == 999_999_999 and score["minimum"] == 0
    payment = by_type["slots.enter"]["payload"]["properties"]["payment"]
    assert payment["enum"] == ["cash", "free", "comp"] and payment["default"] == "cash"
    assert all(c["payload"]["type"] == "object" for c in by_type.values())


@pytest.mark.parametrize(("type_", "body", "sentence"), [
    ("register_member", {"card": "1000001", "display_name": "Nul\x00Name"},
     "Display name contains an unprintable character (U+0000)."),
    ("register_member", {"card": "1000001", "display_name": "Esc\x1b[2J"},
     "Display name contains an unprintable character (U+001B)."),
    ("register_member", {"card": "1000001", "display_name": "\u202eevil"},  # Cf: bidi override
     "Display name contains an unprintable character (U+202E)."),
    ("register_member", {"card": "1000001", "display_name": "x" * 41},
     "Display name must be at most 40 characters."),
    ("register_member", {"card": "12ab", "display_name": "A"},
     "Card must be a rewards card number: 6 to 20 digits."),
    ("slots.record_score", {"entry": "S1", "score": 10**99}, "Score must be at most 999 999 999."),
    ("slots.record_score", {"entry": "S1", "score": 2**63}, "Score must be at most 999 999 999."),
    ("slots.record_score", {"entry": "S1", "score": -1}, "Score must be at least 0."),
    ("slots.record_score", {"entry": "S1", "score": float("nan")}, "Score must be a whole number."),
    ("slots.record_score", {"entry": "S1", "score": float("inf")}, "Score must be a whole number."),
    ("slots.record_score", {"entry": "S1", "score": 1.0}, "Score must be a whole number."),
    ("slots.record_score", {"entry": "S1", "score": True}, "Score must be a whole number."),
    ("slots.record_score", {"entry": "S1", "score": "12"}, "Score must be a whole number."),
    ("slots.record_score", {"entry": "S 1", "score": 1},
     "Entry must be an entry id: a letter and its number, e.g. S12."),
    ("slots.enter", {"card": "1234567", "payment": "bitcoin"},
     "Payment must be one of 'cash', 'free' or 'comp'."),
    ("register_member", {"card": "1000001", "display_name": "A", "rewards_member": 1},
     "Rewards member must be true or false."),
    ("slots.tie_break", {"stage": "final", "entries": "S1"}, "Entries must be a list."),
    ("slots.tie_break", {"stage": "final", "entries": ["S1"] * 101},
     "Entries must have at most 100 items."),
    ("super9.spin", {"number": 37}, "Number must be at most 36."),
    ("register_member", {"card": "1000001", "display_name": "A", "x": 1, "y": 2},
     "Unknown field(s): x, y."),
    # a field inside a list's item is named at its place, as docs/config.md writes keys
    ("slots.accept_feed", {"stage": "qualifying", "heat": "Heat 1", "corrections": [
        {"entry": "S1", "score": 1, "reason": "meter"},
        {"entry": "S2", "score": 1, "reason": "meter", "colour": "red"}]},
     "Unknown field(s): corrections[1].colour."),
    ("slots.accept_feed", {"stage": "qualifying", "heat": "Heat 1", "corrections": [
        {"entry": "S1", "score": -1, "reason": "meter"}]},
     "corrections[0].score must be at least 0."),
    ("register_member", {"card": "1000001", "display_name": "A", "\u202e" + "x" * 60: 1},
     'Unknown field(s): "\\u202e' + "x" * 39 + '...".'),
    ("register_member", "Thandi", "The command's payload must be an object of named fields."),
])
def test_a_bad_payload_is_refused_with_one_sentence_and_changes_nothing(
        show: Show, type_: str, body: object, sentence: str):
    before = {name: view.doc for name, view in show.views.items()}
    members = dict(show.feature(type(show.features[0])).__dict__)
    refused = refusal(show, type_, body)
    assert (refused.code, refused.message) == ("bad_payload", sentence)
    assert {name: view.doc for name, view in show.views.items()} == before
    assert dict(show.feature(type(show.features[0])).__dict__) == members
