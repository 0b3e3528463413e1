"""/leaderboard and /profile (issue 25): the Discord face of bot/players/ratings.py."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_front import guard
from bot.pictures import rating_chart
from bot.players import ratings
from bot.core import computer
from bot.discord_front.gamecog import PlatformCog
from bot.discord_front.guard import clip
from bot.words.i18n import N_, _, ngettext
from bot.words.render_util import ordinal  # the catalog's ordinals (1st / 1.º)
from storage import repos

log = logging.getLogger(__name__)

TOP = 10
EXPLAINED = N_("Rating = {base} + {scale} × (skill − 3 × uncertainty): it rises as you win and as "
              "the bot grows sure of you. Rated: finished games with two or more people. "
              "{min_games} rated games to be listed.")


class Profiles(PlatformCog):

    async def _game_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        games = self.bot.games  # type: ignore[attr-defined]
        return [app_commands.Choice(name=s.title, value=s.key) for s in games if current.lower() in s.title.lower() or current.lower() in s.key][:25]

    def _spec(self, game: str):
        return self.bot.games.get(game)  # type: ignore[attr-defined]

    async def _unknown_game(self, interaction: discord.Interaction, game: str) -> None:
        names = ", ".join(s.key for s in self.bot.games)  # type: ignore[attr-defined]
        await guard.answer(interaction, f"I don't know a game called '{clip(game, 60)}'. Try one of: {names}.")

    async def _up_to_date(self, interaction: discord.Interaction, games: list[str]) -> None:
        """Replay the ratings of any of ``games`` a server has from another model, or from
        before ratings existed (bot/players/ratings.py ``is_current``); defers first, as a long
        history takes seconds."""
        assert interaction.guild_id is not None
        async with self.tables.storage.reading(interaction.guild_id) as db:
            stale = [g for g in games if await ratings.needs_replay(db, g)]
        if not stale:
            return
        if not interaction.response.is_done():
            await interaction.response.defer(thinking=True)
        for game in stale:
            rated = await ratings.recompute_guild(self.tables.storage, interaction.guild_id, game)
            log.info("Replayed %s ratings in guild %s: %s rated games", game, interaction.guild_id, rated)

    # ------------------------------------------------------------ /leaderboard

    @app_commands.command(name="leaderboard", description=N_("This server's leaderboard: games won, or one game's skill ratings."))
    @app_commands.guild_only()
    @app_commands.describe(game=N_("Which game (its skill ratings); none: games won in every game"))
    async def leaderboard(self, interaction: discord.Interaction, game: str | None = None) -> None:
        assert interaction.guild_id is not None
        if game is None:
            await send_wins_board(interaction, self.bot.games, self.tables.storage, None)  # type: ignore[attr-defined]
            return
        spec = self._spec(game)
        if spec is None:
            await self._unknown_game(interaction, game)
            return
        me = interaction.user.id
        await self._up_to_date(interaction, [spec.key])
        async with self.tables.storage.reading(interaction.guild_id) as db:
            top = await repos.top_ratings(db, spec.key, ratings.MIN_GAMES, TOP)
            mine = (await repos.ratings_of(db, spec.key, [me])).get(me)
            listed = mine is not None and mine.played >= ratings.MIN_GAMES
            place = await repos.rating_place(db, spec.key, mine, ratings.MIN_GAMES) if listed else None
        embed = discord.Embed(title=_("{title} leaderboard", title=spec.title), colour=discord.Colour.gold())
        lines = [f"{i}. {computer.name(r.user_id)} — **{r.shown}** · " + _("{games}, {won} won", games=ngettext("{n} game", "{n} games", r.played), won=r.won) for i, r in enumerate(top, 1)]
        embed.description = "\n".join(lines) if lines else _("Nobody has {n} rated {title} games yet.", n=ratings.MIN_GAMES, title=spec.title)
        if mine is None:
            yours = _("You have no rated {title} games yet.", title=spec.title)
        elif place is None:
            more = ratings.MIN_GAMES - mine.played
            yours = _("Your rating is {rating} after {games}: {more} to be listed.", rating=mine.shown, games=ngettext("{n} rated game", "{n} rated games", mine.played),
                      more=ngettext("{n} more game", "{n} more games", more))
        else:
            yours = _("You are {place} of {of}: **{rating}** · {games}, {won} won.", place=ordinal(place[0]), of=place[1],
                      rating=mine.shown, games=ngettext("{n} game", "{n} games", mine.played), won=mine.won)
        embed.add_field(name=_("You"), value=yours, inline=False)
        embed.set_footer(text=_(EXPLAINED, base=ratings.SHOWN_BASE, scale=ratings.SHOWN_SCALE, min_games=ratings.MIN_GAMES))
        if interaction.response.is_done():
            await interaction.followup.send(embed=embed, allowed_mentions=discord.AllowedMentions.none())
        else:
            await interaction.response.send_message(embed=embed, allowed_mentions=discord.AllowedMentions.none())

    leaderboard.autocomplete("game")(_game_autocomplete)

    # ------------------------------------------------------------ /profile

    @app_commands.command(name="profile", description=N_("A player's rating, record, rivals and progress in a game."))
    @app_commands.guild_only()
    @app_commands.describe(player=N_("Whose profile (default: yours)"), game=N_("Which game (default: the one they played most)"))
    async def profile(self, interaction: discord.Interaction, player: discord.User | None = None, game: str | None = None) -> None:
        assert interaction.guild_id is not None
        who = player or interaction.user
        if game is not None and self._spec(game) is None:
            await self._unknown_game(interaction, game)
            return
        wait = await self.tables.shares.take_view(interaction.user.id)  # each asks the storage and sends the chart
        if wait is not None:
            await guard.answer(interaction, _("Slow down: you asked for profiles very often, so I did not look one up again; try again in {seconds} s.",
                                              seconds=wait))
            return
        await interaction.response.defer(thinking=True)
        await self._up_to_date(interaction, [game] if game else [s.key for s in self.bot.games])  # type: ignore[attr-defined]
        async with self.tables.storage.reading(interaction.guild_id) as db:
            every = await repos.player_ratings(db, who.id)
            if game is None and every:
                game = max(every, key=lambda g: (every[g].played, g))
            mine = every.get(game) if game else None
            history = await repos.rating_history_of(db, game, who.id) if mine else []
            rivals = await repos.rivals(db, game, who.id, ratings.source_of(game)) if mine else []
            place = await repos.rating_place(db, game, mine, ratings.MIN_GAMES) if mine and mine.played >= ratings.MIN_GAMES else None
        name = who.display_name
        if mine is None:
            what = self._spec(game).title if game else _("any game")
            await guard.answer(interaction, _("{name} has no rated games of {what} on this server yet: ratings count finished games with two or more people.", name=name, what=what),
                               ephemeral=False, allowed_mentions=discord.AllowedMentions.none())
            return
        title = self._spec(game).title if self._spec(game) else game
        points = [shown for _, shown, _ in history]
        embed = discord.Embed(title=f"{name} · {title}", colour=discord.Colour.blurple())
        rate = round(100 * mine.won / mine.played) if mine.played else 0
        standing = (_("{place} of {of} on /leaderboard", place=ordinal(place[0]), of=place[1]) if place
                    else _("{more} to be on /leaderboard", more=ngettext("{n} more game", "{n} more games", ratings.MIN_GAMES - mine.played)))
        embed.add_field(name=_("Rating"), value=_("**{rating}** ({standing}); skill {mu} ± {sigma}", rating=mine.shown, standing=standing, mu=f"{mine.mu:.1f}", sigma=f"{mine.sigma:.1f}"), inline=False)
        embed.add_field(name=_("Record"), value=_("{games}, {won} won ({rate}%)", games=ngettext("{n} rated game", "{n} rated games", mine.played), won=mine.won, rate=rate), inline=False)
        best, worst = _rivals(rivals)
        embed.add_field(name=_("Best against"), value=best, inline=True)
        embed.add_field(name=_("Toughest opponent"), value=worst, inline=True)
        others = [f"{(self._spec(g).title if self._spec(g) else g)} {r.shown} (" + ngettext("{n} game", "{n} games", r.played) + ")" for g, r in sorted(every.items()) if g != game]
        if others:
            embed.add_field(name=_("Other games"), value=", ".join(others)[:1024], inline=False)
        change = points[-1] - points[0] if len(points) > 1 else 0
        games = ngettext("{n} rated game", "{n} rated games", len(points))
        summary = (_("{name}'s {title} rating is {rating} after {games}, {change} since the first; highest {high}, lowest {low}.", name=name, title=title, rating=mine.shown,
                     games=games, change=f"{change:+d}", high=max(points), low=min(points)) if len(points) > 1
                   else _("{name}'s {title} rating is {rating} after {games}.", name=name, title=title, rating=mine.shown, games=games))
        alt = rating_chart.alt_text(name, title, points)
        try:
            png = await asyncio.to_thread(rating_chart.draw, f"{name} · {title} rating", points)
        except Exception:  # the text says it all; a picture that fails is left out
            log.exception("Could not draw the rating chart")
            png = None
        kwargs: dict = {"embed": embed, "allowed_mentions": discord.AllowedMentions.none()}
        if png is not None:
            embed.set_image(url="attachment://rating.png")
            kwargs["file"] = discord.File(fp=io.BytesIO(png), filename="rating.png", description=alt)
        replays = getattr(self.bot, "replays", None)  # "Watch a game again" (bot/discord_front/replay_view.py)
        watch = await replays.profile_view(interaction.guild_id, who.id) if replays is not None else None
        if watch is not None:
            kwargs["view"] = watch
        await interaction.followup.send(summary, **kwargs)

    profile.autocomplete("game")(_game_autocomplete)


def _rivals(rivals: list[repos.Rival]) -> tuple[str, str]:
    """(best, worst) opponent lines: the most games finished above them, net of those
    below (ties broken by games together); teammates only sharing places count for neither."""
    def line(r: repos.Rival, ahead: bool) -> str:
        together = ngettext("{n} game", "{n} games", r.met)
        return (_("{player}: ahead in {n} of {games} together", player=computer.name(r.user_id), n=r.ahead, games=together) if ahead
                else _("{player}: behind in {n} of {games} together", player=computer.name(r.user_id), n=r.behind, games=together))

    best = max((r for r in rivals if r.ahead > r.behind), key=lambda r: (r.ahead - r.behind, r.met, -r.user_id), default=None)
    worst = max((r for r in rivals if r.behind > r.ahead), key=lambda r: (r.behind - r.ahead, r.met, -r.user_id), default=None)
    return (line(best, True) if best else _("Nobody yet"), line(worst, False) if worst else _("Nobody yet"))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Profiles(bot))


async def send_wins_board(interaction: discord.Interaction, games: Any, storage: Any, game: str | None) -> None:
    """The games-won table (``/leaderboard`` without a game, and its older name
    ``/stats``): per game, who won how many of how many finished games; games with
    computer players listed apart. ``game``: only that game."""
    assert interaction.guild_id is not None
    specs = [s for s in games if game is None or s.key == game]
    if not specs:
        await guard.answer(interaction, _("I don't know a game called '{game}'.", game=clip(game or "", 60)))
        return
    embed = discord.Embed(title=_("Leaderboard"), colour=discord.Colour.gold())
    async with storage.reading(interaction.guild_id) as db:
        for spec in specs:
            for with_computers in (False, True):
                standings = await repos.leaderboard(db, spec.key, with_computers=with_computers)
                if standings:
                    lines = [f"{i}. <@{s.user_id}> — " + ngettext("{n} win in {games}", "{n} wins in {games}", s.wins, games=ngettext("{n} game", "{n} games", s.played)) for i, s in enumerate(standings, 1)]
                    name = _("{title} · with computer players", title=spec.title) if with_computers else spec.title
                    embed.add_field(name=name, value="\n".join(lines)[:1024], inline=False)
    if not embed.fields:
        embed.description = _("No finished games yet. Open a lobby with `/blackjack new`!")
    elif game is None:
        embed.set_footer(text=_("Skill ratings: /leaderboard with a game."))
    await interaction.response.send_message(embed=embed)
