"""Issue 20 item 2: the bot starts, or fails to start, cleanly. A refused command sync
is logged with Discord's answer and the bot comes up with the commands Discord already
has; an unreachable Discord is retried with backoff, one line per retry; a refused
token or intent is one sentence and exit code 2."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from types import SimpleNamespace

import aiohttp
import discord
import pytest
from simcord import Env

import bot.__main__ as entry
from bot.discord_front import run
from bot.config import ConfigError
from tests.conftest import make_bot
from tests.e2e.world import TOY, world

#: Discord's answer to a command over a limit (the body of a real 400, flattened by discord.py).
REFUSAL = "Invalid Form Body In 3.options.0.description: Must be between 1 and 100 in length."


pytestmark = pytest.mark.extensions(*TOY)


# ------------------------------------------------------------------ the command sync


async def test_the_bot_comes_up_when_discord_refuses_the_command_sync(data_dir, caplog):
    bot = make_bot(data_dir, TOY)
    env = Env(bot)
    env.inject_error("PUT", "/applications/*/commands", status=400, code=50035, message=REFUSAL)
    caplog.set_level(logging.INFO)
    await env.start()  # before the fix: the 400 raised out of setup_hook and the bot never came up
    try:
        assert bot.is_ready() and not bot.commands_synced
        refusal = [r for r in caplog.records if "Discord refused the slash commands" in r.getMessage()]
        assert len(refusal) == 1 and refusal[0].levelno == logging.ERROR and refusal[0].exc_info is None
        line = refusal[0].getMessage()
        assert "HTTP 400" in line and "50035" in line and "Must be between 1 and 100 in length" in line
        assert "Starting anyway with the commands Discord already has" in line and "\n" not in line
        # It runs: the restore and the storage work without any command.
        assert bot.restore_task is not None
        await bot.restore_task
    finally:
        await env.shutdown()


async def test_after_a_refused_sync_the_commands_of_the_last_good_sync_still_work(simcord_env, data_dir, caplog):
    env = simcord_env
    guild, channel, (member,) = world(env, names=["ann"])
    env.inject_error("PUT", "/applications/*/commands", status=400, code=50035, message=REFUSAL)
    old = env.bot
    caplog.set_level(logging.INFO)
    await env.restart_bot(make_bot(data_dir, TOY))
    await old.tables.close()
    await old.storage.close()
    assert not env.bot.commands_synced and "Discord refused the slash commands" in caplog.text
    lobby = await member.slash(channel, "toy new")  # registered by the first start's sync
    assert not lobby.ephemeral and env.bot.tables.active_in_channel(guild.id, channel.id) is not None


async def test_a_sync_that_cannot_reach_discord_is_one_line_too(simcord_env, data_dir, caplog, monkeypatch):
    bot = simcord_env.bot

    async def unreachable(**kwargs):
        raise aiohttp.ClientConnectionError("Connection reset by peer")

    monkeypatch.setattr(bot.tree, "sync", unreachable)
    caplog.set_level(logging.INFO)
    await bot.sync_commands()
    (line,) = [r for r in caplog.records if "Could not send the slash commands" in r.getMessage()]
    assert line.exc_info is None and "Connection reset by peer" in line.getMessage()


# ------------------------------------------------------------------ failures at start


def http_error(status: int, text: str = "") -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="Error")
    return discord.HTTPException(response, {"code": 0, "message": text})


def dns_error() -> aiohttp.ClientConnectorDNSError:
    import socket

    key = SimpleNamespace(host="discord.com", port=443, ssl=True)
    return aiohttp.ClientConnectorDNSError(key, socket.gaierror(-3, "Temporary failure in name resolution"))


@pytest.mark.parametrize(
    ("error", "words"),
    [
        (discord.LoginFailure("Improper token has been passed."), "Discord rejected DISCORD_TOKEN"),
        (http_error(401, "401: Unauthorized"), "Discord rejected DISCORD_TOKEN"),
        (discord.PrivilegedIntentsRequired(None), "Enable the Message Content Intent"),
        (discord.ConnectionClosed(SimpleNamespace(close_code=4014), shard_id=None), "Enable the Message Content Intent"),
        (discord.ConnectionClosed(SimpleNamespace(close_code=4004), shard_id=None), "Discord rejected DISCORD_TOKEN"),
        (discord.ConnectionClosed(SimpleNamespace(close_code=4011), shard_id=None), "set SHARD_COUNT"),
        (ConfigError("DATA_DIR x cannot be created."), "DATA_DIR x cannot be created."),
    ],
)
def test_each_refusal_is_one_sentence_with_what_to_do(error, words):
    sentence = run.failure_sentence(error)
    assert sentence is not None and words in sentence and "\n" not in sentence


def test_unexpected_errors_keep_their_traceback():
    assert run.failure_sentence(RuntimeError("bug")) is None
    assert run.failure_sentence(http_error(500)) is None


@pytest.mark.parametrize(
    ("error", "words"),
    [
        (dns_error(), "discord.com could not be looked up"),
        (aiohttp.ClientConnectorError(SimpleNamespace(host="discord.com", port=443, ssl=True), ConnectionRefusedError(111, "Connection refused")), "Connection refused"),
        (discord.DiscordServerError(SimpleNamespace(status=503, reason="Service Unavailable"), "upstream connect error"), "Discord answered 503"),
        (TimeoutError(), "did not answer in time"),
    ],
)
def test_unreachable_discord_is_one_sentence(error, words):
    sentence = run.unreachable_sentence(error)
    assert sentence is not None and words in sentence and "\n" not in sentence


class FakeBot:
    """One attempt's client: its login fails while ``failures`` (shared by the attempts)
    last; it records its login, connect and close."""

    def __init__(self, failures: list[BaseException]) -> None:
        self.failures = failures
        self.logins = 0
        self.connected = False
        self.closed = False

    async def __aenter__(self) -> FakeBot:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.closed = True

    async def login(self, token: str) -> None:
        self.logins += 1
        if self.failures:
            raise self.failures.pop(0)

    async def connect(self, *, reconnect: bool) -> None:
        self.connected = True

    async def wait_until_ready(self) -> None:
        await asyncio.Event().wait()  # never ready here: the heap is not frozen by a test


class Attempts:
    """``make_bot`` for :func:`run.start_bot`: a new :class:`FakeBot` each call, kept."""

    def __init__(self, failures: list[BaseException]) -> None:
        self.failures = failures
        self.bots: list[FakeBot] = []

    def __call__(self) -> FakeBot:
        self.bots.append(FakeBot(self.failures))
        return self.bots[-1]


async def test_an_unreachable_discord_is_retried_with_backoff_one_line_each(caplog):
    waits: list[float] = []

    async def fake_sleep(seconds: float) -> None:  # the fake clock: nothing waits
        waits.append(seconds)

    attempts = Attempts([dns_error() for _ in range(8)])
    caplog.set_level(logging.INFO)
    await run.start_bot(attempts, "token", sleep=fake_sleep)
    # Each attempt a new client, the failed ones closed (discord.py's public Client.close).
    assert len(attempts.bots) == 9 and all(bot.logins == 1 and bot.closed for bot in attempts.bots)
    assert [bot.connected for bot in attempts.bots] == [False] * 8 + [True]
    assert waits == [2, 4, 8, 16, 32, 60, 60, 60]
    lines = [r for r in caplog.records if r.levelno >= logging.INFO]
    assert len(lines) == 8 and all(r.exc_info is None for r in lines)
    assert lines[0].getMessage() == (
        "Cannot reach Discord: discord.com could not be looked up; check this machine's network connection and DNS. "
        "Trying again in 2 s (attempt 1 failed)."
    )


async def test_a_refused_token_is_not_retried():
    async def no_sleep(seconds: float) -> None:
        raise AssertionError("a refused token must not be retried")

    attempts = Attempts([discord.LoginFailure("Improper token has been passed.")])
    with pytest.raises(discord.LoginFailure):
        await run.start_bot(attempts, "token", sleep=no_sleep)
    (bot,) = attempts.bots
    assert bot.logins == 1 and not bot.connected and bot.closed


class Connects(discord.Client):
    """A real discord.py client whose gateway connection is only recorded."""

    connected = False

    async def connect(self, *, reconnect: bool = True) -> None:
        self.connected = True


async def test_a_real_client_logs_in_after_discord_was_unreachable(monkeypatch, caplog):
    """discord.py's own HTTP client, against a local stand-in for Discord's REST API that
    is down at the first attempt (connection refused) and up at the second: the retry
    logs in through the public API alone. (Before issue 38 the failed client was reused,
    its closed connector reset by a private reach; a closed client's HTTP client keeps
    its closed connector, so the same client could not log in again.)"""
    from aiohttp import web

    def answer(payload: dict) -> web.Response:  # discord.py reads JSON only under exactly this type, as Discord sends it
        return web.Response(body=json.dumps(payload).encode(), headers={"Content-Type": "application/json"})

    async def me(request: web.Request) -> web.Response:
        return answer({"id": "10", "username": "deckhand", "discriminator": "0", "avatar": None, "bot": True})

    async def application(request: web.Request) -> web.Response:
        owner = {"id": "11", "username": "owner", "discriminator": "0", "avatar": None}
        return answer({"id": "10", "name": "Deckhand", "description": "", "icon": None, "bot_public": True,
                                  "bot_require_code_grant": False, "owner": owner, "verify_key": "k", "flags": 0})

    app = web.Application()
    app.router.add_get("/api/v10/users/@me", me)
    app.router.add_get("/api/v10/oauth2/applications/@me", application)
    runner = web.AppRunner(app)
    await runner.setup()
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()  # nothing listens there until the first retry's wait
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    clients: list[Connects] = []

    def make_bot() -> Connects:
        clients.append(Connects(intents=discord.Intents.none()))
        return clients[-1]

    async def discord_comes_back(seconds: float) -> None:
        await web.TCPSite(runner, "127.0.0.1", port).start()

    caplog.set_level(logging.INFO)
    try:
        await run.start_bot(make_bot, "token", sleep=discord_comes_back)
    finally:
        await runner.cleanup()
    assert len(clients) == 2 and clients[1].connected and clients[1].user.id == 10
    assert all(client.is_closed() for client in clients)
    assert "Cannot reach Discord at 127.0.0.1" in caplog.text and "attempt 1 failed" in caplog.text


@pytest.mark.parametrize(
    ("error", "words"),
    [
        (discord.PrivilegedIntentsRequired(None), "Message Content Intent"),
        (discord.LoginFailure("Improper token has been passed."), "Discord rejected DISCORD_TOKEN"),
    ],
)
def test_main_exits_with_code_2_and_one_sentence(monkeypatch, capsys, error, words):
    async def refused(settings):
        raise error

    monkeypatch.setenv("DISCORD_TOKEN", "definitely-wrong")
    monkeypatch.chdir(entry.__file__.rsplit("/", 2)[0] + "/tests")  # no .env there
    monkeypatch.setattr(run, "run_bot", refused)
    monkeypatch.setattr(discord.utils, "setup_logging", lambda **kwargs: None)
    assert entry.main() == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err


async def test_simcord_without_the_message_content_intent_gives_the_sentence(data_dir):
    env = Env(make_bot(data_dir, TOY), approved_intents=discord.Intents.default())
    with pytest.raises(discord.PrivilegedIntentsRequired) as refused:
        await env.start()
    assert "Privileged Gateway Intents" in run.failure_sentence(refused.value)


def test_discords_reconnect_tracebacks_become_one_line(caplog):
    run.quiet_reconnects()
    logger = logging.getLogger("discord.client")
    caplog.set_level(logging.INFO)
    try:
        raise dns_error()
    except aiohttp.ClientError:
        logger.exception("Attempting a reconnect in %.2fs", 4.5)
    (record,) = [r for r in caplog.records if r.name == "discord.client"]
    assert record.exc_info is None and record.getMessage().startswith("Attempting a reconnect in 4.50s (ClientConnectorDNSError:")


async def test_a_restore_that_cannot_reach_the_database_is_one_line(simcord_env, caplog, monkeypatch):
    from storage.pg import DatabaseUnreachable

    bot = simcord_env.bot

    async def unreachable():
        raise DatabaseUnreachable("PostgreSQL postgresql://u:***@db/d (listing active guilds): OSError: Connect call failed")

    monkeypatch.setattr(bot.tables, "restore_all", unreachable)
    caplog.set_level(logging.INFO)
    await bot._restore_tables()
    (line,) = [r for r in caplog.records if "were not restored" in r.getMessage()]
    assert line.exc_info is None and "DatabaseUnreachable" in line.getMessage() and "PostgreSQL runs" in line.getMessage()
