"""Skill ratings (issue 25): one OpenSkill rating per person per game per server.

Pure apart from storage (no discord, no clock: callers pass ``now``). The rated
results are the stored ones, so a rating is derived data: :func:`recompute` replays
a game's results in finished order and rebuilds ``ratings`` and ``rating_history``;
:func:`record_game` (after each finished game, in the transaction that stores its
result) applies the same step to the stored ratings, so it equals a replay.

The model is OpenSkill's Plackett-Luce (Weng & Lin 2011). Every game here ends in a
ranking of two to eight players (Idiot's order out, Enid's card counts, Onion's
bankrolls) or of two teams (Engines); Plackett-Luce rates a whole ranking in one
step, with ties and teams, and its cost grows linearly with the teams, where the
Thurstone-Mosteller and Bradley-Terry "full" models compare every pair. It is also
the library's default and the model the Weng-Lin paper recommends for rankings.

What is rated: a finished game with at least two people at it (computer seats, ids
below zero, do not count; a former player, someone forgotten, does). Cancelled games store no results, so they never rate.
Stalemates and draws store everyone sharing a place, which rates as a tie.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from openskill.models import PlackettLuce

from bot.players import privacy
from bot.ai import LEVELS
from bot.words.i18n import _
from storage import repos

log = logging.getLogger(__name__)

MODEL = PlackettLuce()  # mu 25, sigma 25/3, beta 25/6, tau 25/300: the library's defaults

#: The rating people see: 1000 + 20 x (mu - 3 sigma). mu - 3 sigma is a rating the
#: player is about 99.9% sure to be above, so a newcomer (mu 25, sigma 25/3) shows
#: 1000 and climbs as the bot grows sure of them; 20 points are a twentieth of the
#: model's spread (beta), so one game moves a settled player by tens of points.
SHOWN_BASE = 1000
SHOWN_SCALE = 20
#: Rated games a player needs before /leaderboard lists them.
MIN_GAMES = 5
#: Stored result rows (a row per player per game) a finished game's commit may replay
#: when the ratings are stale: about 5,000 games, under two seconds.
INLINE_REPLAY_ROWS = 20_000


def shown(mu: float, sigma: float) -> int:
    return round(SHOWN_BASE + SHOWN_SCALE * (mu - 3 * sigma))


# ----------------------------------------------------------------- computer seats


@dataclass(frozen=True)
class GameRating:
    """How one game is rated. The two win rates are the computer tournaments'
    (README "Computer players"; bench/tournament.py, two players, win 1, draw 0.5)."""

    easy_vs_random: float
    hard_vs_easy: float
    #: Placement groups are teams (Engines' two sides) rather than players tied.
    teams: bool = False
    #: A table is one round of a session; the session's final standings are the rated game.
    per_session: bool = False


GAMES: dict[str, GameRating] = {
    "blackjack": GameRating(easy_vs_random=0.700, hard_vs_easy=0.588),
    "idiot": GameRating(easy_vs_random=0.949, hard_vs_easy=0.638),
    "engines": GameRating(easy_vs_random=0.996, hard_vs_easy=0.495, teams=True),
    "enid": GameRating(easy_vs_random=0.840, hard_vs_easy=0.610),
    # Onion: hard vs easy is the session score the players' docs quote (64.0% of ten-round
    # sessions, measured with Millard's duel, the default showdown); random was only
    # measured per round (easy won 57.6% of rounds against it), so random's mu is nearer
    # easy's than a session measure would put it. Lobbies seat only easy and hard.
    "onion": GameRating(easy_vs_random=0.576, hard_vs_easy=0.640, per_session=True),
}
DEFAULT = GameRating(easy_vs_random=0.75, hard_vs_easy=0.6)

#: The fixed ratings of computer seats, derived from their measured win rates.
#:
#: Plackett-Luce gives a two-player game P(A beats B) = 1 / (1 + exp(-(mu_A - mu_B) / c))
#: with c = sqrt(sigma_A^2 + sigma_B^2 + 2 beta^2). Between two fixed computers (sigma
#: COMPUTER_SIGMA) a measured win rate p therefore fixes the gap mu_A - mu_B = c * logit(p).
#: The anchor is easy = 25, the mu a newcomer starts at: a person is presumed as strong as
#: the easy computer until their games say otherwise. Then hard = 25 + c * logit(hard vs
#: easy) and random = 25 - c * logit(easy vs random). With beta = 25/6 and sigma 1,
#: c = 6.06; e.g. Idiot: hard 63.8% -> logit 0.567 -> mu 28.4; random: easy 94.9% ->
#: logit 2.92 -> mu 7.3. Engines' hard tied easy (49.5%), so they are rated alike.
#: sigma 1 (not 0): the win rates' 95% intervals are about +-3 points, a logit of
#: +-0.12, so the mu's are known to about a unit; and they were measured two-handed.
COMPUTER_SIGMA = 1.0
EASY_MU = MODEL.mu


def _gap(p: float) -> float:
    c = math.sqrt(2 * COMPUTER_SIGMA**2 + 2 * MODEL.beta**2)
    return c * math.log(p / (1 - p))


def computer_mu(game: str, level: str) -> float:
    facts = GAMES.get(game, DEFAULT)
    if level == "hard":
        return EASY_MU + _gap(facts.hard_vs_easy)
    if level == "random":
        return EASY_MU - _gap(facts.easy_vs_random)
    return EASY_MU


def is_computer(player: int) -> bool:
    return player in repos.COMPUTER_SEATS


#: Ids a forgotten person becomes in finished games' records (the privacy work of issue 25
#: reserves them in storage.repos; the same range until that lands here).
FORMER_PLAYERS: range = getattr(repos, "FORMER_PLAYERS", range(4_194_000, 1 << 22))


def is_person(player: int) -> bool:
    """Someone with a rating of their own: a Discord id, not a computer seat nor a former player."""
    return player > 0 and player not in FORMER_PLAYERS


def level_of(player: int) -> str:
    """A computer seat's level from its id (bot/core/computer.py: -(100 x (level index + 1) + n))."""
    index = (-player) // 100 - 1
    return LEVELS[index] if 0 <= index < len(LEVELS) else "easy"


