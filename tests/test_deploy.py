"""The systemd units in deploy/ pass `systemd-analyze verify`, and ask for what a floor PC
needs: started after the network, restarted on failure, a watchdog, the key from a root-only
file through systemd."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"
UNITS = ("showrunner-controller.service", "showrunner-x.service", "showrunner-display@.service")


def installed(tmp_path: Path) -> list[Path]:
    """The units as installed here: the project's venv for /opt/showrunner/.venv, and (this
    machine has no X server to start) /bin/true for xinit; the display template as one
    instance."""
    paths = []
    for name in UNITS:
        text = (DEPLOY / name).read_text().replace("/opt/showrunner/.venv", sys.prefix)
        text = text.replace("/usr/bin/xinit", "/bin/true")
        path = tmp_path / name.replace("@.", "@bar-1.")
        path.write_text(text)
        paths.append(path)
    return paths


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="needs systemd-analyze")
def test_the_units_pass_systemd_analyze_verify(tmp_path):
    result = subprocess.run(["systemd-analyze", "verify", *map(str, installed(tmp_path))],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == ""  # not even an unknown key ignored


def test_a_display_unit_is_supervised_and_gets_its_key_from_systemd():
    unit = (DEPLOY / "showrunner-display@.service").read_text()
    for line in ("Type=notify", "WatchdogSec=30", "Restart=on-failure",
                 "After=network-online.target showrunner-x.service",
                 "LoadCredential=key:/etc/showrunner/display-%i.key",
                 "--key-file ${CREDENTIALS_DIRECTORY}/key", "--screen %i", "--fullscreen"):
        assert line in unit


def test_the_controller_unit_gives_room_for_the_floors_connections():
    # the cap on open connections is the open-file limit less 256 (controller/http/limits.py);
    # systemd's own default (1,024) would cap a floor at 768 screens, pages and devices
    unit = (DEPLOY / "showrunner-controller.service").read_text()
    limit = next(line for line in unit.splitlines() if line.startswith("LimitNOFILE="))
    assert int(limit.removeprefix("LimitNOFILE=")) >= 16_384
