"""Shared fixtures. SimCord runs the real bot against a simulated Discord: no token,
no network. ``make_bot`` builds a bot on a given data directory so a test can
restart it on the same databases."""

from __future__ import annotations

import logging
import os
import sys
import threading
from pathlib import Path

import pytest

from bot.discord_front import guard
from bot.discord_front import languages
from bot.discord_front.app import EXTENSIONS, DeckhandBot
from bot.config import Settings
from storage.db import Storage
from tests.e2e.mentions import mentions_are_explicit  # noqa: F401  (autouse: every SimCord test's messages)


def make_settings(data_dir: Path) -> Settings:
    # views_per_minute=0: tests drive whole games at machine speed with SimCord's clock
    # standing still, past the members' share of views (60 a minute, then one a second)
    # that no person reaches; the share's own tests (test_fair_shares_e2e.py, and a normal
    # game at a person's pace with every default share) set it.
    return Settings(token="not-a-real-token", data_dir=data_dir, log_level=logging.INFO, views_per_minute=0)


def make_bot(data_dir: Path, extensions: tuple[str, ...] = EXTENSIONS) -> DeckhandBot:
    return DeckhandBot(make_settings(data_dir), extensions=extensions)


async def restart(env, data_dir: Path, extensions: tuple[str, ...] | None = None) -> DeckhandBot:
    """Restart the bot on the same databases, as a process restart would: SimCord
    swaps in a fresh bot (with the extensions the running one loaded, unless told);
    the old one's connections are closed as its exit would."""
    old = env.bot
    await env.restart_bot(make_bot(data_dir, old.extension_names if extensions is None else extensions))
    await old.tables.close()
    await old.storage.close()
    return env.bot


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "extensions(*names): the bot extensions the simcord_bot fixture loads (every one without the "
        "marker); tests/e2e/world.py names the usual sets",
    )
    config.addinivalue_line(
        "markers", "limits(**fields): the Discord limits the discord_standin fixture enforces (tests/e2e/standin/limits.py)",
    )


@pytest.fixture
def simcord_bot(data_dir: Path, request) -> DeckhandBot:
    """The bot SimCord's ``simcord_env`` runs; ``@pytest.mark.extensions(...)`` on a test or a
    module (``pytestmark``) chooses its cogs, the closest marker winning."""
    marker = request.node.get_closest_marker("extensions")
    return make_bot(data_dir, marker.args if marker else EXTENSIONS)


# ------------------------------------------------------------------ PostgreSQL


@pytest.fixture(scope="session")
def postgres_server():
    """One real PostgreSQL server for the whole test session (see tests/pg.py)."""
    import os

    from tests.pg import NoPostgres, PostgresServer

    try:
        server = PostgresServer.start()
    except NoPostgres as error:
        message = f"No PostgreSQL server for the tests: {error}."
        if os.environ.get("CI"):
            pytest.fail(message + " CI must run the storage tests on both backends.", pytrace=False)
        pytest.skip(message)
    yield server
    server.stop()


@pytest.fixture
def postgres_dsn(postgres_server) -> str:
    """The DSN of a fresh, empty database on the session's server."""
    return postgres_server.create_database()


@pytest.fixture(params=["sqlite", "postgresql"])
def backend_name(request) -> str:
    return request.param


@pytest.fixture
async def storage_backend(backend_name, request, tmp_path):
    """A storage of each backend, empty: per-guild SQLite files, or a fresh PostgreSQL database."""
    from storage import open_storage

    if backend_name == "sqlite":
        storage = open_storage(tmp_path / "data")
    else:
        storage = open_storage(tmp_path / "data", request.getfixturevalue("postgres_dsn"))
    yield storage
    await storage.close()


# ------------------------------------------------------------------ Discord conformance
#
# SimCord accepts payloads real Discord refuses with a 400, so every request the bot sends in
# every test is checked against Discord's OpenAPI document and documented limits
# (tests/discord_conformance.py). A violation fails the test that caused it, even when the bot
# swallowed the request's error: at the end of the test's call, or at its teardown for a request
# sent while the fixtures wound down.


# (the fixture and the hook live beside the checker, so a pytester run can load them as a plugin)
from tests.discord_conformance import _discord_conformance, pytest_runtest_call, pytest_terminal_summary  # noqa: E402, F401

pytest_plugins = ["pytester"]  # tests/platform/test_discord_conformance.py runs a failing test inside


# ------------------------------------------------------------------ SQLite threads
#
# aiosqlite (0.22 and later) runs each connection on a non-daemon thread, so one
# connection left open keeps the test process alive after the last test: pytest
# prints its summary and never exits (CI then runs into its time limit). SimCord
# detaches a bot at the end of a test without closing it, as a killed process
# would, so every SQLite storage a test opened is closed here, after the test's
# own fixtures (an autouse fixture is torn down last).


@pytest.fixture(autouse=True)
async def _close_every_sqlite_storage(monkeypatch):
    opened: list[Storage] = []
    original_init = Storage.__init__

    def tracking_init(self, *args, **kwargs):
        original_init(self, *args, **kwargs)
        opened.append(self)

    monkeypatch.setattr(Storage, "__init__", tracking_init)
    yield
    for storage in opened:
        await storage.close()


def _open_sqlite_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.is_alive() and "_connection_worker_thread" in t.name]


def pytest_sessionfinish(session):
    """A connection opened outside a Storage (and so not closed above) fails the run
    loudly instead of hanging it."""
    left = _open_sqlite_threads()
    if left:
        print(f"\n{len(left)} SQLite connection(s) were left open by the tests; close them "
              "(their threads would keep this process from exiting).", file=sys.stderr)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_unconfigure(config):
    if _open_sqlite_threads():
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(int(pytest.ExitCode.TESTS_FAILED))


@pytest.fixture(autouse=True)
def _a_fresh_measure_of_the_loop(monkeypatch):
    """``guard.behind()`` measures the event loop's lag process-wide: one garbage
    collection pause or a starved CPU in an earlier test would make the next tests'
    clicks deferred at once, and their requests come in another order. Every test gets
    a fresh measure and no threshold; the overload tests set the production one."""
    monkeypatch.setattr(guard, "_TURN", guard._Turn())
    monkeypatch.setattr(guard, "BEHIND_AFTER", float("inf"))


@pytest.fixture(autouse=True)
def _no_language_known_yet():
    """Which language each server and person reads is kept per process; SimCord gives
    servers the same ids from test to test."""
    languages.reset()
    yield
    languages.reset()


# ------------------------------------------------------------------ Discord's rate limits


@pytest.fixture
def _bot_http_trace(simcord_bot):
    """The ``http_trace`` the bot was made with, read before SimCord replaces its HTTP client."""
    return simcord_bot.http.http_trace


@pytest.fixture
async def discord_standin(_bot_http_trace, simcord_env, request):
    """SimCord's env with discord.py's real request path and Discord's limits between
    them (tests/e2e/standin): yields the :class:`StandIn` (its ``env``, ``faults``,
    ``tally``, ``log``). ``@pytest.mark.limits(global_per_second=5, ...)`` sets the
    fields of :class:`tests.e2e.standin.Limits`."""
    from tests.e2e.standin import Limits, StandIn

    marker = request.node.get_closest_marker("limits")
    standin = StandIn(simcord_env, limits=Limits(**(marker.kwargs if marker else {})))
    standin.remember(simcord_env.bot, _bot_http_trace)
    await standin.start()
    try:
        yield standin
    finally:
        await standin.close()
    assert not standin.gaps, f"requests SimCord does not model: {standin.gaps}"
