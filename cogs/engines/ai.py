"""Engines of Discrimination's computer player (pure): easy, determinization, evaluation.

easy, in order:
- a pick: the card closest to the Search Request (the lower value among equals, which
  keeps the middle values, the ones close to most requests). With nothing that can
  answer (an image request it cannot match) it shows its least useful card: an image
  that is not the request, else the value furthest from the middle (an ace or a 10).
  Picks that do not win go back to the hand, so that costs nothing.
- the IPO (Google, at the start of its turn): saved for a good moment, when its best
  card is poor (nothing within 2 of a number request, no match for an image) and the
  deck still has cards to float;
- Yahoo's tie-breaker: always shown when it has one;
- the 4-player refill: from the team's deck while it has cards, else from the partner.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.ai import GameAI, PlayerView
from bot.ai.deal import deal_unseen, unseen_cards
from bot.rules.cards import Card, parse_card, standard_deck
from bot.rules.engine import Action
from cogs.engines.rules import (
    CHOOSE,
    DISTANCE_FROM,
    OVER,
    GOOGLE,
    REFILL,
    SEARCH,
    SIDES,
    TIEBREAK,
    YAHOO,
    EnginesGame,
    _sorted,
    card_value,
    distance,
)

#: The IPO waits until the best pick is at least this far from a number request.
IPO_WHEN_GAP = 3


def _closeness(request: Card):
    def key(card: Card) -> tuple[int, int, int]:
        gap = distance(request, card)
        if gap is not None:
            return (0, gap, int(card.rank))
        value = card_value(card)
        # Cannot answer: prefer showing an image, then a value far from the middle.
        return (1, 0 if value is None else 1, -abs(2 * (value or 0) - 11))

    return key


def choose(phase: str, legal: Sequence[Action], request: Card | None, deck_left: bool) -> Action:
    """easy's choice from plain facts: shared by ``easy`` and ``playout``."""
    if phase == TIEBREAK:
        return next((a for a in legal if a.kind == "tiebreak"), legal[-1])
    if phase == REFILL:
        return next(a for a in legal if a.arg == ("deck" if deck_left else "partner"))
    plays = [a for a in legal if a.kind == "play"]
    if request is None or not plays:
        return legal[0]
    key = _closeness(request)
    best = min(plays, key=lambda a: key(a.cards[0]))
    ipo = next((a for a in legal if a.kind == "ipo"), None)
    if ipo is not None:
        gap = distance(request, best.cards[0])
        poor = gap is None or (not request.rank.is_picture and gap >= IPO_WHEN_GAP) or (request.rank.is_picture and gap != 0)
        if poor:
            return ipo
    return best


def easy(view: PlayerView, rng: random.Random) -> Action:
    obs = view.observation
    request = parse_card(obs["request"]) if obs.get("request") else None
    side = obs["side"]
    return choose(obs["phase"], view.legal, request, bool(side and obs["decks"][side] > 0))


def playout(game: EnginesGame, player: int) -> Action:
    """easy's move in a game the search imagined (no observation to build: fast)."""
    return choose(game.phase, game.legal_actions(player), game.request, bool(game.decks[game.side_of[player]]))


# --------------------------------------------------------------------------- determinization


def _tiebreak_best(obs: Mapping[str, Any]) -> dict[str, int]:
    """The closest revealed pick of each side ("first played" among equals): what
    the engine keeps in ``tiebreak["best"]`` while Yahoo decides."""
    request = parse_card(obs["request"])
    side_of = {p: side for side in SIDES for p in obs["teams"][side]}
    best: dict[str, tuple[int, int]] = {}
    for play in obs["reveal"]["plays"]:
        gap = distance(request, parse_card(play["card"]))
        side = side_of[play["player"]]
        if gap is not None and (side not in best or gap < best[side][0]):
            best[side] = (gap, play["player"])
    return {side: best[side][1] for side in SIDES}


