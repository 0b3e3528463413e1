"""Blackjack, the chaining shedding game (not casino blackjack).

``rules.py`` holds the pure rules engine (no Discord imports), ``render.py`` turns
observations into embeds and controls. The player-facing rules text with every
interpretation and house rule is ``docs/rules/blackjack.md``.
"""
