"""Whose address a request comes from: the TCP peer's, or behind a trusted proxy (a venue's
TLS terminator) the client's it forwarded in `X-Forwarded-For`.

The header is believed only when the peer is one of the configured proxies, and then only its
rightmost entry that is not itself a trusted proxy: every proxy appends the address it saw, so
entries further left were written by the client and prove nothing. Without trusted proxies
the header is ignored, so a client cannot choose the address its wrong keys count against.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address
FORWARDED_FOR = "X-Forwarded-For"
MAX_HOPS = 16  # entries read from the right of the header; more is a client padding it


def parse_address(text: str) -> Address | None:
    """An entry as a proxy writes it ("10.0.0.7", "10.0.0.7:5123", "[2001:db8::7]:5123",
    "2001:db8::7"; an IPv4-mapped "::ffff:10.0.0.7" is 10.0.0.7), or None when it is not an
    address."""
    text = text.strip()
    if text.startswith("[") and "]" in text:
        text = text[1:text.index("]")]
    elif text.count(":") == 1:  # an IPv4 address with its port
        text = text.split(":")[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    mapped = address.ipv4_mapped if isinstance(address, ipaddress.IPv6Address) else None
    return mapped or address


@dataclass(frozen=True)
class TrustedProxies:
    """The networks whose `X-Forwarded-For` is believed (none: the header is ignored)."""

    networks: tuple[Network, ...] = ()

    @classmethod
    def parse(cls, values: Iterable[str]) -> TrustedProxies:
        """From "ADDR_OR_CIDR" values, each possibly a comma list; ValueError in words."""
        networks = []
        for value in values:
            for item in (part.strip() for part in value.split(",")):
                if not item:
                    continue
                try:
                    networks.append(ipaddress.ip_network(item, strict=False))
                except ValueError:
                    raise ValueError(f"{item!r} is not an IP address or a "
                                     "network (e.g. 10.0.0.5 or 10.0.0.0/24).") from None
        return cls(tuple(networks))

    def trusts(self, address: Address | None) -> bool:
        return address is not None and any(address in network for network in self.networks)

    def client(self, peer: str | None, forwarded: Sequence[str]) -> str:
        """The client's address given the TCP `peer` and the `X-Forwarded-For` headers' values:
        the peer unless it is trusted; else the rightmost forwarded entry that is not a trusted
        proxy (the leftmost if all are). An entry that is not an address stops the walk at the
        last proxy that was trusted, whose own address is then the client's."""
        peer = peer or "unknown"
        hop = peer
        if not self.trusts(parse_address(peer)):
            return peer
        entries = [entry for value in forwarded for entry in value.split(",")]
        for entry in reversed(entries[-MAX_HOPS:]):
            address = parse_address(entry)
            if address is None:
                return hop
            hop = str(address)
            if not self.trusts(address):
                return hop
        return hop