# ----------------------------------------------------------------------- the model


@dataclass
class Rating:
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    played: int = 0
    won: int = 0

    @property
    def shown(self) -> int:
        return shown(self.mu, self.sigma)


def places(placements: Sequence[Sequence[int]]) -> list[tuple[int, int]]:
    """(user, place) as ``repos.record_results`` stores them (place = group index + 1)."""
    return [(user, place) for place, group in enumerate(placements, start=1) for user in group]


def groups(rows: Sequence[tuple[int, int]]) -> list[tuple[int, list[int]]]:
    """(place, users) best first: stored results read back as a ranking."""
    ordered = sorted(rows, key=lambda row: (row[1], row[0]))
    return [(place, [user for user, _ in members]) for place, members in groupby(ordered, key=lambda row: row[1])]


def rated_people(rows: Sequence[tuple[int, int]]) -> list[int]:
    return sorted({user for user, _ in rows if is_person(user)})


def rate(game: str, rows: Sequence[tuple[int, int]], current: Mapping[int, Rating]) -> dict[int, Rating] | None:
    """One rated game. ``rows``: (user, place) of everyone at it; ``current``: the
    people's ratings before it (absent: a newcomer). Returns the people's new ratings,
    or None when the game does not rate (fewer than two people). Computers' fixed
    ratings go in and their updates are thrown away."""
    # A former player (someone forgotten) was a person: the game still had two people.
    if sum(1 for user, _ in rows if not is_computer(user)) < 2 or not rated_people(rows):
        return None
    ranking = groups(rows)
    if len(ranking) < 2:
        # Everyone shares one place: a draw or a stalemate, a tie of all (for Engines a
        # draw stores both sides in one place, so its teams are not known; a tie of all
        # four is what a tie of two teams of equals is).
        teams = [[user] for _, users in ranking for user in users]
        ranks = [1] * len(teams)
    elif GAMES.get(game, DEFAULT).teams:
        teams = [users for _, users in ranking]
        ranks = [place for place, _ in ranking]
    else:
        teams = [[user] for _, users in ranking for user in users]
        ranks = [place for place, users in ranking for _ in users]

    def model_rating(user: int) -> Any:
        if is_computer(user):
            return MODEL.rating(mu=computer_mu(game, level_of(user)), sigma=COMPUTER_SIGMA)
        # A former player's id stands for a different forgotten person in each game: an
        # unknown opponent, rated as a newcomer, whose own update is thrown away.
        known = current.get(user) if is_person(user) else None
        known = known or Rating()
        return MODEL.rating(mu=known.mu, sigma=known.sigma)

    rated = MODEL.rate([[model_rating(u) for u in team] for team in teams], ranks=ranks)
    # A tie of all (a draw, a stalemate) is nobody's win.
    best = ranking[0][0] if len(ranking) > 1 else None
    place_of = dict(rows)
    out: dict[int, Rating] = {}
    for team, new in zip(teams, rated):
        for user, after in zip(team, new):
            if not is_person(user):
                continue
            before = current.get(user) or Rating()
            out[user] = Rating(after.mu, after.sigma, before.played + 1, before.won + (place_of[user] == best))
    return out


