"""Watching a finished game again (issue 42), for every front end, with no Discord in it.

A finished game is stored as its seed, options and action log (``storage/repos.py``);
the rules replay that log exactly, as the table core does on a restore. A *replay* is
that game cut into *steps*: the deal, then each move that changed what a spectator
could see (moves that changed nothing visible ride along with the step before them).
Each step keeps the spectator observation of its moment and the public part of its
moves' events, nothing else: no hand, no face-down card and no private event data is
ever held here, so no front end can show one.

- :mod:`bot.replay.steps`: :class:`~bot.replay.steps.Replay` and its
  :class:`~bot.replay.steps.Step` values, built from a record and its log (pure);
- :mod:`bot.replay.opening`: a replay opened from storage by (guild, table id), or one
  sentence saying why there is none (purged moves, a game still in play, ...), and a
  small shelf of replays opened lately;
- :mod:`bot.replay.animation`: the whole game as one animated PNG, drawn with Pillow
  from the steps' card pictures (call it off the event loop).

The words and pictures of a step come from the game's render module (through its
:class:`bot.core.games.GameSpec`): the board, the lines of what happened, the picture's
rows. Front ends: the terminal's ``deckhand replay`` (``bot/terminal/replay.py``) and,
later, Discord's Replay button (docs/developers/replays.md).
"""
