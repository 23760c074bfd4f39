"""The controller runs without pygame: what it shares with the displays is showrunner.contract."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_importing_the_controller_loads_no_pygame():
    code = "import controller.http.app, controller.cli, sys; assert 'pygame' not in sys.modules"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert done.returncode == 0, done.stderr


def test_the_contract_loads_no_pygame():
    code = ("import showrunner.contract.playlist.validate, showrunner.contract.params, "
            "showrunner.contract.money, sys; assert 'pygame' not in sys.modules")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert done.returncode == 0, done.stderr
