"""controller/domain/strict_json.py: how every door reads JSON. Any text gets a value or a
sentence, never another exception (no RecursionError at any depth); nesting past MAX_DEPTH, a
key twice, NaN and huge integers are refused in words; every JSON value within the limits
reads back as itself."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.domain.strict_json import MAX_DEPTH, JsonRefused, deeper_than, loads

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-(10**30), 10**30),
                    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=20)


def depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max((depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((depth(v) for v in value.values()), default=0)
    return 0


def nested(kinds: list[bool], core: str = "1") -> str:
    """`core` inside one list (True) or object (False) per entry of `kinds`."""
    text = core
    for is_list in reversed(kinds):
        text = f"[{text}]" if is_list else f'{{"k": {text}}}'
    return text


@given(VALUES)
def test_every_value_within_the_limits_reads_back_as_itself(value):
    assert loads(json.dumps(value)) == value
    assert loads(json.dumps(value).encode()) == value


@settings(max_examples=200)
@given(st.lists(st.booleans(), min_size=MAX_DEPTH + 1, max_size=5000),
       st.sampled_from(["1", '"x"', "[]", "{}", '{"a": [1, {"b": 2}]}', "", "[", '"']))
def test_nesting_past_the_limit_is_refused_in_words_at_any_depth(kinds, core):
    with pytest.raises(JsonRefused) as refused:
        loads(nested(kinds, core))
    assert str(refused.value) == \
        f"The body is nested deeper than {MAX_DEPTH} levels of objects and lists."


def test_the_limit_itself_is_taken_and_one_more_level_is_not():
    assert depth(loads(nested([True, False] * (MAX_DEPTH // 2)))) == MAX_DEPTH
    with pytest.raises(JsonRefused):
        loads(nested([True, False] * (MAX_DEPTH // 2), "[]"))  # the innermost [] is one more


def test_brackets_inside_strings_are_text_not_nesting():
    deep_text = '"' + "[{" * 2000 + '\\"]' + '"'
    assert loads(f'{{"note": {deep_text}}}') == {"note": "[{" * 2000 + '"]'}


@settings(max_examples=500)
@given(st.text(alphabet='[]{}",:\\1a \n', max_size=3000))
def test_any_text_gets_a_value_or_a_sentence_never_another_exception(text):
    try:
        value = loads(text)
    except JsonRefused as exc:
        assert str(exc).startswith("The body ") and str(exc).endswith(".")
        return
    assert depth(value) <= MAX_DEPTH
    assert not deeper_than(text, MAX_DEPTH)


@given(st.binary(max_size=200))
def test_any_bytes_get_a_value_or_a_sentence(raw):
    try:
        loads(raw)
    except JsonRefused as exc:
        assert str(exc).endswith(".")


@pytest.mark.parametrize(("text", "sentence"), [
    ('{"machine": "101", "machine": "102"}',
     'The body names the field "machine" twice in one object; give each field once.'),
    ('{"readings": [{"machine": "101", "credits": 1, "credits": 2}]}',
     'The body names the field "credits" twice in one object; give each field once.'),
    ('{"' + "k" * 300 + '": 1, "' + "k" * 300 + '": 2}',
     'The body names the field "' + "k" * 40 + '..." twice in one object; give each field '
     "once."),
    ('{"\\u0000": 1, "\\u0000": 2}',
     'The body names the field "\\u0000" twice in one object; give each field once.'),
    ('[NaN]', "The body holds NaN, which is not a number JSON allows (every number must be "
              "finite)."),
    ('{"credits": -Infinity}', "The body holds -Infinity, which is not a number JSON allows "
                               "(every number must be finite)."),
    ("[" + "9" * 101 + "]", "The body holds a whole number of more than 100 digits."),
    ('{"readings": [1,]}', "The body is not valid JSON (Expecting value at line 1, column 17)."),
    (b"\xff\xfe".decode("latin-1"), "The body is not valid JSON (Expecting value at line 1, "
                                    "column 1)."),
])
def test_each_refusal_says_what_is_wrong(text, sentence):
    with pytest.raises(JsonRefused) as refused:
        loads(text)
    assert str(refused.value) == sentence


def test_bytes_that_are_not_utf8_and_the_reader_named():
    with pytest.raises(JsonRefused, match=r"^The body is not UTF-8 text\.$"):
        loads(b'{"a": "\xff"}')
    with pytest.raises(JsonRefused, match=r"^The message is nested deeper than 32 "):
        loads("[" * 40, "The message")
