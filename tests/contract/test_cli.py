"""`showrunner validate` and `showrunner preview` as a technician runs them."""

from pathlib import Path

import pygame

from showrunner.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_validate_reports_every_error_and_exits_non_zero(tmp_path, capsys):
    good = ROOT / "playlists" / "super9.yaml"
    bad = tmp_path / "bad.yaml"
    bad.write_text('scenes:\n  - scene: nope\n    duration: 0\nwindows:\n'
                   '  - {from: "20:00", to: "02:00"}\n')
    assert main(["validate", str(good), str(bad)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith(f"{bad}:2:12: unknown scene 'nope'")
    assert err[1].startswith(f"{bad}:3:15: bad duration 0")
    assert err[2].startswith(f"{bad}:5:25: bad window: it ends (02:00) before it starts")
    assert err[3] == "1 of 2 playlist(s) have errors"
    assert main(["validate", str(good)]) == 0


def test_preview_draws_a_contact_sheet_of_every_scene(tmp_path):
    out = tmp_path / "sheet.png"
    assert main(["preview", str(ROOT / "playlists" / "super9.yaml"), "--out", str(out)]) == 0
    sheet = pygame.image.load(str(out))
    assert sheet.get_size() == (3 * 496 + 16, 1 * 316 + 16)  # 2 scenes + fallback: one row
    assert sheet.get_at((16 + 240, 16 + 30 + 135)) != sheet.get_at((4, 4))  # a scene, not paper
