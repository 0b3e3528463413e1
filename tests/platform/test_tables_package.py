"""bot/tables is a package, one module per concern. What was one module's surface
still works: the names other code imports, and a name set on the package (a test's
monkeypatch) reaches the modules that use it, as it did when they were one module."""

import secrets
from types import SimpleNamespace

import bot.tables
from bot.tables import lobby, moves, table, timers


def test_the_names_imported_from_bot_tables_are_there():
    for name in (
        "TableManager", "Table", "TableError", "now_ts", "reads_chat", "replied_to", "until_restored",
        "MIN_TURN_SECONDS", "MAX_TURN_SECONDS", "REPOST_AFTER_SECONDS", "_SaveFailed", "_Stale", "_seated", "secrets",
    ):
        assert hasattr(bot.tables, name), name
    assert issubclass(bot.tables._Stale, bot.tables._SaveFailed)


def test_a_constant_patched_on_the_package_reaches_the_module_that_uses_it(monkeypatch):
    monkeypatch.setattr(bot.tables, "PUBLISH_RETRY_SECONDS", 0)
    monkeypatch.setattr("bot.tables.MAX_WAIT_FOR_LOCK", 0.25)
    assert timers.PUBLISH_RETRY_SECONDS == 0
    assert moves.MAX_WAIT_FOR_LOCK == 0.25
    monkeypatch.undo()
    assert timers.PUBLISH_RETRY_SECONDS == bot.tables.PUBLISH_RETRY_SECONDS == 10
    assert moves.MAX_WAIT_FOR_LOCK == bot.tables.MAX_WAIT_FOR_LOCK == 1.0


def test_a_shared_constant_is_patched_in_every_module_that_uses_it(monkeypatch):
    monkeypatch.setattr(bot.tables, "RECENT_LINES", 2)
    assert table.RECENT_LINES == lobby.RECENT_LINES == moves.RECENT_LINES == timers.RECENT_LINES == 2


def test_a_module_replaced_on_the_package_is_replaced_where_start_reads_it(monkeypatch):
    fixed = SimpleNamespace(randbits=lambda bits: 7)
    monkeypatch.setattr(bot.tables, "secrets", fixed)
    assert lobby.secrets is fixed
    monkeypatch.undo()
    assert lobby.secrets is secrets is bot.tables.secrets


def test_an_unrelated_global_of_the_same_name_is_left_alone(monkeypatch):
    # Only a module global that is the very object the package held is replaced.
    monkeypatch.setattr(lobby, "RECENT_LINES", 9)
    monkeypatch.setattr(bot.tables, "RECENT_LINES", 3)
    assert lobby.RECENT_LINES == 9 and moves.RECENT_LINES == 3
