"""Shared fixtures. SimCord runs the real bot against a simulated Discord: no token,
no network. ``make_bot`` builds a bot on a given data directory so a test can
restart it on the same databases."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.app import EXTENSIONS, DeckhandBot
from bot.config import Settings


def make_settings(data_dir: Path) -> Settings:
    return Settings(token="not-a-real-token", data_dir=data_dir, log_level=logging.INFO)


def make_bot(data_dir: Path, extensions: tuple[str, ...] = EXTENSIONS) -> DeckhandBot:
    return DeckhandBot(make_settings(data_dir), extensions=extensions)


async def restart(env, data_dir: Path, extensions: tuple[str, ...] = EXTENSIONS) -> DeckhandBot:
    """Restart the bot on the same databases, as a process restart would: SimCord
    swaps in a fresh bot; the old one's connections are closed as its exit would."""
    old = env.bot
    await env.restart_bot(make_bot(data_dir, extensions))
    await old.tables.close()
    await old.storage.close()
    return env.bot


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def simcord_bot(data_dir: Path) -> DeckhandBot:
    return make_bot(data_dir)
