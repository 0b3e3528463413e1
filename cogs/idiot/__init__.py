"""Idiot: a shedding game played from the hand, then face-up, then face-down cards.

``rules.py`` holds the pure rules engine (:class:`cogs.idiot.rules.IdiotGame`),
``render.py`` turns its observations into Discord embeds and controls. This package
``__init__`` stays free of Discord imports so the rules import without discord.py.
"""