def _last_reveal(obs: Mapping[str, Any]) -> tuple[dict[int, str], dict[str, list[str]]]:
    """What the previous search's reveal still tells, in the choose phase of 2 players
    (with 4, a blind refill from a partner may have moved a returned card): the cards
    that went back to hands, by player, and the winning card put aside, by side."""
    reveal = obs.get("reveal")
    if obs["phase"] != CHOOSE or obs["players"] != 2 or not reveal or not reveal.get("outcome"):
        return {}, {}
    outcome = reveal["outcome"]
    won = outcome.get("winners", []) if outcome.get("kind") == "won" else []
    winners = {w["player"] for w in won}
    held = {play["player"]: play["card"] for play in reveal["plays"] if play["player"] not in winners}
    aside: dict[str, list[str]] = {}
    for w in won:
        aside.setdefault(w["side"], []).append(w["card"])
    return held, aside


def determinize(observation: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> EnginesGame:
    """A game consistent with ``observation``. Each side's deck is one standard deck
    split among its draw deck, its players' hands, their hidden picks and its put-aside
    pile; the search deck among the request, the search deck and its discard. What the
    seat saw (its hand and pick, a revealed pick still on the table, the request) stays;
    a secret pick someone else already made is imagined as the closest card of their
    imagined hand (the search's model of how people pick);
    so does what the last reveal showed (2 players): a card put aside stays in that
    pile, and a card that went back is still in its owner's hand while they have not
    picked again. The rest is dealt at random with the right counts."""
    obs = observation
    me = obs["viewer"]
    phase = obs["phase"]
    revealed = {}
    if phase == TIEBREAK and obs.get("reveal"):
        revealed = {play["player"]: play["card"] for play in obs["reveal"]["plays"]}
    known_held, known_aside = _last_reveal(obs)
    hands: dict[str, list[str]] = {}
    choices: list[list[Any]] = []
    decks: dict[str, list[str]] = {}
    put_aside: dict[str, list[str]] = {}
    for side in SIDES:
        seats = [s for s in obs["seats"] if s["side"] == side]
        aside_seen = known_aside.get(side, [])
        seen: list[str] = list(aside_seen)
        places: list[tuple[Any, int]] = [("deck", obs["decks"][side]), ("aside", obs["scores"][side] - len(aside_seen))]
        for seat in seats:
            p = seat["player"]
            if p == me:
                seen.extend(obs["hand"])
            elif p in known_held and not seat["chosen"]:
                seen.append(known_held[p])
                places.append((("hand", p), seat["hand_size"] - 1))
            else:
                places.append((("hand", p), seat["hand_size"]))
            if p in revealed:
                seen.append(revealed[p])
            elif phase == CHOOSE and seat["chosen"]:
                if p == me:
                    seen.append(obs["my_choice"])
                else:
                    places.append((("pick", p), 1))
        dealt = deal_unseen(unseen_cards(standard_deck(), seen), places, rng)
        decks[side] = [str(c) for c in dealt["deck"]]
        put_aside[side] = [str(c) for c in dealt["aside"]] + aside_seen
        for seat in seats:
            p = seat["player"]
            if p == me:
                hands[str(p)] = list(obs["hand"])
            else:
                held = dealt[("hand", p)]
                if p in known_held and not seat["chosen"]:
                    held = [*held, parse_card(known_held[p])]
                if p not in revealed and phase == CHOOSE and seat["chosen"]:
                    # Opponent model: a secret pick already made is taken to be the
                    # closest card of the imagined hand (as easy would pick), not any card.
                    held = [*held, *dealt[("pick", p)]]
                    pick = min(held, key=_closeness(parse_card(obs["request"])))
                    held.remove(pick)
                    choices.append([p, str(pick)])
                hands[str(p)] = [str(c) for c in _sorted(held)]  # hands are kept sorted
            if p in revealed:
                choices.append([p, revealed[p]])
            elif phase == CHOOSE and seat["chosen"] and p == me:
                choices.append([p, obs["my_choice"]])
    request = obs["request"]
    search = deal_unseen(
        unseen_cards(standard_deck(), [request] if request else []),
        [("deck", obs["decks"][SEARCH]), ("discard", obs["search_discard"])],
        rng,
    )
    decks[SEARCH] = [str(c) for c in search["deck"]]
    four = obs["players"] == 4
    ipos_left = obs["ipos_left"]
    # Only how many IPOs are left is shown; for 4 players the used ones are a guess
    # that gives the same count left now.
    ipos_set = 0 if ipos_left > 0 else 1
    ipos_game = (0 if ipos_left > 0 else 1) if four else 1 - ipos_left
    tiebreak = None
    if phase == TIEBREAK:
        tiebreak = {"distance": obs["tiebreak"]["distance"], "best": _tiebreak_best(obs), "pending": list(obs["tiebreak"]["players"])}
    winners: list[int] = []
    if phase == REFILL and obs.get("reveal") and obs["reveal"].get("outcome"):
        winners = [w["player"] for w in obs["reveal"]["outcome"].get("winners", [])]
    data = {
        "players": [p for side in SIDES for p in obs["teams"][side]],
        "seed": rng.randrange(1 << 30),
        "tiebreak_mode": obs["yahoo_tiebreak"],
        "teams": obs["teams"],
        "hands": hands,
        "choices": choices,
        "decks": decks,
        "put_aside": put_aside,
        "search_discard": [str(c) for c in search["discard"]],
        "request": request,
        "phase": phase,
        "turn": obs["turn"],
        "last_winner": obs["last_winner"],
        "set_number": obs["set_number"],
        "set_wins": obs["set_wins"],
        "set_results": [],
        "ipos_this_set": ipos_set,
        "ipos_this_game": ipos_game,
        "search_count": obs["search_number"],
        "reshuffles": 0,
        "unanswered": 0,
        "reveal": obs["reveal"],
        "tiebreak": tiebreak,
        "refill_pending": obs["refill_pending"],
        "search_winners": winners,
        "result": obs["result"],
        "cut": obs["cut"],
    }
    return EnginesGame.from_dict(data)


#: What holding the better hands for the next search is worth, in points: a hand
#: that wins the next search for certain is worth this much more than one that loses it.
HAND_WEIGHT = 1.0
#: Points lead that makes a position worth 0.73 (logistic scale).
SCALE = 3.0


def next_search_edge(game: EnginesGame, side: str) -> float:
    """P(``side`` wins the next search) - P(it loses), in [-1, 1], over the request
    cards left in the search deck (in any order), if every player shows their
    closest card: the worth of the hands the sides hold now."""
    requests = game.decks[SEARCH]
    if not requests:
        return 0.0
    other = YAHOO if side == GOOGLE else GOOGLE
    mine = [c._key for p in game.teams[side] for c in game.hands[p]]
    theirs = [c._key for p in game.teams[other] for c in game.hands[p]]
    last = game.last_winner
    tie = 1 if last == side else (-1 if last == other else 0)
    by_rank: dict[int, int] = {}
    total = 0
    for request in requests:
        rank = request._key >> 2  # distances depend on the request's rank only
        edge = by_rank.get(rank)
        if edge is None:
            row = DISTANCE_FROM[request._key]
            gaps = [row[k] for k in mine]
            a = min([g for g in gaps if g is not None], default=None)
            gaps = [row[k] for k in theirs]
            b = min([g for g in gaps if g is not None], default=None)
            if a is None:
                edge = 0 if b is None else -1
            elif b is None or a < b:
                edge = 1
            else:
                edge = -1 if b < a else tie
            by_rank[rank] = edge
        total += edge
    return total / len(requests)


def evaluate(game: EnginesGame, player: int) -> float:
    """Cards put aside and sets won (worth a whole set's lead) against the other side,
    plus the worth of the hands for the next search (``next_search_edge``)."""
    side = game.side_of.get(player)
    if side is None:
        return 0.0
    other = YAHOO if side == GOOGLE else GOOGLE

    def points(s: str) -> float:
        return len(game.put_aside[s]) + 15 * game.set_wins[s]

    lead = points(side) - points(other) + HAND_WEIGHT * next_search_edge(game, side)
    return 1.0 / (1.0 + math.exp(-lead / SCALE))


def quiet(game: EnginesGame) -> bool:
    """A search is settled and the next request not yet answered by anyone."""
    return game.phase == OVER or (game.phase == CHOOSE and not game.choices)


# One move (the rest of the search's picks, then on to quiet): the search compares
# picks by who wins this search and the hands it leaves (evaluate), not by whole
# playouts, whose noise drowns the difference between two winning picks.
AI = GameAI(EnginesGame, easy, determinize, evaluate, playout=playout, playout_moves=1, quiet=quiet, margin=0.005)
