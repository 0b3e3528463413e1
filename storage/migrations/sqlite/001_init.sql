-- Deckhand: one database per guild. Every table here belongs to that guild.

CREATE TABLE game_tables (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    game             TEXT    NOT NULL,
    channel_id       INTEGER NOT NULL,
    host_id          INTEGER NOT NULL,
    status           TEXT    NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled', 'broken')),
    players          TEXT    NOT NULL DEFAULT '[]',   -- JSON list of user ids, seat order
    seat_choices     TEXT    NOT NULL DEFAULT '{}',   -- JSON {user id: choice} made in the lobby (sides, teams)
    options          TEXT    NOT NULL DEFAULT '{}',   -- JSON: house rules and table options, fixed at start
    seed             TEXT,                            -- the deal's seed; with options + actions it replays the game
    state            TEXT,                            -- JSON snapshot of the rules state after `version` actions
    version          INTEGER NOT NULL DEFAULT 0,      -- number of accepted actions
    timer_seconds    INTEGER NOT NULL DEFAULT 120,
    deadline         REAL,                            -- turn timer expiry, UTC epoch seconds
    obligations      TEXT    NOT NULL DEFAULT '{}',   -- JSON {obligation id: [player, deadline]}
    strikes          TEXT    NOT NULL DEFAULT '{}',   -- JSON {user id: timer expiries in a row}
    recent           TEXT    NOT NULL DEFAULT '[]',   -- JSON list of the last public log lines
    lobby_message_id INTEGER,
    message_id       INTEGER,                         -- the current public table message
    message_posted_at REAL,
    turn_players     TEXT    NOT NULL DEFAULT '[]',   -- JSON: players pinged by the current table message
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL
);

-- At most one active (lobby or playing) table per channel.
CREATE UNIQUE INDEX one_active_table_per_channel
    ON game_tables (channel_id) WHERE status IN ('lobby', 'playing');

CREATE TABLE actions (
    table_id   INTEGER NOT NULL REFERENCES game_tables (id),
    seq        INTEGER NOT NULL,          -- 1-based; equals the table's version after it
    user_id    INTEGER NOT NULL,
    code       TEXT    NOT NULL,          -- Action.code()
    source     TEXT    NOT NULL,          -- 'player', 'timer', 'removal'
    at         REAL    NOT NULL,
    PRIMARY KEY (table_id, seq)
);

CREATE TABLE user_settings (
    user_id INTEGER NOT NULL,
    key     TEXT    NOT NULL,
    value   TEXT    NOT NULL,             -- JSON
    PRIMARY KEY (user_id, key)
);

CREATE TABLE guild_settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL                   -- JSON
);

CREATE TABLE results (
    table_id    INTEGER NOT NULL REFERENCES game_tables (id),
    game        TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    place       INTEGER NOT NULL,         -- 1 = winner; tied players (a team) share a place; dense ranking
    players     INTEGER NOT NULL,
    finished_at REAL    NOT NULL,
    PRIMARY KEY (table_id, user_id)
);
CREATE INDEX results_by_game ON results (game, user_id);

-- State that outlives one game in a channel (Enid's name chain, Onion's bankrolls...).
CREATE TABLE carryover (
    channel_id INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    data       TEXT    NOT NULL,          -- JSON from Game.carry_out()
    updated_at REAL    NOT NULL,
    PRIMARY KEY (channel_id, game)
);
