"""The contract every game's rules implement (engine.py), standard cards (cards.py)
and a game's open votes as plain values (ballots.py). No Discord here."""
