"""Cripple Mr Onion: the hand evaluator (scoring.py) and one round of the game (rules.py) are
pure, with no Discord imports; render.py turns observations into embeds and controls."""
