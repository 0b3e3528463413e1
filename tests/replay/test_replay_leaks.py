"""No hidden card in any replay (issue 42): random games of every kind, with players
leaving and computers taking seats now and then, are played through the rules while
the test keeps, after every move, the spectator observation, every player's own
observation and the move's events; then the game's record and log are replayed
(``bot.replay.steps.build``) and every step is checked against the same moment:

- its observation is the spectator observation of that moment, and each of its moves
  holds exactly the public part of that move's events (nothing private is even kept);
- its picture's cards are cards that observation shows, and none is a card hidden at
  that moment (in a hand, face down: in a player's observation but not the spectator's);
- the board's words show no hidden card, and the lines of what happened name only
  cards that were public at that step (the observation before or after it, or the
  public part of its events).
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

import pytest
from hypothesis import example, HealthCheck, given, settings
from hypothesis import strategies as st

from bot.rules.cards import parse_card
from bot.core import computer
from bot.rules.engine import Action, Event, RuleError
from bot.replay.steps import build, public
from cogs import catalog
from cogs.onion import scoring
from bot.words.render_util import suit_text, unbroken
from storage.repos import TableRecord
from tests.cardcodes import ANY_DECK_CODE, card_codes_in

PEOPLE = [301_234_567_890_123_411 + i for i in range(6)]
KINDS = [
    ("blackjack", st.integers(2, 5), {}),
    ("idiot", st.integers(2, 5), {}),
    ("engines", st.sampled_from([2, 4]), {}),
    ("onion", st.integers(2, 5), {}),
    ("enid", st.integers(2, 4), {"mode": "enid"}),
    ("enid", st.integers(2, 4), {"mode": "plain"}),
]
MAX_MOVES = 2500


def codes_in(value: Any) -> set[str]:
    """Card codes anywhere in a JSON-like value (a trailing * of a marked copy dropped)."""
    return {code.rstrip("*") for code in card_codes_in(value, ANY_DECK_CODE)}


@lru_cache(maxsize=None)
def _displays(onion: bool) -> tuple[dict[str, str], re.Pattern[str]]:
    """{how a card reads in text: its code} of a game's deck, and a pattern finding them."""
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]
    suits = "cdhswtuo" if onion else "cdhs"
    reads = {}
    for rank in ranks:
        for suit in suits:
            code = rank + suit
            card = scoring.parse_card(code) if onion else parse_card(code)
            shown = card.display().replace("\ufe0f", "")
            # As boards' text prints it too (bot.render_util.card_text / unbroken): a
            # white suit sign, a word joiner between rank and suit.
            for form in (shown, unbroken(shown), unbroken(suit_text(shown))):
                reads[form] = code
    pattern = re.compile("(?<![0-9A-Za-z])(" + "|".join(re.escape(r) for r in sorted(reads, key=len, reverse=True)) + ")")
    return reads, pattern


def cards_named(text: str, onion: bool) -> set[str]:
    reads, pattern = _displays(onion)
    return {reads[m] for m in pattern.findall(text.replace("\ufe0f", ""))}


class Moment:
    """What was true just after one move (or the deal)."""

    def __init__(self, state: Any, events: Iterable[Event] = ()) -> None:
        self.spectator = copy.deepcopy(state.observation(None))  # a later move may change the engine's own lists
        shown = codes_in(self.spectator)
        self.hidden = set().union(*(codes_in(state.observation(p)) for p in state.players)) - shown
        self.shown = shown
        # As a spectator saw each event then (an engine may change an event's list later).
        self.events = [(e.kind, e.player, copy.deepcopy(dict(e.visible_to(None))), False) for e in events]


def play(key: str, seats: int, options: dict[str, Any], seed: int, rng: random.Random):
    spec = catalog.spec(key)
    players = PEOPLE[:seats]
    chosen = {rule.key: rule.default for rule in spec.house_rules}
    chosen.update(options)
    if key == "engines":
        chosen["players"] = seats
    if spec.prepare_options is not None:
        chosen = spec.prepare_options(players, {}, chosen, str(seed))
    state = spec.game.new(players, copy.deepcopy(chosen), seed=str(seed))
    log: list[tuple[int, str, str]] = []
    moments = [Moment(state)]
    can_replace = spec.game.can_replace()
    for _ in range(MAX_MOVES):
        if state.is_over():
            break
        seated = [p for p in state.players if p not in getattr(state, "left", ()) and p in computer.seated(state)]
        roll = rng.random()
        if roll < 0.004 and len(seated) > 2:
            leaver = rng.choice(seated)
            events, code = state.remove_player(leaver), "leave"
        elif roll < 0.008 and can_replace and seated:
            leaver = rng.choice(seated)
            seat = computer.new_seat(state.players, "easy")
            try:
                events, code = state.replace_player(leaver, seat), Action("replace", arg=str(seat)).code()
            except RuleError:
                continue
        else:
            leaver, action = move_of(state, key, rng)
            try:
                events, code = state.apply(leaver, action), action.code()
            except RuleError:
                continue
        log.append((leaver, code, "player"))
        moments.append(Moment(state, events))
    record = TableRecord(
        id=1, game=key, channel_id=1, host_id=players[0], status="finished", players=players, seat_choices={},
        options=chosen, seed=str(seed), state=state.to_json(), version=len(log), timer_seconds=60, deadline=None,
        obligations={}, strikes={}, recent=[], lobby_message_id=None, message_id=None, message_posted_at=None,
        turn_players=[], created_at=0.0, updated_at=0.0,
    )
    return spec, record, log, moments, state.is_over()


