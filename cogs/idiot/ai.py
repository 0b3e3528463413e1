"""Idiot's computer player (pure): the easy heuristic, determinization, evaluation.

easy, in order:
- swap phase: put its strongest cards face up for the end game (tens and twos count
  strongest, then aces down): it swaps its weakest face-up card for its strongest hand
  card while that is an improvement, then says ready;
- play: the lowest ordinary value it may play, every copy at once; a two or a ten
  only when no ordinary card will do (keeps them for when they matter): a ten when
  the pile is worth burning (four cards or more, or anything on it when the only
  other choice is a two), else a two; with neither, pick up the pile;
- face-down stage: turn the first face-down card.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.ai import GameAI, PlayerView
from bot.ai.deal import InconsistentObservation, unseen_cards
from bot.rules.cards import Card, Rank, standard_deck
from bot.rules.engine import Action
from cogs.idiot.rules import PHASE_PLAY, PHASE_SWAP, IdiotGame, card_value

#: hard's search (see bot/ai/search.py): playouts of this many moves (four each in
#: 2-player games), then ``evaluate``. Whole playouts (80 moves) are too few within a
#: budget to tell moves apart (hard tied easy, 50.6% in 1,000 games).
PLAYOUT_MOVES = 8
#: The search's move must look this much better than easy's (as well as two standard
#: errors). With the old hand-made evaluation, overriding on smaller differences than
#: 0.03 lost to easy (44% in 200 games with no margin); with the fitted one (see
#: evaluate) hard scored 58.0% [51.1-64.9] with 0.03 and 62.5% [55.8-69.2] with 0.01
#: (200 games each, 100 simulations a move).
MARGIN = 0.01

#: Worth of a card in the end game: tens and twos above aces.
_STRENGTH = {Rank.TEN: 16, Rank.TWO: 15}


def strength(card: Card) -> int:
    return _STRENGTH.get(card.rank, card_value(card.rank))


def _swap_choice(legal: Sequence[Action]) -> Action:
    swaps = [a for a in legal if a.kind == "swap"]
    ready = next(a for a in legal if a.kind == "ready")
    if not swaps:
        return ready
    best = max(swaps, key=lambda a: (strength(a.cards[1]) - strength(a.cards[0]), -strength(a.cards[0])))
    return best if strength(best.cards[1]) > strength(best.cards[0]) else ready


#: By ``Card._key`` (the search lists and plays many moves): Idiot value, and 2 for a
#: two, 10 for a ten, 0 for any other card.
_VALUE = [0] * 64
_SPECIAL = [0] * 64
for _card in standard_deck():
    _VALUE[_card._key] = card_value(_card.rank)
    _SPECIAL[_card._key] = card_value(_card.rank) if _card.rank in (Rank.TWO, Rank.TEN) else 0


def choose(phase: str, legal: Sequence[Action], pile_size: int) -> Action:
    """easy's choice from plain facts: shared by ``easy`` and ``playout``."""
    if phase == PHASE_SWAP:
        return _swap_choice(legal)
    first = legal[0]
    if first.kind == "blind":
        return first
    special = _SPECIAL
    value = _VALUE
    best = None
    low = 99
    tens = twos = None
    pickup = None
    for a in legal:
        kind = a.kind
        if kind == "play":
            key = a.cards[0]._key
            s = special[key]
            if s == 0:
                v = value[key]
                # The lowest value, and of that value the most cards (the first listed
                # on a tie, as max() picks).
                if v < low or (v == low and len(a.cards) > len(best.cards)):  # type: ignore[union-attr]
                    best, low = a, v
            elif s == 10:
                if tens is None:
                    tens = a
            elif twos is None:
                twos = a
        elif kind == "pickup":
            if pickup is None:
                pickup = a
        elif kind == "blind":
            return a
    if best is not None:
        return best
    if tens is not None and (pile_size >= 4 or twos is None) and pile_size > 0:
        return tens
    if twos is not None:
        return twos
    if tens is not None:
        return tens
    return pickup if pickup is not None else first


def easy(view: PlayerView, rng: random.Random) -> Action:
    return choose(view.observation["phase"], view.legal, view.observation["pile_size"])


