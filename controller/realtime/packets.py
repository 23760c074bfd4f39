"""Socket.IO packets as the controller writes them: JSON text only, encoded by orjson.

python-socketio builds every packet it sends (an ack, a sync's answer, a broadcast) by first
walking the whole payload in Python for `bytes` to send as binary attachments, then encoding it
with the standard `json` module. Nothing the controller sends is binary (screenshots arrive as
base64, docs/protocol.md), and at a thousand screens one payload is large: the operators' sync
after a playlist assigned to the floor carries every screen's view (1.4 MB), whose walk and
encoding held the loop for over 100 ms. `JsonPacket` skips the walk and encodes with orjson.

Decoding what clients send is unchanged (engine.io's json, which refuses huge integers), and
binary packets from a client still decode; an answer that would carry bytes fails to encode
and is answered as a bad packet (controller/realtime/server.py).
"""

from __future__ import annotations

from typing import Any

import orjson
from engineio import json as engineio_json
from socketio import packet


class Json:
    """The `json` a packet class calls: `dumps` with the options the standard one is given
    (compact separators, which orjson always uses), `loads` engine.io's."""

    @staticmethod
    def dumps(data: Any, **_: Any) -> str:
        """As json.dumps with separators=(",", ":"), but non-ASCII stays UTF-8 (the same text to
        a client) and integer keys are written as strings, as json.dumps does."""
        return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()

    loads = staticmethod(engineio_json.loads)


class JsonPacket(packet.Packet):
    """A Socket.IO packet that is never binary (no walk of its payload) and encodes with
    orjson; the server's `serializer`."""

    uses_binary_events = False
    json = Json