def move_of(state: Any, key: str, rng: random.Random) -> tuple[int, Action]:
    if key == "enid":
        return state.random_move(rng, right=0.7, wrong=0.2)
    current = sorted(state.current_players())
    player = rng.choice(current or [p for p in state.players if state.legal_actions(p)])
    legal = state.legal_actions(player)
    if key == "onion" and rng.random() < 0.9:  # fold less than at random, so rounds reach the showdown
        legal = [a for a in legal if a.kind != "fold"] or legal
    return player, rng.choice(legal)


def embed_text(embed: Any) -> str:
    parts = [embed.title or "", embed.description or "", *(f"{f.name}\n{f.value}" for f in embed.fields)]
    if embed.footer:
        parts.append(embed.footer)
    return "\n".join(parts)


@st.composite
def games(draw):
    key, seats, options = draw(st.sampled_from(KINDS))
    return key, draw(seats), options, draw(st.integers(0, 10**9))


def check_replay(key: str, seats: int, options: dict[str, Any], seed: int) -> tuple[int, int]:
    """Replay one random game and check every step (see the module's docstring); the
    number of cards the lines named and the pictures drew, to show it looked at some."""
    spec, record, log, moments, over = play(key, seats, options, seed, random.Random(seed))
    if not over:
        return 0, 0  # a game cut at MAX_MOVES is no finished game: nothing to replay
    replay = build(spec, record, log)
    onion = key == "onion"
    names = replay.names()
    plain = {p: f"Player {i}" for i, p in enumerate(replay.players, 1)}
    seen_named = seen_drawn = 0
    assert [m.number for s in replay.steps for m in s.moves] == list(range(1, len(log) + 1))
    for step in replay.steps:
        moment = moments[step.last_move]
        assert step.observation == moment.spectator
        public_cards = set(moment.shown) | moments[max(0, step.first_move - 1)].shown
        for move in step.moves:
            original = moments[move.number].events
            assert [(e.kind, e.player, dict(e.data), e.private) for e in move.events] == original
            public_cards |= codes_in([dict(e.data) for e in move.events])
        if step.index == 0:
            public_cards |= codes_in([dict(e.data) for e in replay.opening])
        drawn = {code.rstrip("*") for row in replay.rows(step, plain) for code in row.cards}
        assert drawn <= moment.shown, (step.index, drawn - moment.shown)
        assert not drawn & moment.hidden
        board = embed_text(replay.board(step, names))  # (its log field is the lines, checked below)
        assert not cards_named(board, onion) & moment.hidden, step.index
        lines = replay.lines(step, names)
        named = cards_named("\n".join(lines), onion)
        assert named <= public_cards, (step.index, named - public_cards, lines)
        seen_named += len(named)
        seen_drawn += len(drawn)
    ending = replay.ending(replay.last)
    if ending:
        assert not cards_named(ending, onion) & moments[-1].hidden
    return seen_named, seen_drawn


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
# An Onion showdown whose board once explained "=0" on an invented 8🪄, a card hidden then.
@example(("onion", 3, {}, 542342036))
def test_no_replay_step_shows_a_hidden_card(game):
    check_replay(*game)


@pytest.mark.parametrize("key, seats, options", [(k, n, o) for k, _, o in KINDS for n in (2, 4)])
def test_the_check_reads_the_cards_of_every_kind_of_game(key, seats, options):
    """The checks above are not vacuous: the lines name cards and the pictures draw
    them (Enid has no pictures)."""
    named, drawn = check_replay(key, seats, options, 3)
    assert named > 0 and (drawn > 0 or key == "enid")


def test_public_copies_keep_nothing_private():
    secret = Event("draw", 5, {"cards": ["As", "Kd"]}, private=True, public_data={"count": 2})
    said = Event("play", 5, {"cards": ["7h"]})
    copies = public([secret, said])
    assert [(e.kind, e.player, dict(e.data), e.private) for e in copies] == [
        ("draw", 5, {"count": 2}, False), ("play", 5, {"cards": ["7h"]}, False)]
    assert json.dumps([dict(e.public_data) for e in copies]) == "[{}, {}]"
