-- The DM channel the bot has with each player who keeps their hands in DMs (issue 20):
-- a DM hand is sent straight to it, with no user lookup and no DM channel to open
-- again after a restart. Only a cache of what Discord would give again: a lost row
-- costs one call.

CREATE TABLE dm_channels (
    user_id    INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL
);
