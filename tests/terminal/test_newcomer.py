"""What a newcomer at ``deckhand play`` tripped over (issue 37, items 9-12): a prompt
that always says what is awaited, the move that moves the game on listed first and
chosen by its word, the help naming Enid's plain mode as the docs do, and a run with no
standard input at all ending saved."""

from __future__ import annotations

import os
import subprocess
import sys

from bot.terminal import cli
from tests.terminal.driver import ROOT, SAVED


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
