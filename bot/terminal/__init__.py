"""``deckhand play <game>``: a table in a terminal, for one person at the keyboard
against computer players, on the Discord-free table core (``bot/core/``), the same
computer players and the same SQLite storage as the bot.

- ``cli`` and ``options``: the command line, parsed and checked before anything heavy
  is imported (``deckhand play --help`` and a bad command line cost no Discord import);
- ``text``: Discord's markup turned into plain terminal text, and the few words of the
  render modules that speak of Discord's controls, said the terminal's way;
- ``menu``: your legal moves numbered (the render modules' ``controls``), and what you
  type read back as a move, an amount, cards or words;
- ``screen``: the board, your cards and the log of moves as lines on the terminal;
- ``table``: the game itself, a loop on the core (``bot.core.facade.TableCore``).

Nothing here imports ``discord``, nor does anything it imports: the games' render
modules write a board or a hand as a :class:`bot.words.panel.Panel` (title, description,
fields, footer), which this package reads as it is.
"""
