"""`GET /kiosk`: the ehost kiosk's page, its logo and its colours (docs/ehost.md).

The page is served to anyone, without a login: it holds no data until its kiosk key connects
on /kiosk. The logo and the colours are the venue's, as the screens and the audit report read
them (the top-level `assets/` or $SHOWRUNNER_ASSETS, docs/branding.md).
"""

from __future__ import annotations

from pathlib import Path

from aiohttp import web

from controller.audit.branding import Branding, branding

NO_STORE = {"Cache-Control": "no-store"}


def add_kiosk_routes(app: web.Application, web_dir: Path) -> None:
    async def page(request: web.Request) -> web.FileResponse:
        return web.FileResponse(web_dir / "kiosk.html", headers=NO_STORE)

    app.router.add_get("/kiosk", page)
    app.router.add_get("/kiosk/logo.png", logo)
    app.router.add_get("/kiosk/theme.css", theme)


async def logo(request: web.Request) -> web.FileResponse:
    found = branding().logo
    if found is None:
        raise web.HTTPNotFound(text="The venue has no logo (assets/logo.png).")
    return web.FileResponse(found)


async def theme(request: web.Request) -> web.Response:
    """The venue's colours as CSS variables, over kiosk.css's defaults."""
    return web.Response(text=theme_css(branding()), content_type="text/css")


def theme_css(brand: Branding) -> str:
    def hex_(rgb: tuple[int, int, int]) -> str:
        return "#{:02x}{:02x}{:02x}".format(*rgb)

    return (f":root {{ --band: {hex_(brand.band)}; --gold: {hex_(brand.accent)}; "
            f"--ink: {hex_(brand.text_on_band)}; }}\n")
