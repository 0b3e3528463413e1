"""The table core: lobbies, seats, moves, timers, computer seats, sessions, restore
and the multi-process sync, with no Discord in it (tests/platform/test_layers.py
checks every import chain). Front ends (bot/discord_front/tables/ for Discord, a terminal) drive
:class:`TableCore` and render what it reports; see docs/developers/core-api.md.

Import the façade from ``bot.core.facade``; this package ``__init__`` stays empty
of imports so that ``bot.core.table`` and the rest import without a circle.
"""
