"""controller/realtime/packets.py: the packets the controller sends are the text the standard
encoder makes, parsed back to the same data, and never binary."""

from __future__ import annotations

import json

import pytest
from socketio import packet

from controller.realtime.packets import JsonPacket

DATA = ["views", {"views": [{"name": "screen:bar-1", "revision": 7,
                             "doc": {"name": "Bär 1 — Main", "score": 1.5, "none": None,
                                     "on": True, "list": [1, 2, {"deep": "x"}], "by": {3: "c"}}}]}]


def test_a_packet_encodes_to_what_the_library_encoder_gives_back_as_the_same_data():
    ours = JsonPacket(packet.EVENT, namespace="/display", data=DATA).encode()
    theirs = packet.Packet(packet.EVENT, namespace="/display", data=DATA).encode()
    assert isinstance(ours, str)
    assert ours.startswith("2/display,") and theirs.startswith("2/display,")
    prefix = len("2/display,")
    assert json.loads(ours[prefix:]) == json.loads(theirs[prefix:])  # int key 3 -> "3" in both
    assert "Bär" in ours  # UTF-8 text, not \u escapes: the same string once parsed


def test_a_packet_is_never_binary_and_bytes_fail_to_encode_rather_than_go_as_attachments():
    pkt = JsonPacket(packet.ACK, namespace="/control", id=4, data=[{"raw": b"\x00"}])
    assert pkt.packet_type == packet.ACK
    with pytest.raises(TypeError):
        pkt.encode()


def test_what_clients_send_decodes_as_before():
    pkt = JsonPacket(encoded_packet='2/control,5["command",{"type":"x","n":12}]')
    assert (pkt.packet_type, pkt.namespace, pkt.id) == (packet.EVENT, "/control", 5)
    assert pkt.data == ["command", {"type": "x", "n": 12}]
    with pytest.raises(ValueError):
        JsonPacket(encoded_packet='2/control,["x",' + "9" * 200 + "]")