def moves_text(moves: Mapping[int, int]) -> str:
    """The finished board's line: how each person's shown rating moved."""
    if not moves:
        return ""
    parts = [f"<@{user}> {delta:+d}" for user, delta in sorted(moves.items(), key=lambda item: (-item[1], item[0]))]
    return _("📈 Ratings: {changes}.", changes=", ".join(parts))


# ---------------------------------------------------------------------- the service


def source_of(game: str) -> str:
    return "session_results" if GAMES.get(game, DEFAULT).per_session else "results"


async def record_game(db: repos.Connection, game: str, table_id: int, placements: Sequence[Sequence[int]], now: float) -> dict[int, int]:
    """After a finished table's results are stored (same transaction): rate it and
    return {person: shown rating change}. A game rated per session rates nothing here."""
    if GAMES.get(game, DEFAULT).per_session:
        return {}
    return await _rate_stored(db, game, table_id, places(placements), now)


async def record_session(db: repos.Connection, game: str, table_id: int, placements: Sequence[Sequence[int]], now: float) -> dict[int, int]:
    """A session's end: store its standings (keyed by its last round, ``table_id``) and rate them."""
    await repos.record_session_results(db, table_id, game, placements, now)
    return await _rate_stored(db, game, table_id, places(placements), now)


def model_version(game: str) -> str:
    """Everything a replay's numbers depend on: when it changes (a fix to the model, new
    computer ratings), a server's stored ratings are stale and are replayed."""
    facts = GAMES.get(game, DEFAULT)
    mus = ",".join(f"{computer_mu(game, level):.6f}" for level in LEVELS)
    return (f"{type(MODEL).__name__}:{MODEL.mu:.6f}:{MODEL.sigma:.6f}:{MODEL.beta:.6f}:{MODEL.tau:.6f}:{MODEL.kappa}"
            f"|computers:{mus}:{COMPUTER_SIGMA}|shown:{SHOWN_BASE}:{SHOWN_SCALE}|teams:{facts.teams}|sessions:{facts.per_session}")


def _version_key(game: str) -> str:
    return f"ratings_model:{game}"


async def is_current(db: repos.Connection, game: str) -> bool:
    """Whether ``game``'s stored ratings were made by this model (False: a server from
    before ratings, or a model changed since: :func:`recompute` brings them up to date)."""
    return await repos.get_guild_setting(db, _version_key(game)) == model_version(game)


async def needs_replay(db: repos.Connection, game: str) -> bool:
    """Whether ``game``'s ratings must be replayed before they are shown: they were made
    by another model (or before ratings), and there are results to rate. A server with
    no results of the game has nothing to replay (and a read writes nothing)."""
    return not await is_current(db, game) and await repos.count_results(db, game, source_of(game)) > 0


async def _rate_stored(db: repos.Connection, game: str, table_id: int, rows: list[tuple[int, int]], now: float) -> dict[int, int]:
    last = await repos.last_rated(db, game)
    if (last is not None and (now, table_id) <= last) or not await is_current(db, game):
        # Older than a game already rated (another process's clock ran ahead), or the
        # stored ratings come from another model (or none, on a server from before
        # ratings): replay them all rather than guess. A long history is not replayed
        # inside a game's last move (about 0.3 ms a game, bench/ratings.py): the ratings
        # stay stale and /leaderboard or /profile replays them, after deferring.
        if await repos.count_results(db, game, source_of(game)) > INLINE_REPLAY_ROWS:
            return {}
        await recompute(db, game)
        return await repos.rating_moves(db, game, table_id)
    people = rated_people(rows)
    stored = await repos.ratings_of(db, game, people)
    current = {u: Rating(r.mu, r.sigma, r.played, r.won) for u, r in stored.items()}
    try:
        new = rate(game, rows, current)
    except Exception:  # derived data must never cost a game its end; a recompute repairs it
        log.exception("Could not rate %s table %s; its result is stored, ratings are not updated", game, table_id)
        return {}
    if new is None:
        return {}
    history = []
    moves = {}
    for user, after in new.items():
        before = current.get(user) or Rating()
        moves[user] = after.shown - before.shown
        history.append((game, table_id, user, after.mu, after.sigma, after.shown, moves[user], now))
    await repos.save_ratings(db, game, [
        repos.RatingRow(user, r.mu, r.sigma, r.shown, r.played, r.won, now) for user, r in sorted(new.items())
    ])
    await repos.add_rating_history(db, history)
    return moves


