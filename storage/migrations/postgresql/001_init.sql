-- Deckhand on PostgreSQL: one database for every guild. The same tables as
-- migrations/sqlite/001_init.sql, each row carrying its guild_id.
--
-- The base tables live in the schema "deckhand". The bot's connections see only the
-- views in "deckhand_guild" (their search_path), which show the rows of the guild
-- named by the transaction's setting deckhand.guild_id and fill it in on INSERT; WITH
-- CHECK OPTION refuses a row of another guild. An unset guild raises an error, so a
-- query can never read or write another guild's rows. Table ids come from one global
-- sequence; the key is (guild_id, id), so `deckhand migrate` keeps a guild's SQLite ids.

CREATE SEQUENCE deckhand.game_table_ids;

CREATE TABLE deckhand.game_tables (
    guild_id         BIGINT  NOT NULL,
    id               BIGINT  NOT NULL DEFAULT nextval('deckhand.game_table_ids'),
    game             TEXT    NOT NULL,
    channel_id       BIGINT  NOT NULL,
    host_id          BIGINT  NOT NULL,
    status           TEXT    NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled', 'broken')),
    players          TEXT    NOT NULL DEFAULT '[]',
    seat_choices     TEXT    NOT NULL DEFAULT '{}',
    options          TEXT    NOT NULL DEFAULT '{}',
    seed             TEXT,
    state            TEXT,
    version          BIGINT  NOT NULL DEFAULT 0,
    timer_seconds    BIGINT  NOT NULL DEFAULT 120,
    deadline         DOUBLE PRECISION,
    obligations      TEXT    NOT NULL DEFAULT '{}',
    strikes          TEXT    NOT NULL DEFAULT '{}',
    recent           TEXT    NOT NULL DEFAULT '[]',
    lobby_message_id BIGINT,
    message_id       BIGINT,
    message_posted_at DOUBLE PRECISION,
    turn_players     TEXT    NOT NULL DEFAULT '[]',
    created_at       DOUBLE PRECISION NOT NULL,
    updated_at       DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, id)
);
ALTER SEQUENCE deckhand.game_table_ids OWNED BY deckhand.game_tables.id;

CREATE UNIQUE INDEX one_active_table_per_channel
    ON deckhand.game_tables (guild_id, channel_id) WHERE status IN ('lobby', 'playing');

CREATE TABLE deckhand.actions (
    guild_id   BIGINT  NOT NULL,
    table_id   BIGINT  NOT NULL,
    seq        BIGINT  NOT NULL,
    user_id    BIGINT  NOT NULL,
    code       TEXT    NOT NULL,
    source     TEXT    NOT NULL,
    at         DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, table_id, seq),
    FOREIGN KEY (guild_id, table_id) REFERENCES deckhand.game_tables (guild_id, id)
);

CREATE TABLE deckhand.user_settings (
    guild_id BIGINT NOT NULL,
    user_id  BIGINT NOT NULL,
    key      TEXT   NOT NULL,
    value    TEXT   NOT NULL,
    PRIMARY KEY (guild_id, user_id, key)
);

CREATE TABLE deckhand.guild_settings (
    guild_id BIGINT NOT NULL,
    key      TEXT   NOT NULL,
    value    TEXT   NOT NULL,
    PRIMARY KEY (guild_id, key)
);

CREATE TABLE deckhand.results (
    guild_id    BIGINT  NOT NULL,
    table_id    BIGINT  NOT NULL,
    game        TEXT    NOT NULL,
    user_id     BIGINT  NOT NULL,
    place       BIGINT  NOT NULL,
    players     BIGINT  NOT NULL,
    finished_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, table_id, user_id),
    FOREIGN KEY (guild_id, table_id) REFERENCES deckhand.game_tables (guild_id, id)
);
CREATE INDEX results_by_game ON deckhand.results (guild_id, game, user_id);

CREATE TABLE deckhand.carryover (
    guild_id   BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    game       TEXT   NOT NULL,
    data       TEXT   NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, channel_id, game)
);

-- The guild-scoped views the bot's queries use.
CREATE SCHEMA deckhand_guild;

CREATE VIEW deckhand_guild.game_tables AS SELECT * FROM deckhand.game_tables
    WHERE guild_id = current_setting('deckhand.guild_id')::bigint WITH CASCADED CHECK OPTION;
CREATE VIEW deckhand_guild.actions AS SELECT * FROM deckhand.actions
    WHERE guild_id = current_setting('deckhand.guild_id')::bigint WITH CASCADED CHECK OPTION;
CREATE VIEW deckhand_guild.user_settings AS SELECT * FROM deckhand.user_settings
    WHERE guild_id = current_setting('deckhand.guild_id')::bigint WITH CASCADED CHECK OPTION;
CREATE VIEW deckhand_guild.guild_settings AS SELECT * FROM deckhand.guild_settings
    WHERE guild_id = current_setting('deckhand.guild_id')::bigint WITH CASCADED CHECK OPTION;
CREATE VIEW deckhand_guild.results AS SELECT * FROM deckhand.results
    WHERE guild_id = current_setting('deckhand.guild_id')::bigint WITH CASCADED CHECK OPTION;
CREATE VIEW deckhand_guild.carryover AS SELECT * FROM deckhand.carryover
    WHERE guild_id = current_setting('deckhand.guild_id')::bigint WITH CASCADED CHECK OPTION;

ALTER VIEW deckhand_guild.game_tables ALTER COLUMN guild_id SET DEFAULT current_setting('deckhand.guild_id')::bigint;
ALTER VIEW deckhand_guild.actions ALTER COLUMN guild_id SET DEFAULT current_setting('deckhand.guild_id')::bigint;
ALTER VIEW deckhand_guild.user_settings ALTER COLUMN guild_id SET DEFAULT current_setting('deckhand.guild_id')::bigint;
ALTER VIEW deckhand_guild.guild_settings ALTER COLUMN guild_id SET DEFAULT current_setting('deckhand.guild_id')::bigint;
ALTER VIEW deckhand_guild.results ALTER COLUMN guild_id SET DEFAULT current_setting('deckhand.guild_id')::bigint;
ALTER VIEW deckhand_guild.carryover ALTER COLUMN guild_id SET DEFAULT current_setting('deckhand.guild_id')::bigint;
