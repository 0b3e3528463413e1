"""Settings and start-up: a missing or rejected token ends with one clear sentence."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, Settings

ROOT = Path(__file__).resolve().parents[2]


def test_defaults_and_values():
    settings = Settings.from_env({"DISCORD_TOKEN": "abc"})
    assert settings.data_dir == Path("./data") and settings.log_level == logging.INFO and settings.dev_guild_id is None
    custom = Settings.from_env({"DISCORD_TOKEN": "abc", "DATA_DIR": "/tmp/x", "LOG_LEVEL": "debug", "DEV_GUILD_ID": "123"})
    assert custom.data_dir == Path("/tmp/x") and custom.log_level == logging.DEBUG and custom.dev_guild_id == 123


@pytest.mark.parametrize(
    ("env", "words"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "x", "LOG_LEVEL": "LOUD"}, "LOG_LEVEL 'LOUD'"),
        ({"DISCORD_TOKEN": "x", "DEV_GUILD_ID": "my-server"}, "DEV_GUILD_ID 'my-server'"),
    ],
)
def test_bad_settings_are_one_sentence(env, words):
    with pytest.raises(ConfigError, match=words):
        Settings.from_env(env)


def test_missing_token_exits_with_one_clear_sentence_not_a_traceback(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1 and "DISCORD_TOKEN is not set" in result.stderr
    assert "discord.com/developers/applications" in result.stderr


def test_rejected_token_is_one_sentence(monkeypatch, capsys):
    import discord

    import bot.__main__ as entry

    async def rejected(settings):
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setenv("DISCORD_TOKEN", "definitely-wrong")
    monkeypatch.chdir(ROOT / "tests")  # no .env here
    monkeypatch.setattr(entry, "_run", rejected)
    monkeypatch.setattr(entry.discord.utils, "setup_logging", lambda **kwargs: None)
    assert entry.main() == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Discord rejected DISCORD_TOKEN" in err
