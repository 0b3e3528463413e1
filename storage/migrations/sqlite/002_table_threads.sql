-- A thread per game (issue 9). A table's lobby message is in channel_id; once the game
-- starts in a thread of it, thread_id is that thread. The place a table lives is
-- COALESCE(thread_id, channel_id): one active table per place, so one channel can run
-- several games at once, one per thread.

ALTER TABLE game_tables ADD COLUMN thread_id INTEGER;
-- JSON: what the platform has posted for the table (ping message, DM hands, lobby options...).
ALTER TABLE game_tables ADD COLUMN publish TEXT NOT NULL DEFAULT '{}';

DROP INDEX one_active_table_per_channel;
CREATE UNIQUE INDEX one_active_table_per_place
    ON game_tables (COALESCE(thread_id, channel_id)) WHERE status IN ('lobby', 'playing');
