"""`wheel`: the wheel's number reader, a process beside the wheel; `wheel-sim`: a simulated
Cammegh wheel on a pseudo-terminal or a TCP port (docs/wheel-reader.md)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sys
from pathlib import Path

from controller.cli.urls import controller_urls
from controller.wheel.link import ControllerLink
from controller.wheel.port import Opener, Port, serial_opener, tcp_opener
from controller.wheel.reader import Reader, ReaderStopped
from controller.wheel.sim import PtyOut, TcpOut, Wheel, link_pty, play
from showrunner.contract.keyfile import read_key

DEVICE_KEY_ENV = "SHOWRUNNER_DEVICE_KEY"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    wheel = sub.add_parser("wheel", allow_abbrev=False,
                           help="read a roulette wheel's numbers and send them to the controller")
    wheel.add_argument("--url", required=True, type=controller_urls, help="the controller, e.g. "
                       "http://10.0.0.5:8080, or each controller of the log with commas")
    wheel.add_argument("--key-file", type=Path, metavar="PATH",
                       help="file holding this table's device key, readable by its owner only "
                       f"(chmod 600); default: the {DEVICE_KEY_ENV} environment variable")
    wheel.add_argument("--table", required=True, help="the table the key was issued for, e.g. AR14")
    source = wheel.add_mutually_exclusive_group(required=True)
    source.add_argument("--device", help="the serial port, e.g. /dev/ttyUSB0")
    source.add_argument("--tcp", metavar="HOST:PORT", help="a serial-to-Ethernet server")
    wheel.add_argument("--baud", type=int, default=9600, help="serial speed (8N1); default 9600")
    wheel.add_argument("--protocol", choices=("cammegh", "line"), required=True)
    wheel.set_defaults(run=_run_reader, wheel_parser=wheel)

    sim = sub.add_parser("wheel-sim", allow_abbrev=False,
                         help="a simulated Cammegh wheel on a pseudo-terminal or a TCP port")
    out = sim.add_mutually_exclusive_group(required=True)
    out.add_argument("--pty", type=Path, metavar="LINK",
                     help="make LINK a symlink to a new pseudo-terminal and write there")
    out.add_argument("--tcp-listen", type=int, metavar="PORT", help="serve the stream on PORT")
    sim.add_argument("--interval", type=float, default=0.5, help="seconds between status lines")
    sim.add_argument("--numbers", default="", help="the winning numbers in order, e.g. 17,5,32 "
                     "(then random ones)")
    sim.add_argument("--games", type=int, help="stop after this many games (default: never)")
    sim.add_argument("--closed-for", type=float, default=0.0, metavar="SECONDS",
                     help="show the table closed (state 6) this long before the first game, so "
                     "a reader that opens the port meanwhile misses none (pyserial empties the "
                     "port's input as it opens it)")
    sim.add_argument("--first-game", type=int, default=1, help="the first game's number "
                     "(a restarted wheel carries on its count)")
    sim.set_defaults(run=_run_sim, sim_parser=sim)


def _logging() -> None:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for noisy in ("socketio", "engineio", "aiohttp"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


def _run_reader(args: argparse.Namespace) -> int:
    parser: argparse.ArgumentParser = args.wheel_parser
    key = read_key(args.key_file, DEVICE_KEY_ENV, "this table's device key")
    opener: Opener
    if args.tcp:
        host, _, port = args.tcp.rpartition(":")
        if not host or not port.isdigit():
            parser.error(f"--tcp wants HOST:PORT, e.g. 10.0.0.7:4001, not {args.tcp!r}")
        opener, name = tcp_opener(host, int(port)), f"tcp {args.tcp}"
    else:
        opener, name = serial_opener(args.device, args.baud), f"port {args.device}"
    if args.baud <= 0:
        parser.error(f"--baud wants the wheel's serial speed, e.g. 9600, not {args.baud}")
    _logging()
    link = ControllerLink(args.url, key)
    reader = Reader(args.table, args.protocol, link)
    logging.getLogger("controller.wheel").info(
        "wheel %s: reading %s (%s) for %s", args.table, name, args.protocol,
        ", ".join(args.url))
    try:
        asyncio.run(reader.run(Port(opener, name, reader.port_changed)))
    except KeyboardInterrupt:
        return 0
    except ReaderStopped as exc:  # a fault: said with its cause; the service starts it again
        logging.getLogger("controller.wheel").critical("the reader stops: %s", exc,
                                                       exc_info=exc.__cause__)
        return 1
    return 0


def _run_sim(args: argparse.Namespace) -> int:
    parser: argparse.ArgumentParser = args.sim_parser
    try:
        numbers = [int(n) for n in args.numbers.split(",") if n.strip()]
    except ValueError:
        parser.error(f"--numbers wants numbers 0-36 with commas, e.g. 17,5,32, not "
                     f"{args.numbers!r}")
    if any(not 0 <= n <= 36 for n in numbers):
        parser.error("--numbers: every number is 0-36")
    if args.interval <= 0:
        parser.error("--interval must be above 0 seconds")
    if args.closed_for < 0:
        parser.error("--closed-for must be 0 seconds or more")
    wheel = Wheel(numbers, game=args.first_game)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_sim(args, wheel))
    return 0


async def _sim(args: argparse.Namespace, wheel: Wheel) -> None:
    if args.pty is not None:
        try:
            master, slave, path = link_pty(args.pty)
        except OSError as exc:
            print(f"showrunner-controller: cannot make {args.pty}: {exc.strerror}",
                  file=sys.stderr)
            raise SystemExit(2) from None
        print(f"wheel-sim: {args.pty} -> {path}", flush=True)
        try:
            await play(wheel, PtyOut(master), args.interval, args.games, args.closed_for)
        finally:
            os.close(master)
            os.close(slave)
            with contextlib.suppress(OSError):
                if args.pty.is_symlink() and os.readlink(args.pty) == path:
                    args.pty.unlink()
        return
    tcp = TcpOut()
    try:
        server = await asyncio.start_server(tcp.accept, "127.0.0.1", args.tcp_listen)
    except OSError as exc:
        print(f"showrunner-controller: cannot listen on port {args.tcp_listen}: "
              f"{exc.strerror}", file=sys.stderr)
        raise SystemExit(2) from None
    print(f"wheel-sim: listening on 127.0.0.1:{args.tcp_listen}", flush=True)
    async with server:
        await play(wheel, tcp, args.interval, args.games, args.closed_for)
