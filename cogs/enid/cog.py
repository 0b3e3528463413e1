"""Enid in Discord: the platform runs the lobby, thread, hands, votes, timers and
restore; this file names the game, adds ``mode`` to ``/enid new`` and ``/enid session end``.

- Rituals are typed in the game's thread (``GameSpec.accepts_chat``: the table manager
  passes every message there to the rules as ``say``), or with ``/say`` where the bot
  cannot read chat (``bot.discord_front.tables.reads_chat``). The Church's shout must @mention its
  target or reply to one of their messages.
- Votes (a limerick, a challenged middle name) are buttons on a message of their own
  (``bot/discord_front/votes.py``), built from the observation by ``render.ballots``.
- A session is per parent channel: every game's chain, middle names and results are
  stored under the table's ``channel_id`` (threads opened from one channel share it)
  and carried into the next Enid game there until ``/enid session end``
  (``bot/discord_front/sessions.py``; the story is ``render.session_summary``).
"""

from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_front import guard, sessions
from bot.discord_front.gamecog import GameCog
from bot.words.i18n import N_, _
from bot.discord_front.tables import reads_chat
from cogs.enid import limerick, render
from cogs.enid.names import LAST_CARD_CALL
from cogs.enid.spec import SPEC
from cogs.enid.rules import ENID, MODES, PLAIN, EnidGame

GAME = EnidGame.key
log = logging.getLogger(__name__)


def lobby_note(reads: bool, mode: str = ENID) -> str:
    """The lobby's word on how rituals are said."""
    if mode == PLAIN:
        if reads:
            return _("Plain Blackjack: the buttons play your cards. The one thing to type is “{call}”, in the game's thread "
                     "(or with /say), when you lay your last-but-one card. See {rules}.", call=LAST_CARD_CALL, rules=render.RULES_COMMAND)
        return _("Plain Blackjack: the buttons play your cards. The one thing to type is “{call}”, in the game's thread with /say "
                 "(this bot cannot read chat here), when you lay your last-but-one card. See {rules}.",
                 call=LAST_CARD_CALL, rules=render.RULES_COMMAND)
    if reads:
        return _("Enid: every card you lay must be named by typing its name in the game's thread (or with /say). "
                 "The Church's shout must @mention its target or reply to them (type @Deckhand 1 for a computer player). "
                 "See {rules}.", rules=render.RULES_COMMAND)
    return _("Enid: this bot cannot read chat here (Message Content is off), so say every card's name and every ritual "
             "with /say in the game's thread, and @mention the Church's target. See {rules}.", rules=render.RULES_COMMAND)


class EnidCog(GameCog, group_name="enid", group_description=N_("Enid: Blackjack with computer scientists, fish and rituals.")):
    spec = SPEC
    warm_task: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        # The limerick hint's pronouncing dictionary, read once in a worker thread at
        # start-up (as bot/discord_front/app.py warms the card faces): read by the first limerick
        # instead, it froze every table of the process for about a second
        # (bench/enid_limerick.py).
        self.warm_task = asyncio.create_task(self._load_dictionary(), name="deckhand-enid-dictionary")

    async def cog_unload(self) -> None:
        if self.warm_task is not None and not self.warm_task.done():
            self.warm_task.cancel()  # the worker thread finishes its reading on its own

    async def _load_dictionary(self) -> None:
        try:
            await asyncio.to_thread(limerick.load_dictionary)
        except Exception:
            log.exception("Loading the pronouncing dictionary failed; the first limerick will load it")

    session = app_commands.Group(name="session", description=N_("The channel's Enid session: its chain and results."))

    @app_commands.command(name="new", description=N_("Open an Enid table: rituals typed in the thread, or plain Blackjack."))
    @app_commands.guild_only()
    @app_commands.describe(mode=N_("enid: names and rituals (the default); plain: Mike Taylor's Blackjack without them"))
    @app_commands.choices(
        mode=[
            app_commands.Choice(name=N_("enid: name every card, limericks, the Enid chain"), value="enid"),
            app_commands.Choice(name=N_("plain: Blackjack with its magic cards, only “Last card” to type"), value="plain"),
        ]
    )
    async def new(self, interaction: discord.Interaction, mode: str | None = None) -> None:
        # A plain str: a forged value outside the choices is refused here with a sentence.
        chosen = ENID if mode is None else mode
        if chosen not in MODES:
            await guard.answer(interaction, _("Enid is played in mode enid or plain, not {mode}.", mode=guard.clip(chosen, 20)))
            return
        note = lobby_note(reads_chat(self.bot), chosen)
        await self.open_table(interaction, note=note, mode=chosen)

    @session.command(name="end", description=N_("End this channel's Enid session: show the chain and results, then start afresh."))
    @app_commands.guild_only()
    async def session_end(self, interaction: discord.Interaction) -> None:
        await sessions.end_session(interaction, self.bot.tables, self.spec)  # type: ignore[attr-defined]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(EnidCog(bot))
