"""``deckhand replay`` through a pseudo-terminal, as a person uses it: a whole Idiot game
played with ``deckhand play``, then watched again step by step (Enter, back, a move's
number, the last step, the end), listed, saved as an animated picture; and what is
refused in one sentence."""

from __future__ import annotations

import io
import os
import re
import sys
from pathlib import Path

import pexpect
import pytest
from PIL import Image

from tests.terminal.driver import ROOT, hears_ctrl_c, play_out, spawn, transcript
from tests.terminal.test_play import lowest_move

STEP = re.compile(r"\(step (\d+) of (\d+)")


def spawn_replay(data_dir: Path, *args: str, timeout: float = 30) -> pexpect.spawn:
    env = {**os.environ, "COLUMNS": "100", "LINES": "50", "PYTHONUNBUFFERED": "1"}
    env.pop("DISCORD_TOKEN", None)
    child = pexpect.spawn(sys.executable, ["-m", "bot", "replay", *args, "--data-dir", str(data_dir)],
                          cwd=str(ROOT), env=env, encoding="utf-8", timeout=timeout, dimensions=(50, 100),
                          preexec_fn=hears_ctrl_c)
    child.logfile_read = io.StringIO()
    return child


def until_prompt(child: pexpect.spawn) -> str:
    child.expect_exact("\r\n> ")
    return child.before.replace("\r\n", "\n")


def told(screen: str) -> list[str]:
    """The lines of what happened on a screen ("· ...")."""
    return [line[2:] for line in screen.splitlines() if line.startswith("· ")]


@pytest.fixture(scope="module")
def finished_idiot(tmp_path_factory) -> tuple[Path, str]:
    data_dir = tmp_path_factory.mktemp("replay") / "terminal"
    child = spawn("idiot", data_dir, "--seed", "3", "--name", "Ann", "--computers", "easy", "hard")
    played = play_out(child, lowest_move)
    assert child.exitstatus == 0 and "The game is over." in played, played[-2000:]
    return data_dir, played


def test_step_through_a_finished_game_as_it_was_played(finished_idiot):
    data_dir, played = finished_idiot
    child = spawn_replay(data_dir, "idiot", "--name", "Ann")
    first = until_prompt(child)
    assert first.startswith("Replay of Idiot #1, ") and "Ann, 🤖 Deckhand 1 (easy), 🤖 Deckhand 2 (hard)." in first
    assert "The deal:" in first and "(step 1 of " in first and "Swap phase" in first
    total = int(STEP.search(first).group(2))

    # Enter to the end: every line the game printed, in the order it printed them.
    lines, screens = told(first), [first]
    for _ in range(total - 1):
        child.sendline("")
        screens.append(until_prompt(child))
        lines += told(screens[-1])
    assert [int(STEP.search(s).group(1)) for s in screens] == list(range(1, total + 1))
    assert [line for line in lines if line != "The game begins."] == told(played)
    last = screens[-1]
    assert "Game over" in last and "the end: Enter stops" in last and "<@" not in "".join(screens) and "**" not in "".join(screens)

    # Back, a move's number, the first and the last step, a wrong key, then the end.
    child.sendline("b")
    assert f"(step {total - 1} of {total})" in until_prompt(child)
    child.sendline("5")
    assert "Move 5 of " in until_prompt(child) or "Moves " in child.before
    child.sendline("f")
    assert "The deal:" in until_prompt(child)
    child.sendline("what")
    assert "'what' is not a key here" in until_prompt(child)
    child.sendline("l")
    assert f"(step {total} of {total}" in until_prompt(child)
    child.sendline("")
    child.expect_exact("End of the replay.")
    child.expect(pexpect.EOF)
    child.wait()
    assert child.exitstatus == 0, transcript(child)


def test_quit_and_ctrl_c_and_ctrl_d_stop_quietly(finished_idiot):
    data_dir, _ = finished_idiot
    for stop in ("q", "\x03", "\x04"):
        child = spawn_replay(data_dir, "idiot")
        until_prompt(child)
        child.send(stop if stop != "q" else "q\r")
        child.expect(pexpect.EOF)
        child.wait()
        assert child.exitstatus == 0 and "Traceback" not in child.logfile_read.getvalue(), stop


def test_list_and_the_animated_picture(finished_idiot, tmp_path):
    data_dir, _ = finished_idiot
    listed = spawn_replay(data_dir, "idiot", "--list")
    listed.expect(pexpect.EOF)
    text = listed.logfile_read.getvalue()
    assert re.search(r"Idiot #1: \d+ moves, finished \d{4}-\d\d-\d\d \d\d:\d\d", text) and "--table N" in text

    picture = tmp_path / "idiot.png"
    saved = spawn_replay(data_dir, "idiot", "--table", "1", "--picture", str(picture), "--name", "Ann")
    saved.expect(pexpect.EOF)
    saved.wait()
    assert saved.exitstatus == 0 and "Saved Idiot #1 as an animated picture (" in saved.logfile_read.getvalue()
    with Image.open(picture) as image:
        assert image.format == "PNG" and getattr(image, "is_animated", False) and image.n_frames > 10
        assert image.info.get("loop") == 0


@pytest.mark.parametrize("args, sentence", [
    (("idiot", "--table", "9"), "There is no game #9 saved under"),
    (("blackjack",), "No game of Blackjack is saved under"),
    (("idiot", "--table", "0"), "--table takes a game's number (1 or more), not 0."),
    (("chess",), "There is no game called 'chess'"),
    ((), "Name the game to replay"),
])
def test_nothing_to_replay_is_one_sentence(finished_idiot, args, sentence):
    data_dir, _ = finished_idiot
    child = spawn_replay(data_dir, *args)
    child.expect(pexpect.EOF)
    child.wait()
    said = child.logfile_read.getvalue().replace("\r\n", "\n")
    assert child.exitstatus == 2 and said.startswith("deckhand replay: ") and sentence in said and said.count("\n") == 1, said


def test_a_game_in_progress_is_not_replayed(tmp_path):
    data_dir = tmp_path / "terminal"
    child = spawn("enid", data_dir, "--seed", "4", "--name", "Ann")
    child.expect_exact("\r\n> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    refused = spawn_replay(data_dir, "enid")
    refused.expect(pexpect.EOF)
    refused.wait()
    said = refused.logfile_read.getvalue()
    assert refused.exitstatus == 2 and "No finished game of Enid is saved" in said and "deckhand play enid" in said
