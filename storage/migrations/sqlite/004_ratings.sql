-- Ratings (issue 25). Skill ratings are derived data: bot/ratings.py rebuilds `ratings`
-- and `rating_history` from the stored results (`results`, and `session_results` for a
-- game rated per session) whenever it must, so these two tables are never the only copy.

-- A game whose tables are rounds of a session (Cripple Mr Onion) is rated once per
-- session, from its final standings; its rounds stay in `results` for /stats.
CREATE TABLE session_results (
    table_id    INTEGER NOT NULL REFERENCES game_tables (id),  -- the session's last round
    game        TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    place       INTEGER NOT NULL,         -- dense ranking, as in results
    players     INTEGER NOT NULL,
    finished_at REAL    NOT NULL,         -- when the session was ended
    PRIMARY KEY (table_id, user_id)
);
CREATE INDEX session_results_by_game ON session_results (game, user_id);

-- A person's rating in one game (computer players have fixed ratings and no row).
CREATE TABLE ratings (
    game       TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    shown      INTEGER NOT NULL,          -- the conservative rating players see (bot/ratings.py shown())
    played     INTEGER NOT NULL,          -- rated games
    won        INTEGER NOT NULL,          -- rated games finished in first place (a draw counts)
    updated_at REAL    NOT NULL,
    PRIMARY KEY (game, user_id)
);
CREATE INDEX ratings_by_shown ON ratings (game, shown);

-- Each person's rating after each rated game: the profile's picture and the board's "+23".
CREATE TABLE rating_history (
    game        TEXT    NOT NULL,
    table_id    INTEGER NOT NULL,         -- results.table_id (session_results.table_id for a session)
    user_id     INTEGER NOT NULL,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    shown       INTEGER NOT NULL,
    delta       INTEGER NOT NULL,         -- shown after minus shown before
    finished_at REAL    NOT NULL,
    PRIMARY KEY (game, table_id, user_id)
);
CREATE INDEX rating_history_by_user ON rating_history (game, user_id, finished_at);
-- The newest rated game (a finished game checks it is not older: bot/ratings.py).
CREATE INDEX rating_history_by_time ON rating_history (game, finished_at, table_id);
