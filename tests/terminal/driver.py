"""Drives ``deckhand play`` through a pseudo-terminal (pexpect), as a person would:
reads the screen up to the prompt, picks one of the numbered moves, types it."""

from __future__ import annotations

import io
import os
import re
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pexpect

ROOT = Path(__file__).resolve().parents[2]
PROMPT = "\r\n> "
MOVE = re.compile(r"^\s{1,3}(\d+)\. (.+?)\s*$", re.M)
OVER = "The game is over."
SAVED = "The game is saved: run deckhand play"


@dataclass
class Screen:
    """What was printed up to one prompt."""

    text: str

    @property
    def moves(self) -> dict[int, str]:
        """The numbered moves of the last "Your moves:" list on this screen."""
        head, _, listed = self.text.rpartition("Your moves:")
        return {int(n): label for n, label in MOVE.findall(listed)} if head or listed else {}


def hears_ctrl_c() -> None:
    """In the child, before it starts: Ctrl+C interrupts, as at a terminal. A shell starts a
    background job (``pytest &``) with SIGINT ignored, and a child inherits that: Ctrl+C
    would then reach a process that ignores it, and the tests that press it would wait out
    their timeout."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(game: str, data_dir: Path, *args: str, timeout: float = 30) -> pexpect.spawn:
    env = {**os.environ, "COLUMNS": "100", "LINES": "50", "PYTHONUNBUFFERED": "1", "DATA_DIR": str(data_dir.parent)}
    env.pop("DISCORD_TOKEN", None)
    child = pexpect.spawn(
        sys.executable, ["-m", "bot", "play", game, "--data-dir", str(data_dir), "--pause", "0", *args],
        cwd=str(ROOT), env=env, encoding="utf-8", timeout=timeout, dimensions=(50, 100), preexec_fn=hears_ctrl_c,
    )
    child.logfile_read = io.StringIO()  # everything the screen showed, typed lines echoed
    return child


def next_screen(child: pexpect.spawn) -> Screen | None:
    """The screen up to the next prompt, or None once the game is over (the process has ended)."""
    index = child.expect([PROMPT, pexpect.EOF])
    return Screen(child.before.replace("\r\n", "\n")) if index == 0 else None


def type_line(child: pexpect.spawn, line: str) -> None:
    child.sendline(line)


def exchange(child: pexpect.spawn, *pairs: tuple[str, str]) -> None:
    """Type each line and wait for its answer, word for word."""
    for line, answer in pairs:
        type_line(child, line)
        child.expect_exact(answer)


def asks(screen: Screen) -> bool:
    """Whether the screen asks something of you: your moves, or words you owe ("Now ...")."""
    return "Your moves:" in screen.text or "\nNow " in screen.text


def play_out(child: pexpect.spawn, choose: Callable[[Screen], str], *, limit: int = 600) -> str:
    """Answer every prompt with ``choose(screen)`` until the game ends; the whole transcript.
    A bare prompt (others moved; your choices are as they were) is answered with
    ``board``, which shows them again, so ``choose`` always reads a whole screen."""
    for _ in range(limit):
        screen = next_screen(child)
        if screen is None:
            break
        type_line(child, choose(screen) if asks(screen) else "board")
    else:
        raise AssertionError(f"no end after {limit} prompts:\n{transcript(child)[-3000:]}")
    child.wait()
    return transcript(child)


def transcript(child: pexpect.spawn) -> str:
    """All the screen showed, as a terminal shows it (a prompt overwritten by later lines
    is left out, as it disappears on a terminal)."""
    return child.logfile_read.getvalue().replace("\r\n", "\n").replace("> \r\x1b[K", "")
