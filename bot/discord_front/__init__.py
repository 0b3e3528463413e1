"""The Discord front end's shared pieces (its clock, the short answer to an
interaction, the message edits). The rest of the front end is still in ``bot/discord_front/tables/``
(the manager and its Discord concerns), ``bot/discord_front/publish.py``, ``bot/discord_front/views.py``, ``bot/discord_front/votes.py`` and
``bot/discord_front/guard.py``: see docs/developers/architecture.md. This ``__init__`` imports
nothing, so a module importing ``bot.discord_front.common`` runs no other module."""
