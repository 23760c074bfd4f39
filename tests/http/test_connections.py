"""controller/http/connections.py's count: connections per client address and in all, a
trusted proxy's counted in all only, each refusal a sentence and its answer whole HTTP."""

from __future__ import annotations

import json
import resource

from controller.access.addresses import TrustedProxies
from controller.http.connections import Connections, refused_answer
from controller.http.limits import RESERVED_FILES, HttpLimits
from tests.support.raw_http import parse


def test_an_address_past_its_cap_is_refused_and_admitted_again_once_one_closes():
    connections = Connections(HttpLimits(per_address=2, connections=100), TrustedProxies())
    assert connections.admit("10.0.0.7") is None and connections.admit("10.0.0.7") is None
    refused = connections.admit("10.0.0.7")
    assert refused is not None and "Your address holds 2 connections" in refused
    assert connections.admit("10.0.0.8") is None  # another address is not held back
    connections.release("10.0.0.7")
    assert connections.admit("10.0.0.7") is None
    assert (connections.count, connections.open) == (3, {"10.0.0.7": 2, "10.0.0.8": 1})


def test_the_cap_in_all_holds_for_every_address_and_a_proxy_counts_in_all_only():
    proxies = TrustedProxies.parse(["10.0.0.5"])
    connections = Connections(HttpLimits(per_address=1, connections=3), proxies)
    assert connections.admit("10.0.0.5") is None and connections.admit("10.0.0.5") is None
    assert connections.open == {}  # its clients are many: only the cap in all applies
    assert connections.admit("10.0.0.9") is None
    refused = connections.admit("10.0.0.10")
    assert refused is not None and "holds 3 connections, its most" in refused
    for address in ("10.0.0.5", "10.0.0.5", "10.0.0.9"):
        connections.release(address)
    assert (connections.count, connections.open) == (0, {})


def test_the_cap_in_all_comes_from_the_open_file_limit_unless_set():
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert HttpLimits(connections=500).total() == 500
    assert HttpLimits().total() == max(64, soft - RESERVED_FILES)


def test_a_refused_connection_is_answered_503_in_words_and_closed():
    answer = parse(refused_answer("Your address holds 2 connections."))
    assert answer.status == 503 and answer.headers["connection"] == "close"
    assert json.loads(answer.body) == {"ok": False, "error": {
        "code": "too_many_connections", "message": "Your address holds 2 connections."}}
