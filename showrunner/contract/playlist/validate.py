"""Playlist YAML -> a checked playlist document, or every problem as `file:line:column: message`.

Pure (no I/O; files.py reads a file): the controller runs the same check before anything reaches a
screen, and `showrunner validate` runs it on a technician's files. The format is described in
docs/playlists.md. Marks come from `yaml.compose`, so each problem points at the offending node;
scene parameters are checked against the scene catalogue (showrunner.contract.scenes).
"""

from __future__ import annotations

import re
import zoneinfo
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import yaml
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from showrunner.contract.params import check_params
from showrunner.contract.scenes import CATALOGUE, TRANSITIONS
from showrunner.contract.words import suggest

DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
DAY_SETS = {"daily": DAYS, "weekdays": DAYS[:5], "weekend": DAYS[5:]}
LATEST_END_MIN = 30 * 60  # a window may run to 30:00, i.e. 06:00 the next morning
MIN_DURATION_MS = 1000
MAX_DURATION_MS = 24 * 3600 * 1000
DEFAULT_TIMEZONE = "Africa/Johannesburg"
DEFAULT_TRANSITION = "crossfade"
TOP_FIELDS = ("name", "priority", "timezone", "windows", "loop", "transition", "scenes",
              "fallback")
ITEM_FIELDS = ("scene", "duration", "params", "transition")
FALLBACK_FIELDS = ("scene", "params")
WINDOW_FIELDS = ("days", "from", "to")
_DURATION = re.compile(r"^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+(?:\.\d+)?)s)?$")
_TIME = re.compile(r"^(\d{1,2}):(\d{2})$")
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_STR = "tag:yaml.org,2002:str"
_NULL = "tag:yaml.org,2002:null"
#: libyaml's parser where PyYAML has it (its wheels do): the same nodes, tags and marks, in a
#: hundredth of the pure-Python parser's time, which held the controller's loop for ms per
#: playlist assigned
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True)
class Problem:
    file: str
    line: int
    column: int
    message: str
    #: the playlist plays, but not as well as it could (a video larger than its screens)
    warning: bool = False

    def __str__(self) -> str:
        kind = "warning: " if self.warning else ""
        return f"{self.file}:{self.line}:{self.column}: {kind}{self.message}"


class PlaylistError(ValueError):
    """A playlist that cannot be played; `problems` lists every error found."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems


def errors(problems: list[Problem]) -> list[Problem]:
    """The problems that stop a playlist (not the warnings)."""
    return [p for p in problems if not p.warning]


SceneCheck = Callable[[str, Mapping[str, Any]], str | None]
"""Why a checked scene and its parameters cannot be shown where the playlist is going, or
None: the controller's audience policy (controller/screens/audience.py); reported at the
scene's `view` parameter, else at its name."""

VideoCheck = Callable[[str], tuple[str | None, str | None]]
"""(error, warning) found opening the video a scene names: `showrunner validate` opens the
file (showrunner.video.probe, see showrunner/cli.py); reported at the parameter's value."""


def validate(text: str, file: str, scene_check: SceneCheck | None = None,
             video_check: VideoCheck | None = None) -> dict[str, Any]:
    """The playlist document, or PlaylistError with every problem (warnings only: the
    document)."""
    doc, problems = check(text, file, scene_check=scene_check, video_check=video_check)
    if errors(problems) or doc is None:
        raise PlaylistError(problems)
    return doc


def check(text: str, file: str, stem: str | None = None,
          scene_check: SceneCheck | None = None, video_check: VideoCheck | None = None
          ) -> tuple[dict[str, Any] | None, list[Problem]]:
    """(document or None, problems and warnings). The document is None only if the YAML is
    unreadable."""
    checker = _Checker(file, scene_check, video_check)
    tabs = checker.tabs(text)
    if tabs:
        return None, tabs
    try:
        root = yaml.compose(text, Loader=_LOADER)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        return None, [Problem(file, line, column, f"not valid YAML: {exc.problem or exc}")]
    except yaml.YAMLError as exc:
        return None, [Problem(file, 1, 1, f"not valid YAML: {exc}")]
    if root is None:
        return None, [Problem(file, 1, 1, "the file is empty; a playlist needs 'scenes'")]
    doc = checker.playlist(root, stem or _stem(file))
    return doc, sorted(checker.problems, key=lambda p: (p.line, p.column))


