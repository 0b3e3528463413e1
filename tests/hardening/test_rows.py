"""Items 4 and 5: one bad row never closes a server or blocks its channel; restored
rows are checked as strictly as new ones. And the property over garbage in every
column of a row."""

from __future__ import annotations

import asyncio
import sqlite3
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.hardening.rows import COLUMNS, db_active, manager, playing_toy_table, write_raw

GUILD = 5


async def _restore_with(data_dir: Path, bad: dict) -> tuple:
    tables, bot = manager(data_dir)
    good = await playing_toy_table(tables.storage, GUILD, 100)
    other = await playing_toy_table(tables.storage, GUILD, 200, players=(21, 22))
    await tables.storage.close()
    write_raw(data_dir, GUILD, other, bad)
    tables, bot = manager(data_dir)
    restored = await tables.restore_all()
    return tables, bot, good, other, restored


async def test_garbage_json_in_one_row_closes_only_that_table_and_frees_its_channel(tmp_path):
    for column in ("players", "recent", "strikes", "obligations", "seat_choices"):
        data_dir = tmp_path / column
        tables, bot, good, other, restored = await _restore_with(data_dir, {column: "{not json"})
        try:
            assert restored == 1
            assert tables.active_in_channel(GUILD, 100).id == good
            assert tables.active_in_channel(GUILD, 200) is None
            assert db_active(data_dir, GUILD) == {100: good}  # memory and database agree
            assert any(channel == 200 and "could not be restored" in text for channel, text in bot.sent)
        finally:
            await tables.close()
            await tables.storage.close()


async def test_a_non_numeric_version_is_refused_at_restore(tmp_path):
    tables, bot, good, other, restored = await _restore_with(tmp_path, {"version": "seven"})
    try:
        assert restored == 1 and tables.active_in_channel(GUILD, 200) is None
        assert db_active(tmp_path, GUILD) == {100: good}
    finally:
        await tables.close()
        await tables.storage.close()


async def test_a_version_that_disagrees_with_the_log_is_replayed(tmp_path):
    tables, bot, good, other, restored = await _restore_with(tmp_path, {"version": 5})
    try:
        assert restored == 2
        table = tables.active_in_channel(GUILD, 200)
        assert table.record.version == 0  # the log holds no action: the next move is seq 1
    finally:
        await tables.close()
        await tables.storage.close()


_garbage = st.one_of(
    st.none(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.binary(max_size=10),
    st.sampled_from(["lobby", "playing", "toy", "[]", "{}", "[1, 2]", '{"1": "x"}', '{"a": [1, 2.5]}', "[0]", "null", '["x"]', "1e999"]),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bad=st.dictionaries(st.sampled_from(COLUMNS), _garbage, min_size=1, max_size=len(COLUMNS)))
def test_restore_survives_garbage_in_any_column(bad):
    asyncio.run(_property(bad))


async def _property(bad: dict) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        data_dir = Path(tmp)
        tables, bot = manager(data_dir)
        good = await playing_toy_table(tables.storage, GUILD, 100)
        other = await playing_toy_table(tables.storage, GUILD, 200, players=(21, 22))
        await tables.storage.close()
        try:
            write_raw(data_dir, GUILD, other, bad)
        except sqlite3.IntegrityError:
            return  # NOT NULL or one-table-per-channel: the schema itself refuses this row
        tables, bot = manager(data_dir)
        try:
            await tables.restore_all()  # never raises
            # Never closes another row's table.
            assert tables.active_in_channel(GUILD, 100) is not None and tables.active_in_channel(GUILD, 100).id == good
            # Memory and database agree on every channel: a channel the database holds
            # is held in memory too (so /cancel and /hand find it), and no other is.
            active = db_active(data_dir, GUILD)
            tracked = {t.record.channel_id: t.id for t in tables.tables()}
            assert active == tracked
            # Whatever was kept is usable: its lobby or hand renders.
            for table in tables.tables():
                if table.status == "lobby":
                    tables.lobby_messages.embed(table)
                else:
                    for player in table.state.players:
                        tables.publisher.hand_payload(table, player)
        finally:
            await tables.close()
            await tables.storage.close()
