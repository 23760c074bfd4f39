"""Scene library: one module per scene, one registry of names (the names playlists use)."""

from __future__ import annotations

from showrunner.engine.host import SceneFactory
from showrunner.scenes.announcement import Announcement
from showrunner.scenes.attract import Attract
from showrunner.scenes.claim_countdown import ClaimCountdown
from showrunner.scenes.jackpot_ticker import JackpotTicker
from showrunner.scenes.leaderboard import Leaderboard
from showrunner.scenes.live_heat import LiveHeat
from showrunner.scenes.next_event import NextEvent
from showrunner.scenes.prize_table import PrizeTable
from showrunner.scenes.roulette_countdown import RouletteCountdown
from showrunner.scenes.seating_chart import SeatingChart
from showrunner.scenes.super9_board import Super9Board
from showrunner.scenes.video import Video
from showrunner.scenes.wildcard_draw import WildcardDraw

REGISTRY: dict[str, SceneFactory] = {
    cls.name: cls
    for cls in (Leaderboard, JackpotTicker, WildcardDraw, ClaimCountdown, Super9Board,
                RouletteCountdown, PrizeTable, SeatingChart, Announcement, Attract, NextEvent,
                LiveHeat, Video)
}
