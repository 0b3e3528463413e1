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

Where things are (one :class:`TableManager`, assembled from one class per Discord
concern; it holds one ``TableCore`` of ``bot/core/``, is its listener, and calls its collaborators):

- ``manager.py``: the manager's state, its ``TableCore`` and listener methods, the lookups every
  entry point starts from (a table by its channel or by a component's ids), ``close``;
- ``bot/core/table.py``: the :class:`Table` held in memory, :class:`TableError`;
  the clock is ``bot/discord_front/common.py``'s ``DiscordClock``;
- ``lobby.py``: open, join, leave, computer seats, Start (and the game's thread),
  Cancel, Rematch, and the lobby message;
- ``moves.py``: a move in the order above (a click, typed words, a leave), its
  commit, and showing it;
- ``hands.py``: a player's private hand (ephemeral or in DMs);
- ``timers.py``: the publish retry (turn and obligation timers, idle removal: ``bot/core/timers.py``);
- ``chat.py``: typed chat as a move (Enid's rituals) and ``/say``;
- ``restore.py``: bringing unfinished tables back after a start, replaying a log;
- ``sync.py``: other processes: version checks, reloads and the bus;
- ``threads.py``: a game's thread deleted, archived or locked by a moderator;
- ``bot/core/settings.py``: per-server settings (turn timer, house rules, layout...).
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
