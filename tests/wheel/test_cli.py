"""The `wheel` and `wheel-sim` command lines: mistakes an operator can fix are one sentence."""

from __future__ import annotations

import pytest

from controller.cli.main import main


def test_a_key_file_others_can_read_is_refused_in_one_line(tmp_path, capsys) -> None:
    key = tmp_path / "ar14.key"
    key.write_text("secret")
    key.chmod(0o644)
    code = main(["wheel", "--url", "http://127.0.0.1:1", "--key-file", str(key), "--table",
                 "AR14", "--device", "/dev/ttyUSB0", "--protocol", "cammegh"])
    err = capsys.readouterr().err
    assert code == 2 and "chmod 600" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("argv", "words"), [
    (["--tcp", "nonsense"], "--tcp wants HOST:PORT"),
    (["--tcp", "10.0.0.7:4001", "--url", "ws//x"], "give the controller's http(s) address"),
    (["--device", "/dev/ttyUSB0", "--tcp", "h:1"], "not allowed with argument"),
    (["--device", "/dev/ttyUSB0", "--baud", "0"], "--baud wants the wheel's serial speed"),
])
def test_reader_arguments(tmp_path, capsys, argv: list[str], words: str) -> None:
    key = tmp_path / "ar14.key"
    key.write_text("secret")
    key.chmod(0o600)
    url = [] if "--url" in argv else ["--url", "http://127.0.0.1:1"]
    with pytest.raises(SystemExit) as exit_:
        main(["wheel", *url, "--key-file", str(key), "--table", "AR14", "--protocol", "line",
              *argv])
    assert exit_.value.code == 2 and words in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "words"), [
    (["--numbers", "17,x"], "--numbers wants numbers 0-36"),
    (["--numbers", "17,37"], "every number is 0-36"),
    (["--interval", "0"], "--interval must be above 0"),
    (["--closed-for", "-1"], "--closed-for must be 0 seconds or more"),
])
def test_sim_arguments(tmp_path, capsys, argv: list[str], words: str) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["wheel-sim", "--pty", str(tmp_path / "wheel"), *argv])
    assert exit_.value.code == 2 and words in capsys.readouterr().err
