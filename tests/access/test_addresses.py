"""Whose address a request is counted against: X-Forwarded-For only from a trusted proxy, and
then its rightmost entry that is not a trusted proxy (a client can prepend anything)."""

from __future__ import annotations

import pytest

from controller.access.addresses import TrustedProxies

PROXY = TrustedProxies.parse(["127.0.0.1"])


def test_without_trusted_proxies_the_header_is_ignored():
    assert TrustedProxies().client("10.0.0.7", ["192.0.2.1"]) == "10.0.0.7"


def test_a_peer_that_is_not_a_trusted_proxy_keeps_its_own_address():
    assert PROXY.client("10.0.0.7", ["192.0.2.1"]) == "10.0.0.7"


def test_behind_a_trusted_proxy_the_rightmost_untrusted_entry_is_the_client():
    assert PROXY.client("127.0.0.1", ["192.0.2.1"]) == "192.0.2.1"
    # the client wrote "6.6.6.6" itself; the proxy appended what it saw
    assert PROXY.client("127.0.0.1", ["6.6.6.6, 192.0.2.1"]) == "192.0.2.1"
    assert PROXY.client("127.0.0.1", ["6.6.6.6", "192.0.2.1"]) == "192.0.2.1"  # two headers


def test_a_chain_of_trusted_proxies_is_walked_from_the_right():
    proxies = TrustedProxies.parse(["127.0.0.1", "10.0.0.0/24,2001:db8::/32"])
    assert proxies.client("127.0.0.1", ["192.0.2.1, 10.0.0.4"]) == "192.0.2.1"
    assert proxies.client("127.0.0.1", ["10.0.0.9, 10.0.0.4"]) == "10.0.0.9"  # all trusted
    assert proxies.client("127.0.0.1", ["[2001:db8::7]:4431, 192.0.2.5:5123"]) == "192.0.2.5"


def test_a_dual_stack_peer_written_as_ipv4_mapped_ipv6_is_its_ipv4_address():
    assert PROXY.client("::ffff:127.0.0.1", ["::ffff:192.0.2.1"]) == "192.0.2.1"


def test_no_header_or_a_garbled_entry_counts_against_the_last_trusted_hop():
    assert PROXY.client("127.0.0.1", []) == "127.0.0.1"
    assert PROXY.client("127.0.0.1", ["192.0.2.1, not-an-address"]) == "127.0.0.1"
    assert PROXY.client(None, ["192.0.2.1"]) == "unknown"


def test_a_bad_proxy_is_refused_in_words():
    with pytest.raises(ValueError, match="'nope' is not an IP address or a network"):
        TrustedProxies.parse(["10.0.0.1,nope"])
