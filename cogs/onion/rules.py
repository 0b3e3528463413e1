"""Cripple Mr Onion: one round of Andrew Millard's game (``seeds/cripple-mr-onion.txt``).

Pure rules: no Discord, asyncio, sqlite or clock. Hands are scored by
``cogs/onion/scoring.py``; the player-facing text, with every reading we chose, is
``docs/rules/onion.md``.

One game instance is ONE ROUND. What outlives a round (bankrolls, the Dealer, wild
eights after a null eight, the round number, a pot left by an all-fold round, plain
wins) comes in as ``options["carry"]`` and goes out through :meth:`carry_out`.

Flow of a round (``phase``; ``queue[0]`` is the player to act)::

    exchange -> bet 1 -> bet 2 -> bet 3 -> buy/extra -> offer -> bet 4 -> bet 5 -> declare -> [duel] -> over
                  (the Dealer folds in any bet part or on the extra bets: auction, then the next part;
                   the last player standing takes the Pot at once; the duel is the house rule
                   ``showdown: millard``, the default)

The plain variant skips antes, bets, buying and the auction (see the docs).

Cards: every rank-and-suit exists once in the 104-card pack; the special card of each
modifier is the named French/Latin card (``Qs`` is the Lady, its spades/staves twin
``Qt`` is an ordinary queen), so a card code already tells the marked copy apart.
The deck is a list whose index 0 is the top card. Action codes use the onion card
codes (``w t u o`` suits): parse them with :meth:`OnionGame.parse_action`.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import combinations
from typing import Any, Self

from bot.rules.cards import seeded_rng, shuffled
from bot.rules.engine import (
    Action, Event, Game, GameOver, HouseRule, IllegalAction, NotYourTurn, RuleError, UnknownPlayer,
)
from bot.words.i18n import N_, _
from cogs.onion.scoring import (
    ARCHCHANCELLOR, DEATH, FATE, FOOL, GREAT_ATUIN, LADY, SENDER_OF_EIGHT, SPECIAL_CARDS,
    Arrangement, Card, Grouping, ScoringContext, best_arrangement, grouping_order, onion_deck,
    parse_card, showdown_winners, cripples,
)

# --------------------------------------------------------------------------- options

GAMBLING = "gambling"
PLAIN_VARIANT = "plain"

#: Each modifier switch (key "mod0".."mod11"): its description, and its sentence when it
#: is on and when it is off (what the lobby and /settings show, translated there).
MODIFIERS: tuple[tuple[int, str, str, str], ...] = (
    (0, N_("Modifier #0: Crippling: a nine/ten-card running flush cripples a Greater (ten: also a Lesser) Onion."),
     N_("Modifier #0, crippling, is in play: a nine/ten-card running flush cripples a Greater (ten: also a Lesser) Onion."),
     N_("Modifier #0, crippling, is switched off.")),
    (1, N_("Modifier #1: Null eights: an eight may count 0 in onions; the next round eights are wild."),
     N_("Modifier #1, null eights, is in play: an eight may count 0 in onions; the next round eights are wild."),
     N_("Modifier #1, null eights, is switched off.")),
    (2, N_("Modifier #2: Wild crippling: with wild eights the running flush needs no more wild cards than the Onion."),
     N_("Modifier #2, wild crippling, is in play: with wild eights the running flush needs no more wild cards than the Onion."),
     N_("Modifier #2, wild crippling, is switched off.")),
    (3, N_("Modifier #3: The Octavo: eight wild eights beat every Lesser Onion and cannot be crippled."),
     N_("Modifier #3, the Octavo, is in play: eight wild eights beat every Lesser Onion and cannot be crippled."),
     N_("Modifier #3, the Octavo, is switched off.")),
    (4, N_("Modifier #4: The Lady (Q♠): replaced by one of the next two cards; with wild eights she devalues an ace."),
     N_("Modifier #4, the Lady (Q♠), is in play: replaced by one of the next two cards; with wild eights she devalues an ace."),
     N_("Modifier #4, the Lady (Q♠), is switched off.")),
    (5, N_("Modifier #5: Fate (K🏆): zeroes the Lady user's aces, or stops wild eights."),
     N_("Modifier #5, Fate (K🏆), is in play: zeroes the Lady user's aces, or stops wild eights."),
     N_("Modifier #5, Fate (K🏆), is switched off.")),
    (6, N_("Modifier #6: Great A'Tuin (Q🪙): shift 8 points from one card to another."),
     N_("Modifier #6, Great A'Tuin (Q🪙), is in play: shift 8 points from one card to another."),
     N_("Modifier #6, Great A'Tuin (Q🪙), is switched off.")),
    (7, N_("Modifier #7: The Elephants: four nines/tens with Q🪙 make a Double Onion."),
     N_("Modifier #7, the Elephants, is in play: four nines/tens with Q🪙 make a Double Onion."),
     N_("Modifier #7, the Elephants, is switched off.")),
    (8, N_("Modifier #8: The Sender of Eight (J♦): zeroes aces of eight users; declared at once when eights are wild."),
     N_("Modifier #8, the Sender of Eight (J♦), is in play: zeroes aces of eight users; declared at once when eights are wild."),
     N_("Modifier #8, the Sender of Eight (J♦), is switched off.")),
    (9, N_("Modifier #9: Death (K⚔): a visible K⚔ keeps one picture out of Double (Triple) Onions."),
     N_("Modifier #9, Death (K⚔), is in play: a visible K⚔ keeps one picture out of Double (Triple) Onions."),
     N_("Modifier #9, Death (K⚔), is switched off.")),
    (10, N_("Modifier #10: The Archchancellor (J🪄): no eights as 8; forces Death out, or turns wild."),
     N_("Modifier #10, the Archchancellor (J🪄), is in play: no eights as 8; forces Death out, or turns wild."),
     N_("Modifier #10, the Archchancellor (J🪄), is switched off.")),
    (11, N_("Modifier #11: The Fool (J♣): declared before the showdown, bagels and Onions change places."),
     N_("Modifier #11, the Fool (J♣), is in play: declared before the showdown, bagels and Onions change places."),
     N_("Modifier #11, the Fool (J♣), is switched off.")),
)

HOUSE_RULES: tuple[HouseRule, ...] = tuple(
    HouseRule(key=f"mod{n}", description=description, choices=("on", "off"), default="on",
              choice_descriptions=(on, off))
    for n, description, on, off in MODIFIERS) + (
    HouseRule(key="showdown", description=N_("How the showdown is played."),
              choices=("millard", "quick"), default="millard",
              choice_descriptions=(
                  N_("The showdown is Millard's duel: the Elder's hand is shown, each player in turn equals or beats "
                     "it, plays a modifier or concedes, and the survivor faces the next, up to the Dealer."),
                  N_("The showdown is quick: every hand is laid at its best at once and the best wins."))),
    HouseRule(key="rebuy", description=N_("Whether a player without chips for the Stake may buy back in."),
              choices=("off", "on"), default="off",
              choice_descriptions=(N_("A player without chips for the Stake is out of the session."),
                                   N_("A player without chips for the Stake buys back in with the starting chips."))),
)

DEFAULTS = {"stake": 1, "raise_cap": 10, "chips": 100, "variant": GAMBLING, "declare_seconds": 60}

# --------------------------------------------------------------------------- phases

EXCHANGE, BET, AUCTION, BUY, OFFER, DECLARE, OVER = "exchange", "bet", "auction", "buy", "offer", "declare", "over"
#: Millard's showdown, fought pair by pair (house rule ``showdown: millard``).
DUEL = "duel"
PHASES = (EXCHANGE, BET, AUCTION, BUY, OFFER, DECLARE, DUEL, OVER)
#: Betting parts that allow raising: the first two of each round of betting.
RAISING_PARTS = (1, 2, 4, 5)
#: ``resume`` after an auction won when the Dealer folded on the extra bets: part 4 next
#: (``4`` itself means "folded in part 3": the second deal comes first).
AFTER_EXTRA_BETS = 6

ALL_CARDS = onion_deck()

#: The events that tell the showdown (``OnionGame.story``, the board's summary of it).
STORY_KINDS = frozenset({"showdown", "duel", "duel_lead", "declared", "picked", "disclosed", "rewild",
                         "archchancellor_wild", "reformed", "rearranged", "concede", "crippled", "won", "fold"})


#: The refusals of an amount that is no number, by the kind of action it is for.
_NOT_A_NUMBER = {"bet": N_("'{text}' is not a number of chips for a bet."),
                 "raise": N_("'{text}' is not a number of chips for a raise."),
                 "bid": N_("'{text}' is not a number of chips for a bid."),
                 "extra": N_("'{text}' is not a number of chips for an extra bet."),
                 "buy": N_("'{text}' is not a number of chips for buying.")}
_NEGATIVE = {"bet": N_("A bet cannot be negative."), "raise": N_("A raise cannot be negative."),
             "bid": N_("A bid cannot be negative."), "extra": N_("An extra bet cannot be negative."),
             "buy": N_("Buying cannot be negative.")}


def parse_amount(text: str, kind: str) -> int:
    """The amount of a ``kind`` action (bet, raise, bid, extra, buy), or a refusal."""
    try:
        value = int(str(text).strip())
    except ValueError:
        raise IllegalAction(_(_NOT_A_NUMBER[kind], text=text)) from None
    if value < 0:
        raise IllegalAction(_(_NEGATIVE[kind]))
    return value


def _codes(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def _cards(codes: Sequence[str]) -> list[Card]:
    return [parse_card(c) for c in codes]


def _sorted(cards: Sequence[Card]) -> list[Card]:
    return sorted(cards)


def _grouped_codes(arrangement: Arrangement) -> list[str]:
    """The revealed hand in the order its explanation reads: grouping by grouping, then
    the unused cards (the same cards as ``arrangement.cards``, each once)."""
    order = [c for g in arrangement.groupings for c in g.cards] + list(arrangement.unused)
    order += arrangement.cards
    return _codes(list(dict.fromkeys(c for c in order if c in arrangement.cards)))


@lru_cache(maxsize=2048)
def _best(cards: tuple[Card, ...], context: ScoringContext) -> Arrangement:
    """``best_arrangement``, remembered: the duel weighs the same hands under the same
    modifiers many times a move (each answer tried, each hand's view told), and an
    arrangement is an immutable value. Small, so it stays out of the collector's way."""
    return best_arrangement(cards, context)


def laid_as(cards: Sequence[Card], top: Sequence[Card], context: ScoringContext,
            whole: Arrangement | None = None) -> Arrangement | None:
    """``cards`` laid with ``top`` as one grouping (at its best) and the rest at their best:
    a voluntary arrangement in the duel (a smaller Onion, or bagel, that a running flush
    cannot cripple). None when ``top`` is no single grouping."""
    head = _best(tuple(top), context)
    if len(head.groupings) != 1 or head.unused:
        return None
    rest = _best(tuple(c for c in cards if c not in top), context)
    whole = whole or _best(tuple(cards), context)  # the hand's running flush, wild state
    groups = tuple(sorted(head.groupings + rest.groupings, key=lambda g: -g.rank))
    return dataclasses.replace(whole, groupings=groups, unused=rest.unused, notes=head.notes + rest.notes)


#: Tops a running flush may cripple, and the smaller multiples a hand may lay instead.
_CRIPPLEABLE = {("Onion", 5): "Onion", ("Onion", 4): "Onion", ("bagel", 5): "bagel"}
_MULTIPLE_NAMES = {"Onion": ("", "", "Double-Onion", "Triple-Onion", "Lesser-Onion"),
                   "bagel": ("", "", "double-bagel", "triple-bagel", "lesser-bagel")}


def special_names(cards: Sequence[Card]) -> dict[str, str]:
    """Which of ``cards`` are the marked special cards, by code."""
    return {str(c): c.special for c in cards if c in SPECIAL_CARDS}


class OnionGame(Game):
    key = "onion"
    title = "Cripple Mr Onion"
    min_players = 2
    max_players = 7

    def __init__(self) -> None:
        self.players: list[int] = []
        self.options: dict[str, Any] = {}
        self.seed: int | str = 0
        self.round_no = 1
        self.chips: dict[int, int] = {}
        self.wins: dict[int, int] = {}
        self.rebuys: dict[int, int] = {}
        self.pot = 0
        self.carried_pot = 0
        self.pending: dict[int, int] = {}   # raises, auction bids, extra bets: not yet in the Pot
        self.out: list[int] = []            # not dealt in (no chips for the Stake)
        self.folded: list[int] = []
        self.left: list[int] = []
        self.dealer = 0
        self.original_dealer = 0            # for passing the dealership after extra bets
        self.deck: list[Card] = []          # index 0 is the top
        self.discard: list[Card] = []
        self.down: dict[int, list[Card]] = {}
        self.up: dict[int, list[Card]] = {}
        self.aside: dict[int, list[Card]] = {}   # declared and replaced Lady/Fate
        self.exchanged: dict[int, int] = {}
        self.bought: dict[int, int] = {}
        self.phase = EXCHANGE
        self.step = ""
        self.part = 0
        self.amount = 0                      # the Dealer's named amount in this part
        self.queue: list[int] = []
        self.bids: dict[int, int] = {}
        self.declined: list[int] = []
        self.round_wild = False              # eights wild this round (carried from a null eight)
        self.fate_unwild: int | None = None  # who declared Fate to stop wild eights
        self.rewild: list[int] = []
        self.declared: list[dict[str, Any]] = []
        self.lady_user: int | None = None
        self.fate_user: int | None = None
        self.atuin: dict[int, str] = {}      # player -> "atuin" | "elephants"
        self.arch: int | None = None
        self.arch_wild = False
        self.fool = False
        self.tasks: list[dict[str, Any]] = []
        self.task_counter = 0
        self.showdown: list[dict[str, Any]] = []
        self.winner: int | None = None
        self.outcome = ""
        self.null_played = False
        self.next_dealer = 0
        self.absent: dict[str, dict[str, int]] = {}
        self.resume = 1                      # the betting part after an auction
        #: Millard's showdown: champion, challenger, the challengers still to come, the
        #: step ("challenge": the challenger answers the laid hand; "answer": both laid,
        #: the loser answers), who must answer, who has laid their hand.
        self.duel: dict[str, Any] | None = None
        #: The showdown as it happened, in order, for the board's summary: the public
        #: data of its events (hands as they were laid, who was brought in, who led and
        #: why, each modifier and the re-forms it caused, concessions, the winner).
        #: Kept apart from the hands' records, which a later re-form changes.
        self.story: list[dict[str, Any]] = []

    # ------------------------------------------------------------------ construction

    @classmethod
    def read_options(cls, options: Mapping[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, default in DEFAULTS.items():
            raw = options.get(name, default)
            if name == "variant":
                value = str(raw).lower()
                if value not in (GAMBLING, PLAIN_VARIANT):
                    raise RuleError(_("The variant is 'gambling' or 'plain'."))
                out[name] = value
                continue
            try:
                out[name] = int(raw)
            except (TypeError, ValueError):
                raise RuleError(_("The option {name} must be a whole number, not '{raw}'.", name=name, raw=raw)) from None
        if out["stake"] < 1:
            raise RuleError(_("The Stake must be at least 1 chip."))
        if out["raise_cap"] < 1:
            raise RuleError(_("The raise cap must be at least 1 Stake."))
        if out["chips"] < out["stake"]:
            raise RuleError(_("Starting chips must cover at least one Stake."))
        if out["declare_seconds"] < 5:
            raise RuleError(_("A declaration time limit must be at least 5 seconds."))
        for rule in HOUSE_RULES:
            value = str(options.get(rule.key, rule.default))
            out[rule.key] = value if value in rule.choices else rule.default
        return out

    @classmethod
    def new(cls, players: Sequence[int], options: Mapping[str, Any] | None = None, *,
            seed: int | str | None = None, deal: Mapping[str, Any] | None = None) -> Self:
        """A round. ``deal`` stacks the pack: ``{"deck": [codes from the top], "dealer": pid}``;
        cards not listed follow in the pack's fixed order. ``options["carry"]`` is the
        previous round's :meth:`carry_out` (absent: a new session)."""
        cls.check_player_count(players)
        if (seed is None) == (deal is None):
            raise RuleError(_("Start a round with either a seed or a stacked deal, not both or neither."))
        options = dict(options or {})
        carry = options.pop("carry", None) or {}
        game = cls()
        game.players = [int(p) for p in players]
        game.options = cls.read_options(options)
        game.round_no = int(carry.get("round", 0)) + 1
        game.seed = seed if seed is not None else deal.get("seed", 0)  # type: ignore[union-attr]
        start = game.options["chips"]
        banks = {int(p): int(v) for p, v in carry.get("bankrolls", {}).items()}
        wins = {int(p): int(v) for p, v in carry.get("wins", {}).items()}
        rebuys = {int(p): int(v) for p, v in carry.get("rebuys", {}).items()}
        game.chips = {p: banks.get(p, start) for p in game.players}
        game.wins = {p: wins.get(p, 0) for p in game.players}
        game.rebuys = {p: rebuys.get(p, 0) for p in game.players}
        # Players away this round keep their bankroll (and wins) in the session for their return.
        game.absent = {str(p): {"chips": banks.get(p, start), "wins": wins.get(p, 0), "rebuys": rebuys.get(p, 0)}
                       for p in set(banks) | set(wins) if p not in game.players}
        game.round_wild = bool(carry.get("eights_wild", False)) and game.on(1)
        game.pot = game.carried_pot = int(carry.get("pot", 0)) if game.gambling else 0
        stake = game.options["stake"]
        events: list[Event] = []
        if game.gambling:
            for p in game.players:
                if game.chips[p] < stake and game.options["rebuy"] == "on":
                    game.rebuys[p] += game.options["chips"] - game.chips[p]
                    game.chips[p] = game.options["chips"]
                    events.append(Event("rebuy", p, {"player": p, "chips": game.chips[p]}))
            # The Stake is the ante. A round opening on a carried Pot has no ante, so
            # everyone seated is dealt in, chips or not (they may only fold what they cannot pay).
            if not game.carried_pot:
                game.out = [p for p in game.players if game.chips[p] < stake]
            if len(game.players) - len(game.out) < 2:
                raise RuleError(_("At least two players need chips for the Stake to play a round."))
        dealer = carry.get("dealer")
        if deal is not None and deal.get("dealer") is not None:
            dealer = deal["dealer"]
        if dealer is None or int(dealer) not in game.players or int(dealer) in game.out:
            if dealer is None and seed is not None:
                live = [p for p in game.players if p not in game.out]
                dealer = live[seeded_rng(seed, "dealer").randrange(len(live))]
            else:
                dealer = next(p for p in game.players if p not in game.out)
        game.dealer = game.original_dealer = game.next_dealer = int(dealer)
        for p in game.players:
            game.down[p], game.up[p], game.aside[p] = [], [], []
            game.pending[p] = 0
        if deal is None:
            game.deck = shuffled(ALL_CARDS, seed, f"round-{game.round_no}")  # type: ignore[arg-type]
        else:
            top = _cards(deal.get("deck", []))
            twice = sorted({str(c) for c in top if top.count(c) > 1})
            if twice:
                raise RuleError(_("The stacked deck lists {cards} more than once.", cards=", ".join(twice)))
            listed = set(top)
            game.deck = top + [c for c in ALL_CARDS if c not in listed]
        # Ante: a pot carried from an all-fold round is this round's ante, as written.
        if game.gambling and not game.carried_pot:
            for p in game.live():
                game._pay(p, stake)
        if game.gambling:
            events.append(Event("ante", None, {"pot": game.pot, "carried": game.carried_pot,
                                               "stake": stake}))
        events += game._first_deal()
        game.phase = EXCHANGE
        game.queue = game.order_from_elder() + [game.dealer]
        events.append(game._turn_event())
        game.opening_events = events
        return game

    # ------------------------------------------------------------------ small queries

    @property
    def gambling(self) -> bool:
        return self.options.get("variant", GAMBLING) == GAMBLING

    def on(self, n: int) -> bool:
        return self.options.get(f"mod{n}", "on") == "on"

    def live(self) -> list[int]:
        """Players still in the round, in seat order."""
        return [p for p in self.players if p not in self.out and p not in self.folded and p not in self.left]

    def _around(self, start: int) -> list[int]:
        i = self.players.index(start)
        return self.players[i:] + self.players[:i]

    def order_from_elder(self, dealer: int | None = None) -> list[int]:
        """Live players other than the Dealer, from the Elder (Dealer's left) to the Younger."""
        dealer = self.dealer if dealer is None else dealer
        live = set(self.live())
        return [p for p in self._around(dealer)[1:] if p in live]

    def precedence(self) -> list[int]:
        """Dealer, Elder, the others in order, Younger (all seated players dealt in)."""
        return [p for p in self._around(self.dealer) if p not in self.out]

    def elder(self) -> int | None:
        order = [p for p in self._around(self.dealer)[1:] if p not in self.out]
        return order[0] if order else None

    def younger(self) -> int | None:
        order = [p for p in self._around(self.dealer)[1:] if p not in self.out]
        return order[-1] if order else None

    def hand(self, p: int) -> list[Card]:
        return self.down[p] + self.up[p]

    def wild_for(self, p: int) -> bool:
        """Eights are wild for ``p`` now: the round is wild and Fate has not stopped it,
        or ``p`` made their own eights wild again with the Lady (#5 ii)."""
        if not self.on(1):
            return False
        return (self.round_wild and self.fate_unwild is None) or (p in self.rewild)

    def visible_cards(self) -> list[Card]:
        """Cards face up on the table in hands still in: dealt face up, declared or
        disclosed, and every card of a hand laid at the showdown (docs/rules/onion.md,
        "visible"): a K⚔ or J♦ laid in a hand acts from then on."""
        laid = self.laid_players()
        return [c for p in self.live() for c in (self.hand(p) if p in laid else self.up[p])]

    def laid_players(self) -> set[int]:
        """Players whose whole hand lies face up: laid in the duel (or about to be, on a
        copy that asks what showing would do), or every hand at the quick showdown."""
        if self.duel is not None:
            showing = self.duel.get("showing")
            return set(self.duel["laid"]) | ({showing} if showing is not None else set())
        return {e["player"] for e in self.showdown}

    def total_chips(self) -> int:
        """Pot + bankrolls + bets not yet in the Pot: constant through a round."""
        return self.pot + sum(self.chips.values()) + sum(self.pending.values())

    def is_over(self) -> bool:
        return self.phase == OVER

    def current_players(self) -> frozenset[int]:
        if self.phase == OVER:
            return frozenset()
        if self.tasks:
            return frozenset(t["player"] for t in self.tasks)
        return frozenset(self.queue[:1])

    def cap(self) -> int:
        return self.options["raise_cap"] * self.options["stake"]

    def owed(self, p: int) -> int:
        """What ``p`` must pay now to stay in (0 if nothing)."""
        if self.phase == BET and self.step == "respond":
            return self.amount
        if self.phase == BET and self.step == "dealer":
            return sum(v for q, v in self.pending.items() if q != self.dealer)
        if self.phase == OFFER:
            return sum(v for q, v in self.pending.items() if q != p)
        return 0

    def min_bid(self) -> int:
        stake = self.options["stake"]
        return (max(self.bids.values()) + stake) if self.bids else stake

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self, player: int) -> list[Action]:
        if self.phase == OVER or player not in self.current_players():
            return []
        task = self._task_of(player)
        if task is not None:
            kind = "pick" if task["kind"] == "pick" else "disclose"
            return [Action(kind, (c,)) for c in _cards(task["cards"])]
        return self._turn_actions(player) + self._anytime(player)

    def _anytime(self, p: int) -> list[Action]:
        """#10: the Archchancellor may be declared "at any time during the game": on any
        turn of its holder from the first betting on (the declaration round and the duel
        list it with the other declarations)."""
        if (self.phase in (BET, AUCTION, BUY, OFFER) and self.on(10) and ARCHCHANCELLOR in self.hand(p)
                and self.arch is None):
            return [Action("declare", (ARCHCHANCELLOR,), "archchancellor")]
        return []

    def _turn_actions(self, player: int) -> list[Action]:
        p = player
        stake, chips = self.options["stake"], self.chips[p]
        if self.phase == EXCHANGE:
            hand = _sorted(self.down[p])
            out = [Action("discard", tuple(combo)) for k in range(0, 5) for combo in combinations(hand, k)]
            return out + [Action("fold")]
        if self.phase == BET:
            if self.step == "name":
                top = min(self.cap(), chips)
                return [Action("bet", arg=str(a)) for a in self._quick(0, top)]
            owed = self.owed(p)
            out = [Action("match")] if owed <= chips else []
            if self.step == "respond" and self.part in RAISING_PARTS:
                top = min(self.cap(), chips - owed)
                out += [Action("raise", arg=str(a)) for a in self._quick(stake, top)]
            return out + [Action("fold")]
        if self.phase == AUCTION:
            top = chips + self.bids.get(p, 0)
            return [Action("bid", arg=str(a)) for a in self._quick(self.min_bid(), top)] + [Action("decline")]
        if self.phase == BUY:
            if self.step == "buy":
                return [Action("buy", arg=str(k)) for k in range(0, min(5, chips // stake) + 1)]
            return [Action("extra", arg=str(a)) for a in self._quick(0, min(self.cap(), chips))]
        if self.phase == OFFER:
            out = [Action("match")] if self.owed(p) <= chips else []
            # "WITHOUT being required to fold": the Dealer may also fold (then the auction).
            return out + [Action("pass")] + ([Action("fold")] if p == self.dealer else [])
        if self.phase == DECLARE:
            return self._declarations(p) + [Action("done")]
        if self.phase == DUEL:
            show = [Action("show")] if self._may_show(p) else []
            return show + self._rearrangements(p) + self._duel_modifiers(p) + [Action("concede")]
        return []

    def _quick(self, low: int, high: int) -> list[int]:
        """Common amounts for quick buttons; any amount in range is accepted."""
        if high < low:
            return []
        stake = self.options["stake"]
        picks = {low, high} | {m * stake for m in (1, 2, 5, 10) if low <= m * stake <= high}
        return sorted(picks)

    def _declarations(self, p: int) -> list[Action]:
        """The special cards ``p`` may declare now (declaration round before the showdown)."""
        hand = self.hand(p)
        done = {d["card"] for d in self.declared}
        out: list[Action] = []
        wild = self.wild_for(p)
        if self.on(4) and LADY in hand and "Qs" not in done and not wild and len(self.deck) >= 1:
            out.append(Action("declare", (LADY,), "lady"))
        if self.on(5) and FATE in hand and "Ku" not in done:
            if self.lady_user is not None and len(self.deck) >= 1:
                out.append(Action("declare", (FATE,), "fate"))
            if self.round_wild and self.on(1) and self.fate_unwild is None:
                out.append(Action("declare", (FATE,), "unwild"))
        if (self.on(5) and self.fate_unwild is not None and self.fate_unwild != p and p not in self.rewild
                and (LADY in hand or LADY in self.aside[p])):
            out.append(Action("rewild"))
        if GREAT_ATUIN in hand and p not in self.atuin:
            if self.on(6):
                out.append(Action("declare", (GREAT_ATUIN,), "atuin"))
            eligible = [c for c in hand if c.rank in (9, 10) or (c.rank == 8 and wild)]
            if self.on(7) and len(eligible) >= 4:
                out.append(Action("declare", (GREAT_ATUIN,), "elephants"))
        hidden = p not in self.laid_players()  # a laid hand's cards are visible already
        if self.on(8) and SENDER_OF_EIGHT in self.down[p] and hidden:
            out.append(Action("declare", (SENDER_OF_EIGHT,), "sender"))
        if self.on(9) and DEATH in self.down[p] and hidden:
            out.append(Action("declare", (DEATH,), "death"))
        if self.on(10) and ARCHCHANCELLOR in hand and self.arch is None:
            out.append(Action("declare", (ARCHCHANCELLOR,), "archchancellor"))
        if self.on(11) and FOOL in hand and not self.fool:
            out.append(Action("declare", (FOOL,), "fool"))
        return out

    # ------------------------------------------------------------------ validation

    AMOUNT_KINDS = ("bet", "raise", "bid", "extra", "buy")

    def validate(self, player: int, action: Action) -> None:
        if self.is_over():
            raise GameOver(_("This round is over."))
        if player not in self.players:
            raise UnknownPlayer(_("You are not playing at this table."))
        if action.kind == "timeout":  # applied by the platform for the obligation's player
            if not any(t["id"] == action.arg and t["player"] == player for t in self.tasks):
                raise IllegalAction(_("That time limit is no longer running."))
            return
        if player not in self.current_players():
            raise NotYourTurn(self.why_not_your_turn(player))
        if action.kind in self.AMOUNT_KINDS and self._task_of(player) is None:
            self._check_amount(player, action)
            return
        if action.kind == "discard" and self.phase == EXCHANGE and not action.arg:
            # Any order of the chosen cards (a multi-select does not keep the hand's order).
            cards = action.cards
            if len(cards) <= 4 and len(set(cards)) == len(cards) and all(c in self.down[player] for c in cards):
                return
        if action in self.legal_actions(player):
            return
        raise IllegalAction(self.why_illegal(player, action))

    def _check_amount(self, p: int, action: Action) -> None:
        """Any amount in range is legal (the platform has a modal for any amount)."""
        kind, chips, stake = action.kind, self.chips[p], self.options["stake"]
        if action.cards:
            raise IllegalAction(_("An amount goes without cards."))
        step_kind = {(BET, "name"): "bet", (BET, "respond"): "raise", (AUCTION, ""): "bid",
                     (BUY, "buy"): "buy", (BUY, "extra"): "extra"}.get((self.phase, self.step))
        if kind != step_kind:
            raise IllegalAction(self.why_illegal(p, action))
        n = parse_amount(action.arg, kind)
        cap = self.cap()
        if kind == "bet":
            if n > cap:
                raise IllegalAction(_("The Dealer may name at most {cap} chips (the raise cap).", cap=cap))
            if n > chips:
                raise IllegalAction(_("You have only {chips} chips.", chips=chips))
        elif kind == "raise":
            if self.part not in RAISING_PARTS:
                raise IllegalAction(_("No raising in the third part of the betting: match or fold."))
            if n < stake:
                raise IllegalAction(_("A raise is at least one Stake ({stake}); to stay in without raising, match.",
                                      stake=stake))
            if n > cap:
                raise IllegalAction(_("A raise may be at most {cap} chips (the raise cap).", cap=cap))
            if self.amount + n > chips:
                raise IllegalAction(_("Matching {amount} and raising {n} needs {total} chips; you have {chips}.",
                                      amount=self.amount, n=n, total=self.amount + n, chips=chips))
        elif kind == "bid":
            low = self.min_bid()
            if n < low:
                raise IllegalAction(_("A bid must be at least {low} chips (one Stake above the highest bid).", low=low))
            if n - self.bids.get(p, 0) > chips:
                raise IllegalAction(_("You have only {chips} chips to add to your bid of {bid}.", chips=chips,
                                      bid=self.bids.get(p, 0)))
        elif kind == "buy":
            if n > 5:
                raise IllegalAction(_("You may buy at most five cards."))
            if n * stake > chips:
                raise IllegalAction(_("{n} cards cost {cost} chips; you have {chips}.", n=n, cost=n * stake, chips=chips))
        elif kind == "extra":
            if n > cap:
                raise IllegalAction(_("An extra bet may be at most {cap} chips (the raise cap).", cap=cap))
            if n > chips:
                raise IllegalAction(_("You have only {chips} chips.", chips=chips))

    def why_not_your_turn(self, player: int) -> str:
        if player in self.folded:
            return _("You have folded this round.")
        if player in self.out:
            return _("You have no chips for the Stake, so you sit this round out.")
        if self.tasks:
            return _("Waiting for a declaration to be finished.")
        return _("It is not your turn.")

    def why_illegal(self, player: int, action: Action) -> str:
        kind = action.kind
        if self.phase == EXCHANGE and kind == "discard":
            if len(action.cards) == 5:
                return _("Discarding all five cards is folding: use Fold.")
            if len(action.cards) > 5:
                return _("You hold five cards; discard at most four of them (or fold).")
            if len(set(action.cards)) != len(action.cards):
                return _("Name each card once.")
            return _("You can only discard cards you hold.")
        if kind == "match" and self.owed(player) > self.chips[player]:
            return _("Matching needs {owed} chips and you have {chips}: you can only fold.", owed=self.owed(player),
                     chips=self.chips[player])
        if kind == "declare" and self.phase == DUEL and action in self._declarations(player):
            return _("That card would change nothing in this duel: neither the hand opposite nor yours.")
        if kind == "rearrange" and self.phase == DUEL:
            return _("No other way of laying your hand would hold against the hand opposite now "
                     "(a laid hand re-forms at most once, and a crippled Onion may not be retracted).")
        if kind == "declare":
            return _("You cannot declare that card now (you do not hold it, it is already declared, or its rule does not apply).")
        if kind in ("pick", "disclose"):
            return _("Choose one of the cards offered.")
        refusals = {EXCHANGE: N_("That is not possible now: it is time to discard or fold."),
                    BET: N_("That is not possible now: it is time to bet, match, raise or fold."),
                    AUCTION: N_("That is not possible now: it is time to bid or decline."),
                    BUY: N_("That is not possible now: it is time to buy cards, then make an extra bet."),
                    OFFER: N_("That is not possible now: it is time to match the extra bets or pass the dealership "
                              "(the Dealer may also fold)."),
                    DECLARE: N_("That is not possible now: it is time to declare a special card or say you are done."),
                    DUEL: N_("That is not possible now: it is time to show your hand, rearrange it, play a modifier "
                             "or concede.")}
        waiting = N_("That is not possible now: it is time to wait.")
        return _(refusals.get(self.phase, waiting))

    # ------------------------------------------------------------------ applying

    def _apply(self, player: int, action: Action) -> list[Event]:
        during = self.phase == DUEL
        events = self._play(player, action)
        self._tell(events, during)
        return events

    def _tell(self, events: list[Event], during: bool) -> None:
        """Add the showdown's part of ``events`` to the story (public data only, copied:
        the story says what happened when it happened). ``during``: the showdown was
        already on before these events."""
        start = 0 if during else next((i for i, e in enumerate(events) if e.kind in ("duel_start", "showdown")), None)
        if start is None:
            return
        self.story += [{"kind": e.kind, **copy.deepcopy(dict(e.visible_to(None)))}
                       for e in events[start:] if e.kind in STORY_KINDS]

    def _play(self, player: int, action: Action) -> list[Event]:
        events: list[Event] = []
        kind = action.kind
        if kind == "timeout":
            task = next(t for t in self.tasks if t["id"] == action.arg)
            self._finish_task(task, _cards(task["cards"])[0], events, timed_out=True)
        elif kind in ("pick", "disclose"):
            task = self._task_of(player)
            assert task is not None
            self._finish_task(task, action.cards[0], events)
        elif kind == "declare" and self.phase in (BET, AUCTION, BUY, OFFER):
            self._play_special(player, action, events)  # the Archchancellor; the turn goes on
        elif self.phase == EXCHANGE:
            self._exchange(player, action, events)
        elif self.phase == BET:
            self._bet(player, action, events)
        elif self.phase == AUCTION:
            self._auction(player, action, events)
        elif self.phase == BUY:
            self._buy(player, action, events)
        elif self.phase == OFFER:
            self._offer(player, action, events)
        elif self.phase == DECLARE:
            self._declare(player, action, events)
        elif self.phase == DUEL:
            self._duel_act(player, action, events)
        if self.phase != OVER and not self.tasks and not self.queue:
            self._queue_empty(events)  # e.g. the last disclosure after the declarer left
        if self.phase != OVER and not self.tasks and self.queue:
            events.append(self._turn_event())
        return events

    def _turn_event(self) -> Event:
        p = self.queue[0]
        return Event("turn", p, {"player": p, "phase": self.phase, "step": self.step, "part": self.part,
                                 "owed": self.owed(p)})

    # -- money

    def _pay(self, p: int, n: int) -> None:
        assert 0 <= n <= self.chips[p]
        self.chips[p] -= n
        self.pot += n

    def _hold(self, p: int, n: int) -> None:
        assert 0 <= n <= self.chips[p]
        self.chips[p] -= n
        self.pending[p] += n

    def _return_pending(self, events: list[Event]) -> None:
        """Bets lying near the Pot that nobody matched go back to whoever placed them (told:
        otherwise their chips grow on the board with no word why)."""
        returned = [{"player": p, "amount": v} for p, v in self.pending.items() if v]
        for p, v in self.pending.items():
            self.chips[p] += v
            self.pending[p] = 0
        if returned:
            events.append(Event("bets_returned", None, {"returned": returned}))

    def _pending_to_pot(self, who: Sequence[int] | None = None) -> None:
        for p in (who if who is not None else list(self.pending)):
            self.pot += self.pending[p]
            self.pending[p] = 0

    # -- dealing

    def _draw(self, n: int) -> list[Card]:
        got, self.deck = self.deck[:n], self.deck[n:]
        return got

    def _first_deal(self) -> list[Event]:
        """The Dealer two, the others three (Elder to Younger); the Dealer three, the others two."""
        events = []
        order = self.order_from_elder()
        for dealer_n, other_n in ((2, 3), (3, 2)):
            self.down[self.dealer] += self._draw(dealer_n)
            for p in order:
                self.down[p] += self._draw(other_n)
        for p in [self.dealer] + order:
            events.append(Event("dealt", p, {"player": p, "count": 5, "cards": _codes(self.down[p])},
                                private=True, public_data={"player": p, "count": 5}))
        for p in [self.dealer] + order:
            self._sender_check(p, events)
        return events

    def _sender_check(self, p: int, events: list[Event]) -> None:
        """#8 ii: with wild eights the Sender of Eight is declared as soon as it is dealt."""
        if self.on(8) and self.wild_for(p) and SENDER_OF_EIGHT in self.down[p]:
            self.down[p].remove(SENDER_OF_EIGHT)
            self.up[p].append(SENDER_OF_EIGHT)
            self._record(p, SENDER_OF_EIGHT, "sender", events, forced=True)

    def _record(self, p: int, card: Card, power: str, events: list[Event], forced: bool = False) -> None:
        self.declared.append({"player": p, "card": str(card), "power": power, "forced": forced})
        events.append(Event("declared", p, {"player": p, "card": str(card), "name": card.special or str(card),
                                            "power": power, "forced": forced}))

    # -- folding and ending

    def _fold(self, p: int, events: list[Event], reason: str = "fold") -> None:
        if p in self.folded:
            return
        self.folded.append(p)
        self.discard += self.down[p] + self.up[p] + self.aside[p]
        self.down[p], self.up[p], self.aside[p] = [], [], []
        if p in self.queue:
            self.queue.remove(p)
        for task in [t for t in self.tasks if t["player"] == p]:
            self.tasks.remove(task)
            if task["kind"] == "pick":  # the offered cards go to the discard pot with the hand
                self.discard += _cards(task["cards"])
        events.append(Event("fold", p, {"player": p, "reason": reason}))

    def _lone_winner(self, events: list[Event]) -> bool:
        live = self.live()
        if len(live) == 1:
            self._end(live[0], "last", events)
            return True
        return False

    def _end(self, winner: int | None, outcome: str, events: list[Event]) -> None:
        self.winner = winner
        self.outcome = outcome
        self.queue = []
        for task in self.tasks:  # a Lady's or Fate's choice never made: the offered cards are discarded
            if task["kind"] == "pick":
                self.discard += _cards(task["cards"])
        self.tasks = []
        self._pending_to_pot()
        if winner is None:  # everybody folds: the Pot is next round's ante, the Dealer stays
            self.next_dealer = self.dealer
            events.append(Event("all_fold", None, {"pot": self.pot, "dealer": self.dealer}))
        else:
            won = self.pot
            self.chips[winner] += self.pot
            self.pot = 0
            self.wins[winner] += 1
            self.next_dealer = winner
            events.append(Event("won", winner, {"player": winner, "pot": won, "outcome": outcome}))
        self.phase = OVER
        events.append(Event("game_over", None, {"winner": winner, "placements": self.placements()}))

    # -- the exchange

    def _exchange(self, p: int, action: Action, events: list[Event]) -> None:
        self.queue.pop(0)
        if action.kind == "fold":
            self.exchanged[p] = 5
            events.append(Event("exchange", p, {"player": p, "count": 5}))
            self._fold(p, events)
            if p == self.dealer:
                self._dealer_folded(events)
                return
            if self._lone_winner(events):
                return
        else:
            for c in action.cards:
                self.down[p].remove(c)
            self.discard += list(action.cards)
            new = self._draw(len(action.cards))
            self.down[p] += new
            self.exchanged[p] = len(action.cards)
            events.append(Event("exchange", p, {"player": p, "count": len(action.cards),
                                                "cards": _codes(new)},
                                private=True, public_data={"player": p, "count": len(action.cards)}))
            self._sender_check(p, events)
        if not self.queue:
            self._start_part(1, events)

    # -- betting

    def _start_part(self, part: int, events: list[Event]) -> None:
        if not self.gambling:
            self._second_deal(events) if part == 1 else self._start_declare(events)
            return
        if part > 5:
            self._start_declare(events)
            return
        if self._lone_winner(events):
            return
        self.phase, self.part, self.step, self.amount = BET, part, "name", 0
        self.queue = [self.dealer]
        events.append(Event("betting", None, {"part": part, "raising": part in RAISING_PARTS,
                                              "dealer": self.dealer}))

    def _close_part(self, events: list[Event]) -> None:
        if self._lone_winner(events):
            return
        if self.part == 3:
            self._second_deal(events)
        elif self.part >= 5:
            self._start_declare(events)
        else:
            self._start_part(self.part + 1, events)

    def _bet(self, p: int, action: Action, events: list[Event]) -> None:
        kind = action.kind
        if self.step == "name":
            self.amount = int(action.arg)
            self._pay(p, self.amount)
            events.append(Event("bet", p, {"player": p, "amount": self.amount, "part": self.part}))
            self.step = "respond"
            self.queue = self.order_from_elder()
            if not self.queue:
                self._close_part(events)
            return
        if self.step == "respond":
            self.queue.pop(0)
            if kind == "fold":
                self._fold(p, events)
            else:
                self._pay(p, self.amount)
                raise_by = int(action.arg) if kind == "raise" else 0
                if raise_by:
                    self._hold(p, raise_by)
                events.append(Event("match", p, {"player": p, "amount": self.amount, "raise": raise_by}))
            if not self.queue:
                if self._lone_winner(events):
                    return
                total = sum(self.pending.values())
                if total:
                    self.step = "dealer"
                    self.queue = [self.dealer]
                    events.append(Event("collective_raise", self.dealer, {"dealer": self.dealer, "total": total}))
                else:
                    self._close_part(events)
            return
        # step == "dealer": the collective raise
        self.queue.pop(0)
        if kind == "match":
            total = sum(self.pending.values())
            self._pay(p, total)
            self._pending_to_pot()
            events.append(Event("match", p, {"player": p, "amount": total, "raise": 0}))
            self._close_part(events)
        else:
            # Raises were only placed near the Pot: a refused raise goes back to its raiser.
            self._fold(p, events)
            self._return_pending(events)
            self._dealer_folded(events)

    # -- the auction

    def _dealer_folded(self, events: list[Event]) -> None:
        """The Dealer folded: auction the dealership (the plain variant passes it left)."""
        old = self.dealer
        bidders = self.order_from_elder(old)
        self.resume = {EXCHANGE: 1, BET: self.part + 1, OFFER: AFTER_EXTRA_BETS}.get(self.phase, 1)
        # The last player standing takes the Pot at once: nobody is left to outbid them.
        if self._lone_winner(events):
            return
        if not self.gambling:
            self.dealer = bidders[0]
            events.append(Event("new_dealer", self.dealer, {"player": self.dealer, "bid": 0}))
            if not self.queue:
                self._start_part(self.resume, events)
            return
        self.phase, self.step = AUCTION, ""
        self.bids, self.declined = {}, []
        self.queue = bidders
        events.append(Event("auction", None, {"old_dealer": old, "bidders": bidders}))
        if not bidders:
            self._end(None, "all_fold", events)

    def _auction(self, p: int, action: Action, events: list[Event]) -> None:
        self.queue.pop(0)
        if action.kind == "bid":
            n = int(action.arg)
            self._hold(p, n - self.bids.get(p, 0))
            self.bids[p] = n
            self.queue.append(p)
            events.append(Event("bid", p, {"player": p, "bid": n}))
        else:
            self.declined.append(p)
            self._pending_to_pot([p])  # the decliner's own bid goes into the Pot
            events.append(Event("decline", p, {"player": p, "bid": self.bids.get(p, 0)}))
        if not self.queue:
            self._end(None, "all_fold", events)
            return
        self._auction_check(events)

    def _resume_after_auction(self, events: list[Event]) -> None:
        """The new Dealer carries on with the part after the one the old Dealer folded in."""
        if self.resume == 4:  # folded in the third part: the second deal comes next
            self._second_deal(events)
        elif self.resume == AFTER_EXTRA_BETS:  # folded on the extra bets: the last two parts
            self._start_part(4, events)
        else:
            self._start_part(self.resume, events)

    # -- the second deal, buying, extra bets

    def _second_deal(self, events: list[Event]) -> None:
        if self._lone_winner(events):
            return
        self.down[self.dealer] += self._draw(5)
        events.append(Event("dealt", self.dealer, {"player": self.dealer, "count": 5,
                                                   "cards": _codes(self.down[self.dealer][-5:])},
                            private=True, public_data={"player": self.dealer, "count": 5}))
        self._sender_check(self.dealer, events)
        self.original_dealer = self.dealer
        if not self.gambling:  # plain: nobody can buy, all five face up
            for p in self.order_from_elder():
                self._deal_bought(p, 0, events)
            self._start_declare(events)
            return
        self.phase, self.step, self.part = BUY, "buy", 3
        self.queue = self.order_from_elder()
        if not self.queue:
            self._start_declare(events)

    def _deal_bought(self, p: int, k: int, events: list[Event]) -> None:
        bought = self._draw(k)
        face_up = self._draw(5 - k)
        self.down[p] += bought
        self.up[p] += face_up
        self.bought[p] = k
        events.append(Event("bought", p, {"player": p, "count": k, "cards": _codes(bought),
                                          "face_up": _codes(face_up)},
                            private=True, public_data={"player": p, "count": k, "face_up": _codes(face_up)}))
        self._sender_check(p, events)

    def _buy(self, p: int, action: Action, events: list[Event]) -> None:
        n = int(action.arg)
        if self.step == "buy":
            self._pay(p, n * self.options["stake"])
            self._deal_bought(p, n, events)
            self.step = "extra"
            return
        self._hold(p, n)
        events.append(Event("extra", p, {"player": p, "amount": n}))
        self.queue.pop(0)
        self.step = "buy"
        if not self.queue:
            self._start_offer(events)

    def _start_offer(self, events: list[Event]) -> None:
        total = sum(self.pending.values())
        if total == 0:  # nothing to match
            self._start_part(4, events)
            return
        self.phase, self.step = OFFER, ""
        self.queue = [self.dealer] + self.order_from_elder()
        events.append(Event("extra_total", self.dealer, {"dealer": self.dealer, "total": total}))

    def _offer(self, p: int, action: Action, events: list[Event]) -> None:
        self.queue.pop(0)
        if action.kind == "fold":  # only the Dealer: the unmatched extra bets go back, as refused raises do
            self._fold(p, events)
            self._return_pending(events)
            self._dealer_folded(events)
            return
        if action.kind == "match":
            owed = self.owed(p)
            self._pay(p, owed)
            self._pending_to_pot()
            if p != self.dealer:
                self.dealer = p
                events.append(Event("new_dealer", p, {"player": p, "bid": owed, "passed": True}))
            events.append(Event("match", p, {"player": p, "amount": owed, "raise": 0}))
            self._start_part(4, events)
            return
        events.append(Event("pass", p, {"player": p}))
        if not self.queue:  # full circle back to the original Dealer: everybody folds
            self._end(None, "all_fold", events)

    # -- declarations before the showdown

    def _start_declare(self, events: list[Event]) -> None:
        if self._lone_winner(events):
            return
        self.phase, self.step = DECLARE, ""
        self.queue = self.order_from_elder() + [self.dealer]
        events.append(Event("declarations", None, {"order": list(self.queue)}))

    def _task_of(self, p: int) -> dict[str, Any] | None:
        return next((t for t in self.tasks if t["player"] == p), None)

    def _new_task(self, p: int, kind: str, cards: list[Card], events: list[Event], **extra: Any) -> None:
        self.task_counter += 1
        tid = f"{kind}-{self.task_counter}"
        self.tasks.append({"id": tid, "player": p, "kind": kind, "cards": _codes(cards), **extra})
        seconds = self.options["declare_seconds"]
        events.append(Event("obligation", p, {"id": tid, "seconds": seconds, "kind": kind,
                                              "cards": _codes(cards)},
                            private=True, public_data={"id": tid, "seconds": seconds, "kind": kind}))

    def _declare(self, p: int, action: Action, events: list[Event]) -> None:
        kind = action.kind
        if kind == "done":
            self.queue.pop(0)
            events.append(Event("declare_done", p, {"player": p}))
            if not self.queue:
                self._do_showdown(events)
            return
        self._play_special(p, action, events)

    def _play_special(self, p: int, action: Action, events: list[Event]) -> None:
        """A declaration (or the Lady's rewild), in the declaration round or the duel."""
        if action.kind == "rewild":
            self.rewild.append(p)
            events.append(Event("rewild", p, {"player": p}))
            return
        card, power = action.cards[0], action.arg
        where = "down" if card in self.down[p] else "up"
        if power in ("lady", "fate"):
            (self.down[p] if where == "down" else self.up[p]).remove(card)
            self.aside[p].append(card)
            self._record(p, card, power, events)
            if power == "lady":
                self.lady_user = p
            else:
                self.fate_user = p
            self._new_task(p, "pick", self._draw(2), events, where=where, source=power)
            return
        if where == "down":
            self.down[p].remove(card)
            self.up[p].append(card)
        self._record(p, card, power, events)
        if power == "unwild":
            self.fate_unwild = p
        elif power in ("atuin", "elephants"):
            self.atuin[p] = power
        elif power == "fool":
            self.fool = True
        elif power == "archchancellor":
            self.arch = p
            holder = next((q for q in self.live() if DEATH in self.hand(q)), None)
            if holder is None or not self.on(9):
                self.arch_wild = holder is None
                events.append(Event("archchancellor_wild", p, {"player": p, "wild": self.arch_wild}))
                return
            if DEATH in self.down[holder]:
                self.down[holder].remove(DEATH)
                self.up[holder].append(DEATH)
            if not any(d["card"] == str(DEATH) for d in self.declared):
                self._record(holder, DEATH, "death", events, forced=True)
                if self.duel is not None:  # what the hands laid re-form under
                    self.duel["cause"] = {"player": holder, "cards": [str(DEATH)], "power": "death", "forced": True}
            laid = self.duel["laid"] if self.duel else []  # a laid hand has nothing left to disclose
            for q in self.live():
                if q not in (p, holder) and self.down[q] and q not in laid:
                    self._new_task(q, "disclose", _sorted(self.down[q]), events)

    def _finish_task(self, task: dict[str, Any], card: Card, events: list[Event], timed_out: bool = False) -> None:
        p = task["player"]
        self.tasks.remove(task)
        if task["kind"] == "pick":
            offered = _cards(task["cards"])
            (self.down[p] if task["where"] == "down" else self.up[p]).append(card)
            self.discard += [c for c in offered if c != card]
            events.append(Event("picked", p, {"player": p, "card": str(card), "source": task["source"],
                                              "timeout": timed_out},
                                private=task["where"] == "down",
                                public_data={"player": p, "source": task["source"], "timeout": timed_out}))
            self._sender_check(p, events)
        else:
            self.down[p].remove(card)
            self.up[p].append(card)
            events.append(Event("disclosed", p, {"player": p, "card": str(card), "timeout": timed_out}))
        if self.phase == DUEL and not self.tasks:
            self._duel_continue(events)  # the Lady's replacement or the disclosures are in

    # -- the showdown

    def context_for(self, p: int) -> ScoringContext:
        wild = self.wild_for(p)
        visible = set(self.visible_cards())
        lady_holder = next((q for q in self.live() if LADY in self.hand(q)), None)
        return ScoringContext(
            null_eights=self.on(1) and not wild,
            eights_wild=wild,
            lady_devalues=self.on(4) and wild and lady_holder is not None and lady_holder != p,
            aces_zeroed=self.on(5) and self.fate_user is not None and self.lady_user == p,
            sender=self.on(8) and SENDER_OF_EIGHT in visible,
            atuin=self.atuin.get(p) == "atuin",
            elephants=self.atuin.get(p) == "elephants",
            death=self.on(9) and DEATH in visible,
            archchancellor=self.on(10),
            archchancellor_declared=self.arch == p,
            archchancellor_wild=self.arch == p and self.arch_wild,
            fool=self.on(11) and self.fool,
        )

    def arrange(self, p: int) -> Arrangement:
        arr = _best(tuple(self.hand(p)), self.context_for(p))
        return self._house_adjust(arr)

    def _house_adjust(self, arr: Arrangement) -> Arrangement:
        """Modifier switches the evaluator has no field for (#0, #2, #3)."""
        if not self.on(0):
            arr = dataclasses.replace(arr, running_flush=None)
        if not self.on(3) and any(g.kind == ("Octavo",) for g in arr.groupings):
            rank = grouping_order(arr.fool).index("Lesser Onion")
            groups = tuple(sorted((Grouping(("Onion", 4), g.cards, rank, g.shown, g.wilds)
                                   if g.kind == ("Octavo",) else g for g in arr.groupings),
                                  key=lambda g: -g.rank))
            arr = dataclasses.replace(arr, groupings=groups)
        return arr

    def _do_showdown(self, events: list[Event]) -> None:
        if self.options.get("showdown") == "millard" and len(self.live()) > 1:
            self._start_duel(events)
            return
        order = self.order_from_elder() + [self.dealer]  # showdown from the Elder
        # Every hand is laid at once, so every card of each is visible while they are scored.
        self.showdown = [{"player": p} for p in order]
        arrangements = [self.arrange(p) for p in order]
        compared = arrangements if self.on(2) else [dataclasses.replace(a, eights_wild=False) for a in arrangements]
        best = showdown_winners(compared)
        seniority = {p: i for i, p in enumerate(self.precedence())}
        winner = min((order[i] for i in best), key=seniority.__getitem__)
        self.null_played = any(g.null_eights for a in arrangements for g in a.groupings)
        self.showdown = []
        for p, a in zip(order, arrangements):
            entry = {"player": p, "cards": _codes(a.cards), "grouped": _grouped_codes(a), "explanation": a.explain(),
                     "groupings": [g.name for g in a.groupings], "best": order.index(p) in best,
                     "cripples": None}
            self.showdown.append(entry)
            events.append(Event("showdown", p, {**entry, "how": "quick"}))
        top = arrangements[order.index(winner)]
        if top.key != max(a.key for a in arrangements):  # won by crippling the best hand
            victim = order[max(range(len(order)), key=lambda i: arrangements[i].key)]
            self.showdown[order.index(winner)]["cripples"] = victim
            events.append(Event("crippled", winner, {"player": winner, "victim": victim,
                                                     "run": top.running_flush.describe()}))
        tie = len(best) > 1
        self._end(winner, "seniority" if tie else "showdown", events)

    # -- Millard's showdown (house rule ``showdown: millard``)

    def _layout(self, p: int) -> list[str] | None:
        """The top grouping ``p`` chose to lay their hand around (a rearrangement), if any."""
        d = self.duel
        return next((top for q, top in d.get("layouts", []) if q == p), None) if d else None

    def _set_layout(self, p: int, top: Sequence[Card] | None) -> None:
        d = self.duel
        assert d is not None
        d["layouts"] = [[q, t] for q, t in d.get("layouts", []) if q != p] + ([[p, _codes(top)]] if top else [])

    def _duel_arrangement(self, p: int) -> Arrangement:
        """``p``'s hand as laid in the duel: at its best, or around the grouping they chose
        (re-formed inside that choice when a modifier changes its worth)."""
        top = self._layout(p)
        if top:
            hand, cards = self.hand(p), _cards(top)
            if all(c in hand for c in cards):
                a = laid_as(hand, cards, self.context_for(p))
                if a is not None:
                    return self._house_adjust(a)
        return self.arrange(p)

    def _compared(self, p: int) -> Arrangement:
        """``p``'s hand laid now, as the showdown compares it (house switches applied)."""
        a = self._duel_arrangement(p) if self.duel else self.arrange(p)
        return a if self.on(2) else dataclasses.replace(a, eights_wild=False)

    def _pair_winner(self, a: int, b: int) -> tuple[int, bool]:
        """Who holds the better cards of ``a`` and ``b`` now (crippling counts), and whether
        it was a complete tie settled by seniority."""
        arrangements = [self._compared(a), self._compared(b)]
        victim = next((e["cripples"] for e in self.showdown if e["player"] == a and e.get("cripples") is not None), None)
        if victim is not None:
            # A crippler "hence wins the game": it holds the crippled Onion's place, so a
            # later hand must beat that Onion or out-cripple it (a longer run).
            best = [i - 1 for i in showdown_winners([self._compared(victim), *arrangements]) if i > 0] or [0]
        else:
            best = showdown_winners(arrangements)
        if len(best) == 2:
            senior = min((a, b), key=self.precedence().index)
            return senior, True
        return (a, b)[best[0]], False

    def _may_show(self, p: int) -> bool:
        """The challenger may show when their hand equals the laid hand's highest grouping
        or beats it (a cripple included); a laid hand is already shown."""
        d = self.duel
        if not d or p != d.get("challenger") or d.get("step") != "challenge":
            return False
        view = self._laid_view(p)
        if view is not self:
            return view._may_show(p)
        mine, theirs = self._compared(p), self._compared(d["champion"])
        return mine.key[:1] >= theirs.key[:1] or self._pair_winner(d["champion"], p)[0] == p

    def _laid_view(self, p: int) -> OnionGame:
        """The round as it would be with ``p``'s hand laid face up: itself, unless laying it
        would bring a K⚔ or J♦ into view (they act once visible), then a copy where it is."""
        d = self.duel
        if (d is None or p in self.laid_players()
                or not ((DEATH in self.down[p] and self.on(9)) or (SENDER_OF_EIGHT in self.down[p] and self.on(8)))):
            return self
        view = copy.deepcopy(self)
        assert view.duel is not None
        view.duel["showing"] = p
        return view

    def _opponent(self, p: int) -> int | None:
        d = self.duel
        if not d or p not in (d["champion"], d["challenger"]):
            return None
        return d["challenger"] if p == d["champion"] else d["champion"]

    def _duel_modifiers(self, p: int) -> list[Action]:
        """What ``p`` may play now: the declarations the rules allow them, but the Fool
        (declared "immediately before Showdown" only), and only those that answer: a modifier
        that would change the hand opposite ("affects the Elder's cards"), better ``p``'s own
        hand, or turn the duel ``p``'s way (docs/rules/onion.md, section 7)."""
        other = self._opponent(p)
        if other is None:
            return []
        return [a for a in self._declarations(p) if a.arg != "fool" and self._answers(p, other, a)]

    def _unseen_by(self, p: int) -> list[Card]:
        """One card of each kind ``p`` has not seen (what the Lady or Fate may bring)."""
        seen = set(self.hand(p)) | {c for q in self.players for c in self.aside[q]} | set(self.visible_cards())
        seen |= {c for e in self.showdown for c in _cards(e["cards"])}
        kinds: dict[tuple, Card] = {}
        for c in onion_deck():
            if c not in seen:
                kinds.setdefault((c.rank, c.paired_suit, c in SPECIAL_CARDS and c), c)
        return list(kinds.values())

    def _answers(self, p: int, other: int, action: Action) -> bool:
        """Would playing ``action`` now change the hand opposite, better ``p``'s own hand or
        turn this duel ``p``'s way? Tried on a copy of the round; the Lady's or Fate's
        replacement is unknown, so it answers if some card ``p`` has not seen would."""
        theirs, mine = self._compared(other), self._compared(p)
        won = self._pair_winner(*self._pair())[0] == p

        def signature(a: Arrangement) -> tuple:
            rf = a.running_flush
            return a.key, (rf.length, rf.wilds) if rf else None

        def changed(g: OnionGame) -> bool:
            if signature(g._compared(other)) != signature(theirs) or g._compared(p).key > mine.key:
                return True
            return not won and g._pair_winner(*g._pair())[0] == p

        sim = copy.deepcopy(self)
        sim._play_special(p, action, [])
        pick = next((t for t in sim.tasks if t["player"] == p and t["kind"] == "pick"), None)
        sim.tasks = []  # disclosures turn cards face up; they change no hand's worth
        if pick is None:
            return changed(sim)
        place = sim.down[p] if pick["where"] == "down" else sim.up[p]
        for card in self._unseen_by(p):
            place.append(card)
            if changed(sim):
                return True
            place.remove(card)
        return False

    def _pair(self) -> tuple[int, int]:
        d = self.duel
        assert d is not None
        return d["champion"], d["challenger"]

    def _dodges(self, p: int) -> list[list[Card]]:
        """Smaller tops ``p`` may lay their hand around instead of a top grouping the hand
        opposite can cripple (a Greater or Lesser Onion, a great bagel under the Fool): the
        only case where a hand laid otherwise than at its best can do better (section 7)."""
        other = self._opponent(p)
        best = self.arrange(p)
        if other is None or best.top is None or best.top.kind not in _CRIPPLEABLE:
            return []
        theirs = self._compared(other)
        if theirs.running_flush is None:
            return []
        family, n = _CRIPPLEABLE[best.top.kind], best.top.kind[1]
        ctx, hand = self.context_for(p), self.hand(p)
        # Only the largest top the run cannot cripple matters: a smaller one ranks lower.
        for m in range(n - 1, 1, -1):
            found: Arrangement | None = None
            tried = set()
            for top in combinations(best.top.cards, 2 * m):
                sig = tuple(sorted((c.rank, c.paired_suit) for c in top))
                if sig in tried:
                    continue
                tried.add(sig)
                a = laid_as(hand, list(top), ctx, best)
                if a is not None and a.top is not None and a.top.kind == (family, m) and (
                        found is None or a.key > found.key):
                    found = a
            if found is not None and not cripples(theirs.running_flush, found.top, found.eights_wild and self.on(2),
                                                  found.fool):
                return [list(found.top.cards)]
        return []

    def _rearrangements(self, p: int) -> list[Action]:
        """The other ways ``p`` may lay their hand that would hold the better cards against
        the hand opposite: before showing (a smaller top that escapes a cripple), or once,
        when beaten, a laid hand that is not laid at its best (section 7)."""
        d = self.duel
        other = self._opponent(p)
        if d is None or other is None:
            return []
        laid = p in d["laid"]
        if not laid and not (p == d["challenger"] and d["step"] == "challenge"):
            return []
        view = self._laid_view(p)
        if view is not self:
            return view._rearrangements(p)
        if laid and (d["step"] != "answer" or d.get("loser") != p or p in d.get("rearranged", [])
                     or d.get("cripples") == p):  # a crippled Onion "may not be retracted"
            return []
        current = self._layout(p)
        options: list[list[Card] | None] = ([None] if laid and current else []) + self._dodges(p)
        out = []
        for top in options:
            if top is not None and current == _codes(top):
                continue
            self._set_layout(p, top)
            try:
                holds = self._pair_winner(*self._pair())[0] == p
            finally:
                self._set_layout(p, _cards(current) if current else None)
            if holds:
                name = "best" if top is None else _MULTIPLE_NAMES[_CRIPPLEABLE[self.arrange(p).top.kind]][len(top) // 2]
                out.append(Action("rearrange", tuple(top or ()), name))
        return out

    def _laid_record(self, p: int) -> dict[str, Any]:
        """``p``'s hand as it lies now: the record the board shows (a re-form updates it)."""
        a = self._duel_arrangement(p)
        return {"cards": _codes(a.cards), "grouped": _grouped_codes(a), "explanation": a.explain(),
                "groupings": [g.name for g in a.groupings]}

    def _lay(self, p: int, events: list[Event], how: str) -> None:
        """``p``'s hand goes face up on the table in its groupings (once). ``how`` says why,
        for the story: "elder" (laid first), "shown", "otherwise" (around another grouping),
        "cannot" (it can neither equal nor beat the hand laid), "conceded" (given up
        unshown), "held" (the other duellist left)."""
        d = self.duel
        assert d is not None
        if p in d["laid"]:
            return
        d["laid"].append(p)
        d.pop("showing", None)
        entry = {"player": p, **self._laid_record(p), "best": False, "cripples": None}
        self.showdown.append(entry)
        # The event keeps the hand as laid: the record itself changes when it re-forms.
        events.append(Event("showdown", p, {**copy.deepcopy(entry), "how": how}))
        revealed = [str(c) for c in (DEATH, SENDER_OF_EIGHT)
                    if c in self.down[p] and self.on(9 if c == DEATH else 8)]
        if revealed:  # visible now, they act on every hand: the hands laid before re-form
            d["cause"] = {"player": p, "cards": revealed, "power": "laid"}
            self._reform(events)

    def _reform(self, events: list[Event], quiet: bool = False) -> None:
        """After a modifier, each laid hand it changed is re-formed, once, at its best under
        the modifiers now in play (the closing post's one re-forming after a devaluing
        modifier; a hand changes only when a modifier is played, and each is played once).
        The event says what the hand was and what caused it (``duel["cause"]``)."""
        d = self.duel
        cause = copy.deepcopy(d.get("cause")) if d else None
        for entry in self.showdown:
            p = entry["player"]
            if p not in self.live():
                continue
            now = self._laid_record(p)
            if now["explanation"] != entry["explanation"]:
                was = list(entry["groupings"])
                entry.update(now)
                if not quiet:
                    events.append(Event("reformed", p, {"player": p, "explanation": now["explanation"],
                                                        "groupings": now["groupings"], "was": was, "cause": cause}))

    def _start_duel(self, events: list[Event]) -> None:
        order = self.order_from_elder() + [self.dealer]
        self.phase, self.step, self.showdown, self.story = DUEL, "", [], []
        self.duel = {"champion": order[0], "challenger": None, "queue": order[1:], "step": "", "loser": None,
                     "laid": [], "conceded": [], "tie": False, "cripples": None, "layouts": [], "rearranged": [],
                     "lead": None, "cause": None}
        events.append(Event("duel_start", None, {"order": order}))
        self._lay(order[0], events, "elder")  # beginning from the Elder, the hand is displayed
        self._duel_next(events)

    def _duel_next(self, events: list[Event]) -> None:
        """Bring in the next player against the holder of the better cards so far."""
        d = self.duel
        assert d is not None
        d["queue"] = [p for p in d["queue"] if p in self.live()]
        if not d["queue"]:
            self._duel_finish(events)
            return
        x = d["queue"].pop(0)
        d.update(challenger=x, step="challenge", loser=None, lead=None)
        events.append(Event("duel", x, {"champion": d["champion"], "challenger": x}))
        self._duel_ask(x, events)

    def _duel_ask(self, p: int, events: list[Event]) -> None:
        """Ask ``p`` to answer, or answer for them when there is nothing to choose: with no
        modifier to play, a hand that may be shown is shown, and one that may not concedes."""
        self.queue = []
        if self._rearrangements(p) or self._duel_modifiers(p):
            self.queue = [p]
            return
        if self._may_show(p):
            self._duel_show(p, events)
        else:
            self._duel_concede(p, events, forced=True)

    def _duel_act(self, p: int, action: Action, events: list[Event]) -> None:
        self.queue = []
        if action.kind == "show":
            self._duel_show(p, events)
        elif action.kind == "concede":
            self._duel_concede(p, events)
        elif action.kind == "rearrange":
            self._duel_rearrange(p, action, events)
        else:
            assert self.duel is not None
            card = action.cards[0] if action.cards else LADY  # the rewild is the Lady's
            self.duel["cause"] = {"player": p, "cards": [str(card)], "power": action.arg or action.kind}
            self._play_special(p, action, events)
            if not self.tasks:
                self._duel_continue(events)
            else:  # the table shows the hand as it is while the Lady's choice or disclosures wait
                self._reform(events, quiet=True)

    def _duel_show(self, p: int, events: list[Event]) -> None:
        d = self.duel
        assert d is not None
        self._lay(p, events, "shown")
        d["step"] = "answer"
        self._duel_continue(events)

    def _duel_rearrange(self, p: int, action: Action, events: list[Event]) -> None:
        """``p`` lays their hand around another top grouping (before showing), or re-forms a
        laid hand, once (the closing post's guard against endless re-forming)."""
        d = self.duel
        assert d is not None
        self._set_layout(p, action.cards or None)
        if p not in d["laid"]:
            self._lay(p, events, "otherwise")
            d["step"] = "answer"
        else:
            d.setdefault("rearranged", []).append(p)  # (a duel saved before this key had none)
            entry = next(e for e in self.showdown if e["player"] == p)
            was = list(entry["groupings"])
            entry.update(self._laid_record(p))
            events.append(Event("rearranged", p, {"player": p, "explanation": entry["explanation"],
                                                  "groupings": list(entry["groupings"]), "was": was}))
        self._duel_continue(events)

    def _duel_continue(self, events: list[Event]) -> None:
        """After a show or a modifier: re-form what changed, then whoever is now losing the
        duel answers (the challenger who has not shown answers the laid hand)."""
        d = self.duel
        assert d is not None
        self._reform(events)
        c, x = d["champion"], d["challenger"]
        if x is None or x not in self.live() or c not in self.live():
            self._duel_fix(events)
            return
        if d["step"] == "challenge":
            self._duel_ask(x, events)
            return
        winner, tie = self._pair_winner(c, x)
        loser = x if winner == c else c
        # Won by crippling: the winner's running flush against a higher Onion.
        w, lo = self._compared(winner), self._compared(loser)
        d["cripples"] = loser if not tie and w.key < lo.key and showdown_winners([lo, w]) == [1] else None
        lead = {"winner": winner, "loser": loser, "tie": tie, **self._why_ahead(winner, loser, w, lo, tie)}
        d.update(loser=loser, tie=tie, lead=lead)
        events.append(Event("duel_lead", winner, copy.deepcopy(lead)))
        self._duel_ask(loser, events)

    def _why_ahead(self, winner: int, loser: int, w: Arrangement, lo: Arrangement, tie: bool) -> dict[str, Any]:
        """Why ``winner``'s hand (laid as ``w``) holds against ``loser``'s (``lo``), for the
        board: "grouping" (the first grouping that differs, ``at`` from 0, and the two
        names), "cripple" (a running flush against ``grouping``), "crippled_place" (the
        winner crippled ``victim`` before and holds that Onion's place) or "seniority"."""
        d = self.duel
        assert d is not None
        if tie:
            return {"how": "seniority"}
        if d.get("cripples") == loser:
            run = w.running_flush.describe() if w.running_flush else "running flush"
            return {"how": "cripple", "run": run, "grouping": lo.top.name if lo.top else ""}
        if w.key < lo.key:
            victim = next((e["cripples"] for e in self.showdown
                           if e["player"] == winner and e.get("cripples") is not None), None)
            held = next((e for e in self.showdown if e["player"] == victim), None)
            if held is not None:
                return {"how": "crippled_place", "victim": victim, "grouping": (held["groupings"] or [""])[0]}
        at = next((i for i, (a, b) in enumerate(zip(w.key, lo.key)) if a != b), min(len(w.key), len(lo.key)))

        def name(arrangement: Arrangement) -> str:
            return arrangement.groupings[at].name if at < len(arrangement.groupings) else ""

        return {"how": "grouping", "at": at, "a": name(w), "b": name(lo)}

    def _duel_concede(self, p: int, events: list[Event], forced: bool = False) -> None:
        """``p`` cannot (or will not) answer: their cards lie face up, the other holds the
        better cards and faces the next player."""
        d = self.duel
        assert d is not None
        step = d["step"]
        self._lay(p, events, "cannot" if forced else "conceded")
        c, x = d["champion"], d["challenger"]
        winner = c if p == x else x
        mine = next(e for e in self.showdown if e["player"] == winner)
        crippled = step == "answer" and d.get("loser") == p and d.get("cripples") == p
        if step == "answer" and d.get("loser") == p:
            if d.get("tie"):  # the winner held on by seniority
                mine["seniority"] = True
            if crippled and mine["cripples"] is None:  # "may not be retracted"
                mine["cripples"] = p
        if not forced:  # a hand given up while it still had an answer
            next(e for e in self.showdown if e["player"] == p)["conceded"] = True
        d["conceded"].append(p)
        events.append(Event("concede", p, {"player": p, "winner": winner, "forced": forced, "step": step,
                                           "crippled": crippled}))
        d.update(champion=winner, challenger=None, step="", loser=None, lead=None)
        self._duel_next(events)

    def _duel_fix(self, events: list[Event]) -> None:
        """A duellist left (and folded): the other holds on, or the next player comes in."""
        d = self.duel
        assert d is not None
        live = self.live()
        c, x = d["champion"], d["challenger"]
        if c not in live:
            if x is not None and x in live:
                self._lay(x, events, "held")
                c = x
            else:
                d["queue"] = [p for p in d["queue"] if p in live]
                if d["queue"]:
                    c = d["queue"].pop(0)
                    self._lay(c, events, "held")
                else:  # only hands already beaten are left: the best of them holds on
                    order = [p for p in self.precedence() if p in live]
                    c = order[min(showdown_winners([self._compared(p) for p in order]))]
        d.update(champion=c, challenger=None, step="", loser=None, lead=None)
        self._duel_next(events)

    def _duel_finish(self, events: list[Event]) -> None:
        d = self.duel
        assert d is not None
        winner = d["champion"]
        self.null_played = any(g.null_eights for p in self.live() for g in self._duel_arrangement(p).groupings)
        mine = self._compared(winner)
        for entry in self.showdown:
            entry["best"] = entry["player"] == winner
        victim = next(e for e in self.showdown if e["player"] == winner)["cripples"]
        if victim is not None:  # the survivor crippled a hand on the way
            run = mine.running_flush.describe() if mine.running_flush else "running flush"
            events.append(Event("crippled", winner, {"player": winner, "victim": victim, "run": run}))
        self.duel = None
        tie = bool(next(e for e in self.showdown if e["player"] == winner).get("seniority"))
        self._end(winner, "seniority" if tie else "showdown", events)

    # ------------------------------------------------------------------ platform hooks

    def placements(self) -> list[list[int]]:
        dealt = [p for p in self.players if p not in self.out]
        if self.winner is None:
            return [dealt] if dealt else []
        rest = [p for p in dealt if p != self.winner]
        return [[self.winner]] + ([rest] if rest else [])

    def timeout_action(self, player: int) -> Action:
        task = self._task_of(player)
        if task is not None:
            return Action("timeout", arg=task["id"])
        if self.phase == EXCHANGE:
            return Action("discard")
        if self.phase == BET:
            if self.step == "name":
                return Action("bet", arg="0")
            return Action("match") if self.owed(player) == 0 else Action("fold")
        if self.phase == AUCTION:
            return Action("decline")
        if self.phase == BUY:
            return Action("buy", arg="0") if self.step == "buy" else Action("extra", arg="0")
        if self.phase == OFFER:
            return Action("match") if self.owed(player) == 0 else Action("pass")
        if self.phase == DUEL:  # the cards speak: laid so that they hold, else shown if they equal or beat
            rearranged = self._rearrangements(player)
            if rearranged:
                return rearranged[0]
            return Action("show") if self._may_show(player) else Action("concede")
        return Action("done")

    def remove_player(self, player: int) -> list[Event]:
        """A leaver folds. If the Dealer leaves, the round is abandoned: bets not yet in the
        Pot go back, the Pot carries to the next round, and the next player deals."""
        during = self.phase == DUEL
        events = self._remove(player)
        self._tell(events, during)
        return events

    def _remove(self, player: int) -> list[Event]:
        events: list[Event] = []
        if player not in self.players or player in self.left:
            return events
        self.left.append(player)
        events.append(Event("player_removed", player, {"player": player}))
        if self.phase == OVER or player in self.out or player in self.folded:
            return events
        if player == self.dealer:
            self._fold(player, events, reason="left")
            self._return_pending(events)
            if self._lone_winner(events):  # the last player standing takes the Pot
                return events
            live = self.order_from_elder(player)
            self.dealer = live[0] if live else player
            self._end(None, "abandoned", events)
            return events
        was_first = bool(self.queue) and self.queue[0] == player
        if self.phase == AUCTION:
            self._pending_to_pot([player])  # a leaver's bid stays in the Pot and stops counting
            self.bids.pop(player, None)
        self._fold(player, events, reason="left")
        if self._lone_winner(events):
            return events
        if self.phase == DUEL and self.duel and player in (self.duel["champion"], self.duel["challenger"]):
            if not self.tasks:
                self._duel_fix(events)
            if self.phase != OVER and not self.tasks and self.queue:
                events.append(self._turn_event())
            return events
        if was_first and self.phase == BUY:
            self.step = "buy"
        if not self.queue and not self.tasks:
            self._queue_empty(events)
        elif self.phase == AUCTION:
            self._auction_check(events)
        if self.phase != OVER and not self.tasks and self.queue:
            events.append(self._turn_event())
        return events

    def _auction_check(self, events: list[Event]) -> None:
        rem = self.queue
        if len(rem) == 1 and self.bids and self.bids.get(rem[0], 0) == max(self.bids.values()):
            winner = rem[0]
            self._pending_to_pot([winner])
            self.dealer = winner
            events.append(Event("new_dealer", winner, {"player": winner, "bid": self.bids[winner]}))
            self.queue = []
            if not self._lone_winner(events):
                self._resume_after_auction(events)

    def _queue_empty(self, events: list[Event]) -> None:
        """A leaver was the last one the current step waited for."""
        if self.phase == EXCHANGE:
            self._start_part(1, events)
        elif self.phase == BET:
            if self.step == "respond" and sum(self.pending.values()):
                self.step, self.queue = "dealer", [self.dealer]
            else:
                self._close_part(events)
        elif self.phase == AUCTION:
            self._end(None, "all_fold", events)
        elif self.phase == BUY:
            self._start_offer(events)
        elif self.phase == OFFER:
            self._end(None, "all_fold", events)
        elif self.phase == DECLARE:
            self._do_showdown(events)
        elif self.phase == DUEL:
            self._duel_continue(events)

    def carry_out(self) -> dict[str, Any]:
        # A computer standing in for a leaver (see _replace_player) played their stack:
        # what the seat holds now is the leaver's in the session, none of it the computer's.
        stood = {a["stand_in"]: int(p) for p, a in self.absent.items() if "stand_in" in a}
        away = {p: a for p, a in self.absent.items() if "stand_in" not in a}
        owner = lambda p: str(stood.get(p, p))  # noqa: E731
        return {
            "round": self.round_no,
            "variant": self.options["variant"],
            "bankrolls": {**{p: a["chips"] for p, a in away.items()}, **{owner(p): v for p, v in self.chips.items()}},
            "dealer": self.next_dealer if self.phase == OVER else self.dealer,
            "eights_wild": bool(self.on(1) and self.null_played),
            "pot": self.pot if self.phase == OVER else 0,
            "wins": {**{p: a["wins"] for p, a in away.items()}, **{owner(p): v for p, v in self.wins.items()}},
            "rebuys": {**{p: a["rebuys"] for p, a in away.items()}, **{owner(p): v for p, v in self.rebuys.items()}},
            # Who cannot ante next round (none when the Pot carries: it is the ante).
            "out": [stood.get(p, p) for p in self.players if self.gambling and self.chips[p] < self.options["stake"]
                    and self.options["rebuy"] == "off" and not (self.phase == OVER and self.pot)],
        }

    # ------------------------------------------------------------------ views

    def observation(self, player: int | None) -> dict[str, Any]:
        viewer = player if player in self.players else None
        seats = []
        for p in self.players:
            seats.append({
                "player": p, "chips": self.chips[p], "pending": self.pending[p],
                "down": len(self.down[p]), "up": _codes(self.up[p]), "aside": _codes(self.aside[p]),
                "folded": p in self.folded, "out": p in self.out, "left": p in self.left,
                "exchanged": self.exchanged.get(p), "bought": self.bought.get(p),
                "bid": self.bids.get(p) if self.phase == AUCTION else None,
                "declined": p in self.declined if self.phase == AUCTION else False,
                "role": ("Dealer" if p == self.dealer else "Elder" if p == self.elder()
                         else "Younger" if p == self.younger() else ""),
                "eights_wild": self.wild_for(p),
            })
        laid = self.laid_players()
        visible = [c for p in self.players for c in (self.hand(p) if p in laid and p in self.live() else self.up[p])
                   + self.aside[p]]
        obs: dict[str, Any] = {
            "game": self.key, "viewer": viewer, "round": self.round_no, "variant": self.options["variant"],
            "phase": self.phase, "step": self.step, "part": self.part,
            "raising": self.part in RAISING_PARTS, "amount": self.amount,
            "players": list(self.players), "seats": seats, "dealer": self.dealer,
            "elder": self.elder(), "younger": self.younger(), "precedence": self.precedence(),
            "current": sorted(self.current_players()),
            "pot": self.pot, "carried_pot": self.carried_pot, "stake": self.options["stake"],
            "cap": self.cap(), "deck_size": len(self.deck), "discard_size": len(self.discard),
            "eights_wild": self.round_wild and self.on(1), "fate_unwild": self.fate_unwild,
            "fool": self.fool, "declared": [dict(d) for d in self.declared],
            "specials": special_names(visible),
            "auction": {"bids": {str(k): v for k, v in self.bids.items()}, "declined": list(self.declined),
                        "minimum": self.min_bid()} if self.phase == AUCTION else None,
            "owed": {str(p): self.owed(p) for p in self.current_players()} if self.phase in (BET, OFFER) else {},
            "tasks": [{"id": t["id"], "player": t["player"], "kind": t["kind"]} for t in self.tasks],
            "showdown": [dict(s) for s in self.showdown], "winner": self.winner, "outcome": self.outcome,
            "duel": ({k: copy.deepcopy(self.duel.get(k, [])) for k in ("champion", "challenger", "step", "loser", "laid",
                                                                 "conceded", "rearranged", "layouts")}
                     | {"to_come": list(self.duel["queue"]), "lead": copy.deepcopy(self.duel.get("lead"))}
                     if self.duel else None),
            "story": copy.deepcopy(self.story),
            "over": self.phase == OVER, "rules": {k: v for k, v in self.options.items()},
            "wins": {str(p): v for p, v in self.wins.items()},
        }
        if viewer is not None:
            obs["hand"] = _codes(_sorted(self.down[viewer]))
            obs["face_up"] = _codes(self.up[viewer])
            obs["hand_specials"] = special_names(self.hand(viewer))
            task = self._task_of(viewer)
            obs["offered"] = task["cards"] if task else []
            obs["may_show"] = self.phase == DUEL and self._may_show(viewer)
            obs["duel_view"] = self.duel_view(viewer)
        return obs

    #: Modifiers whose effect in the duel cannot be told before they are played without
    #: telling a hidden card: the Lady's and Fate's replacement is unknown, and whether
    #: the Archchancellor forces Death out or turns wild says who holds K⚔.
    UNTOLD = ("lady", "fate", "archchancellor")

    def duel_view(self, p: int) -> dict[str, Any] | None:
        """For ``p`` answering in the duel: the hand they face (``opponent``'s, as it lies),
        their own hand as it would be laid now and who would then hold the better cards,
        and for each answer that changes a hand (a modifier, another way of laying it) both
        hands after it, as they would lie once ``p``'s hand is laid; ``untold`` for the
        modifiers in :attr:`UNTOLD`. ``revealed``: the K⚔ or J♦ that laying ``p``'s hand
        would bring into view, with the hand opposite as it would then lie. None when ``p``
        has no answer to give now. Only the public table and ``p``'s own cards go in."""
        other = self._opponent(p)
        if other is None or self.phase != DUEL or p not in self.current_players() or self.tasks:
            return None

        def names(a: Arrangement) -> list[str]:
            return [g.name for g in a.groupings]

        def after(game: OnionGame) -> dict[str, Any]:
            laid = game._laid_view(p)
            mine, theirs = laid._compared(p), laid._compared(other)
            return {"mine": mine.explain(), "mine_groupings": names(mine), "theirs_after": names(theirs),
                    "leader": laid._pair_winner(*laid._pair())[0]}

        theirs = self._compared(other)
        out: dict[str, Any] = {"opponent": other, "theirs": theirs.explain(), "theirs_groupings": names(theirs),
                               **after(self), "revealed": [], "answers": []}
        if self._laid_view(p) is not self:
            out["revealed"] = [str(c) for c in (DEATH, SENDER_OF_EIGHT) if c in self.down[p]]
        for action in self.legal_actions(p):
            if action.kind not in ("declare", "rewild", "rearrange"):
                continue
            if action.kind == "declare" and action.arg in self.UNTOLD:
                out["answers"].append({"code": action.code(), "untold": True})
                continue
            sim = copy.deepcopy(self)
            if action.kind == "rearrange":
                sim._set_layout(p, action.cards or None)
            else:
                sim._play_special(p, action, [])
                sim.tasks = []
            out["answers"].append({"code": action.code(), **after(sim)})
        return out

    # ------------------------------------------------------------------ persistence

    def to_dict(self) -> dict[str, Any]:
        per = lambda d: {str(p): _codes(v) for p, v in d.items()}  # noqa: E731
        return {
            "key": self.key, "version": 1, "players": list(self.players), "options": dict(self.options),
            "seed": self.seed, "round": self.round_no,
            "chips": {str(p): v for p, v in self.chips.items()},
            "wins": {str(p): v for p, v in self.wins.items()},
            "rebuys": {str(p): v for p, v in self.rebuys.items()},
            "pot": self.pot, "carried_pot": self.carried_pot,
            "pending": {str(p): v for p, v in self.pending.items()},
            "out": list(self.out), "folded": list(self.folded), "left": list(self.left),
            "dealer": self.dealer, "original_dealer": self.original_dealer, "next_dealer": self.next_dealer,
            "deck": _codes(self.deck), "discard": _codes(self.discard),
            "down": per(self.down), "up": per(self.up), "aside": per(self.aside),
            "exchanged": {str(p): v for p, v in self.exchanged.items()},
            "bought": {str(p): v for p, v in self.bought.items()},
            "phase": self.phase, "step": self.step, "part": self.part, "amount": self.amount,
            "queue": list(self.queue), "bids": {str(p): v for p, v in self.bids.items()},
            "declined": list(self.declined), "resume": self.resume,
            "round_wild": self.round_wild, "fate_unwild": self.fate_unwild, "rewild": list(self.rewild),
            "declared": [dict(d) for d in self.declared], "lady_user": self.lady_user,
            "fate_user": self.fate_user, "atuin": {str(p): v for p, v in self.atuin.items()},
            "arch": self.arch, "arch_wild": self.arch_wild, "fool": self.fool,
            "tasks": [dict(t) for t in self.tasks], "task_counter": self.task_counter,
            "showdown": [dict(s) for s in self.showdown], "winner": self.winner, "outcome": self.outcome,
            "null_played": self.null_played, "absent": {p: dict(a) for p, a in self.absent.items()},
            "duel": copy.deepcopy(self.duel) if self.duel else None,
            "story": copy.deepcopy(self.story),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        g = cls()
        ints = lambda d: {int(p): int(v) for p, v in d.items()}  # noqa: E731
        cardmap = lambda d: {int(p): _cards(v) for p, v in d.items()}  # noqa: E731
        g.players = [int(p) for p in data["players"]]
        g.options = dict(data["options"])
        g.seed, g.round_no = data["seed"], int(data["round"])
        g.chips, g.wins, g.rebuys = ints(data["chips"]), ints(data["wins"]), ints(data["rebuys"])
        g.pot, g.carried_pot, g.pending = int(data["pot"]), int(data["carried_pot"]), ints(data["pending"])
        g.out, g.folded, g.left = (list(map(int, data[k])) for k in ("out", "folded", "left"))
        g.dealer, g.original_dealer, g.next_dealer = (int(data[k]) for k in ("dealer", "original_dealer", "next_dealer"))
        g.deck, g.discard = _cards(data["deck"]), _cards(data["discard"])
        g.down, g.up, g.aside = cardmap(data["down"]), cardmap(data["up"]), cardmap(data["aside"])
        g.exchanged, g.bought = ints(data["exchanged"]), ints(data["bought"])
        g.phase, g.step, g.part, g.amount = data["phase"], data["step"], int(data["part"]), int(data["amount"])
        if g.phase not in PHASES:
            raise RuleError(f"Saved Cripple Mr Onion round has an unknown phase '{g.phase}'.")
        g.queue, g.bids, g.declined = list(map(int, data["queue"])), ints(data["bids"]), list(map(int, data["declined"]))
        g.resume = int(data["resume"])
        g.round_wild, g.fate_unwild, g.rewild = bool(data["round_wild"]), data["fate_unwild"], list(data["rewild"])
        g.declared = [dict(d) for d in data["declared"]]
        g.lady_user, g.fate_user = data["lady_user"], data["fate_user"]
        g.atuin = {int(p): v for p, v in data["atuin"].items()}
        g.arch, g.arch_wild, g.fool = data["arch"], bool(data["arch_wild"]), bool(data["fool"])
        g.tasks = [dict(t) for t in data["tasks"]]
        g.task_counter = int(data["task_counter"])
        g.showdown = [dict(s) for s in data["showdown"]]
        g.winner, g.outcome, g.null_played = data["winner"], data["outcome"], bool(data["null_played"])
        g.absent = {p: dict(a) for p, a in data.get("absent", {}).items()}
        g.duel = copy.deepcopy(dict(data["duel"])) if data.get("duel") else None
        g.story = copy.deepcopy(list(data.get("story") or []))  # (a round saved before the story had none)
        return g

    #: Action codes carry onion card codes (the eight suits): ``Game.parse_action``
    #: reads them with this parser.
    parse_card = staticmethod(parse_card)

    # ------------------------------------------------------------------ seat swaps

    #: Keys of ``to_dict`` (at any depth) whose values are player ids.
    _ID_KEYS = frozenset({"players", "out", "folded", "left", "dealer", "original_dealer", "next_dealer",
                          "queue", "declined", "fate_unwild", "rewild", "player", "lady_user", "fate_user",
                          "arch", "winner", "champion", "challenger", "loser", "laid", "conceded", "cripples",
                          "victim", "showing"})
    #: The session's absent players and the options name no seat of this round.
    _KEPT_ON_SWAP = ("absent", "options")

    def _replace_player(self, old: int, new: int) -> None:
        """``new`` sits in ``old``'s seat for the rest of the round: same cards, same
        stack (chips behind and in play, wins, rebuys), same place in the betting, the
        same declarations owed. The stack goes with the seat: the computer plays it,
        and when the round ends what the seat holds is the leaver's again in the
        session (``carry_out``), so the computer keeps no chips of its own."""
        from bot.rules.engine import swap_in_record

        if old in self.left:
            raise RuleError(_("That player has already left this round."))
        data = self.to_dict()
        kept = {key: data.pop(key) for key in self._KEPT_ON_SWAP}
        kept["absent"] = {**kept["absent"], str(old): {"chips": 0, "wins": 0, "rebuys": 0, "stand_in": new}}
        fresh = type(self).from_dict({**swap_in_record(data, old, new, self._ID_KEYS), **kept})
        fresh.opening_events = self.opening_events
        self.__dict__.clear()
        self.__dict__.update(fresh.__dict__)

