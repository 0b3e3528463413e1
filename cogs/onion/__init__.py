"""Cripple Mr Onion (pure rules live in scoring.py; no Discord imports here)."""
