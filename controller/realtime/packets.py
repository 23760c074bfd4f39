"""Socket.IO packets as the controller writes them: JSON text only, encoded by orjson.

python-socketio builds every packet it sends (an ack, a sync's answer, a broadcast) by first
walking the whole payload in Python for `bytes` to send as binary attachments, then encoding it
with the standard `json` module. Nothing the controller sends is binary (screenshots arrive as
base64, docs/protocol.md), and at a thousand screens one payload is large: the operators' sync
after a playlist assigned to the floor carries every screen's view (1.4 MB), whose walk and
encoding held the loop for over 100 ms. `JsonPacket` skips the walk and encodes with orjson.

What clients send is read as every door reads JSON (controller/domain/strict_json.py): a
packet nested deeper than its limit, naming a key twice, or holding a huge integer is refused
before any parser descends into it, and answered as a bad packet with the reason
(controller/realtime/server.py). Binary packets from a client still decode; an answer that
would carry bytes fails to encode and is answered as a bad packet.
"""

from __future__ import annotations

from typing import Any

import orjson
from socketio import packet

from controller.domain import strict_json


class Json:
    """The `json` a packet class calls: `dumps` with the options the standard one is given
    (compact separators, which orjson always uses), `loads` the doors' strict one."""

    @staticmethod
    def dumps(data: Any, **_: Any) -> str:
        """As json.dumps with separators=(",", ":"), but non-ASCII stays UTF-8 (the same text to
        a client) and integer keys are written as strings, as json.dumps does."""
        return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()

    @staticmethod
    def loads(text: str, **_: Any) -> Any:
        return strict_json.loads(text, "The message")


class JsonPacket(packet.Packet):
    """A Socket.IO packet that is never binary (no walk of its payload) and encodes with
    orjson; the server's `serializer`."""

    uses_binary_events = False
    json = Json
