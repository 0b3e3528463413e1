"""The Discord front end's shared pieces (its clock, the short answer to an
interaction, the message edits). The rest of the front end is still in ``bot/tables/``
(the manager and its Discord concerns), ``bot/publish.py``, ``bot/views.py``, ``bot/votes.py`` and
``bot/guard.py``: see docs/developers/architecture.md. This ``__init__`` imports
nothing, so a module importing ``bot.discord_front.common`` runs no other module."""
