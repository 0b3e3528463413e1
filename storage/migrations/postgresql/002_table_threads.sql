-- A thread per game (issue 9): as migrations/sqlite/002_table_threads.sql.

ALTER TABLE deckhand.game_tables ADD COLUMN thread_id BIGINT;
ALTER TABLE deckhand.game_tables ADD COLUMN publish TEXT NOT NULL DEFAULT '{}';

DROP INDEX deckhand.one_active_table_per_channel;
CREATE UNIQUE INDEX one_active_table_per_place
    ON deckhand.game_tables (guild_id, COALESCE(thread_id, channel_id)) WHERE status IN ('lobby', 'playing');

-- A view's * is expanded when it is created: add the new columns to it.
CREATE OR REPLACE VIEW deckhand_guild.game_tables AS SELECT * FROM deckhand.game_tables
    WHERE guild_id = current_setting('deckhand.guild_id')::bigint WITH CASCADED CHECK OPTION;
ALTER VIEW deckhand_guild.game_tables ALTER COLUMN guild_id SET DEFAULT current_setting('deckhand.guild_id')::bigint;
