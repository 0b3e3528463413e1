"""What a newcomer at ``deckhand play`` tripped over (issue 37, items 9-12): a prompt
that always says what is awaited, the move that moves the game on listed first and
chosen by its word, the help naming Enid's plain mode as the docs do, and a run with no
standard input at all ending saved."""

from __future__ import annotations

import io
import os
import subprocess
import sys

from bot.terminal import cli
from bot.terminal.screen import Screen
from tests.terminal.driver import ROOT, SAVED, next_screen, spawn, transcript, type_line
from tests.terminal.test_play import first_moves


def test_with_standard_input_closed_the_game_ends_saved(tmp_path):
    """``deckhand play idiot <&-``: Python's ``sys.stdin`` is None. The keyboard thread
    reads that as the end of input (as Ctrl+D), so the game is saved and the process
    ends, instead of a traceback and computers playing on for ever."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "100"}
    env.pop("DISCORD_TOKEN", None)
    done = subprocess.run(
        [sys.executable, "-m", "bot", "play", "idiot", "--data-dir", str(tmp_path), "--pause", "0", "--seed", "3", "--name", "Ann"],
        cwd=str(ROOT), env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60,
        preexec_fn=lambda: os.close(0),  # noqa: PLW1509 (the child starts with no standard input)
    )
    assert "Traceback" not in done.stdout and "AttributeError" not in done.stdout, done.stdout[-2000:]
    assert done.stdout.rstrip().endswith(f"{SAVED} idiot to carry on."), done.stdout[-2000:]
    assert done.returncode == 0


def test_the_help_names_enids_plain_mode_as_the_docs_do():
    """``enid --rule mode=plain`` is Taylor's game without the rituals, not the other
    game called Blackjack."""
    text = cli.build_parser().format_help()
    (line,) = [line for line in text.splitlines() if "mode=plain" in line]
    assert "Blackjack" not in line and "plain mode" in line and "Taylor" in line, line


def test_after_a_black_six_the_screen_says_a_first_line_is_awaited_and_how_to_decline(tmp_path):
    """Seed 7 deals Ann the first turn with 6♣ (a black Alan Turing) as her move 1.
    Named, it owes a limerick's first line: the screen says so (not a bare prompt), with
    a move that declines it ("may"), chosen by its word."""
    child = spawn("enid", tmp_path, "--seed", "7", "--name", "Ann")
    screen = first_moves(child)
    assert screen.moves[1].startswith("6♣"), screen.text
    type_line(child, "1")  # laid; its name on a line of its own
    naming = next_screen(child)
    assert "Now type its name: your 6\u2060♣\ufe0e is “Alan Turing of Carp”" in naming.text, naming.text  # (text suit signs, unbroken)
    type_line(child, "Alan Turing of Carp")
    owed = next_screen(child)
    assert "· ✅ Ann named" in owed.text and "first line of a limerick" in owed.text, transcript(child)[-2000:]
    assert "or choose No limerick" in owed.text and owed.moves == {1: "No limerick"}, owed.text
    type_line(child, "")  # an empty line says again what is awaited
    again = next_screen(child)
    assert "first line of a limerick" in again.text and again.moves == {1: "No limerick"}, again.text
    type_line(child, "no")
    child.expect_exact("· 📜 Ann set no limerick")
    type_line(child, "quit")
    child.expect_exact(SAVED)


def test_idiots_swap_phase_offers_ready_first_and_takes_its_word(tmp_path):
    child = spawn("idiot", tmp_path, "--seed", "3", "--name", "Ann")
    screen = first_moves(child)
    assert screen.moves[1] == "Ready" and all(label.startswith("Swap") for n, label in screen.moves.items() if n > 1), screen.text
    type_line(child, "ready")
    child.expect_exact("· Ann is ready.")
    type_line(child, "quit")
    child.expect_exact(SAVED)


def test_a_prompt_is_never_printed_twice_in_a_row():
    """A vote cast by someone else is secret: its move prints no line, and the prompt
    that followed it used to be printed beside the one already showing (``> > ``)."""
    out = io.StringIO()
    screen = Screen(out, {})
    screen.show(["Your moves:", "  1. Yes, it stands", "  2. No"])
    screen.prompt()
    screen.show([])  # a move that printed nothing
    screen.prompt()
    assert out.getvalue().endswith("  2. No\n> ") and "> > " not in out.getvalue()
