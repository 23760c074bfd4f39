"""Pieces every scene shares: the backdrop with its header band, and an empty-state message."""

from __future__ import annotations

import pygame

from showrunner.engine.draw import gradient_column
from showrunner.engine.layout import SAFE_MARGIN
from showrunner.engine.scene import SceneContext, spare_layer

HEADER_H = 150  # logical px below the top safe margin
BAND_W = 128  # px: the backdrop's band, laid side by side across a layer
_bands: dict[tuple[object, ...], pygame.Surface] = {}


def _band(ctx: SceneContext) -> pygame.Surface:
    """The theme's gradient, BAND_W pixels wide, at the screen's height (built once per
    height and theme). Never kept full-screen: at 4K that is 32 MiB. Laid side by side it
    fills a 4K layer in 1.9 ms, where a scale from a one-pixel column took 6.6."""
    height = ctx.layout.real[1]
    top, bottom = ctx.theme.colour("background_top"), ctx.theme.colour("background_bottom")
    key = (height, top, bottom)
    found = _bands.get(key)
    if found is None:
        if len(_bands) > 4:
            _bands.clear()
        column = gradient_column(height, top, bottom)
        found = pygame.transform.scale(column, (BAND_W, height)).convert()
        _bands[key] = found
    return found


def paint_backdrop(ctx: SceneContext, target: pygame.Surface, top: int = 0) -> None:
    """The theme's backdrop (a vertical gradient) into `target` inside its clip, the target's
    row 0 being the screen's row `top`; rows off the screen are left as they are."""
    band = _band(ctx)
    area = target.get_clip()
    rows = pygame.Rect(0, top + area.y, BAND_W, area.height).clip(band.get_rect())
    if area.width <= 0 or rows.height <= 0:
        return
    target.blits([(band, (x, rows.y - top), (0, rows.y, min(BAND_W, area.right - x), rows.h))
                  for x in range(area.x, area.right, BAND_W)], doreturn=False)


def backdrop_strip(ctx: SceneContext, size: tuple[int, int], top: int) -> pygame.Surface:
    """A new opaque surface of `size` holding the backdrop from the screen's row `top`."""
    strip = pygame.Surface(size, 0, _band(ctx))
    paint_backdrop(ctx, strip, top)
    return strip


def backdrop_layer(ctx: SceneContext, into: pygame.Surface | None = None) -> pygame.Surface:
    """A full-screen layer holding the backdrop: `into` if it is one, else the one of the scene
    the switch took off the screen (showrunner.engine.scene.spare_layer), else a new one
    (about 25 ms at 4K)."""
    size = ctx.layout.real
    if into is None or into.get_size() != size:
        into = spare_layer(size) or pygame.Surface(size, 0, _band(ctx))
    paint_backdrop(ctx, into)
    return into


def static_layer(ctx: SceneContext, title: str, subtitle: str = "", right: str = "",
                 into: pygame.Surface | None = None) -> pygame.Surface:
    """A full-screen surface: backdrop, title, subtitle, optional right-hand caption, logo.

    Scenes build it when their view changes and blit it first every frame. Drawn `into` the
    scene's previous layer where it has one (see backdrop_layer): a new 4K surface costs
    about 15 ms, a blit 2.
    """
    lay, theme, text = ctx.layout, ctx.theme, ctx.text
    layer = backdrop_layer(ctx, into)
    x, y, w, _ = lay.safe()
    logo_w = 0
    if theme.logo is not None:
        logo = ctx.assets.image(theme.logo, (lay.px(320), lay.px(110)), fit="contain")
        layer.blit(logo, (lay.x(x + w) - logo.get_width(), lay.y(y)))
        logo_w = 340
    right_w = 0.0
    if right:
        caption = text.fit(right, "body", 34, theme.colour("muted"), 560)
        right_w = caption.get_width() / lay.scale + 24
        layer.blit(caption, (lay.x(x + w - logo_w) - caption.get_width(),
                             lay.y(y + 96) - caption.get_height() // 2))
    title_img = text.fit(title.upper(), "display", 104, theme.colour("accent"),
                         w - logo_w - 20, min_size=64)
    layer.blit(title_img, lay.point(x, y - 8))
    if subtitle:
        sub = text.fit(subtitle, "body", 38, theme.colour("text"), w - logo_w - right_w - 20)
        layer.blit(sub, (lay.x(x), lay.y(y + 96) - sub.get_height() // 2))
    line = lay.rect(x, y + HEADER_H - 20, w, 4)
    pygame.draw.rect(layer, theme.colour("accent_dark"), line)
    return layer


def content_top() -> float:
    """Logical y where content starts under the header."""
    return SAFE_MARGIN + HEADER_H + 8


def centred_message(ctx: SceneContext, surface: pygame.Surface, message: str, y: float,
                    size: float = 64, role: str = "bold", colour: str = "muted") -> None:
    lay = ctx.layout
    img = ctx.text.fit(message, role, size, ctx.theme.colour(colour), lay.width - 200)
    surface.blit(img, img.get_rect(center=lay.point(lay.width / 2, y)))
