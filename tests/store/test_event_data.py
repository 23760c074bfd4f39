"""An event's stored data reads back as the standard library reads it, whichever decoder
reads it: orjson for speed, json for what orjson refuses."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from controller.store.log import event_data

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text()
                    | st.floats(allow_nan=False, allow_infinity=False),
                    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
                    max_leaves=20)


@given(JSON)
def test_what_json_wrote_reads_back_as_json_reads_it(value):
    text = json.dumps(value)
    assert event_data(text) == json.loads(text)


def test_what_orjson_refuses_is_read_by_json():
    for text in ('{"pick": 123456789012345678901234567890}',  # past 64 bits
                 '{"name": "\\ud800"}', '{"x": NaN}'):  # a lone surrogate; a non-JSON NaN
        assert repr(event_data(text)) == repr(json.loads(text))