def check_scene(scene: Any, params: Any, what: str = "scene") -> dict[str, Any]:
    """A scene and parameters given as data (a takeover): {"scene", "params"}, or
    PlaylistError whose problems' file is `what` (they have no line)."""
    def refused(message: str) -> PlaylistError:
        return PlaylistError([Problem(what, 1, 1, message)])

    if not isinstance(scene, str) or scene not in CATALOGUE:
        known = sorted(CATALOGUE)
        raise refused(f"unknown scene {scene!r}{suggest(scene, known)}; "
                      f"known scenes: {', '.join(known)}")
    if not isinstance(params, Mapping):
        raise refused(f"the params of scene {scene!r} must be a mapping")
    checked, problems = check_params(scene, params)
    if problems:
        raise PlaylistError([Problem(what, 1, 1, message) for _, message in problems])
    return {"scene": scene, "params": checked}


class _Checker:
    def __init__(self, file: str, scene_check: SceneCheck | None = None,
                 video_check: VideoCheck | None = None) -> None:
        self.file = file
        self.scene_check = scene_check
        self.video_check = video_check
        self.problems: list[Problem] = []

    def error(self, node: Node, message: str, warning: bool = False) -> None:
        mark = node.start_mark
        self.problems.append(Problem(self.file, mark.line + 1, mark.column + 1, message,
                                     warning))

    def tabs(self, text: str) -> list[Problem]:
        found = []
        for number, line in enumerate(text.splitlines(), start=1):
            column = line.find("\t")
            if column >= 0 and not line[:column].strip():
                found.append(Problem(self.file, number, column + 1,
                                     "a tab in the indentation; YAML indents with spaces only"))
        return found

    # -- structure ------------------------------------------------------------------------
    def fields(self, node: Node, allowed: tuple[str, ...], what: str) -> dict[str, Node] | None:
        """A mapping's values by key; unknown and repeated keys are problems."""
        if not isinstance(node, MappingNode):
            self.error(node, f"{what} must be a mapping of fields ({', '.join(allowed)})")
            return None
        out: dict[str, Node] = {}
        for key, value in node.value:
            name = key.value if isinstance(key, ScalarNode) else None
            if name not in allowed:
                self.error(key, f"unknown field {name!r} in {what}{suggest(name, allowed)}; "
                                f"expected one of: {', '.join(allowed)}")
            elif name in out:
                self.error(key, f"field {name!r} is given twice in {what}")
            else:
                out[name] = value
        return out

    def playlist(self, root: Node, stem: str) -> dict[str, Any] | None:
        top = self.fields(root, TOP_FIELDS, "the playlist")
        if top is None:
            return None
        doc: dict[str, Any] = {
            "name": self.text(top["name"], "name") if "name" in top else stem,
            "priority": self.integer(top["priority"], "priority") if "priority" in top else 0,
            "timezone": self.timezone(top.get("timezone")),
            "loop": self.boolean(top["loop"], "loop") if "loop" in top else True,
            "windows": self.windows(top.get("windows")),
        }
        default = DEFAULT_TRANSITION
        if "transition" in top:
            default = self.transition(top["transition"]) or DEFAULT_TRANSITION
        doc["transition"] = default
        if "scenes" not in top:
            self.error(root, "the playlist has no 'scenes' list")
            doc["items"] = []
        else:
            doc["items"] = self.items(top["scenes"], default)
        doc["fallback"] = self.fallback(top["fallback"]) if "fallback" in top else None
        return doc

    def items(self, node: Node, transition: str) -> list[dict[str, Any]]:
        if not isinstance(node, SequenceNode) or not node.value:
            self.error(node, "'scenes' must be a list with at least one scene")
            return []
        out = []
        for number, item_node in enumerate(node.value, start=1):
            item = self.fields(item_node, ITEM_FIELDS, f"scene {number}")
            if item is None:
                continue
            scene = self.scene(item_node, item, f"scene {number}")
            if "duration" not in item:
                self.error(item_node, f"scene {number} has no 'duration'")
            duration = self.duration(item["duration"]) if "duration" in item else None
            chosen = transition
            if "transition" in item:
                chosen = self.transition(item["transition"]) or transition
            if scene is not None and duration is not None:
                out.append({"scene": scene[0], "duration_ms": duration, "params": scene[1],
                            "transition": chosen})
        return out

    def fallback(self, node: Node) -> dict[str, Any] | None:
        fields = self.fields(node, FALLBACK_FIELDS, "the fallback")
        if fields is None:
            return None
        scene = self.scene(node, fields, "the fallback")
        return {"scene": scene[0], "params": scene[1]} if scene else None

    def scene(self, node: Node, fields: dict[str, Node],
              what: str) -> tuple[str, dict[str, Any]] | None:
        if "scene" not in fields:
            self.error(node, f"{what} has no 'scene'")
            return None
        name_node = fields["scene"]
        name = name_node.value if isinstance(name_node, ScalarNode) else None
        if name not in CATALOGUE:
            known = sorted(CATALOGUE)
            self.error(name_node, f"unknown scene {name!r}{suggest(name, known)}; "
                                  f"known scenes: {', '.join(known)}")
            return None
        params = self.params(fields["params"], name) if "params" in fields else {}
        why = self.scene_check(name, params) if self.scene_check else None
        if why is not None:
            self.error(_value_of(fields.get("params"), "view") or name_node, why)
        self.videos(name, params, fields.get("params"), name_node)
        return name, params

    def videos(self, scene: str, params: dict[str, Any], node: Node | None,
               name_node: Node) -> None:
        """Each video parameter of the scene names a file, and (with a video check) one that
        plays."""
        for param in CATALOGUE[scene].videos:
            value = params.get(param)
            at = _value_of(node, param)
            if at is not None and param not in params:
                continue  # given but refused: reported with the parameters
            if not value:
                self.error(at or name_node, f"scene {scene!r} needs '{param}': the video file "
                                            f"to play")
                continue
            found = self.video_check(value) if self.video_check else (None, None)
            for message, warning in ((found[0], False), (found[1], True)):
                if message is not None:
                    self.error(at or name_node, f"video {value!r}: {message}", warning)

    # -- values ---------------------------------------------------------------------------
    def params(self, node: Node, scene: str) -> dict[str, Any]:
        """The scene's parameters, checked against its model in the catalogue."""
        if not isinstance(node, MappingNode):
            self.error(node, f"the params of scene {scene!r} must be a mapping")
            return {}
        given: dict[str, Any] = {}
        nodes: dict[str, tuple[Node, Node]] = {}
        for key, value in node.value:
            name = key.value if isinstance(key, ScalarNode) else None
            if not isinstance(name, str):
                self.error(key, f"a parameter of scene {scene!r} must be named by text")
            elif name in given:
                self.error(key, f"parameter {name!r} is given twice")
            else:
                plain = _plain(value)
                given[name] = value.value if plain is _BAD else plain
                nodes[name] = (key, value)
        checked, problems = check_params(scene, given)
        for name, message in problems:
            key, value = nodes[name]
            self.error(value if name in CATALOGUE[scene].model_fields else key, message)
        return checked

    def text(self, node: Node, what: str) -> str:
        value = _plain(node)
        if not isinstance(value, str) or not value.strip():
            self.error(node, f"'{what}' must be text")
            return ""
        return value

    def integer(self, node: Node, what: str) -> int:
        value = _plain(node)
        if isinstance(value, bool) or not isinstance(value, int):
            self.error(node, f"'{what}' must be a whole number, not {_shown(node)}")
            return 0
        return value

    def boolean(self, node: Node, what: str) -> bool:
        value = _plain(node)
        if not isinstance(value, bool):
            self.error(node, f"'{what}' must be true or false, not {_shown(node)}")
            return True
        return value

    def timezone(self, node: Node | None) -> str:
        if node is None:
            return DEFAULT_TIMEZONE
        name = self.text(node, "timezone")
        try:
            zoneinfo.ZoneInfo(name)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            self.error(node, f"unknown timezone {name!r} (e.g. Africa/Johannesburg)")
            return DEFAULT_TIMEZONE
        return name

    def transition(self, node: Node) -> str | None:
        value = _plain(node)
        if value not in TRANSITIONS:
            self.error(node, f"unknown transition {_shown(node)}; use one of: "
                             f"{', '.join(TRANSITIONS)}")
            return None
        return str(value)

    def duration(self, node: Node) -> int | None:
        """Milliseconds from 45, 2.5, "45s", "2m", "1m30s" or "1h"."""
        ms = None
        if isinstance(node, ScalarNode) and node.tag in (_INT, _FLOAT):
            ms = round(float(_plain(node)) * 1000)
        elif isinstance(node, ScalarNode) and node.tag == _STR:
            match = _DURATION.match(node.value.strip())
            if match and any(match.groups()):
                h, m, s = match.groups()
                ms = round((int(h or 0) * 3600 + int(m or 0) * 60 + float(s or 0)) * 1000)
        if ms is None:
            self.error(node, f"bad duration {_shown(node)}: write seconds (45) or 45s, 2m, 1m30s")
            return None
        if not MIN_DURATION_MS <= ms <= MAX_DURATION_MS:
            self.error(node, f"bad duration {_shown(node)}: a scene plays for at least 1 second "
                             "and at most 24 hours")
            return None
        return ms

    def windows(self, node: Node | None) -> list[dict[str, Any]]:
        if node is None:
            return []
        if not isinstance(node, SequenceNode) or not node.value:
            self.error(node, "'windows' must be a list of windows (days, from, to)")
            return []
        out = []
        for number, window_node in enumerate(node.value, start=1):
            what = f"window {number}"
            fields = self.fields(window_node, WINDOW_FIELDS, what)
            if fields is None:
                continue
            missing = [f for f in ("from", "to") if f not in fields]
            if missing:
                self.error(window_node, f"{what} needs {' and '.join(repr(m) for m in missing)}")
                continue
            days = self.days(fields["days"]) if "days" in fields else list(range(7))
            start = self.clock_time(fields["from"], 23 * 60 + 59, "'from'")
            end = self.clock_time(fields["to"], LATEST_END_MIN, "'to'")
            if start is None or end is None or days is None:
                continue
            if end <= start:
                hint = (f"; a window past midnight is written with hours past 24, e.g. "
                        f"to: \"{_hhmm(end + 1440)}\"" if end + 1440 <= LATEST_END_MIN else "")
                self.error(fields["to"], f"bad window: it ends ({_hhmm(end)}) before it starts "
                                         f"({_hhmm(start)}){hint}")
                continue
            out.append({"days": days, "from_min": start, "to_min": end})
        return out

    def days(self, node: Node) -> list[int] | None:
        value = _plain(node)
        if isinstance(value, str) and value.lower() in DAY_SETS:
            return [DAYS.index(d) for d in DAY_SETS[value.lower()]]
        names = value if isinstance(value, list) else None
        if not names or not all(isinstance(n, str) and n[:3].lower() in DAYS for n in names):
            self.error(node, f"bad window: 'days' must be daily, weekdays, weekend or a list of "
                             f"days (mon, tue, …), not {_shown(node)}")
            return None
        return sorted({DAYS.index(n[:3].lower()) for n in names})

    def clock_time(self, node: Node, latest: int, what: str) -> int | None:
        """Minutes after midnight from "HH:MM" (YAML would read 10:00 unquoted as 600)."""
        raw = node.value if isinstance(node, ScalarNode) else ""
        match = _TIME.match(str(raw).strip())
        minutes = int(match[1]) * 60 + int(match[2]) if match and int(match[2]) < 60 else None
        if minutes is None or minutes > latest:
            self.error(node, f"bad window: {what} must be a time HH:MM up to {_hhmm(latest)}, "
                             f"not {_shown(node)}")
            return None
        return minutes


_BAD = object()


def _value_of(node: Node | None, key: str) -> Node | None:
    """The value node of `key` in a mapping node, if there is one."""
    if not isinstance(node, MappingNode):
        return None
    return next((v for k, v in node.value if isinstance(k, ScalarNode) and k.value == key),
                None)


def _plain(node: Node) -> Any:
    """The node as plain Python data (YAML 1.1 rules, like yaml.safe_load)."""
    try:
        return SafeConstructor().construct_object(node, deep=True)
    except ConstructorError:
        return _BAD


def _shown(node: Node) -> str:
    if isinstance(node, ScalarNode):
        return repr(node.value) if node.tag == _STR else node.value or "nothing"
    return "a list" if isinstance(node, SequenceNode) else "a mapping"


def _hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _stem(file: str) -> str:
    """The file's name without its folder and its last suffix (`Path.stem`, without pathlib)."""
    name = file.rsplit("/", 1)[-1]
    base, dot, _suffix = name.rpartition(".")
    return base if dot and base else name
