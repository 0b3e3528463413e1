"""Settings and start-up: a missing or rejected token ends with one clear sentence."""

from __future__ import annotations

import logging
import signal
import socket
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
    assert (settings.requests_per_second, settings.request_log_seconds) == (50, 300)
    raised = Settings.from_env({"DISCORD_TOKEN": "abc", "DISCORD_REQUESTS_PER_SECOND": "120", "REQUEST_LOG_SECONDS": "0"})
    assert (raised.requests_per_second, raised.request_log_seconds) == (120, 0)
    assert (settings.member_requests_per_minute, settings.server_requests_per_minute) == (20, 120)
    shares = Settings.from_env({"DISCORD_TOKEN": "abc", "MEMBER_REQUESTS_PER_MINUTE": "0", "SERVER_REQUESTS_PER_MINUTE": "600"})
    assert (shares.member_requests_per_minute, shares.server_requests_per_minute) == (0, 600)
    assert (settings.views_per_minute, Settings.from_env({"DISCORD_TOKEN": "abc", "VIEWS_PER_MINUTE": "0"}).views_per_minute) == (60, 0)


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
    from bot.discord_front import run

    async def rejected(settings):
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setenv("DISCORD_TOKEN", "definitely-wrong")
    monkeypatch.chdir(ROOT / "tests")  # no .env here
    monkeypatch.setattr(run, "run_bot", rejected)
    monkeypatch.setattr(discord.utils, "setup_logging", lambda **kwargs: None)
    assert entry.main() == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Discord rejected DISCORD_TOKEN" in err


# ------------------------------------------------------------------ numbers (issue 27, item 5)


@pytest.mark.parametrize(
    ("env", "words"),
    [
        ({"SHARD_COUNT": "²"}, "SHARD_COUNT '²' must be a whole number of at least 1, in the digits 0-9"),
        ({"SHARD_COUNT": "٣"}, "SHARD_COUNT '٣'"),  # int() would read this one as 3
        ({"SHARD_COUNT": "2", "SHARD_IDS": "¹"}, "SHARD_IDS '¹' must list shard numbers from 0 to 1"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,١"}, "SHARD_IDS '0,١'"),
        ({"DEV_GUILD_ID": "¹²³"}, "DEV_GUILD_ID '¹²³' is not a server id"),
        ({"DEV_GUILD_ID": "١٢٣"}, "DEV_GUILD_ID '١٢٣' is not a server id"),
        ({"DEV_GUILD_ID": "99999999999999999999999"}, "is not a server id"),
        ({"MAX_OPEN_DATABASES": "²"}, "MAX_OPEN_DATABASES '²' must be a whole number"),
        ({"MAX_OPEN_DATABASES": "٢٥٦"}, "MAX_OPEN_DATABASES '٢٥٦'"),
        ({"DATABASE_URL": "postgresql://u:p@db:54x2/deckhand"}, "DATABASE_URL's port '54x2' (after the host 'db') is not a port number"),
        ({"DATABASE_URL": "postgresql://u:p@db:⁵⁴³²/deckhand"}, "DATABASE_URL's port '⁵⁴³²'"),
        ({"DATABASE_URL": "postgresql://u:p@db:99999/deckhand"}, "from 1 to 65535"),
        ({"DATABASE_URL": "postgresql://u:p@[::1/deckhand"}, "opens a [ without closing it"),
        ({"DATABASE_URL": "mysql://u:p@db/deckhand"}, "DATABASE_URL must start with postgresql://"),
        ({"DISCORD_REQUESTS_PER_SECOND": "0"}, "DISCORD_REQUESTS_PER_SECOND '0' must be a whole number of at least 1"),
        ({"DISCORD_REQUESTS_PER_SECOND": "٥٠"}, "DISCORD_REQUESTS_PER_SECOND '٥٠'"),
        ({"REQUEST_LOG_SECONDS": "5m"}, "REQUEST_LOG_SECONDS '5m' must be a whole number of seconds"),
        ({"MEMBER_REQUESTS_PER_MINUTE": "20/min"}, "MEMBER_REQUESTS_PER_MINUTE '20/min' must be a whole number of requests a minute one member"),
        ({"SERVER_REQUESTS_PER_MINUTE": "-1"}, "SERVER_REQUESTS_PER_MINUTE '-1' must be a whole number"),
        ({"VIEWS_PER_MINUTE": "lots"}, "VIEWS_PER_MINUTE 'lots' must be a whole number of views a minute one member"),
    ],
)
def test_numbers_are_ascii_digits_and_bad_ones_are_one_sentence(env, words):
    with pytest.raises(ConfigError) as refused:
        Settings.from_env({"DISCORD_TOKEN": "x", **env})
    assert words in str(refused.value) and "\n" not in str(refused.value)


def test_good_database_urls_pass_the_shape_check():
    for url in ("postgresql://deckhand:hunter2@db:5432/deckhand", "postgres://u@/d?host=/run/postgresql",
                "postgresql:///deckhand", "postgresql://u:p@h1:5432,h2/d", "postgresql://u:p%40ss@[::1]:5432/d"):
        assert Settings.from_env({"DISCORD_TOKEN": "x", "DATABASE_URL": url}).database_url == url


# ------------------------------------------------------------------ python -m bot in a subprocess (issue 27, items 4 and 5)
#
# Each run points discord.py's API at a socket of this test on 127.0.0.1 (a
# sitecustomize on PYTHONPATH), so the bot can send nothing to Discord and the test
# sees any attempt: a connection to that socket is a login attempt.


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class FakeDiscord:
    def __init__(self, tmp_path: Path) -> None:
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen()
        self.listener.setblocking(False)
        self.site = tmp_path / "site"
        self.site.mkdir(exist_ok=True)
        port = self.listener.getsockname()[1]
        (self.site / "sitecustomize.py").write_text(
            f"import discord.http\ndiscord.http.Route.BASE = 'http://127.0.0.1:{port}/api/v10'\n", encoding="utf-8"
        )
        self.cwd = tmp_path / "run"
        self.cwd.mkdir(exist_ok=True)  # no .env here

    def env(self, **settings: str) -> dict[str, str]:
        return {"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{ROOT}:{self.site}", "DATA_DIR": str(self.cwd / "data"), **settings}

    def run(self, *args: str, **settings: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "bot", *args], cwd=self.cwd, env=self.env(**settings),
                              capture_output=True, text=True, timeout=60)

    def reached(self) -> bool:
        try:
            connection, _ = self.listener.accept()
        except BlockingIOError:
            return False
        connection.close()
        return True

    def close(self) -> None:
        self.listener.close()


