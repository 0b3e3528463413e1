"""Issue 27 item 4: DATABASE_URL is tried once before the bot connects to Discord,
and each way it can be wrong is one sentence naming the part of the URL to check."""

from __future__ import annotations

import asyncpg
import pytest

from storage.pg import check_database, startup_sentence

URL = "postgresql://deckhand:hunter2@db.example:5432/cards"


async def test_a_database_that_answers_passes(postgres_dsn):
    assert await check_database(postgres_dsn) is None


async def test_a_missing_database_names_it_and_how_to_create_it(postgres_server):
    sentence = await check_database(postgres_server.dsn_for("no_such_database"))
    assert sentence is not None and "has no database 'no_such_database'" in sentence and "createdb" in sentence


async def test_an_unknown_user_is_named(postgres_server):
    base = postgres_server.admin_dsn
    head, _, tail = base.partition("://")[2].partition("@")
    sentence = await check_database(f"postgresql://no_such_user_here@{tail}")
    assert sentence is not None and "refused user 'no_such_user_here'" in sentence and "check the user in DATABASE_URL" in sentence


@pytest.mark.parametrize(
    ("error", "words"),
    [
        (asyncpg.InvalidPasswordError("password authentication failed for user \"deckhand\""), "refused the password of user 'deckhand'"),
        (asyncpg.InvalidCatalogNameError("database \"cards\" does not exist"), "PostgreSQL at db.example:5432 has no database 'cards'"),
        (asyncpg.CannotConnectNowError("the database system is starting up"), "is starting up or shutting down"),
        (ConnectionRefusedError(111, "Connect call failed"), "Nothing accepts connections at db.example:5432"),
        (OSError("Multiple exceptions: [Errno 111] Connect call failed ('::1', 5432), [Errno 111] Connect call failed"), "connection refused"),
        (TimeoutError(), "did not answer within 5 s"),
        (ValueError("invalid sslmode"), "DATABASE_URL is malformed (invalid sslmode)"),
    ],
)
def test_each_failure_is_one_sentence_without_the_password(error, words):
    sentence = startup_sentence(error, URL)
    assert words in sentence and "hunter2" not in sentence and "\n" not in sentence


def test_the_parts_come_from_the_query_too():
    sentence = startup_sentence(asyncpg.InvalidCatalogNameError("x"), "postgresql:///?host=/run/postgresql&user=ann&dbname=games")
    assert "PostgreSQL at /run/postgresql has no database 'games'" in sentence and "createdb -O ann games" in sentence