def replay(game: str, feed: Sequence[tuple[int, float, int, int]]) -> tuple[dict[int, Rating], dict[int, float], list[tuple[Any, ...]]]:
    """Pure replay of stored results (``repos.rating_feed`` rows, in order): the final
    ratings, when each person was last rated, and the history rows."""
    ratings: dict[int, Rating] = {}
    updated: dict[int, float] = {}
    history: list[tuple[Any, ...]] = []
    for (table_id, finished_at), rows in groupby(feed, key=lambda row: (row[0], row[1])):
        game_rows = [(user, place) for _, _, user, place in rows]
        new = rate(game, game_rows, ratings)
        if new is None:
            continue
        for user, after in new.items():
            before = ratings.get(user) or Rating()
            history.append((game, table_id, user, after.mu, after.sigma, after.shown, after.shown - before.shown, finished_at))
            ratings[user] = after
            updated[user] = finished_at
    return ratings, updated, history


async def recompute(db: repos.Connection, game: str) -> int:
    """Rebuild ``game``'s ratings and history from its stored results, in the caller's
    transaction; returns the rated games. For a big server prefer :func:`recompute_guild`."""
    feed = await repos.rating_feed(db, game, source_of(game))
    # CPU work of seconds for a big server (bench/ratings.py): off the event loop.
    return await _write_replay(db, game, await asyncio.to_thread(replay, game, feed))


def _mark(feed: Sequence[tuple[int, float, int, int]]) -> tuple[int, int]:
    """What ``repos.results_mark`` says of the same rows."""
    return len(feed), sum(abs(user) % repos.MARK_MODULUS + place for _, _, user, place in feed)


async def recompute_guild(storage: Any, guild_id: int, game: str) -> int:
    """:func:`recompute` with its slow part (the replay: about 0.3 ms a game) between
    a read and a short write transaction, so a big server's games are not held up. If
    the results changed meanwhile (a game ended, a player was forgotten), the write
    transaction replays them again itself."""
    async with storage.reading(guild_id) as db:
        feed = await repos.rating_feed(db, game, source_of(game))
    result = await asyncio.to_thread(replay, game, feed)
    async with storage.transaction(guild_id) as db:
        if await repos.results_mark(db, game, source_of(game)) != _mark(feed):
            return await recompute(db, game)
        return await _write_replay(db, game, result)


async def _write_replay(db: repos.Connection, game: str, result: tuple[dict[int, Rating], dict[int, float], list[tuple[Any, ...]]]) -> int:
    ratings, updated, history = result
    await repos.clear_ratings(db, game)
    await repos.insert_many(db, "ratings", ("game", "user_id", "mu", "sigma", "shown", "played", "won", "updated_at"), [
        (game, user, r.mu, r.sigma, r.shown, r.played, r.won, updated[user]) for user, r in sorted(ratings.items())
    ])
    await repos.add_rating_history(db, history)
    await repos.set_guild_setting(db, _version_key(game), model_version(game))
    return len({row[1] for row in history})


# ------------------------------------------------------------------ /privacy


def _register_privacy() -> None:
    """What /privacy shows, exports and forgets of ratings (bot/players/privacy.py): the ratings and
    their history are the person's rows (forget deletes them; the privacy module's hook then
    replays every game they played, with a former player in their place); a session's
    standing becomes a former player's, as results do. Ratings are derived from results,
    so once a forgotten person's results are a former player's, every game they played is
    replayed in the forget's transaction (the ``after_forget`` hook) and nobody's rating
    keeps their ghost. The registry never imports this module: ratings register here."""

    privacy.register(privacy.rows_kind(
        "ratings", "ratings", "Your ratings",
        "Derived from your results: kept as long as they are, rebuilt from them when needed."))
    privacy.register(privacy.rows_kind(
        "rating_history", "rating_history", "Your rating after each rated game",
        "Derived from your results, for /profile's picture: kept as long as they are."))

    async def describe(db: repos.Connection, user_id: int, rules: Any) -> str | None:
        rows = await repos.session_results_of_user(db, user_id)
        if not rows:
            return None
        return (f"{len(rows)} session standing{'s' if len(rows) != 1 else ''} (an Onion session's final place, "
                "rated as one game). Kept while Deckhand is in the server, like results.")

    async def export(db: repos.Connection, user_id: int) -> list[dict[str, Any]]:
        return [{"last_round_table": r["table_id"], "game": r["game"], "place": r["place"], "players": r["players"],
                 "finished_at": privacy.when(r["finished_at"])} for r in await repos.session_results_of_user(db, user_id)]

    async def forget(db: repos.Connection, user_id: int, context: Any) -> None:
        for row in await repos.session_results_of_user(db, user_id):
            context.games.add(row["game"])
            await repos.reassign_session_user(db, row["table_id"], user_id, FORMER_PLAYERS)

    privacy.register(privacy.DataKind("session_results", "Your session standings", describe, export, forget))

    async def replay_forgotten_games(db: repos.Connection, games: set[str]) -> None:
        for game in sorted(games):
            await recompute(db, game)

    privacy.after_forget(replay_forgotten_games)


_register_privacy()
