"""`showrunner doctor` says what to fix on a floor PC, and exits 1 when something needs it."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

from showrunner import doctor

ROOT = Path(__file__).resolve().parents[2]


def test_a_headless_pc_with_an_open_key_file_is_told_what_to_fix(tmp_path):
    key = tmp_path / "display.key"
    key.write_text("k")
    key.chmod(0o644)
    result = subprocess.run(
        [sys.executable, "-m", "showrunner.cli", "doctor", "--key-file", str(key),
         "--controller", "http://127.0.0.1:9", "--state-dir", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={"SDL_VIDEODRIVER": "dummy", "PATH": "/usr/bin:/bin"})
    assert result.returncode == 1
    out = result.stdout
    assert "FIX  video driver: SDL's dummy driver puts nothing on a screen" in out
    assert f"run `chmod 600 {key}` first" in out
    assert "FIX  controller: cannot reach http://127.0.0.1:9" in out
    assert "ok   fonts: all the theme's fonts are there" in out
    assert "ok   disk space" in out


def clock_server(offset_ms: int) -> HTTPServer:
    class Clock(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = json.dumps({"server_ms": time.time_ns() / 1e6 + offset_ms}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_: object) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Clock)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def test_the_clock_is_checked_against_the_controller():
    for offset, ok in ((5000, False), (0, True)):
        server = clock_server(offset)
        try:
            found = doctor.clock_offset(f"http://127.0.0.1:{server.server_port}")
        finally:
            server.shutdown()
        assert found.ok is ok
        if not ok:
            assert "+5.0 s off the controller's clock" in found.detail
            assert "timedatectl set-ntp true" in found.detail
