"""Synthetic H.264 clips made with PyAV, whose every frame says its own number.

Tests, benchmarks and the demo make their videos here rather than shipping binaries. The top
third of a frame is a row of BITS blocks, the frame's number in binary (most significant
first, a light block for 1, a dark blue one for 0, never black); `read_number` reads it back
from a picture of the screen. Below, a texture scrolls a few pixels a frame, so the encoder
has motion and detail to code, as in a real clip (flat colour alone would decode far faster
than footage does).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
from PIL import Image, ImageDraw, ImageOps

BITS = 10  # numbers 0..1023: 34 s at 30 fps
ONE = (235, 235, 235)
ZERO = (20, 30, 110)
SCROLL = 4  # texture pixels a frame


def make_clip(path: Path, size: tuple[int, int] = (320, 180), fps: int = 30,
              frames: int = 90, crf: int = 18, codec: str = "libx264",
              numbered: bool = True) -> Path:
    """Write `frames` frames at `fps` to `path` (the container by its suffix): numbered, or
    (the demo's reel) a gold ring that grows and fades over the texture, seamless as it
    loops."""
    width, height = size
    if frames > 2**BITS:
        raise ValueError(f"at most {2**BITS} frames can be numbered")
    texture = _texture((width + SCROLL * frames, height))
    path.parent.mkdir(parents=True, exist_ok=True)
    with av.open(str(path), "w") as container:
        stream = container.add_stream(codec, rate=fps)
        assert isinstance(stream, av.VideoStream)
        stream.width, stream.height = width, height
        stream.pix_fmt = "yuv420p"
        if codec == "libx264":
            stream.options = {"crf": str(crf), "preset": "veryfast", "g": str(fps)}
        stream.codec_context.time_base = Fraction(1, fps)
        for number in range(frames):
            image = texture.crop((number * SCROLL, 0, number * SCROLL + width, height))
            if numbered:
                draw_number(image, number)
            else:
                draw_ring(image, number / frames)
            frame = av.VideoFrame.from_image(image)
            frame.pts = number
            container.mux(stream.encode(frame))
        container.mux(stream.encode(None))
    return path


def draw_number(image: Image.Image, number: int) -> None:
    """The number's blocks over the top third of `image`."""
    width, height = image.size
    draw = ImageDraw.Draw(image)
    for bit in range(BITS):
        on = number >> (BITS - 1 - bit) & 1
        left, right = bit * width // BITS, (bit + 1) * width // BITS
        draw.rectangle((left, 0, right - 1, height // 3), fill=ONE if on else ZERO)


def draw_ring(image: Image.Image, phase: float) -> None:
    """Rings widening from the middle, one a loop (`phase` 0..1), so the loop's seam is
    invisible."""
    width, height = image.size
    draw = ImageDraw.Draw(image)
    for ring in range(3):
        grow = (phase + ring / 3) % 1.0
        radius = grow * 0.6 * max(width, height)
        shade = round(255 * (1 - grow))
        box = (width / 2 - radius, height / 2 - radius, width / 2 + radius, height / 2 + radius)
        draw.ellipse(box, outline=(255, 215 * shade // 255, 90 * shade // 255),
                     width=max(2, height // 40))


def read_number(image: Image.Image) -> int | None:
    """The number a numbered frame shows filling `image`, or None if the blocks are not there
    (a black frame, a stand-in, another picture)."""
    rgb = image.convert("RGB")
    width, height = rgb.size
    number = 0
    for bit in range(BITS):
        pixel = rgb.getpixel(((2 * bit + 1) * width // (2 * BITS), height // 6))
        assert isinstance(pixel, tuple)
        red, green, blue = pixel[:3]
        if min(red, green, blue) > 170:
            number = number << 1 | 1
        elif blue > 70 and red < 80 and green < 90:
            number = number << 1
        else:
            return None
    return number


def _texture(size: tuple[int, int]) -> Image.Image:
    """Soft coloured noise wide enough to scroll across."""
    small = (max(1, size[0] // 8), max(1, size[1] // 8))
    noise = Image.effect_noise(small, 60).resize(size, Image.Resampling.BICUBIC)
    return ImageOps.colorize(noise, (60, 10, 40), (230, 170, 60))