def playout(game: IdiotGame, player: int) -> Action:
    """easy's move in a game the search imagined (no observation to build: fast)."""
    return choose(game.phase, game.legal_actions(player), len(game.pile))


# --------------------------------------------------------------------------- determinization


def determinize(observation: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> IdiotGame:
    """A game consistent with ``observation``: its own hand, every face-up card and the
    top of the pile as seen; the other hands, every face-down card (its own too: nobody
    has seen those), the draw pile, the pile below its shown top and the burned cards
    dealt at random with the right counts.

    The search asks for many deals of one observation: the first builds a template game
    (``from_dict``, parsing every card code); later ones clone it and deal the unseen
    cards into it, with the same shuffle, so they are the same deals, only faster. The
    template is found by the observation's identity: an observation is plain data that
    nobody changes once a view holds it."""
    last = _LAST_TEMPLATE[0]
    if last is not None and last[0] is observation:
        _, template, unseen, layout = last
    else:
        template, unseen, layout = _template(observation)
        # One entry, replaced whole (a tuple: safe with decisions in several threads);
        # it keeps ``observation`` alive, so ``is`` cannot match a different one.
        _LAST_TEMPLATE[0] = (observation, template, unseen, layout)
    cards = list(unseen)
    rng.shuffle(cards)  # as deal_unseen does: the same deal for the same rng
    game = template.clone()
    start = 0
    for kind, seat, count, extra in layout:
        dealt = cards[start : start + count]
        start += count
        if kind == "hand":
            game.hands[seat] = dealt
        elif kind == "down":
            slots = iter(dealt)
            game.face_down[seat] = [next(slots) if pos in extra else None for pos in (1, 2, 3)]
        elif kind == "draw":
            game.draw = dealt
        elif kind == "pile":
            game.pile = dealt + list(extra)
        else:
            game.burned = dealt
    return game


#: The last observation determinized: (observation, template game, unseen cards, layout).
_LAST_TEMPLATE: list[tuple[Any, IdiotGame, list[Card], list[tuple[str, Any, int, Any]]] | None] = [None]


def _template(observation: Mapping[str, Any]) -> tuple[IdiotGame, list[Card], list[tuple[str, Any, int, Any]]]:
    """A game with the observation's known cards in place (hidden places empty), the
    unseen cards, and where they go: (kind, seat, count, positions or pile top)."""
    obs = observation
    me = obs["viewer"]
    seats = obs["seats"]
    seen = [*obs.get("hand", []), *obs["pile_top"]]
    for seat in seats:
        seen.extend(seat["face_up"])
    unseen = unseen_cards(standard_deck(obs["decks"]), seen)
    places: list[tuple[Any, int]] = [(("hand", s["id"]), s["hand_count"]) for s in seats if s["id"] != me]
    places += [(("down", s["id"]), len(s["face_down"])) for s in seats]
    places += [
        ("draw", obs["draw_size"]),
        ("pile", obs["pile_size"] - len(obs["pile_top"])),
        ("burned", obs["burned_count"]),
    ]
    wanted = sum(count for _, count in places)
    if wanted != len(unseen):
        raise InconsistentObservation(f"{len(unseen)} unseen cards for {wanted} unseen places.")
    hands: dict[str, list[str]] = {str(s["id"]): [] for s in seats if s["id"] != me}
    if me is not None:
        hands[str(me)] = list(obs["hand"])
    current = obs["current"]
    data = {
        "players": obs["players"],
        "options": obs["options"],
        "seed": None,
        "decks": obs["decks"],
        "phase": obs["phase"],
        "hands": hands,
        "face_up": {str(s["id"]): list(s["face_up"]) for s in seats},
        "face_down": {str(s["id"]): [None, None, None] for s in seats},
        "draw": [],
        "pile": list(obs["pile_top"]),
        "burned": [],
        "ready": [s["id"] for s in seats if s["ready"]],
        "turn": current[0] if obs["phase"] == PHASE_PLAY and current else None,
        # Who deals and so who starts after the swap phase is not shown; the default
        # seating (the first seat starts) stands in.
        "dealer": obs["players"][-1],
        "first": obs["players"][0],
        "finished": [s["id"] for s in sorted(seats, key=lambda s: s["finished"] or 0) if s["finished"]],
        "removed": [s["id"] for s in seats if s["removed"]],
        "idle_turns": obs["idle_turns"],
        "stalemate": False,
    }
    template = IdiotGame.from_dict(data)
    top = list(template.pile)
    layout: list[tuple[str, Any, int, Any]] = []
    for (key, count) in places:
        if isinstance(key, tuple) and key[0] == "hand":
            layout.append(("hand", key[1], count, None))
        elif isinstance(key, tuple):
            seat = next(s for s in seats if s["id"] == key[1])
            layout.append(("down", key[1], count, frozenset(seat["face_down"])))
        else:
            layout.append((key, None, count, top if key == "pile" else None))
    return template, unseen, layout


# --------------------------------------------------------------------------- evaluation
#
# How well a player stands when a playout stops: a logistic model of the chance to beat
# each other player, fitted to who won easy-vs-easy games from the positions they went
# through (``python bench/fit_idiot_eval.py`` prints these weights; 2 players, 3,000
# games, 137,580 positions). The hand-made weights it replaced (cards left, low ones
# costing more) made the search tie easy (52.5% [45.6-59.4] in 200 games, 100
# simulations a move); these 58.0% [51.1-64.9] on the same games.

#: Card groups: low (three to six), middle (seven to nine, jack excluded), high (jack to
#: ace), and twos and tens, which go on anything.
_GROUP_AT = [0] * 64
for _card in standard_deck():
    _value = card_value(_card.rank)
    _GROUP_AT[_card._key] = 3 if _card.rank in (Rank.TWO, Rank.TEN) else 0 if _value <= 6 else 1 if _value <= 10 else 2

FEATURES = (
    "hand low", "hand middle", "hand high", "hand two/ten",
    "face-up low", "face-up middle", "face-up high", "face-up two/ten",
    "face-down", "hand size x draw pile / 10", "to move", "forced pickup: pile",
    "free move: pile", "card to beat / 14",
)  # fmt: skip
#: Weights of FEATURES (each is the player's count minus the other's; the last four
#: count for the player to move, against the other).
WEIGHTS = (
    -0.1561, -0.0897, -0.0026, -0.1661, -0.5717, -0.3178, -0.0595, -0.1021,
    -0.2914, 0.0591, 0.1661, -0.0227, 0.0086, -0.3342,
)  # fmt: skip


def _counts(game: IdiotGame, player: int) -> list[float]:
    counts = [0.0] * 9
    group = _GROUP_AT
    for card in game.hands[player]:
        counts[group[card._key]] += 1
    for card in game.face_up[player]:
        counts[4 + group[card._key]] += 1
    counts[8] = sum(1 for card in game.face_down[player] if card is not None)
    return counts


def features(game: IdiotGame, player: int, other: int) -> list[float]:
    """FEATURES of ``player`` against ``other`` in a game being played."""
    mine, theirs = _counts(game, player), _counts(game, other)
    x = [m - t for m, t in zip(mine, theirs)]
    x.append((len(game.hands[player]) - len(game.hands[other])) * len(game.draw) / 10)
    turn = game.turn
    mover = 1.0 if turn == player else -1.0 if turn == other else 0.0
    pile = len(game.pile)
    forced = 0.0
    if pile and turn is not None:
        legal = game.legal_actions(turn)
        forced = 1.0 if len(legal) == 1 and legal[0].kind == "pickup" else 0.0
    top = card_value(game.pile[-1].rank) / 14 if pile else 0.0
    x += [mover, mover * pile * forced, mover * pile * (1 - forced), mover * top]
    return x


def evaluate(game: IdiotGame, player: int) -> float:
    """The mean over the other players still in of the modelled chance to beat them;
    out of the game: 1 for a player who went out, 0 for one taken out."""
    active = game._active()
    if player not in active:
        return 1.0 if player in game.finished else 0.0
    others = [p for p in active if p != player]
    if not others:
        return 0.5
    total = 0.0
    for other in others:
        z = sum([w * x for w, x in zip(WEIGHTS, features(game, player, other))])
        total += 1.0 / (1.0 + math.exp(-z))
    return total / len(others)


AI = GameAI(
    IdiotGame, easy, determinize, evaluate, playout=playout, playout_moves=PLAYOUT_MOVES, margin=MARGIN
)
