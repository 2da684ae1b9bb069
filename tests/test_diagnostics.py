"""``--log FILE`` and ``--verbose`` on every command: JSON lines where the options say."""

from __future__ import annotations

import argparse
import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from domicile_p2p.cli import _leaves, build_parser, main
from domicile_p2p.cli._diagnostics import event_sink, start_logging


@pytest.fixture(autouse=True)
def root_logger_restored() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for handler in root.handlers[:]:
        if handler not in handlers:
            root.removeHandler(handler)
            handler.close()
    root.setLevel(level)


def test_every_command_takes_log_and_verbose() -> None:
    parser = build_parser()
    subparsers = next(a for a in parser._actions if a.dest == "command")
    for name, command in subparsers.choices.items():
        for runs in _leaves(command):
            options = {o for action in runs._actions for o in action.option_strings}
            assert {"--log", "--verbose"} <= options, name


def _args(**given: object) -> argparse.Namespace:
    return argparse.Namespace(**{"command": "bot", "log": None, "verbose": False, **given})


def _records(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_log_file_gets_info_records_and_events_as_json_lines(tmp_path: Path) -> None:
    log = tmp_path / "bot.log"
    args = _args(log=str(log))
    start_logging(args)
    logging.getLogger("domicile_p2p.net").debug("not without --verbose")
    logging.getLogger("domicile_p2p.net").warning("host went away\u202e")
    event_sink(args)("reconnecting", {"in": 0.5, "attempt": 1})
    args.log_stream.flush()
    first, second = _records(log)
    assert first["event"] == "log" and first["level"] == "warning"
    assert first["logger"] == "domicile_p2p.net" and first["message"] == "host went away\u202e"
    assert "\\u202e" in log.read_text(encoding="utf-8"), "peer text is made inert"
    assert second["event"] == "reconnecting" and second["attempt"] == 1


def test_verbose_without_log_writes_the_data_dirs_logs(tmp_path: Path) -> None:
    args = _args(verbose=True, data_dir=tmp_path / "data")
    start_logging(args)
    logging.getLogger("domicile_tui").debug("a debug record")
    args.log_stream.flush()
    [record] = _records(tmp_path / "data" / "logs" / "bot.log")
    assert record["level"] == "debug" and record["message"] == "a debug record"


def test_without_either_option_nothing_is_set_up() -> None:
    root = logging.getLogger()
    before = list(root.handlers)
    args = _args()
    start_logging(args)
    assert root.handlers == before
    assert event_sink(args)("joined", {}) is None


def test_a_log_that_cannot_be_written_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    assert main(["paths", "--log", str(blocker / "x.log")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"domicile paths: cannot write the log {blocker / 'x.log'}: ")
    assert err.count("\n") == 1
