-- Ratings (issue 25): as migrations/sqlite/004_ratings.sql, each row carrying its guild_id.

CREATE TABLE deckhand.session_results (
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
CREATE INDEX session_results_by_game ON deckhand.session_results (guild_id, game, user_id);

CREATE TABLE deckhand.ratings (
    guild_id   BIGINT  NOT NULL,
    game       TEXT    NOT NULL,
    user_id    BIGINT  NOT NULL,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL,
    shown      BIGINT  NOT NULL,
    played     BIGINT  NOT NULL,
    won        BIGINT  NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
);
CREATE INDEX ratings_by_shown ON deckhand.ratings (guild_id, game, shown);

CREATE TABLE deckhand.rating_history (
    guild_id    BIGINT  NOT NULL,
    game        TEXT    NOT NULL,
    table_id    BIGINT  NOT NULL,
    user_id     BIGINT  NOT NULL,
    mu          DOUBLE PRECISION NOT NULL,
    sigma       DOUBLE PRECISION NOT NULL,
    shown       BIGINT  NOT NULL,
    delta       BIGINT  NOT NULL,
    finished_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, game, table_id, user_id)
);
CREATE INDEX rating_history_by_user ON deckhand.rating_history (guild_id, game, user_id, finished_at);
-- The newest rated game (a finished game checks it is not older: bot/ratings.py).
CREATE INDEX rating_history_by_time ON deckhand.rating_history (guild_id, game, finished_at, table_id);

CREATE VIEW deckhand_guild.session_results AS SELECT * FROM deckhand.session_results
    WHERE guild_id = current_setting('deckhand.guild_id')::bigint WITH CASCADED CHECK OPTION;
CREATE VIEW deckhand_guild.ratings AS SELECT * FROM deckhand.ratings
    WHERE guild_id = current_setting('deckhand.guild_id')::bigint WITH CASCADED CHECK OPTION;
CREATE VIEW deckhand_guild.rating_history AS SELECT * FROM deckhand.rating_history
    WHERE guild_id = current_setting('deckhand.guild_id')::bigint WITH CASCADED CHECK OPTION;

ALTER VIEW deckhand_guild.session_results ALTER COLUMN guild_id SET DEFAULT current_setting('deckhand.guild_id')::bigint;
ALTER VIEW deckhand_guild.ratings ALTER COLUMN guild_id SET DEFAULT current_setting('deckhand.guild_id')::bigint;
ALTER VIEW deckhand_guild.rating_history ALTER COLUMN guild_id SET DEFAULT current_setting('deckhand.guild_id')::bigint;
