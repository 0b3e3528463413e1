"""The commands every game shares: /join /leave /start /cancel /hand /remove,
/rules, /stats (an alias of /leaderboard's games-won table) and /settings, plus the typed-chat listener."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_front import guard
from bot.players import privacy
from bot.core import computer
from bot.core.games import GameSpec
from bot.discord_front.gamecog import PlatformCog
from bot.discord_front.guard import clip
from bot.words import i18n
from bot.discord_front import languages
from bot.words.i18n import N_, _, ngettext  # noqa: F401
from bot.discord_front.translator import with_numbers
from bot.discord_front.tables import MAX_TURN_SECONDS, MIN_TURN_SECONDS, Table, until_restored
from storage import repos
from storage.db import StorageError

log = logging.getLogger(__name__)

RULES_CHUNK = 1900  # leave room under the 2000-character message limit
SAY_LIMIT = 1900
HANDS_WHERE = {
    "here": N_("From now on your hands will be shown here in the channel, as private messages only you can see."),
    "dm": N_("From now on your hands will be shown in your DMs."),
}


MY_PICTURES = {
    "on": N_("Your hands will show a picture of your cards again (unless this server turned pictures off). Every picture has the same cards as its text."),
    "off": N_("Your hands will be text only from now on, in every game on this server; the board's and the hand's text say everything their pictures show."),
}


class Platform(PlatformCog):

    async def _channel_table(self, interaction: discord.Interaction) -> Table | None:
        if interaction.guild_id is None or interaction.channel_id is None:
            await interaction.response.send_message(_("Tables live in server channels; use this command there."), ephemeral=True)
            return None
        table = self.tables.active_in_channel(interaction.guild_id, interaction.channel_id)
        if table is None:
            await until_restored(self.bot)
            table = self.tables.active_in_channel(interaction.guild_id, interaction.channel_id)
        if table is None and self.tables.storage.has_database(interaction.guild_id):
            try:
                await self.tables.storage.probe(interaction.guild_id)
            except StorageError as error:
                # No table in memory may mean its server's file cannot be read: say that.
                await guard.answer(interaction, error.sentence)
                return None
        if table is None:
            # The user's game whose thread was deleted (moved here now) or closed (paused).
            table = await self.tables.find_lost(interaction.guild_id, interaction.channel_id, interaction.user.id)
        if table is None:
            await guard.answer(interaction, self.tables.no_table_here(interaction.guild_id, interaction.channel_id, interaction.user.id))
        return table

    # ------------------------------------------------------------ table commands

    @app_commands.command(name="join", description=N_("Join the lobby in this channel."))
    @app_commands.guild_only()
    async def join(self, interaction: discord.Interaction) -> None:
        if table := await self._channel_table(interaction):
            await self.tables.join(interaction, table)

    @app_commands.command(name="leave", description=N_("Leave the lobby in this channel (during a game: forfeit your seat)."))
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction) -> None:
        if table := await self._channel_table(interaction):
            await self.tables.leave(interaction, table)

    @app_commands.command(name="start", description=N_("Start the game in this channel's lobby (host only)."))
    @app_commands.guild_only()
    async def start(self, interaction: discord.Interaction) -> None:
        if table := await self._channel_table(interaction):
            await self.tables.start(interaction, table)

    @app_commands.command(name="cancel", description=N_("Cancel this channel's lobby or game (host or Manage Server)."))
    @app_commands.guild_only()
    async def cancel(self, interaction: discord.Interaction) -> None:
        if table := await self._channel_table(interaction):
            await self.tables.cancel(interaction, table)

    @app_commands.command(name="hand", description=N_("Show your private hand for this channel's game."))
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction) -> None:
        if table := await self._channel_table(interaction):
            await self.tables.show_hand(interaction, table.guild_id, table.id)

    @app_commands.command(name="remove", description=N_("Remove a player from this channel's lobby or game (host or Manage Server)."))
    @app_commands.guild_only()
    @app_commands.describe(player=N_("The player to remove"))
    async def remove(self, interaction: discord.Interaction, player: discord.User) -> None:
        table = await self._channel_table(interaction)
        if table is None:
            return
        await self.tables.remove(interaction, table, player.id)

    computers_group = app_commands.Group(name="bot-player", description=N_("Computer players in this channel's lobby (host only)."), guild_only=True)

    @computers_group.command(name="add", description=N_("Seat a computer player in this channel's lobby (host only)."))
    @app_commands.describe(level=N_("easy (a sensible heuristic) or hard (searches ahead)"))
    @app_commands.choices(level=[app_commands.Choice(name=level, value=level) for level in computer.OFFERED])
    async def computer_add(self, interaction: discord.Interaction, level: str = "easy") -> None:
        # A plain str checked in add_computer: a forged level gets a sentence, not an error.
        if table := await self._channel_table(interaction):
            await self.tables.add_computer(interaction, table, level)

    @computers_group.command(name="remove", description=N_("Take the last computer player out of this channel's lobby (host only)."))
    async def computer_remove(self, interaction: discord.Interaction) -> None:
        if table := await self._channel_table(interaction):
            await self.tables.remove_computer(interaction, table)

    @app_commands.command(name="say", description=N_("Say words out loud in the game (for games with spoken rituals, if chat isn't read)."))
    @app_commands.guild_only()
    @app_commands.describe(text=N_("What you say out loud"))
    async def say(self, interaction: discord.Interaction, text: app_commands.Range[str, 1, SAY_LIMIT]) -> None:
        if not 1 <= len(text) <= SAY_LIMIT:  # declared lengths are not enforced on receipt
            await guard.answer(interaction, _("Say between 1 and {most} characters.", most=SAY_LIMIT))
            return
        table = await self._channel_table(interaction)
        if table is None:
            return
        refusal = await self.tables.say(table, interaction.user.id, text)
        if refusal is None:
            await interaction.response.send_message(_("{player} says: {text}", player=interaction.user.mention, text=text), allowed_mentions=discord.AllowedMentions.none())
        else:
            await interaction.response.send_message(refusal, ephemeral=True)

    # ------------------------------------------------------------ rules and stats

    async def _game_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        games = self.bot.games  # type: ignore[attr-defined]
        return [app_commands.Choice(name=s.title, value=s.key) for s in games if current.lower() in s.title.lower() or current.lower() in s.key][:25]

    @app_commands.command(name="rules", description=N_("Read the rules Deckhand plays by, with every interpretation and house rule."))
    @app_commands.describe(game=N_("Which game"))
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        spec = self.bot.games.get(game)  # type: ignore[attr-defined]
        if spec is None:
            names = ", ".join(s.key for s in self.bot.games)  # type: ignore[attr-defined]
            await guard.answer(interaction, _("I don't know a game called '{game}'. Try one of: {names}.", game=clip(game, 60), names=names))
            return
        chunks = _chunk(spec.rules_text(i18n.language()), RULES_CHUNK)
        await interaction.response.send_message(chunks[0], ephemeral=True)
        for chunk in chunks[1:8]:
            await interaction.followup.send(chunk, ephemeral=True)
        if len(chunks) > 8:
            await interaction.followup.send(_("(The rest is in {where} of the bot's installation.)", where=spec.rules_location), ephemeral=True)

    rules.autocomplete("game")(_game_autocomplete)

    @app_commands.command(name="stats", description=N_("The same as /leaderboard without a game: games won (an older name)."))
    @app_commands.guild_only()
    @app_commands.describe(game=N_("Only this game"))
    async def stats(self, interaction: discord.Interaction, game: str | None = None) -> None:
        """An alias kept for old habits: ``/leaderboard`` without a game shows the same
        table (see bot/discord_front/profile_commands.py, where it is built)."""
        from bot.discord_front.profile_commands import send_wins_board

        await send_wins_board(interaction, self.bot.games, self.tables.storage, game)  # type: ignore[attr-defined]

    stats.autocomplete("game")(_game_autocomplete)

    # ------------------------------------------------------------ settings

    settings = app_commands.Group(name="settings", description=N_("Your settings and this server's."), guild_only=True)

    @settings.command(name="show", description=N_("Show your settings and this server's (one game's house rules with game)."))
    @app_commands.describe(game=N_("List every house rule of this game"))
    async def settings_show(self, interaction: discord.Interaction, game: str | None = None) -> None:
        assert interaction.guild_id is not None
        games = self.bot.games  # type: ignore[attr-defined]
        if game is not None:
            spec = games.get(game)
            if spec is None:
                names = ", ".join(s.key for s in games)
                await guard.answer(interaction, _("I don't know a game called '{game}'. Try one of: {names}.", game=clip(game, 60), names=names))
                return
            await self._show_house_rules(interaction, spec)
            return
        hands = _("in DMs") if await self.tables.hands_in_dm(interaction.guild_id, interaction.user.id) else _("here, as private (ephemeral) messages")
        timer = await self.tables.guild_turn_seconds(interaction.guild_id)
        threads = _("each in its own thread") if await self.tables.threads_on(interaction.guild_id) else _("in the channel")
        pictures = _("card pictures") if await self.tables.pictures_on(interaction.guild_id) else _("text only")
        layout = await self.tables.board_layout(interaction.guild_id)
        pause = await computer.pause_seconds(self.tables, interaction.guild_id)
        async with self.tables.storage.reading(interaction.guild_id) as db:
            mine = await repos.get_user_setting(db, interaction.user.id, "pictures", "on") != "off"
        hands += ", " + (_("with a picture of your cards") if mine else _("text only (`/settings my-pictures`)"))
        async with self.tables.storage.reading(interaction.guild_id) as db:
            kept = await privacy.policy(db)
        lines = [_("**Your hands:** {hands}", hands=hands), _("**Turn timer:** {seconds} s", seconds=timer), _("**Computer players' pause:** {seconds} s", seconds=f"{pause:g}"),
                 _("**Games are played:** {where}", where=threads),
                 _("**Boards:** {pictures}, {layout}", pictures=pictures, layout=_("Components V2 layout") if layout == "v2" else _("classic embed")),
                 _("**Move logs of finished games kept:** {moves} days · **Data kept after Deckhand leaves:** {grace} days", moves=kept.moves_kept_days, grace=kept.leave_grace_days)]
        # Only the house rules a server changed: every rule of five games would not fit
        # in one message (Onion alone has a dozen); `game:` lists one game's in full.
        changed = []
        for spec in games:
            chosen = await self.tables.house_rules(interaction.guild_id, spec)
            changed += [f"**{spec.title} · {rule.key}:** {chosen[rule.key]} — {rule.sentence(chosen[rule.key])}"
                        for rule in spec.house_rules if chosen[rule.key] != rule.default]
        lines.append(_("**House rules changed from the defaults:**") if changed else _("**House rules:** every game plays by its defaults."))
        lines += changed
        lines.append(_("Every house rule of a game, with its choices: `/settings show game:<game>`."))
        await guard.answer(interaction, "\n".join(lines))

    async def _show_house_rules(self, interaction: discord.Interaction, spec: GameSpec) -> None:
        assert interaction.guild_id is not None
        chosen = await self.tables.house_rules(interaction.guild_id, spec)
        if not spec.house_rules:
            await guard.answer(interaction, _("{title} has no house rules.", title=spec.title))
            return
        lines = []
        for rule in spec.house_rules:
            others = " / ".join(c for c in rule.choices if c != chosen[rule.key])
            default = " " + _("(default)") if chosen[rule.key] == rule.default else ""
            lines.append(f"**{rule.key}:** {chosen[rule.key]}{default} — {rule.sentence(chosen[rule.key])} " + _("*Other choices: {others}.*", others=others))
        embed = discord.Embed(colour=discord.Colour.blurple(), description=clip("\n".join(lines), 4096))
        embed.set_footer(text=_("Manage Server changes one with /settings house-rule."))
        await guard.answer(interaction, _("**{title}: house rules on this server**", title=spec.title), embed=embed)

    settings_show.autocomplete("game")(_game_autocomplete)

    @settings.command(name="hands", description=N_("Where your private hand appears: here (ephemeral) or in DMs."))
    @app_commands.choices(where=[app_commands.Choice(name=N_("here (private messages in the channel)"), value="here"), app_commands.Choice(name=N_("in my DMs"), value="dm")])
    async def settings_hands(self, interaction: discord.Interaction, where: str) -> None:
        # A plain str: a value outside the choices reaches this check, not a transformer error.
        assert interaction.guild_id is not None
        if where not in HANDS_WHERE:
            await guard.answer(interaction, _("'{value}' is not a place for your hands: use here or dm.", value=clip(where, 40)))
            return
        async with self.tables.storage.transaction(interaction.guild_id) as db:
            await repos.set_user_setting(db, interaction.user.id, "hands", where)
        extra = " " + _("Make sure this server's members may send you direct messages.") if where == "dm" else ""
        await guard.answer(interaction, _(HANDS_WHERE[where]) + extra)

    @settings.command(name="my-pictures", description=N_("Card pictures in your own hands (on), or text only for screen readers and slow links (off)."))
    @app_commands.choices(mode=[app_commands.Choice(name=N_("on: a picture of my cards"), value="on"), app_commands.Choice(name=N_("off: text only"), value="off")])
    async def settings_my_pictures(self, interaction: discord.Interaction, mode: str) -> None:
        assert interaction.guild_id is not None
        if mode not in MY_PICTURES:
            await guard.answer(interaction, _("'{value}' is not a choice for your hand pictures: use on or off; nothing changed.", value=clip(mode, 40)))
            return
        async with self.tables.storage.transaction(interaction.guild_id) as db:
            await repos.set_user_setting(db, interaction.user.id, "pictures", mode)
        await guard.answer(interaction, _(MY_PICTURES[mode]))

    def _is_manager(self, interaction: discord.Interaction) -> bool:
        return bool(interaction.permissions and interaction.permissions.manage_guild)

    @settings.command(name="timer", description=N_("Turn timer for new tables, in seconds (Manage Server)."))
    @app_commands.describe(seconds=with_numbers(N_("{low} to {high}"), low=MIN_TURN_SECONDS, high=MAX_TURN_SECONDS))
    async def settings_timer(self, interaction: discord.Interaction, seconds: app_commands.Range[int, MIN_TURN_SECONDS, MAX_TURN_SECONDS]) -> None:
        assert interaction.guild_id is not None
        if not self._is_manager(interaction):
            await interaction.response.send_message(_("Only members with Manage Server can change the turn timer."), ephemeral=True)
            return
        if isinstance(seconds, bool) or not isinstance(seconds, int) or not MIN_TURN_SECONDS <= seconds <= MAX_TURN_SECONDS:
            # Discord's client keeps to the declared range; a forged payload need not.
            await guard.answer(interaction, _("The turn timer must be a whole number of seconds from {low} to {high}; nothing changed.", low=MIN_TURN_SECONDS, high=MAX_TURN_SECONDS))
            return
        async with self.tables.storage.transaction(interaction.guild_id) as db:
            await repos.set_guild_setting(db, "turn_timer", int(seconds))
        await interaction.response.send_message(_("New tables will give each turn {seconds} s. Tables already open keep their timer.", seconds=seconds), ephemeral=True)

    @settings.command(name="bot-pause", description=N_("Seconds a computer player waits before its move, so people can follow (Manage Server)."))
    @app_commands.describe(seconds=with_numbers(N_("{low} to {high}"), low=0, high=f"{computer.MAX_PAUSE:g}"))
    async def settings_bot_pause(self, interaction: discord.Interaction, seconds: float) -> None:
        assert interaction.guild_id is not None
        if not self._is_manager(interaction):
            await guard.answer(interaction, _("Only members with Manage Server can change the computer players' pause."))
            return
        if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not 0 <= seconds <= computer.MAX_PAUSE:
            await guard.answer(interaction, _("The pause must be from 0 to {most} seconds; nothing changed.", most=f"{computer.MAX_PAUSE:g}"))
            return
        async with self.tables.storage.transaction(interaction.guild_id) as db:
            await repos.set_guild_setting(db, "bot_pause", float(seconds))
        await guard.answer(interaction, _("Computer players now wait {seconds} s before each move.", seconds=f"{seconds:g}"))

    @settings.command(name="keep-moves", description=N_("Days the move logs of finished games are kept; results stay (Manage Server)."))
    @app_commands.describe(days=with_numbers(N_("{low} to {high} (default {default})"), low=1, high=privacy.MAX_MOVES_KEPT_DAYS, default=privacy.DEFAULT_MOVES_KEPT_DAYS))
    async def settings_keep_moves(self, interaction: discord.Interaction, days: app_commands.Range[int, 1, privacy.MAX_MOVES_KEPT_DAYS]) -> None:
        await self._set_days(interaction, privacy.MOVES_KEPT_KEY, days, 1, privacy.MAX_MOVES_KEPT_DAYS, N_("how long move logs are kept"),
                             N_("The move logs of finished games will be deleted {days} after each game ends; results are kept."))

    @settings.command(name="leave-grace", description=N_("Days this server's data is kept after Deckhand leaves it (Manage Server)."))
    @app_commands.describe(days=with_numbers(N_("{low} to {high} (default {default})"), low=0, high=privacy.MAX_LEAVE_GRACE_DAYS, default=privacy.DEFAULT_LEAVE_GRACE_DAYS))
    async def settings_leave_grace(self, interaction: discord.Interaction, days: app_commands.Range[int, 0, privacy.MAX_LEAVE_GRACE_DAYS]) -> None:
        await self._set_days(interaction, privacy.LEAVE_GRACE_KEY, days, 0, privacy.MAX_LEAVE_GRACE_DAYS, N_("the grace period after Deckhand leaves"),
                             N_("If Deckhand leaves this server, everything it kept here will be deleted {days} later (adding it back before then keeps it)."))

    async def _set_days(self, interaction: discord.Interaction, key: str, days: int, low: int, high: int, what: str, sentence: str) -> None:
        assert interaction.guild_id is not None
        if not self._is_manager(interaction):
            await guard.answer(interaction, _("Only members with Manage Server can change {what}.", what=_(what)))
            return
        if isinstance(days, bool) or not isinstance(days, int) or not low <= days <= high:
            await guard.answer(interaction, _("Give {what} as a whole number of days from {low} to {high}; nothing changed.", what=_(what), low=low, high=high))
            return
        async with self.tables.storage.transaction(interaction.guild_id) as db:
            await repos.set_guild_setting(db, key, int(days))
        await guard.answer(interaction, _(sentence, days=ngettext("{n} day", "{n} days", days)))

    @settings.command(name="house-rule", description=N_("Choose a house rule for this server (Manage Server)."))
    @app_commands.describe(game=N_("Which game"), rule=N_("Which rule"), value=N_("The choice"))
    async def settings_house_rule(self, interaction: discord.Interaction, game: str, rule: str, value: str) -> None:
        assert interaction.guild_id is not None
        if not self._is_manager(interaction):
            await interaction.response.send_message(_("Only members with Manage Server can change house rules."), ephemeral=True)
            return
        spec = self.bot.games.get(game)  # type: ignore[attr-defined]
        if spec is None:
            await guard.answer(interaction, _("I don't know a game called '{game}'.", game=clip(game, 60)))
            return
        house_rule = spec.house_rule(rule)
        if house_rule is None:
            known = ", ".join(r.key for r in spec.house_rules) or _("none")
            await guard.answer(interaction, _("{title} has no house rule '{rule}'. Its house rules: {known}.", title=spec.title, rule=clip(rule, 60), known=known))
            return
        if value not in house_rule.choices:
            await guard.answer(interaction, _("'{value}' is not a choice for {rule}: use {choices}.", value=clip(value, 60), rule=rule, choices=" or ".join(house_rule.choices)))
            return
        async with self.tables.storage.transaction(interaction.guild_id) as db:
            await repos.set_guild_setting(db, f"house:{spec.key}:{rule}", value)
        await interaction.response.send_message(_("{title}: {rule} is now **{value}** for new tables on this server.", title=spec.title, rule=rule, value=value), ephemeral=True)

    async def _set_server_choice(self, interaction: discord.Interaction, key: str, value: str, sentences: dict[str, str], what: str) -> None:
        """A Manage Server setting with a few choices: ``value`` is checked against
        ``sentences`` (a forged option need not be a declared choice), stored, and
        confirmed with its sentence."""
        assert interaction.guild_id is not None
        if not self._is_manager(interaction):
            await guard.answer(interaction, _("Only members with Manage Server can change {what}.", what=_(what)))
            return
        if value not in sentences:
            await guard.answer(interaction, _("'{value}' is not a choice for {what}: use {choices}; nothing changed.", value=clip(value, 40), what=_(what), choices=" or ".join(sentences)))
            return
        async with self.tables.storage.transaction(interaction.guild_id) as db:
            await repos.set_guild_setting(db, key, value)
        await guard.answer(interaction, _(sentences[value]))

    @settings.command(name="threads", description=N_("Play each game in its own thread (on), or in the channel (off) (Manage Server)."))
    @app_commands.choices(mode=[app_commands.Choice(name=N_("on: a thread per game"), value="on"), app_commands.Choice(name=N_("off: games in the channel"), value="off")])
    async def settings_threads(self, interaction: discord.Interaction, mode: str) -> None:
        await self._set_server_choice(interaction, "threads", mode, {
            "on": N_("Each new game will be played in its own thread, opened from its lobby message. Games already running stay where they are."),
            "off": N_("New games will be played in the channel where their lobby was opened. Games already running stay where they are."),
        }, N_("where games are played"))

    @settings.command(name="layout", description=N_("How the board looks: classic (an embed) or v2 (Discord's newer layout) (Manage Server)."))
    @app_commands.choices(style=[app_commands.Choice(name=N_("classic: an embed"), value="classic"), app_commands.Choice(name=N_("v2: Components V2 layout"), value="v2")])
    async def settings_layout(self, interaction: discord.Interaction, style: str) -> None:
        await self._set_server_choice(interaction, "layout", style, {
            "classic": N_("New games will show their board as an embed. Games already running keep theirs."),
            "v2": N_("New games will show their board as Components V2 layout. Games already running keep theirs."),
        }, N_("how the board looks"))

    @settings.command(name="pictures", description=N_("Card pictures on boards (on), or text only for screen readers and slow links (off) (Manage Server)."))
    @app_commands.choices(mode=[app_commands.Choice(name=N_("on: card pictures"), value="on"), app_commands.Choice(name=N_("off: text only"), value="off")])
    async def settings_pictures(self, interaction: discord.Interaction, mode: str) -> None:
        await self._set_server_choice(interaction, "pictures", mode, {
            "on": N_("New games will show card pictures on the board. Games already running keep theirs."),
            "off": N_("New games will show their board as text only. Games already running keep theirs."),
        }, N_("card pictures"))

    @settings.command(name="language", description=N_("The language of this server's boards, lobbies and results (Manage Server)."))
    @app_commands.choices(language=[
        app_commands.Choice(name=N_("auto: the server's preferred locale, else English"), value=languages.AUTO),
        *(app_commands.Choice(name=f"{code}: {i18n.LANGUAGE_NAMES[code]}", value=code) for code in i18n.LANGUAGES),
    ])
    async def settings_language(self, interaction: discord.Interaction, language: str) -> None:
        assert interaction.guild_id is not None
        sentences = {code: N_("New lobbies, boards and results on this server will be in {language}. Each player's own hand "
                              "and answers follow their Discord language.") for code in i18n.LANGUAGES}
        sentences[languages.AUTO] = N_("This server's boards, lobbies and results will follow its preferred locale "
                                       "({language} now). Each player's own hand and answers follow their Discord language.")
        if not self._is_manager(interaction):
            await guard.answer(interaction, i18n._("Only members with Manage Server can change the server's language."))
            return
        if language not in sentences:
            await guard.answer(interaction, i18n._("'{given}' is not a language here: use {choices}; nothing changed.",
                                                   given=clip(language, 40), choices=", ".join(sentences)))
            return
        async with self.tables.storage.transaction(interaction.guild_id) as db:
            await repos.set_guild_setting(db, "language", language)
        languages.forget_server(interaction.guild_id)
        now = await languages.load_server(interaction.client, self.tables.guild_settings, interaction.guild_id)
        await guard.answer(interaction, i18n._(sentences[language], language=i18n.language_name(now)))

    settings_house_rule.autocomplete("game")(_game_autocomplete)

    @settings_house_rule.autocomplete("rule")
    async def _rule_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        spec = self.bot.games.get(getattr(interaction.namespace, "game", "") or "")  # type: ignore[attr-defined]
        rules = spec.house_rules if spec else ()
        return [app_commands.Choice(name=f"{r.key} — {r.description}"[:100], value=r.key) for r in rules if current in r.key][:25]

    @settings_house_rule.autocomplete("value")
    async def _value_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        spec = self.bot.games.get(getattr(interaction.namespace, "game", "") or "")  # type: ignore[attr-defined]
        rule = spec.house_rule(getattr(interaction.namespace, "rule", "") or "") if spec else None
        return [app_commands.Choice(name=c, value=c) for c in (rule.choices if rule else ()) if current in c][:25]

    # ------------------------------------------------------------ typed chat

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        await self.tables.on_chat(message)


def _chunk(text: str, size: int) -> list[str]:
    """Split on paragraph boundaries where possible."""
    chunks, current = [], ""
    for paragraph in text.split("\n\n"):
        piece = paragraph if not current else "\n\n" + paragraph
        if len(current) + len(piece) <= size:
            current += piece
            continue
        if current:
            chunks.append(current)
        while len(paragraph) > size:
            chunks.append(paragraph[:size])
            paragraph = paragraph[size:]
        current = paragraph
    if current:
        chunks.append(current)
    return chunks or ["(empty)"]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Platform(bot))

