"""A person's signature on paper the rules require, as a command and an event carry it.

The image itself (a PNG drawn on the console's signature pad) is personal information: it is
received over HTTP (`POST /signatures`), checked and kept in the log's store by its SHA-256, and
only that reference travels in a command and its event, so the hash chain proves which image was
signed without any screen or cue page ever receiving it (docs/signatures.md).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeAlias

from pydantic import Field, StrictInt, StrictStr

from controller.domain.commands import payload

#: the largest signature image kept: a signature pad's PNG is a few KiB
MAX_SIGNATURE_BYTES = 48 * 1024
#: pixels a signature image may span on each side
MIN_WIDTH, MIN_HEIGHT = 120, 40
MAX_WIDTH, MAX_HEIGHT = 2400, 1200
#: pen strokes below which a signature is a tap or a dot, not a signature
MIN_STROKES = 2

Sha256Hex: TypeAlias = Annotated[StrictStr, Field(pattern=r"^[0-9a-f]{64}$")]


@payload
class SignatureRef:
    """Which stored image was signed: its SHA-256 and what the controller measured of it."""

    sha256: Sha256Hex
    media_type: Literal["image/png"]
    bytes: Annotated[StrictInt, Field(ge=1, le=MAX_SIGNATURE_BYTES)]
    width: Annotated[StrictInt, Field(ge=MIN_WIDTH, le=MAX_WIDTH)]
    height: Annotated[StrictInt, Field(ge=MIN_HEIGHT, le=MAX_HEIGHT)]
    strokes: Annotated[StrictInt, Field(ge=MIN_STROKES, le=10_000)]

    def data(self) -> dict[str, Any]:
        """The reference as an event stores it."""
        return {"sha256": self.sha256, "media_type": self.media_type, "bytes": self.bytes,
                "width": self.width, "height": self.height, "strokes": self.strokes}