@pytest.fixture
def fake_discord(tmp_path):
    fake = FakeDiscord(tmp_path)
    yield fake
    fake.close()


def assert_one_sentence(result, words):
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1, result.stderr
    assert words in result.stderr, result.stderr


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("postgresql://deckhand:hunter2@127.0.0.1:{closed}/deckhand", "Nothing accepts connections at 127.0.0.1:{closed} (connection refused)"),
        ("postgresql://deckhand:hunter2@deckhand-test.invalid:5432/deckhand", "The host in DATABASE_URL (deckhand-test.invalid:5432) is not a name"),
        ("postgresql://deckhand:hunter2@127.0.0.1:54x2/deckhand", "DATABASE_URL's port '54x2'"),
        ("postgresql://deckhand:hunter2@127.0.0.1:{closed}/deckhand?sslmode=sometimes", "DATABASE_URL is malformed"),
    ],
)
def test_a_bad_database_url_is_one_sentence_before_any_login(fake_discord, url, words):
    closed = closed_port()
    result = fake_discord.run(DISCORD_TOKEN="not-a-real-token", DATABASE_URL=url.format(closed=closed), LOG_LEVEL="INFO")
    assert_one_sentence(result, words.format(closed=closed))
    assert "hunter2" not in result.stderr  # the password never goes to the log
    assert not fake_discord.reached()


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"SHARD_COUNT": "²"}, "SHARD_COUNT '²'"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "¹"}, "SHARD_IDS '¹'"),
        ({"DEV_GUILD_ID": "¹²³"}, "DEV_GUILD_ID '¹²³'"),
        ({"MAX_OPEN_DATABASES": "²"}, "MAX_OPEN_DATABASES '²'"),
    ],
)
def test_unicode_digits_in_settings_exit_2_with_a_sentence(fake_discord, settings, words):
    result = fake_discord.run(DISCORD_TOKEN="not-a-real-token", **settings)
    assert_one_sentence(result, words)
    assert not fake_discord.reached()


@pytest.mark.parametrize("args", [("migrate", "²"), ("migrate", "1", "١"), ("quarantine", "¹")])
def test_unicode_digits_in_maintenance_commands_exit_2_with_usage(fake_discord, args):
    result = fake_discord.run(*args, DATABASE_URL="postgresql://u:p@127.0.0.1:1/d")
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert result.stderr.startswith("Usage:") and result.stderr.count("\n") == 1


def test_the_harness_sees_a_login_attempt(fake_discord):
    """The check above can fail: with good settings the bot does try to log in, and the
    test's socket sees it (it never answers; the bot is stopped)."""
    process = subprocess.Popen([sys.executable, "-m", "bot"], cwd=fake_discord.cwd, env=fake_discord.env(DISCORD_TOKEN="not-a-real-token"),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        fake_discord.listener.settimeout(30)
        connection, _ = fake_discord.listener.accept()
        connection.close()
    finally:
        process.kill()
        process.communicate(timeout=30)


def test_an_unreachable_discord_is_retried_with_one_line_per_try(tmp_path):
    """Discord's address refuses connections (a closed port on 127.0.0.1, as a machine
    without network would fail): the bot says so in one line and tries again."""
    site = tmp_path / "site"
    site.mkdir()
    # Ctrl+C as a terminal's is heard, even when the tests themselves run as a background
    # job (a shell starts those with SIGINT ignored, and a child inherits that).
    (site / "sitecustomize.py").write_text(
        "import signal\nsignal.signal(signal.SIGINT, signal.default_int_handler)\n"
        f"import discord.http\ndiscord.http.Route.BASE = 'http://127.0.0.1:{closed_port()}/api/v10'\n", encoding="utf-8"
    )
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{ROOT}:{site}", "DATA_DIR": str(tmp_path / "data"), "DISCORD_TOKEN": "not-a-real-token"}
    process = subprocess.Popen([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = []
    try:
        for line in process.stderr:
            lines.append(line)
            if "Trying again in" in line:
                break
    finally:
        process.send_signal(signal.SIGINT)
        _, rest = process.communicate(timeout=30)
    assert any("Cannot reach Discord at 127.0.0.1" in line and "Trying again in 2 s (attempt 1 failed)." in line for line in lines), lines
    assert "Traceback" not in "".join(lines) + rest, "".join(lines) + rest
    assert process.returncode == 0  # Ctrl+C while waiting stops it cleanly
