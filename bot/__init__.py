"""Deckhand's platform: everything shared by the games in ``cogs/`` (lobbies, hands,
moves, timers, storage glue, pictures, computer players). ``python -m bot`` runs it.

A regular package (not a namespace one), so an installed copy never merges with a
checkout's ``bot/`` folder that happens to be on ``sys.path``.
"""
