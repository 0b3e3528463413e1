"""Engines of Discrimination: Google vs. Yahoo, for 2 players or 4 (two teams of two).

Pure rules: no Discord, asyncio, sqlite or clock. The player-facing text, with every
interpretation, is ``docs/rules/engines.md``; the short version:

- Three decks: Google's player deck, Yahoo's player deck, the search deck. Google
  holds 5 cards, Yahoo 4. A 2..10 is worth its face value, an ace 1; J, Q and K have
  no value (they are "images"); suits never matter.
- Each turn a Search Request is turned, every player picks one card in secret
  (a simultaneous phase), and the picks are revealed together. The closest card
  wins and is put aside (one point a card); the other picks go back to hands.

Flow of one search (``phase``)::

    choose ──(last pick)──> reveal ──> [tiebreak] ──> [refill (4p)] ──> next request
                                  └─ first-search tie: cards back, new request, same turn

Actions: ``play:<card>`` (pick), ``ipo`` (Google), ``tiebreak:<card>`` / ``decline``
(Yahoo, house rule "ask"), ``refill::deck`` / ``refill::partner`` (4p search winner).

Zones (every card is always in exactly one): ``decks[google|yahoo|search]`` (top is
index 0), ``hands``, ``choices`` (picked, not yet revealed), ``put_aside[side]``,
``request``, ``search_discard``. Each side's cards only ever move between its own
deck, its players' hands/picks and its put-aside pile, so each side always holds
exactly one standard deck, and the search zones hold the third.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from operator import attrgetter
from typing import Any, Self

from bot.rules.cards import Card, insort_by_key, remove_one, seeded_rng, shuffled, standard_deck
from bot.rules.engine import (
    Action,
    Event,
    Game,
    HouseRule,
    RuleError,
    cards_to_codes,
    changes_state,
    codes_to_cards,
    new_event,
)
from bot.words.i18n import N_, _, ngettext

GOOGLE = "google"
YAHOO = "yahoo"
SIDES = (GOOGLE, YAHOO)
SEARCH = "search"
SIDE_TITLE = {GOOGLE: "Google", YAHOO: "Yahoo"}

#: Usual hand size; after an IPO Google holds more and simply stops drawing.
HAND_SIZE = {GOOGLE: 5, YAHOO: 4}
IPO_CARDS = 4
IPOS_PER_GAME_TWO_PLAYERS = 1
IPOS_PER_SET_FOUR_PLAYERS = 1
IPOS_PER_GAME_FOUR_PLAYERS = 3
SETS_TO_WIN = 2
#: Bot rule (4 players only, where the search deck is reshuffled forever): this many
#: Search Requests in a row with no card put aside end the set on the current score.
STALEMATE_SEARCHES = 52

CHOOSE = "choose"
TIEBREAK = "tiebreak"
REFILL = "refill"
OVER = "over"

TIEBREAK_ASK = "ask"
TIEBREAK_AUTO = "auto"

HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule(
        key="yahoo_tiebreak",
        description=N_("How Yahoo's special is used: Yahoo wins a tie by showing a card one point further from the request."),
        choices=(TIEBREAK_ASK, TIEBREAK_AUTO),
        default=TIEBREAK_ASK,
        choice_descriptions=(
            N_("Yahoo's tie-breaker: the Yahoo player chooses whether to show the card."),
            N_("Yahoo's tie-breaker: the bot shows the card for Yahoo whenever it can."),
        ),
    ),
)


#: No side chosen yet: the player fills a free place at random at Start.
EITHER = "either"
#: Lobby seat choices for the platform's GameSpec: one "Join <label>" button each.
#: "Either side" comes first because the platform gives the first choice to the
#: table's opener and to /join: nobody is put on a side they did not pick.
#: The labels are shown through ``_()`` by the lobby; the sides' names stay English.
SEAT_CHOICES: tuple[tuple[str, str], ...] = ((EITHER, N_("either side")), (GOOGLE, "Google"), (YAHOO, "Yahoo"))
TABLE_SIZES = (2, 4)
DEFAULT_TABLE_SIZE = 2


def teams_from_seat_choices(
    players: list[int], choices: dict[int, str], options: dict[str, Any], seed: str
) -> dict[str, Any]:
    """``GameSpec.prepare_options``: turn lobby side choices into the ``teams`` option.

    Players who chose no side fill the gaps in a seeded random order. Raises a
    RuleError a player can read when a side is over-full.
    """
    options = dict(options)
    if len(players) not in (2, 4) or not any(choices.get(p) in SIDES for p in players):
        return options  # check_player_count speaks for bad counts; no choice: random sides
    per_side = len(players) // 2
    teams = {side: [p for p in players if choices.get(p) == side] for side in SIDES}
    for side in SIDES:
        if len(teams[side]) > per_side:
            other = SIDE_TITLE[YAHOO if side == GOOGLE else GOOGLE]
            raise RuleError(
                _(
                    "{side} has {n} players but this table needs {per_side} a side: someone should switch to {other}.",
                    side=SIDE_TITLE[side], n=len(teams[side]), per_side=per_side, other=other,
                )
            )
    free = [p for p in players if choices.get(p) not in SIDES]
    seeded_rng(seed, "lobby-sides").shuffle(free)
    for side in SIDES:
        while len(teams[side]) < per_side:
            teams[side].append(free.pop())
    options["teams"] = teams
    return options


def prepare_table_options(
    players: list[int], choices: dict[int, str], options: dict[str, Any], seed: str
) -> dict[str, Any]:
    """``GameSpec.prepare_options`` at Start: the table was opened for ``options["players"]``
    (2 or 4) and must have exactly that many; then side choices become ``teams``."""
    wanted = options.get("players")
    if wanted in TABLE_SIZES and len(players) != wanted:
        if len(players) > wanted:
            extra = len(players) - wanted
            fix = ngettext("{n} player should press Leave", "{n} players should press Leave", extra)
        else:
            missing = wanted - len(players)
            fix = ngettext("wait for {n} more player to join", "wait for {n} more players to join", missing)
        other = 4 if wanted == 2 else 2
        raise RuleError(
            ngettext(
                "This table was opened for {wanted} players and {n} has joined: {fix}, "
                "or cancel it and open a {other}-player table with `/engines new players:{other}`.",
                "This table was opened for {wanted} players and {n} have joined: {fix}, "
                "or cancel it and open a {other}-player table with `/engines new players:{other}`.",
                len(players), wanted=wanted, fix=fix, other=other,
            )
        )
    return teams_from_seat_choices(players, choices, options, seed)


# --------------------------------------------------------------------------- card values


def card_value(card: Card) -> int | None:
    """Search value: ace 1, 2..10 face value, J/Q/K none (they are images)."""
    return None if card.rank.is_picture else int(card.rank)


def distance(request: Card, card: Card) -> int | None:
    """How far ``card`` is from ``request``; None when it cannot answer it at all.

    A face-card request is answered only by the same face (distance 0). A face card
    has no value, so it never answers a number request.
    """
    if request.rank.is_picture:
        return 0 if card.rank == request.rank else None
    value = card_value(card)
    return None if value is None else abs(value - int(request.rank))


def values_at(request: Card, gap: int) -> list[int]:
    """The card values exactly ``gap`` away from a number request (either side)."""
    target = int(request.rank)
    return sorted({v for v in (target - gap, target + gap) if 1 <= v <= 10})


def card_sort_key(card: Card) -> tuple[int, str]:
    # Explicit (rank, suit letter) key: stable whatever order Suit itself defines.
    return (int(card.rank), card.suit.value)


# ``Card._key`` (rank * 4 + suit letter order c, d, h, s) orders cards exactly like
# card_sort_key, and reading it costs no Python-level call: the hot paths use it.
_KEY = attrgetter("_key")
_CODE_AT = {card._key: str(card) for card in standard_deck()}
#: One shared pick action per card, so listing legal actions builds no new objects.
_PICK_AT = {card._key: Action("play", (card,)) for card in standard_deck()}
_IPO = Action("ipo")
#: distance(request, card) by the two cards' keys: DISTANCE_FROM[request._key][card._key].
DISTANCE_FROM: list[list[int | None]] = [[None] * 64 for _ in range(64)]
for _request in standard_deck():
    for _card in standard_deck():
        DISTANCE_FROM[_request._key][_card._key] = distance(_request, _card)
_DECLINE = Action("decline")
_REFILL_ACTIONS = (Action("refill", arg="deck"), Action("refill", arg="partner"))
_REFILL_LIST = list(_REFILL_ACTIONS)  # shared by _list_legal: never changed


def _sorted(cards: Sequence[Card]) -> list[Card]:
    # Every hand is kept in this order (legal_actions relies on it): made with it,
    # and changed only by removals and sorted insertions.
    return sorted(cards, key=_KEY)  # == sorted(cards, key=card_sort_key), stable alike


def _unique_sorted(cards: Sequence[Card]) -> list[Card]:
    # Equal cards share a key; the first of equals is kept, as set() would keep it.
    return [card for _, card in sorted({c._key: c for c in reversed(cards)}.items())]


def _label(values: Sequence[int]) -> str:
    names = [_("an ace") if v == 1 else (_("an {rank}", rank=v) if v == 8 else _("a {rank}", rank=v)) for v in values]
    # Translators: between the choices of a short list ("an ace or a 9").
    return _(" or ").join(names)


# --------------------------------------------------------------------------- the game


class EnginesGame(Game):
    key = "engines"
    title = "Engines of Discrimination"
    min_players = 2
    max_players = 4

    # The seating (set only by _seat_players) lives in slots, the rest of the state in
    # the instance dict. CPython 3.11 keeps instance attributes in its fast shared-key
    # layout only up to 29 names; an Engines game has more, and past that every
    # ``self.method()`` on the hot paths is an unspecialised lookup (about a tenth of
    # a random playout). tests/ai/test_fast_paths.py checks the count.
    __slots__ = ("teams", "seats", "side_of", "_order_from")
    _SEATING = __slots__

    # -- construction ----------------------------------------------------------

    @classmethod
    def check_player_count(cls, players: Sequence[int]) -> None:
        super().check_player_count(players)
        if len(players) == 3:
            raise RuleError(
                _(
                    "Engines of Discrimination is played by 2 players (Google against Yahoo) or 4 "
                    "(two teams of two); it cannot be played by 3. One player should press Leave, "
                    "or, at a table opened for 4, one more should join."
                )
            )

    @classmethod
    def new(
        cls,
        players: Sequence[int],
        options: Mapping[str, Any] | None = None,
        *,
        seed: int | str | None = None,
        deal: Mapping[str, Any] | None = None,
    ) -> Self:
        """A fresh game.

        ``options``: ``teams`` = {"google": [ids], "yahoo": [ids]} (1+1 or 2+2;
        random sides when absent), ``yahoo_tiebreak`` = "ask" | "auto".

        ``deal`` (stacked, for tests) = {"hands": {id: [codes]}, "decks": {"google":
        [codes, top first], "yahoo": [...], "search": [...]}, optional "teams", "first"
        (who holds the first turn; default the first Yahoo seat), "last_winner" (a
        side), "seed" (for later reshuffles and blind draws)}.
        """
        cls.check_player_count(players)
        if (seed is None) == (deal is None):
            raise ValueError(_("Give exactly one of seed or deal."))
        options = dict(options or {})
        game = cls.__new__(cls)
        game.players = list(players)
        game.seed = seed if seed is not None else (deal or {}).get("seed", "stacked")
        mode = options.get("yahoo_tiebreak", TIEBREAK_ASK)
        if mode not in (TIEBREAK_ASK, TIEBREAK_AUTO):
            raise RuleError(_("yahoo_tiebreak must be 'ask' or 'auto', not '{mode}'.", mode=mode))
        game.tiebreak_mode = mode
        teams = (deal or {}).get("teams") or options.get("teams")
        game._seat_players(teams, shuffle_sides=seed is not None)

        game.hands = {p: [] for p in game.seats}
        game.choices = {}
        game.put_aside = {side: [] for side in SIDES}
        game.search_discard = []
        game.request = None
        game.phase = CHOOSE
        game.turn = game.seats[0]
        game.last_winner = None
        game.set_number = 1
        game.set_wins = {side: 0 for side in SIDES}
        game.set_results = []
        game.ipos_this_set = 0
        game.ipos_this_game = 0
        game.search_count = 0
        game.reshuffles = 0
        game.unanswered = 0
        game.reveal = None
        game.tiebreak = None
        game.refill_pending = []
        game.search_winners = []
        game.result = None
        game.cut = []
        game.opening_events = []

        events: list[Event] = []
        if deal is not None:
            decks = deal.get("decks", {})
            game.decks = {name: codes_to_cards(decks.get(name, [])) for name in (GOOGLE, YAHOO, SEARCH)}
            for key, codes in deal.get("hands", {}).items():
                player = int(key)
                if player not in game.hands:
                    raise ValueError(f"deal names a hand for {player}, who is not seated")
                game.hands[player] = _sorted(codes_to_cards(codes))
            game.last_winner = deal.get("last_winner")
            first = deal.get("first")
            game.turn = int(first) if first is not None else game.teams[YAHOO][0]
            events.append(Event("first_turn", game.turn, {"player": game.turn, "cut": []}))
        else:
            game.decks = {}
            game._deal_new_set(events)
        game._turn_request(events)
        game.opening_events = events
        return game

    def _seat_players(self, teams: Mapping[str, Sequence[int]] | None, *, shuffle_sides: bool) -> None:
        """Fix sides and seats. Seats alternate sides so partners sit across:
        seat order (the order play passes "to the left") is google[0], yahoo[0],
        google[1], yahoo[1]."""
        count = len(self.players)
        per_side = count // 2
        if teams:
            google = [int(p) for p in teams.get(GOOGLE, [])]
            yahoo = [int(p) for p in teams.get(YAHOO, [])]
            if sorted(google + yahoo) != sorted(self.players) or len(google) != per_side or len(yahoo) != per_side:
                raise RuleError(
                    _("The teams must split the {count} seated players into {per_side} for Google and {per_side} for Yahoo.",
                      count=count, per_side=per_side)
                )
        else:
            order = list(self.players)
            if shuffle_sides:
                seeded_rng(self.seed, "sides").shuffle(order)
            google, yahoo = order[0::2], order[1::2]
        self.teams = {GOOGLE: google, YAHOO: yahoo}
        self.seats = [p for pair in zip(google, yahoo) for p in pair]
        self.side_of = {p: side for side in SIDES for p in self.teams[side]}
        # Seats never change once seated, so the play order from each turn holder
        # (its second seat: the one to the holder's left) is worked out once here, not
        # on every search. Shared by clone() (never changed, only replaced).
        self._order_from = {p: tuple(self.seats[i:] + self.seats[:i]) for i, p in enumerate(self.seats)}

    def _deal_new_set(self, events: list[Event]) -> None:
        """Shuffle the three decks for set ``set_number``, deal, and decide who goes first."""
        n = self.set_number
        self.decks = {
            GOOGLE: shuffled(standard_deck(), self.seed, f"set-{n}-google"),
            YAHOO: shuffled(standard_deck(), self.seed, f"set-{n}-yahoo"),
            SEARCH: shuffled(standard_deck(), self.seed, f"set-{n}-search"),
        }
        for player in self.seats:
            self._draw_to_size(player, events)
        cut: list[dict[str, Any]] = []
        self.cut = []
        if not self.four_players:
            self.turn = self.teams[YAHOO][0]  # "The Yahoo player goes first."
        else:
            # "The Yahoo players cut for low card from the Search deck": ace low, king
            # high; equal cards cut again. Cutting only looks at cards; the deck stays.
            attempt = 0
            while True:
                picks = seeded_rng(self.seed, f"cut-{n}-{attempt}").sample(self.decks[SEARCH], 2)
                cut = [{"player": p, "card": str(c)} for p, c in zip(self.teams[YAHOO], picks)]
                if picks[0].rank != picks[1].rank:
                    self.cut = cut
                    low = 0 if picks[0].rank < picks[1].rank else 1
                    self.turn = self.teams[YAHOO][low]
                    break
                attempt += 1
        events.append(Event("first_turn", self.turn, {"player": self.turn, "cut": cut, "set": n}))

    # -- small helpers -----------------------------------------------------------

    @property
    def four_players(self) -> bool:
        return len(self.seats) == 4

    def partner(self, player: int) -> int | None:
        if not self.four_players:
            return None
        team = self.teams[self.side_of[player]]
        return team[1] if team[0] == player else team[0]

    def play_order(self) -> list[int]:
        """Seats starting with the turn holder, going left. Picks are simultaneous, so
        this is what "first played" means."""
        return list(self._order_from[self.turn])

    def _ipos_left(self) -> int:
        if len(self.seats) == 4:  # == self.four_players, one call less
            return min(IPOS_PER_SET_FOUR_PLAYERS - self.ipos_this_set, IPOS_PER_GAME_FOUR_PLAYERS - self.ipos_this_game)
        return IPOS_PER_GAME_TWO_PLAYERS - self.ipos_this_game

    def _ipo_allowed(self, player: int) -> bool:
        """IPO: Google, at the start of their own turn (before they pick a card),
        while their side has an IPO left and cards in its deck."""
        return (
            self.phase == CHOOSE
            and self.side_of.get(player) == GOOGLE
            and player == self.turn
            and player not in self.choices
            and self._ipos_left() > 0
            and bool(self.decks[GOOGLE])
        )

    def _tiebreak_cards(self, player: int) -> list[Card]:
        if self.tiebreak is None or self.request is None:
            return []
        wanted = set(values_at(self.request, self.tiebreak["distance"] + 1))
        return _unique_sorted([c for c in self.hands[player] if card_value(c) in wanted])

    def _draw_to_size(self, player: int, events: list[Event]) -> None:
        side = self.side_of[player]
        deck = self.decks[side]
        missing = HAND_SIZE[side] - len(self.hands[player])
        if missing <= 0 or not deck:
            return
        drawn = deck[:missing]
        del deck[:missing]
        hand = self.hands[player]
        codes = []  # a plain loop: a list comprehension is one more call in CPython 3.11
        for card in drawn:
            insort_by_key(hand, card)  # == _sorted(hand + drawn), in place
            codes.append(_CODE_AT[card._key])
        count = len(drawn)
        events.append(
            new_event(
                "drew",
                player,
                {"player": player, "cards": codes, "count": count},
                True,
                {"player": player, "count": count},
            )
        )

    # -- queries -----------------------------------------------------------------

    # The last listing made for this state: (player, legal actions), or None (a class
    # default: new()/from_dict() skip __init__). Only _apply and remove_player change
    # a game after it is made, and both drop it on entry and on exit, so nothing
    # listed mid-move survives. One player's listing, not a dict of them: a playout
    # lists one player per move, and a dict made per move cost more than it saved.
    _legal_cache: tuple[int, list[Action]] | None = None

    def current_players(self) -> frozenset[int]:
        if self.phase == CHOOSE:
            choices, hands = self.choices, self.hands
            waiting = []  # a plain loop: a list comprehension is one more call in CPython 3.11
            for p in self.seats:
                if p not in choices and hands[p]:
                    waiting.append(p)
            return frozenset(waiting)
        if self.phase == TIEBREAK:
            return frozenset(self.tiebreak["pending"])
        if self.phase == REFILL:
            return frozenset(self.refill_pending)
        return frozenset()

    def legal_actions(self, player: int) -> list[Action]:
        cache = self._legal_cache
        if cache is not None and cache[0] == player:
            return list(cache[1])  # a copy: callers may change their list
        if self.phase != CHOOSE:
            actions = self._list_legal(player)
            self._legal_cache = (player, actions)
            return list(actions)
        # Picking, inline: every step of a playout but a few asks for this listing.
        # == player in current_players(), without building the set
        hand = self.hands.get(player)  # hands has a list for each seated player
        if not hand or player in self.choices:
            self._legal_cache = (player, [])
            return []
        # One shared pick per distinct card, in card order (== _unique_sorted(hand)),
        # in one pass: hands are always kept sorted by _KEY (see _sorted), so equal
        # cards sit side by side and only the first of each run is listed.
        pick_at = _PICK_AT
        picks = []
        last = -1
        for card in hand:
            key = card._key
            if key != last:
                picks.append(pick_at[key])
                last = key
        # == self._ipo_allowed(player), whose phase and pick checks passed above
        if player == self.turn and self.side_of[player] == GOOGLE and self.decks[GOOGLE] and self._ipos_left() > 0:
            picks.append(_IPO)
        self._legal_cache = (player, picks)  # never changed: callers get copies
        return list(picks)

    def _list_legal(self, player: int) -> list[Action]:
        """What legal_actions lists outside the pick phase, uncopied: the list may be
        shared, so it is never changed (legal_actions hands out copies)."""
        phase = self.phase
        if phase == REFILL:
            return _REFILL_LIST if player in self.refill_pending else []
        if player not in self.current_players():
            return []
        if phase == TIEBREAK:
            return [Action("tiebreak", (card,)) for card in self._tiebreak_cards(player)] + [_DECLINE]
        return []

    def validate(self, player: int, action: Action) -> None:
        # Fast path: the very action object listed as legal (callers usually pass one
        # back) is accepted at once; anything else takes Game.validate's road.
        cache = self._legal_cache
        if cache is not None and cache[0] == player:
            for allowed in cache[1]:
                if allowed is action:
                    return
        super().validate(player, action)

    def apply(self, player: int, action: Action) -> list[Event]:
        # Game.apply with validate's fast path inlined (one call less per move).
        cache = self._legal_cache
        if cache is not None and cache[0] == player:
            for allowed in cache[1]:
                if allowed is action:
                    return self._apply(player, action)
        self.validate(player, action)
        return self._apply(player, action)

    def is_over(self) -> bool:
        return self.phase == OVER

    def placements(self) -> list[list[int]]:
        if self.result is None:
            return []
        return [list(group) for group in self.result["placements"]]

    def why_not_your_turn(self, player: int) -> str:
        if self.phase == CHOOSE:
            if player in self.choices:
                return _("You have already picked your card for this search; waiting for the others.")
            if not self.hands[player]:
                return _("You have no cards, so you sit this search out.")
        if self.phase == TIEBREAK:
            return _("Waiting for Yahoo to decide whether to show a tie-breaking card.")
        if self.phase == REFILL:
            return _("Waiting for the search winner to choose where to refill from.")
        return _("It is not your turn.")

    def why_illegal(self, player: int, action: Action) -> str:
        side = self.side_of.get(player)
        if action.kind == "play":
            if self.phase != CHOOSE:
                return _("Picks for this search are closed.")
            if len(action.cards) != 1:
                return _("Pick exactly one card from your hand.")
            card = action.cards[0]
            if card not in self.hands[player]:
                return _("You don't hold {card}: pick one of the cards in your hand.", card=card.display())
        if action.kind == "ipo":
            if side != GOOGLE:
                return _("Only Google can declare an IPO.")
            if self.phase != CHOOSE:
                return _("An IPO can only be declared at the start of your turn, before you pick a card.")
            if player != self.turn:
                return _("An IPO can only be declared at the start of your own turn.")
            if self._ipos_left() <= 0:
                if self.four_players and self.ipos_this_game < IPOS_PER_GAME_FOUR_PLAYERS:
                    return _("Google has already used its IPO for this set.")
                return _("Google has already used its IPO for this game.")
            if not self.decks[GOOGLE]:
                return _("Google's player deck is empty: there is nothing left to float.")
        if action.kind == "tiebreak":
            if self.phase != TIEBREAK or self.tiebreak is None or self.request is None:
                return _("There is no tie to break right now.")
            gap = self.tiebreak["distance"] + 1
            needed = _label(values_at(self.request, gap))
            if len(action.cards) == 1:
                return _(
                    "{card} does not break the tie: you need a card one point further from the "
                    "{request} request than the tied cards ({needed}).",
                    card=action.cards[0].display(), request=self.request.rank.label, needed=needed,
                )
            return _(
                "that does not break the tie: you need a card one point further from the "
                "{request} request than the tied cards ({needed}).",
                request=self.request.rank.label, needed=needed,
            )
        if action.kind == "decline" and self.phase != TIEBREAK:
            return _("There is no tie-breaker to decline right now.")
        if action.kind == "refill":
            if self.phase != REFILL:
                return _("There is no refill to choose right now.")
            if action.arg not in ("deck", "partner"):
                return _("Refill either from your team's deck ('deck') or blindly from your partner's hand ('partner').")
        return _("That is not a move in Engines of Discrimination right now: pick a card from your hand.")

    # -- moves ---------------------------------------------------------------------

    @changes_state
    def _apply(self, player: int, action: Action) -> list[Event]:
        events: list[Event] = []
        kind = action.kind
        if kind == "play":
            # The pick, inline (nearly every move of a game is one): the card leaves the
            # hand for the hidden picks; the last pick of the search resolves it.
            card = action.cards[0]
            key = card._key
            hand = self.hands[player]
            for i, held in enumerate(hand):  # hand.remove(card) without Card's slow equality
                if held._key == key:
                    del hand[i]
                    break
            else:
                hand.remove(card)  # raises ValueError as before
            choices = self.choices
            choices[player] = card
            events.append(new_event("chosen", player, {"player": player, "card": _CODE_AT[key]}, True, {"player": player}))
            hands = self.hands
            for p in self.seats:  # == `if not self.current_players()`, without building it
                if p not in choices and hands[p]:
                    return events
            self._resolve(events)
        elif kind == "ipo":
            self._ipo(player, events)
        elif kind == "tiebreak":
            self._show_tiebreaker(player, action.cards[0], events)
        elif kind == "decline":
            self._decline_tiebreaker(player, events)
        elif kind == "refill":
            self._refill_choice(player, action.arg, events)
        return events

    def _ipo(self, player: int, events: list[Event]) -> None:
        deck = self.decks[GOOGLE]
        drawn, self.decks[GOOGLE] = deck[:IPO_CARDS], deck[IPO_CARDS:]
        self.hands[player] = _sorted(self.hands[player] + drawn)
        self.ipos_this_set += 1
        self.ipos_this_game += 1
        events.append(
            Event(
                "ipo",
                player,
                {"player": player, "cards": cards_to_codes(drawn), "count": len(drawn)},
                private=True,
                public_data={"player": player, "count": len(drawn)},
            )
        )

    # -- resolution --------------------------------------------------------------

    def _resolve(self, events: list[Event]) -> None:
        """Everybody has picked: reveal and decide the search."""
        request = self.request
        assert request is not None
        choices, code_at, side_of = self.choices, _CODE_AT, self.side_of
        request_code = code_at[request._key]
        row = DISTANCE_FROM[request._key]
        plays: list[dict[str, Any]] = []
        matches: list[int] = []
        # The closest pick of each side (player and gap; None: no pick answers the
        # request); "first played" (play order) among equals. Locals, not dicts: this
        # runs once per search of every playout.
        google = yahoo = None
        google_gap = yahoo_gap = 0
        for p in self._order_from[self.turn]:  # self.play_order(), those who picked
            card = choices.get(p)
            if card is not None:
                key = card._key
                plays.append({"player": p, "card": code_at[key]})
                gap = row[key]
                if gap is not None:
                    if gap == 0:
                        matches.append(p)
                    if side_of[p] == GOOGLE:
                        if google is None or gap < google_gap:
                            google, google_gap = p, gap
                    elif yahoo is None or gap < yahoo_gap:
                        yahoo, yahoo_gap = p, gap
        self.reveal = {"search": self.search_count, "request": request_code, "plays": plays, "outcome": None}
        events.append(new_event("reveal", None, {"request": request_code, "plays": plays}))

        if matches and len(self.seats) == 4:
            # SI: every card matching the request is put aside, whoever played it.
            self._win(matches, "match", events)
            return
        if google is None or yahoo is None:
            if google is None and yahoo is None:  # nobody's card answers the request
                reason = "no_match" if request.rank.is_picture else "no_value"
                self._discard(reason, events)
            else:  # one side answers it
                self._win([yahoo if google is None else google], "closest", events)
            return
        if google_gap != yahoo_gap:
            self._win([google if google_gap < yahoo_gap else yahoo], "closest", events)
            return
        self._tie({GOOGLE: google, YAHOO: yahoo}, yahoo_gap, events)

    def _tie(self, best: dict[str, int], gap: int, events: list[Event]) -> None:
        request = self.request
        assert request is not None
        if self.last_winner == YAHOO or request.rank.is_picture:
            # Yahoo's special has nothing to add (it already wins the tie, or a face
            # request has no points to be "one further" from).
            self._settle_tie(best, events)
            return
        wanted = set(values_at(request, gap + 1))
        yahoo_players = [p for p in self.play_order() if self.side_of[p] == YAHOO]
        # SI: "if EITHER player on Yahoo ... did play" the card, it already counts.
        for p in yahoo_players:
            if p != best[YAHOO] and p in self.choices and card_value(self.choices[p]) in wanted:
                self._win([best[YAHOO]], "yahoo_special", events, shown={"player": p, "card": _CODE_AT[self.choices[p]._key]})
                return
        self.tiebreak = {"distance": gap, "best": {side: best[side] for side in SIDES}, "pending": []}
        able = [p for p in yahoo_players if self._tiebreak_cards(p)]
        if not able:
            self.tiebreak = None
            self._settle_tie(best, events)
            return
        if self.tiebreak_mode == TIEBREAK_AUTO:
            player = able[0]
            card = self._tiebreak_cards(player)[0]
            self.tiebreak = None
            self._win([best[YAHOO]], "yahoo_special", events, shown={"player": player, "card": _CODE_AT[card._key]})
            return
        self.tiebreak["pending"] = able
        self.phase = TIEBREAK
        self.reveal["outcome"] = {"kind": "tie_pending", "distance": gap}
        events.append(Event("tiebreak_offered", None, {"players": list(able), "distance": gap}))

    def _show_tiebreaker(self, player: int, card: Card, events: list[Event]) -> None:
        best = self.tiebreak["best"]
        self.tiebreak = None
        self._win([best[YAHOO]], "yahoo_special", events, shown={"player": player, "card": _CODE_AT[card._key]})

    def _decline_tiebreaker(self, player: int, events: list[Event]) -> None:
        events.append(Event("tiebreak_declined", player, {"player": player}))
        self.tiebreak["pending"].remove(player)
        if not self.tiebreak["pending"]:
            best = self.tiebreak["best"]
            self.tiebreak = None
            self._settle_tie(best, events)

    def _settle_tie(self, best: Mapping[str, int], events: list[Event]) -> None:
        """A tie the specials did not decide: the last search's winner takes it; on
        the first search (of the game, or of a set) the picks go back and a new
        request is turned by the same player."""
        if self.last_winner is not None:
            self._win([best[self.last_winner]], "tie_last_winner", events)
            return
        self._return_picks()
        self.search_discard.append(self.request)
        self.reveal["outcome"] = {"kind": "tie_returned"}
        events.append(Event("tie_returned", None, {"request": _CODE_AT[self.request._key]}))
        self.request = None
        self._end_turn(events, pass_turn=False)

    def _return_picks(self) -> None:
        hands = self.hands
        for p, card in self.choices.items():
            insort_by_key(hands[p], card)  # == _sorted(hand + [card])
        self.choices = {}

    def _win(self, winners: list[int], reason: str, events: list[Event], shown: dict | None = None) -> None:
        choices, side_of, put_aside = self.choices, self.side_of, self.put_aside
        won: list[dict[str, Any]] = []
        sides: list[str] = []
        for p in winners:
            side = side_of[p]
            card = choices.pop(p)
            won.append({"player": p, "card": _CODE_AT[card._key], "side": side})
            sides.append(side)
            put_aside[side].append(card)
        self._return_picks()
        request = self.request
        self.search_discard.append(request)
        if len(sides) == 1:  # the usual lone winner: the counts below would pick its side
            self.last_winner = sides[0]
        else:
            google, yahoo = sides.count(GOOGLE), sides.count(YAHOO)
            if google != yahoo:  # the side with more winners
                self.last_winner = GOOGLE if google > yahoo else YAHOO
            else:  # both teams matched equally: the first match in play order leads
                self.last_winner = sides[0]
        self.unanswered = 0
        outcome = {"kind": "won", "reason": reason, "winners": won, "side": self.last_winner}
        if shown is not None:
            outcome["shown"] = shown
        self.reveal["outcome"] = outcome
        events.append(new_event("search_won", None, {"request": _CODE_AT[request._key], **outcome}))
        self.request = None
        if len(self.seats) == 4:
            self.search_winners = list(winners)
            self._start_refill(events)
        else:  # 2 players: no refill choice to offer (what _start_refill would find),
            self._finish_refill(events)  # and no winners left on record after it

    def _discard(self, reason: str, events: list[Event]) -> None:
        self._return_picks()
        self.search_discard.append(self.request)
        self.unanswered += 1
        self.reveal["outcome"] = {"kind": "discarded", "reason": reason}
        events.append(new_event("search_discarded", None, {"request": _CODE_AT[self.request._key], "reason": reason}))
        self.request = None
        if len(self.seats) == 4:
            self.search_winners = []
            self._start_refill(events)
        else:  # 2 players: no refill choice to offer (what _start_refill would find)
            self._finish_refill(events)

    # -- refilling and the end of a turn -------------------------------------------

    def _start_refill(self, events: list[Event]) -> None:
        """4 players: a lone winner on a team may refill blindly from the partner."""
        if len(self.seats) != 4:
            self._finish_refill(events)
            return
        pending: list[int] = []
        hands, winners, side_of, teams = self.hands, self.search_winners, self.side_of, self.teams
        for p in winners:
            team = teams[side_of[p]]
            mate = team[1] if team[0] == p else team[0]  # self.partner(p)
            short = len(hands[p]) < HAND_SIZE[side_of[p]]
            if short and mate not in winners and hands[mate]:
                pending.append(p)
        if pending:
            self.phase = REFILL
            self.refill_pending = pending
            events.append(Event("refill_offered", None, {"players": list(pending)}))
            return
        self._finish_refill(events)

    def _refill_choice(self, player: int, source: str, events: list[Event]) -> None:
        self.refill_pending.remove(player)
        if source == "partner":
            mate = self.partner(player)
            missing = HAND_SIZE[self.side_of[player]] - len(self.hands[player])
            count = min(missing, len(self.hands[mate]))
            rng = seeded_rng(self.seed, f"blind-{self.set_number}-{self.search_count}-{player}")
            mate_hand = self.hands[mate]
            taken = rng.sample(mate_hand, count)
            for card in taken:
                remove_one(mate_hand, card)
            self.hands[player] = _sorted(self.hands[player] + taken)
            code_at = _CODE_AT
            events.append(
                Event(
                    "refill",
                    player,
                    {"player": player, "source": "partner", "partner": mate, "count": count,
                     "cards": [code_at[c._key] for c in taken]},
                    True,
                    {"player": player, "source": "partner", "partner": mate, "count": count},
                )
            )
            events.append(
                Event(
                    "given",
                    mate,
                    {"player": mate, "to": player, "count": count, "cards": [code_at[c._key] for c in taken]},
                    True,
                    {"player": mate, "to": player, "count": count},
                )
            )
        else:
            events.append(new_event("refill", player, {"player": player, "source": "deck"}))
        if not self.refill_pending:
            self._finish_refill(events)

    def _finish_refill(self, events: list[Event]) -> None:
        self.refill_pending = []
        self.search_winners = []
        hands, side_of, decks = self.hands, self.side_of, self.decks
        for p in self._order_from[self.turn]:  # self.play_order()
            side = side_of[p]
            if len(hands[p]) < HAND_SIZE[side] and decks[side]:  # else _draw_to_size does nothing
                self._draw_to_size(p, events)
        self._end_turn(events, True)  # pass_turn

    def _end_turn(self, events: list[Event], pass_turn: bool) -> None:
        # ``pass_turn`` positional at the per-search call: a keyword call is a slower
        # kind of call in CPython 3.11.
        self.phase = CHOOSE
        seats = self.seats
        if len(seats) != 4:
            decks = self.decks
            if not (decks[GOOGLE] and decks[YAHOO] and decks[SEARCH]):
                empty = [name for name in (GOOGLE, YAHOO, SEARCH) if not decks[name]]
                self._finish_game("deck_used_up", events, empty_decks=empty)
                return
        else:
            ended = self._set_end_reason()
            if ended is not None:
                self._finish_set(ended, events)
                return
        if pass_turn:
            self.turn = turn = self._order_from[self.turn][1]  # the seat to the left
            events.append(new_event("turn", turn, {"player": turn}))
        self._turn_request(events)

    def _set_end_reason(self) -> str | None:
        """SI: a set ends when a team has used its player deck and one of its members
        is out of cards (or, bot rule, after a long run of unanswered requests)."""
        hands = self.hands
        for side in SIDES:
            if not self.decks[side]:
                for p in self.teams[side]:
                    if not hands[p]:
                        return f"{side}_out"
        if self.unanswered >= STALEMATE_SEARCHES:
            return "stalemate"
        return None

    def _turn_request(self, events: list[Event]) -> None:
        if not self.decks[SEARCH]:
            if not self.four_players or not self.search_discard:
                # Only a stacked deal can get here: nothing left to search.
                self._finish_game("deck_used_up", events, empty_decks=[SEARCH])
                return
            self.reshuffles += 1
            self.decks[SEARCH] = shuffled(self.search_discard, self.seed, f"reshuffle-{self.reshuffles}")
            self.search_discard = []
            events.append(Event("search_reshuffled", None, {"count": len(self.decks[SEARCH])}))
        self.request = request = self.decks[SEARCH].pop(0)
        self.search_count += 1
        self.choices = {}
        self.phase = CHOOSE
        turn = self.turn
        events.append(new_event("search_request", turn, {"player": turn, "card": _CODE_AT[request._key], "search": self.search_count}))
        hands = self.hands
        for p in self.seats:  # == `if not self.current_players()` (nobody has picked yet)
            if hands[p]:
                return
        # Only a stacked deal can leave every hand empty.
        self.search_discard.append(self.request)
        self.request = None
        if self.four_players:
            self._finish_set("stalemate", events)
        else:
            self._finish_game("no_cards", events)

    # -- sets and the end ------------------------------------------------------------

    def _scores(self) -> dict[str, int]:
        return {side: len(self.put_aside[side]) for side in SIDES}

    def _finish_set(self, reason: str, events: list[Event]) -> None:
        scores = self._scores()
        if scores[GOOGLE] != scores[YAHOO]:
            winner = max(SIDES, key=lambda side: scores[side])
        elif self.last_winner is not None:
            winner = self.last_winner
        else:  # level with no search won at all (stalling): Google, who did not go first
            winner = GOOGLE
        self.set_wins[winner] += 1
        record = {"set": self.set_number, "winner": winner, "scores": scores, "reason": reason}
        self.set_results.append(record)
        events.append(Event("set_over", None, {**record, "set_wins": dict(self.set_wins)}))
        if self.set_wins[winner] >= SETS_TO_WIN:
            loser = YAHOO if winner == GOOGLE else GOOGLE
            self._finish_game("sets", events, placements=[list(self.teams[winner]), list(self.teams[loser])])
            return
        # Gather every card back into its own deck; _deal_new_set shuffles three
        # full decks again (each side's zones always hold exactly one whole deck).
        for side in SIDES:
            for p in self.teams[side]:
                self.hands[p] = []
            self.put_aside[side] = []
        self.search_discard = []
        self.set_number += 1
        self.last_winner = None
        self.ipos_this_set = 0
        self.unanswered = 0
        self.reshuffles = 0
        self.reveal = None
        self._deal_new_set(events)
        events.append(Event("new_set", None, {"set": self.set_number}))
        self._turn_request(events)

    def _finish_game(self, reason: str, events: list[Event], *, placements=None, empty_decks=None) -> None:
        scores = self._scores()
        if placements is None:
            google, yahoo = self.teams[GOOGLE], self.teams[YAHOO]
            if scores[GOOGLE] > scores[YAHOO]:
                placements = [list(google), list(yahoo)]
            elif scores[YAHOO] > scores[GOOGLE]:
                placements = [list(yahoo), list(google)]
            else:
                placements = [list(google) + list(yahoo)]
        self.phase = OVER
        self.tiebreak = None
        self.refill_pending = []
        self.result = {"reason": reason, "placements": placements, "scores": scores}
        if empty_decks:
            self.result["empty_decks"] = list(empty_decks)
        if self.four_players:
            self.result["set_wins"] = dict(self.set_wins)
        events.append(Event("game_over", None, dict(self.result)))

    @changes_state
    def remove_player(self, player: int) -> list[Event]:
        """Engines needs full sides: whoever leaves forfeits for their side."""
        if player not in self.side_of:
            return []
        return self._remove_seated(player)

    def _remove_seated(self, player: int) -> list[Event]:
        events = [Event("player_removed", player, {"player": player})]
        if self.phase == OVER:
            return events
        # Put any revealed-or-not picks back so every card stays in a zone.
        self._return_picks()
        if self.request is not None:
            self.search_discard.append(self.request)
            self.request = None
        side = self.side_of[player]
        other = YAHOO if side == GOOGLE else GOOGLE
        self._finish_game("forfeit", events, placements=[list(self.teams[other]), list(self.teams[side])])
        self.result["forfeited_by"] = player
        return events

    def timeout_action(self, player: int) -> Action:
        """Pick: the card closest to the request (lower value among equals; any card
        when none can answer it). Tie-breaker: show it. Refill: from the deck. Never
        an IPO."""
        if self.phase == TIEBREAK:
            cards = self._tiebreak_cards(player)
            return Action("tiebreak", (cards[0],)) if cards else Action("decline")
        if self.phase == REFILL:
            return Action("refill", arg="deck")
        hand = self.hands.get(player, [])
        if self.phase != CHOOSE or not hand or self.request is None:
            return Action("play")  # refused by validate: nothing is expected of them

        def closeness(card: Card) -> tuple[int, int, int, str]:
            gap = distance(self.request, card)
            return (gap is None, gap or 0, int(card.rank), card.suit.value)

        return Action("play", (min(hand, key=closeness),))

    def seat_choice(self, player: int) -> str | None:
        return self.side_of.get(player)

    # -- what a player sees ----------------------------------------------------------

    def observation(self, player: int | None) -> dict[str, Any]:
        seated = player in self.side_of
        obs: dict[str, Any] = {
            "game": self.key,
            "viewer": player if seated else None,
            "side": self.side_of[player] if seated else None,
            "players": len(self.seats),
            "teams": {side: list(self.teams[side]) for side in SIDES},
            "seats": [
                {
                    "player": p,
                    "side": self.side_of[p],
                    "hand_size": len(self.hands[p]),
                    "chosen": p in self.choices and self.phase == CHOOSE,
                }
                for p in self.seats
            ],
            "phase": self.phase,
            "current": [p for p in self.seats if p in self.current_players()],
            "turn": self.turn,
            "request": str(self.request) if self.request is not None else None,
            "search_number": self.search_count,
            "chosen": [p for p in self.seats if p in self.choices] if self.phase == CHOOSE else [],
            "reveal": self.reveal,
            "scores": self._scores(),
            "decks": {name: len(self.decks[name]) for name in (GOOGLE, YAHOO, SEARCH)},
            "search_discard": len(self.search_discard),
            "hand_target": dict(HAND_SIZE),
            "ipos_left": self._ipos_left(),
            "last_winner": self.last_winner,
            "set_number": self.set_number,
            "set_wins": dict(self.set_wins),
            "sets_to_win": SETS_TO_WIN if self.four_players else None,
            "tiebreak": (
                {"players": list(self.tiebreak["pending"]), "distance": self.tiebreak["distance"]}
                if self.phase == TIEBREAK
                else None
            ),
            "refill_pending": list(self.refill_pending),
            "yahoo_tiebreak": self.tiebreak_mode,
            "cut": [dict(entry) for entry in self.cut],
            "result": self.result,
        }
        if seated:
            obs["hand"] = cards_to_codes(self.hands[player])
            mine = self.choices.get(player)
            obs["my_choice"] = str(mine) if mine is not None and self.phase == CHOOSE else None
            obs["partner"] = self.partner(player)
            obs["ipo_allowed"] = self._ipo_allowed(player)
        return obs

    # -- persistence -------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "players": list(self.players),
            "seed": self.seed,
            "tiebreak_mode": self.tiebreak_mode,
            "teams": {side: list(self.teams[side]) for side in SIDES},
            "hands": {str(p): cards_to_codes(self.hands[p]) for p in self.seats},
            "choices": [[p, str(c)] for p, c in self.choices.items()],
            "decks": {name: cards_to_codes(cards) for name, cards in self.decks.items()},
            "put_aside": {side: cards_to_codes(self.put_aside[side]) for side in SIDES},
            "search_discard": cards_to_codes(self.search_discard),
            "request": str(self.request) if self.request is not None else None,
            "phase": self.phase,
            "turn": self.turn,
            "last_winner": self.last_winner,
            "set_number": self.set_number,
            "set_wins": dict(self.set_wins),
            "set_results": [dict(r) for r in self.set_results],
            "ipos_this_set": self.ipos_this_set,
            "ipos_this_game": self.ipos_this_game,
            "search_count": self.search_count,
            "reshuffles": self.reshuffles,
            "unanswered": self.unanswered,
            "reveal": self.reveal,
            "tiebreak": self.tiebreak,
            "refill_pending": list(self.refill_pending),
            "search_winners": list(self.search_winners),
            "result": self.result,
            "cut": [dict(entry) for entry in self.cut],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        # A JSON round trip makes fresh containers, so nothing is shared with ``data``.
        data = json.loads(json.dumps(data))
        game = cls.__new__(cls)
        game.players = [int(p) for p in data["players"]]
        game.seed = data["seed"]
        game.tiebreak_mode = data["tiebreak_mode"]
        game._seat_players(data["teams"], shuffle_sides=False)
        # Saved hands are sorted already (a no-op then); a hand-made save is put in order.
        game.hands = {int(p): _sorted(codes_to_cards(codes)) for p, codes in data["hands"].items()}
        game.choices = {int(p): codes_to_cards([code])[0] for p, code in data["choices"]}
        game.decks = {name: codes_to_cards(codes) for name, codes in data["decks"].items()}
        game.put_aside = {side: codes_to_cards(codes) for side, codes in data["put_aside"].items()}
        game.search_discard = codes_to_cards(data["search_discard"])
        game.request = codes_to_cards([data["request"]])[0] if data["request"] else None
        game.phase = data["phase"]
        game.turn = int(data["turn"])
        game.last_winner = data["last_winner"]
        game.set_number = data["set_number"]
        game.set_wins = dict(data["set_wins"])
        game.set_results = list(data["set_results"])
        game.ipos_this_set = data["ipos_this_set"]
        game.ipos_this_game = data["ipos_this_game"]
        game.search_count = data["search_count"]
        game.reshuffles = data["reshuffles"]
        game.unanswered = data["unanswered"]
        game.reveal = data["reveal"]
        game.tiebreak = data["tiebreak"]
        if game.tiebreak is not None:
            game.tiebreak["best"] = {side: int(p) for side, p in game.tiebreak["best"].items()}
        game.refill_pending = [int(p) for p in data["refill_pending"]]
        game.search_winners = [int(p) for p in data["search_winners"]]
        game.result = data["result"]
        game.cut = [{"player": int(e["player"]), "card": e["card"]} for e in data["cut"]]
        game.opening_events = []
        return game

    def clone(self) -> Self:
        """A copy for search: every container the moves change is copied; cards and
        records that are only ever replaced, never changed (reveal plays, cut, set
        results), are shared."""
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__)
        for name in self._SEATING:  # slots, not in __dict__; never changed, so shared
            setattr(copy, name, getattr(self, name))
        copy.players = list(self.players)
        copy.hands = {p: list(h) for p, h in self.hands.items()}
        copy.choices = dict(self.choices)
        copy.decks = {name: list(cards) for name, cards in self.decks.items()}
        copy.put_aside = {side: list(cards) for side, cards in self.put_aside.items()}
        copy.search_discard = list(self.search_discard)
        copy.set_wins = dict(self.set_wins)
        copy.set_results = list(self.set_results)
        copy.reveal = dict(self.reveal) if self.reveal is not None else None
        if self.tiebreak is not None:
            copy.tiebreak = {**self.tiebreak, "best": dict(self.tiebreak["best"]), "pending": list(self.tiebreak["pending"])}
        copy.refill_pending = list(self.refill_pending)
        copy.search_winners = list(self.search_winners)
        copy.result = dict(self.result) if self.result is not None else None
        copy.opening_events = []
        copy._legal_cache = None
        return copy

    # -- seat swaps (a computer takes a leaver's seat) ---------------------------------

    #: Keys of ``to_dict`` (at any depth) whose values are player ids.
    _ID_KEYS = frozenset({"players", "teams", "choices", "turn", "player", "best", "pending",
                          "refill_pending", "search_winners", "placements", "forfeited_by"})

    def _replace_player(self, old: int, new: int) -> None:
        """``new`` sits in ``old``'s seat and side (a team keeps its member's place):
        same hand, same hidden pick, same place in a tie-breaker or refill. Done on
        the saved form, so every record naming the seat (the reveal, the cut) follows."""
        from bot.rules.engine import swap_in_record

        fresh = type(self).from_dict(swap_in_record(self.to_dict(), old, new, self._ID_KEYS))
        self.__dict__.clear()
        self.__dict__.update(fresh.__dict__)
        for name in self._SEATING:  # slots, not in __dict__
            setattr(self, name, getattr(fresh, name))
