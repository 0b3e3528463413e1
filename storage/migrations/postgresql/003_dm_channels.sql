-- The DM channel per player who keeps their hands in DMs: as migrations/sqlite/003_dm_channels.sql.

CREATE TABLE deckhand.dm_channels (
    guild_id   BIGINT NOT NULL,
    user_id    BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

CREATE VIEW deckhand_guild.dm_channels AS SELECT * FROM deckhand.dm_channels
    WHERE guild_id = current_setting('deckhand.guild_id')::bigint WITH CASCADED CHECK OPTION;
ALTER VIEW deckhand_guild.dm_channels ALTER COLUMN guild_id SET DEFAULT current_setting('deckhand.guild_id')::bigint;
