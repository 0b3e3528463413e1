"""Enid: Mike Taylor's Blackjack with its magic cards (mode ``plain``), renamed after
computer scientists and fish and extended with rituals typed in the channel (mode
``enid``), from ``seeds/enid.txt``.

``rules.py`` is the pure engine, ``names.py`` the card names and the forgiving
matcher, ``limerick.py`` the rhyme and syllable hint for limerick votes. None of
them imports Discord. The player-facing rules with every decision: ``docs/rules/enid.md``.
"""
