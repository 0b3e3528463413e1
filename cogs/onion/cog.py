"""Cripple Mr Onion in Discord: one table is one round; the session (bankrolls, the
Dealer, wild eights, the round number) lives in the channel's carryover between rounds.

- ``/onion new stake:<n> raise_cap:<n> chips:<n> variant:<gambling|plain>`` opens a
  round's lobby. Each option is checked here with a sentence naming what is allowed;
  a channel with a session in progress keeps its bankrolls (the options of a later
  round apply to the round's bets, the bankrolls come from the session).
- The finished board's "Next round" button opens the next round's lobby with the same
  players and options; Start carries the session over (``Lobbies.start``, bot/discord_front/tables/lobby.py).
- ``/onion session end`` (the host of the last round, or Manage Server) shows the
  final bankrolls and clears the session (``bot/discord_front/sessions.py``).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_front import guard, sessions
from bot.discord_front.gamecog import GameCog
from bot.words.i18n import N_, _, number
from cogs.onion.spec import SPEC
from cogs.onion.rules import DEFAULTS, GAMBLING, PLAIN_VARIANT

MAX_STAKE = 1_000
MAX_RAISE_CAP = 100
MAX_CHIPS = 1_000_000


def option_refusal(stake: int, raise_cap: int, chips: int, variant: str) -> str | None:
    """The sentence refusing a bad ``/onion new`` option, or None when all are good."""
    if not 1 <= stake <= MAX_STAKE:
        return _("The Stake is a whole number of chips from 1 to {most}, not {given}.", most=number(MAX_STAKE),
                 given=guard.clip(stake, 20))
    if not 1 <= raise_cap <= MAX_RAISE_CAP:
        return _("The raise cap is a number of Stakes from 1 to {most}, not {given}.", most=MAX_RAISE_CAP,
                 given=guard.clip(raise_cap, 20))
    if not stake <= chips <= MAX_CHIPS:
        return _("Starting chips must be at least one Stake ({stake}) and at most {most}, not {given}.", stake=stake,
                 most=number(MAX_CHIPS), given=guard.clip(chips, 20))
    if variant not in (GAMBLING, PLAIN_VARIANT):
        return _("The variant is `{gambling}` or `{plain}`, not `{given}`.", gambling=GAMBLING, plain=PLAIN_VARIANT,
                 given=guard.clip(variant, 20))
    return None


class OnionCog(GameCog, group_name="onion", group_description=N_("Cripple Mr Onion: a session of rounds with chips.")):
    spec = SPEC

    session = app_commands.Group(name="session", description=N_("The channel's session of rounds."))

    @app_commands.command(name="new", description=N_("Open a round of Cripple Mr Onion here: 2 to 7 players."))
    @app_commands.guild_only()
    @app_commands.describe(
        stake=N_("Chips per Stake: the ante and the price of a bought card (default 1)"),
        raise_cap=N_("The largest raise, in Stakes (default 10)"),
        chips=N_("Each player's chips at the start of a session (default 100)"),
        variant=N_("gambling (chips and bets, the default) or plain (no chips)"),
    )
    @app_commands.choices(variant=[
        app_commands.Choice(name=N_("gambling: chips, bets and the auction"), value=GAMBLING),
        app_commands.Choice(name=N_("plain: no chips, the best hand wins"), value=PLAIN_VARIANT),
    ])
    async def new(self, interaction: discord.Interaction, stake: int | None = None, raise_cap: int | None = None,
                  chips: int | None = None, variant: str | None = None) -> None:
        # Plain types, checked here: a forged value gets a sentence, not a transformer error.
        chosen = {
            "stake": DEFAULTS["stake"] if stake is None else stake,
            "raise_cap": DEFAULTS["raise_cap"] if raise_cap is None else raise_cap,
            "chips": DEFAULTS["chips"] if chips is None else chips,
            "variant": DEFAULTS["variant"] if variant is None else str(variant).lower(),
        }
        refusal = option_refusal(**chosen)
        if refusal:
            await guard.answer(interaction, refusal)
            return
        await self.open_table(interaction, **chosen)

    @session.command(name="end", description=N_("Show the final bankrolls of this channel's session and clear it."))
    @app_commands.guild_only()
    async def session_end(self, interaction: discord.Interaction) -> None:
        await sessions.end_session(interaction, self.bot.tables, self.spec, unit="round")  # type: ignore[attr-defined]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(OnionCog(bot))
