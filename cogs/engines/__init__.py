"""Engines of Discrimination ("the Google vs. Yahoo cage match"): pure rules in
``rules.py``, Discord rendering in ``render.py``. Kept free of Discord imports so
the rules import without discord.py."""
