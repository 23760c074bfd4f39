"""Made-up signatures for the demo night: a PNG like the console's signature pad makes.

The demo's players sign their score sheets and prize receipts as people would on the tablet;
here their pen strokes are drawn from their names (the same name always signs alike), in ink on a
transparent background, at the pad's size, so the auditor's PDF of a demo night shows real images.
"""

from __future__ import annotations

import hashlib
import io
import math

from PIL import Image, ImageDraw

WIDTH, HEIGHT = 600, 200
INK = (20, 32, 96, 255)


def autograph(name: str) -> tuple[bytes, int]:
    """The PNG of `name`'s signature and its number of pen strokes (one per word, plus the
    underline)."""
    image = Image.new("RGBA", (WIDTH, HEIGHT), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    seed = hashlib.sha256(name.encode()).digest()
    words = name.split() or [name]
    x = 40.0
    for w, word in enumerate(words):
        points = []
        steps = len(word) * 10
        span = 40 + 24 * len(word)
        for i in range(steps + 1):
            t = i / steps
            angle = t * len(word) * 2 * math.pi
            size = 14 + seed[(w * 5 + i // 10) % len(seed)] % 22  # each letter its own height
            lift = 34 if i < 10 and w == 0 else 0  # a capital's first stroke reaches higher
            points.append((x + t * span - 12 * math.sin(angle),
                           HEIGHT / 2 + 8 - (size + lift) * (1 - math.cos(angle)) / 2
                           + 10 * t * (seed[w] % 3 - 1)))
        draw.line(points, fill=INK, width=4, joint="curve")
        x += span + 34
    draw.line([(40, HEIGHT - 40), (min(x, WIDTH - 30), HEIGHT - 48)], fill=INK, width=3)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue(), len(words) + 1
