"""What Deckhand keeps about players: skill ratings (ratings.py) and players' data
(privacy.py: export, erase, consent). No Discord here."""
