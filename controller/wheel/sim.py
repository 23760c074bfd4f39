"""`wheel-sim`: a Cammegh wheel's status stream, for tests and the demo, on a pty or TCP.

Like the wheel, it writes one status line every `interval` seconds (`*X;state;game;number;
warnings;rotor_speed;direction`, `;` separators, CRLF), each state repeated for a few lines:
1 game start, 2 rotor turning, 3 ball in track, 4 no more bets, 5 the winning number, then the
next game under the next game number. The number field shows the last winning number (empty
before the first). Commands on stdin, one a line: `n` makes the game in play (if its ball has
not dropped yet, else the next one) a no spin: after ball in track it goes back to game start
under a new game number without a number, and then the ball "returns to the previous number":
one state-5 line with the previous winning number, under that new game number, before play goes
on (super9 rules 18.2-18.3); `r` restarts the wheel after the game in play (a power cycle: its
game counter starts again at 1); `g` writes a garbage line, `x` a line with a number off the
wheel (37), `q` quits.

On a pty (os.openpty) the slave is in raw mode and LINK is a symlink to it, replaced
atomically, so a reader can open LINK and a restarted simulator is found again at the same
LINK. Lines written while no reader is there are dropped, as on a wheel with its cable out.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import sys
import tty
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

REPEATS = {1: 2, 2: 2, 3: 3, 4: 2, 5: 4}  # lines a state is shown for, at `interval` each
NO_SPIN_START_REPEATS = 10  # the croupier retrieves the ball and reverses the wheel (18.3)
GARBAGE = b"\x13\xfe*X;\x80;;garbage\x07"


@dataclass
class Wheel:
    """The state of the simulated wheel; `games()` is its stream of status lines."""

    numbers: list[int] = field(default_factory=list)  # winning numbers in order, then random
    game: int = 1
    last: int | None = None
    no_spin_asked: bool = False
    restart_asked: bool = False

    def ask_no_spin(self) -> None:
        self.no_spin_asked = True

    def ask_restart(self) -> None:
        self.restart_asked = True

    def line(self, state: int, game: int, number: int | None) -> str:
        speed = 0 if state == 1 else 743 - 20 * state
        direction = self.game % 2  # the rotor turns the other way each game
        shown = "" if number is None else str(number)
        return f"*X;{state};{game};{shown};0;{speed};{direction}"

    def next_number(self) -> int:
        # `secrets`, as all of the controller's randomness (its scan finds no `random`)
        return self.numbers.pop(0) if self.numbers else secrets.randbelow(37)

    def games(self, count: int | None = None, closed: int = 0) -> Iterator[str]:
        """Every line of `count` games (for ever when None), after `closed` lines of state 6
        (the table closed: a reader that opens the port meanwhile misses no game)."""
        for _ in range(closed):
            yield self.line(6, self.game, self.last)
        played = 0
        while count is None or played < count:
            yield from self._game()
            played += 1

    def _game(self) -> Iterator[str]:
        if self.restart_asked:  # a power cycle: the counter starts again, no number shown
            self.restart_asked = False
            self.game, self.last = 1, None
            print("wheel-sim: the wheel restarted; game 1 is next", flush=True)
        for state in (1, 2, 3):
            for _ in range(REPEATS[state]):
                yield self.line(state, self.game, self.last)
        if self.no_spin_asked:  # rule 18.2: no number this game
            self.no_spin_asked = False
            print(f"wheel-sim: game {self.game} is a no spin", flush=True)
            self.game += 1
            for _ in range(NO_SPIN_START_REPEATS):
                yield self.line(1, self.game, self.last)
            if self.last is not None:  # rule 18.3: the ball back in the previous pocket
                yield self.line(5, self.game, self.last)
            self.game += 1
            return
        for _ in range(REPEATS[4]):
            yield self.line(4, self.game, self.last)
        number = self.next_number()
        for _ in range(REPEATS[5]):
            yield self.line(5, self.game, number)
        self.last = number
        self.game += 1

    def out_of_range(self) -> str:
        return f"*X;5;{self.game};37;0;0;0"


def link_pty(link: Path) -> tuple[int, int, str]:
    """A raw pty, LINK pointing at its slave: (master fd, slave fd, slave path)."""
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    path = os.ttyname(slave)
    temporary = link.with_name(f".{link.name}.{os.getpid()}")
    with contextlib.suppress(FileNotFoundError):
        temporary.unlink()
    temporary.symlink_to(path)
    os.replace(temporary, link)
    return master, slave, path


class PtyOut:
    """Writes to the pty's master; a full buffer (no reader) drops the line."""

    def __init__(self, master: int) -> None:
        self.master = master

    async def write(self, data: bytes) -> None:
        with contextlib.suppress(BlockingIOError):
            os.write(self.master, data)


class TcpOut:
    """Serves the stream on a TCP port: every connected reader gets every line."""

    def __init__(self) -> None:
        self.writers: set[asyncio.StreamWriter] = set()

    async def accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.writers.add(writer)

    async def write(self, data: bytes) -> None:
        for writer in list(self.writers):
            try:
                writer.write(data)
                await asyncio.wait_for(writer.drain(), 1)
            except (OSError, TimeoutError):
                self.writers.discard(writer)
                writer.close()


Out = PtyOut | TcpOut


async def play(wheel: Wheel, out: Out, interval: float, games: int | None,
               closed_s: float = 0.0) -> None:
    """Write the stream, one line every `interval`, obeying stdin's commands; the table
    closed for `closed_s` first."""
    commands: asyncio.Queue[str] = asyncio.Queue()
    loop = asyncio.get_running_loop()
    with contextlib.suppress(OSError, ValueError, PermissionError):  # no usable stdin
        loop.add_reader(sys.stdin.fileno(), _read_command, commands, loop)
    for status in wheel.games(games, round(closed_s / interval)):
        while not commands.empty():
            command = commands.get_nowait()
            if command == "q":
                return
            if command == "n":
                wheel.ask_no_spin()
            elif command == "r":
                wheel.ask_restart()
            elif command == "g":
                await out.write(GARBAGE + b"\r\n")
            elif command == "x":
                await out.write(wheel.out_of_range().encode() + b"\r\n")
        await out.write(status.encode("ascii") + b"\r\n")
        print(status, flush=True)
        await asyncio.sleep(interval)


def _read_command(commands: asyncio.Queue[str], loop: asyncio.AbstractEventLoop) -> None:
    """Every command waiting on stdin (read from the descriptor: a buffered readline would
    keep the second of two commands that came together until a third arrived)."""
    fd = sys.stdin.fileno()
    data = os.read(fd, 1024)
    if not data:  # stdin closed: no more commands, play on
        loop.remove_reader(fd)
        return
    for line in data.decode("ascii", "replace").split():
        commands.put_nowait(line.lower()[:1])
