"""The demo's ehost kiosk: members swipe their Rewards card and activate their own Wild Card
tickets (slots rules 18.3, 33.3) while the entry bins are open (rule 36).

The kiosk is enrolled like any: a `kiosk` key of its own, issued each cycle. The night plays
two members at it through the `/kiosk` namespace, exactly the calls the kiosk page makes for a
swipe and a tap (docs/ehost.md); the page itself is open at the URL the demo prints, for anyone
who wants to swipe by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import socketio

from controller.domain.keys import new_key

NAME = "Lobby kiosk"


class Kiosk:
    def __init__(self) -> None:
        self.key = new_key()  # the same every cycle, like the screen's

    def page(self, url: str) -> str:
        """The link a technician opens once on the kiosk PC (the key stays in the fragment,
        which no server or log sees)."""
        return f"{url}/kiosk#key={self.key}"

    async def swipe(self, url: str, cards: Iterable[str], say: Callable[[str], None]) -> None:
        """Each card swiped, looked up and activated with one tap, as a member does."""
        sio = socketio.AsyncClient(handle_sigint=False, reconnection=False)
        await sio.connect(url, namespaces=["/kiosk"], auth={"key": self.key},
                          transports=["websocket"], wait_timeout=10)
        try:
            for card in cards:
                found = await sio.call("lookup", {"card": card}, namespace="/kiosk", timeout=10)
                if not found["ok"]:
                    say(f"  kiosk: {found['error']['message']}")
                    continue
                entry = found["entry"]
                done = await sio.call("activate", {"card": card}, namespace="/kiosk",
                                      timeout=10)
                if done["ok"]:
                    say(f"  {NAME}: {entry['name']} activated {entry['tickets']} Wild Card "
                        f"tickets at {done['entry']['activated_at']}")
                else:
                    say(f"  {NAME}: {done['error']['message']}")
        finally:
            await sio.disconnect()
