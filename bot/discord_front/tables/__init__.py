"""Tables in Discord: the :class:`TableManager`, the Discord front end over the table
core (``bot/core/``: the table, moves and their commit, timers, sync, lobby, restore,
computer seats; no Discord there). One manager per bot, the same for every game.

The order of every move is fixed, and it is what keeps games safe:

1. take the table's lock (two clicks at the same instant apply exactly once: the
   second sees a newer version and is told its button is stale);
2. validate and apply through the rules (an illegal move raises a readable
   :class:`RuleError` and changes nothing);
3. commit the new snapshot and the action to SQLite;
4. only then show the effect, after releasing the lock (Discord's answers can take
   long: on a rate limit discord.py sleeps and retries inside the call): the acting
   player's hand is updated in place by the interaction's own response, and the table's
   show task (``Publisher.show`` in ``bot/discord_front/publish.py``) tells the next player through
   their open hand (or DM) and edits the board, or posts it anew to ping whoever could
   not be told through a hand. Moves made while it is showing are merged into its next
   round, which shows the latest state.

That is two or three REST calls for most moves. A failed Discord call never loses a move:
the state is already committed, the table message is re-posted on the next
update or by a retry, and the turn timer keeps running.

Several processes (issue 13, shards): a move may reach any process (a DM-hand
click arrives at shard 0). The in-memory lock serialises moves in one process; the
database serialises them across processes: the commit's UPDATE only matches the
version the move was applied to, so of two clicks at the same instant in two
processes exactly one commits, and the loser reloads the table and shows the
stale-click sentence. A process whose copy is older than the database's (a cheap
version read before the move) reloads it first. Timers and computer players run
only in the process that owns the guild's shard; a process that changed a table
says so on the bus (bot/bus.py), and the owner reloads it and re-arms them.

Where things are. :class:`TableManager` (``manager.py``) is the composition root: it
builds one ``TableCore`` of ``bot/core/``, is its listener, and builds one collaborator
per Discord concern, each handed in its constructor what it uses (never the manager):

- ``finder.py``, :class:`Finder`: a table by its place or by a component's ids (the
  server boundary first), the members' shares. Handed the core's registry, storage,
  games, the bot (to wait for the start-up restore), the shares, ``shared()`` and
  ``load_elsewhere`` (the restorer's);
- ``moves.py``, :class:`Clicks`: the click's entry (its deadline, the lookup, the
  table's lock), the core's move, then the presenter; votes, typed words and leaves
  too. Handed the finder, the core's ``Moves`` and ``Sync``, the publisher, the server
  settings, the timers, the core lobby's ``close`` and ``LobbyMessages.closed``;
- ``bot/discord_front/publish.py``, :class:`Publisher`: what each person must now see,
  and the requests that show it (the board, pings, live and DM hands, the hand's text).
  Handed the bot, storage, pictures, server settings, and four functions for what it
  does not do itself: ``board_refused`` (``Threads``), ``retry_later``
  (``TableTimers``), ``tell_others`` (``OtherProcesses``), ``finished``
  (``LobbyMessages``);
- ``lobby.py``, :class:`LobbyMessages`: the lobby message and a closed game's board
  (handed the bot and the publisher); :class:`Lobbies`: open, join, leave, computer
  seats, Start (and the game's thread), Cancel, Rematch (handed the bot, storage,
  games, the core's registry, lobby and settings, the finder, the clicks, the lobby
  messages, the publisher and the timers);
- ``hands.py``, :class:`Hands`: Show hand, ephemeral or in DMs (handed the finder,
  the core's ``Sync``, the settings and the publisher);
- ``chat.py``, :class:`Chat`: typed chat as a move (Enid's rituals), ``/say``, a
  computer's words (handed the place lookup, the publisher and ``Clicks.play_as``);
- ``timers.py``, :class:`TableTimers`: the publish retry, and the core's turn and
  obligation timers (handed the core's ``Timers`` and the publisher's ``show``);
- ``threads.py``, :class:`Threads`: a game's thread deleted, archived or locked, a
  permission taken (handed the bot, storage, registry, publisher, lobby messages,
  timers, the core lobby's ``close`` and ``owns``);
- ``restore.py``, :class:`Restorer`: unfinished tables brought back after a start, a
  table another process holds loaded here (handed the bot, storage, games, the core's
  registry, settings and clock, ``owns``, ``shared``, the timers and
  ``Threads.recheck_thread``);
- ``sync.py``, :class:`OtherProcesses`: the bus both ways (handed the bus, the core's
  registry and ``Sync``, ``owns``, ``Finder.get`` and ``closing``);
- ``bot/core/table.py``: the :class:`Table` held in memory, :class:`TableError`; the
  clock is ``bot/discord_front/common.py``'s ``DiscordClock``; ``bot/core/settings.py``:
  per-server settings (turn timer, house rules, layout...).

A click goes down once: ``bot/discord_front/views.py`` (the control, parsed from its
custom_id) → ``Clicks.act`` (the deadline through ``guard.arrive``, the table and the
server check through the finder, its lock) → the core
(``bot/core/sync.py``, the rules, ``bot/core/moves.py``: validate and commit) → the
publisher (the hand as it now is, the move queued on the show task) → the timers →
``Publisher.answer_click`` (the click's answer through ``guard.py`` and
``bot/discord_front/edits.py``). Each step is called by the one above and returns to
it; none calls back up. The show task then edits the board (``Publisher.show``).
"""

# What other code imports from ``bot.discord_front.tables``. Private helpers are imported from their
# modules (``from bot.core.moves import SaveFailed``). To patch a constant in a test,
# patch it where it is used (``bot.discord_front.tables.timers.PUBLISH_RETRY_SECONDS``).
from bot.discord_front.tables.chat import reads_chat
from bot.core.settings import DEFAULT_TURN_SECONDS, MAX_TURN_SECONDS, MIN_TURN_SECONDS
from bot.discord_front.tables.manager import TableManager
from bot.discord_front.tables.restore import until_restored
from bot.core.table import RECENT_LINES, REPOST_AFTER_SECONDS, Table, TableError
from bot.discord_front.common import now_ts

__all__ = [
    "DEFAULT_TURN_SECONDS", "MAX_TURN_SECONDS", "MIN_TURN_SECONDS", "RECENT_LINES", "REPOST_AFTER_SECONDS",
    "Table", "TableError", "TableManager", "now_ts", "reads_chat", "until_restored",
]
