"""Cripple Mr Onion's computer player (pure): Monte Carlo estimates of hand strength.

Both levels decide from the seat's :class:`~bot.ai.PlayerView` only (its own cards, the
face-up and declared cards, chips, bets and counts), never from the game:

- **The estimate.** Deal the cards this seat has not seen at random to where they may
  be (the other players' face-down cards, and every hand's cards still to come in the
  exchange and the second deal: each live hand ends with ten cards), score every hand
  with the game's evaluator (:func:`cogs.onion.scoring.best_arrangement`, under the
  modifiers the table shows) and count the showdowns this seat wins (ties to seniority).
  That share ``p`` is its win probability if it stays to the showdown.
- **Bets, on ``p`` against the pot odds.** Match when ``p`` beats the price
  (owed / (pot + owed)) by a margin; fold otherwise; raise, name an amount or make an
  extra bet in proportion to the edge ``p - 1/n`` (n players still in) when it is large;
  bid in the auction up to ``p`` times the pot; buy a few face-down cards (they hide the
  second deal) only when the hand looks promising.
- **The exchange.** easy keeps the cards its best five-card arrangement uses and
  discards the rest (at most four); hard also tries smaller discards of those unused
  cards (six candidates at most, keeping all five among them), each judged on the same
  imagined deals (common random numbers), and departs from easy's discard only when
  another wins clearly more often (by two standard errors of the paired difference: with
  a few dozen deals the best-looking of several candidates is often only the luckiest).
- **Declarations.** Each special card it may declare is tried in the imagined showdowns
  (the Fool flips bagels and Onions for everyone, Death and the Sender act on every hand,
  A'Tuin and the Elephants on its own, the Lady and Fate are swapped for the better of two
  unseen cards); it declares the best one if it raises the win share by a margin, else says
  Done. It never declares the Archchancellor (its forced disclosures help the others
  more than it) and picks the replacement or the card to disclose that keeps its best hand.

- **The duel** (Millard's showdown): the laid hands are known. Show a hand that wins the duel
  as it stands; else a rearrangement the rules offer (each one holds against the hand
  opposite); else a modifier that wins it (hard first weighs its modifiers in imagined
  showdowns against the hands still to come, as for declarations; easy tries each one
  against the hand laid opposite, the Lady and Fate aside); else show if allowed, else concede.
  The rules offer only modifiers that answer (they change the hand opposite or better one's
  own), so neither level is tempted by a card that changes nothing.

easy spends a fixed, small number of hand evaluations (about 40, a few ms);
hard samples until its budget's deadline (or its caps: ``Budget.determinizations`` imagined
deals, ``Budget.iterations`` hand evaluations it really makes), so with a 0.1 s budget it
sees several times more deals; a hand of its own that every deal gives it alike (all ten
cards known) is scored once, not once a deal. hard also reads:

- the exchange everyone saw announced: an opponent who swapped ``k`` of five cards (0 to 3)
  kept ``5 - k`` cards its best arrangement used, so in each imagined deal ``5 - k`` of
  that opponent's face-down cards are a random set that groups (:meth:`Sampler._keep`,
  rejection sampling; swapping four says nothing: no grouping has one card);
- the chips an opponent has put up in the current step, as strength
  (:meth:`Mind.signals`: that opponent's stronger imagined hands count more);

and, against one opponent, picks its bet or raise by expected chips (:meth:`Mind.heads_up_bet`).
Same view and same random seed give the same action, whatever the hidden cards are (fair
by construction: nothing else is read).

The estimate simplifies on purpose: the others' earlier bets and staying in are not read
(the observation does not keep them), a kept set is only required to group (not to be the
best of the five it came from), and the rarely met house switches #0, #2 and
#3 are not modelled in the imagined showdowns (the real showdown applies them).
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import combinations
from typing import Any

from bot.ai import Budget, GameAI, PlayerView
from bot.ai.deal import standing, unseen_cards
from bot.rules.engine import Action
from cogs.onion.rules import OnionGame, laid_as
from cogs.onion.scoring import (
    DEATH, SENDER_OF_EIGHT, Arrangement, Card, ScoringContext, best_arrangement, onion_deck, parse_card,
    showdown_winners,
)

#: Hand evaluations easy spends on one decision (~0.5 ms each on this machine).
EASY_EVALUATIONS = 40
#: hard's cap on imagined deals per decision (the clock usually stops it first).
HARD_SAMPLES = 400
#: Extra win share a match needs above the pot odds (easy is more cautious).
CALL_MARGIN = {"easy": 0.05, "hard": 0.02}
#: How much one Stake bet by an opponent sharpens hard's view of their hand (see Mind.signals).
SIGNAL = 0.5
#: A declaration is made only when it adds this much win share.
DECLARE_MARGIN = 0.02
#: hard departs from easy's discard, or declares, only when the imagined deals say it is
#: better by this many standard errors (paired over the same deals) and over MIN_DEALS deals:
#: with a few dozen deals, the best of a dozen candidates is often the luckiest one.
CLEAR = 2.0
MIN_DEALS = 12
#: hard's discards to try: easy's, and keeping one or two more of the cards easy discards.
EXCHANGE_OPTIONS = 6
HAND = 10  # cards in a hand at the showdown
FULL_PACK = onion_deck()


# --------------------------------------------------------------------------- reading the view


@dataclass(frozen=True)
class Table:
    """What the seat knows, in evaluator terms."""

    me: int
    mine: tuple[Card, ...]                  # own face-down and face-up cards
    opponents: tuple[int, ...]              # live players other than me, in seat order
    known: Mapping[int, tuple[Card, ...]]   # their face-up cards
    hidden: Mapping[int, int]               # their face-down cards (unseen)
    unseen: tuple[Card, ...]
    contexts: Mapping[int, ScoringContext]  # each live player's context, as things stand
    precedence: tuple[int, ...]
    declared: Mapping[str, int]             # power -> who declared it
    #: Of each opponent's face-down cards, how many they kept in the exchange (5 minus the
    #: announced count; 0 before they exchanged, or when they kept one lone card).
    kept: Mapping[int, int] = field(default_factory=dict)

    def future(self, p: int, extra_mine: int = 0) -> int:
        """Cards ``p`` has still to receive before the showdown."""
        have = len(self.mine) + extra_mine if p == self.me else len(self.known[p]) + self.hidden[p]
        return max(0, HAND - have)


def _on(obs: Mapping[str, Any], n: int) -> bool:
    return obs["rules"].get(f"mod{n}", "on") == "on"


def read_table(view: PlayerView) -> Table:
    obs = view.observation
    me = view.player
    seats = {s["player"]: s for s in obs["seats"]}
    live = [p for p in obs["players"] if not (seats[p]["folded"] or seats[p]["out"] or seats[p]["left"])]
    mine = tuple(parse_card(c) for c in [*obs.get("hand", []), *obs.get("face_up", [])])
    opponents = tuple(p for p in live if p != me)
    # A hand laid in the duel (Millard's showdown) lies face up: all its cards are known.
    laid = {s["player"]: s["cards"] for s in obs.get("showdown") or [] if s["player"] != me}
    known = {p: tuple(parse_card(c) for c in laid.get(p, seats[p]["up"])) for p in opponents}
    hidden = {p: 0 if p in laid else int(seats[p]["down"]) for p in opponents}
    offered = [parse_card(c) for c in obs.get("offered", [])]
    seen = [*mine, *(c for c in offered if c not in mine)]  # a disclosure offers own cards
    for s in obs["seats"]:
        shown = laid.get(s["player"], s["up"]) if s["player"] != me else []
        seen += map(parse_card, [*shown, *s["aside"]])
    unseen = tuple(unseen_cards(FULL_PACK, seen))
    # Visible: face up in a hand still in, a laid hand's every card included (a K⚔ or J♦
    # laid at the showdown acts, docs/rules/onion.md).
    shown = {s["player"]: s["cards"] for s in obs.get("showdown") or []}
    visible = {c for p in live for c in shown.get(p, seats[p]["up"])}
    declared = {d["power"]: d["player"] for d in obs.get("declared", [])}
    contexts = {}
    for p in live:
        wild = bool(seats[p]["eights_wild"])
        contexts[p] = ScoringContext(
            null_eights=_on(obs, 1) and not wild,
            eights_wild=wild,
            aces_zeroed=_on(obs, 5) and "fate" in declared and declared.get("lady") == p,
            sender=_on(obs, 8) and str(SENDER_OF_EIGHT) in visible,
            atuin=declared.get("atuin") == p,
            elephants=declared.get("elephants") == p,
            death=_on(obs, 9) and str(DEATH) in visible,
            archchancellor=_on(obs, 10),
            archchancellor_declared=declared.get("archchancellor") == p,
            fool=_on(obs, 11) and bool(obs.get("fool")),
        )
    kept = {}
    for p in opponents:
        swapped = seats[p]["exchanged"]
        # Keeping one card says nothing (no grouping has one card: a hand with none keeps its best one).
        if swapped is not None and 0 <= swapped <= 3 and hidden[p] >= 5 - swapped:
            kept[p] = 5 - int(swapped)
    return Table(me, mine, opponents, known, hidden, unseen, contexts, tuple(obs["precedence"]), declared, kept)


#: Tries at dealing an opponent a kept set that groups before settling for the last one.
KEPT_TRIES = 24


# Small on purpose: each entry is a few tracked tuples, and a 200,000-entry cache made
# Python's full garbage collections pause the process for 250-300 ms, a hard decision's
# budget three times over (bench/tournament.py --game onion: p99 290 ms against 100 ms).
# At 16,384 the pauses stay under 15 ms and decisions reach as many deals.
@lru_cache(maxsize=16_384)
def _groups(cards: tuple[Card, ...], context: ScoringContext) -> bool:
    """Do ``cards`` (sorted) all lie in groupings of their best arrangement?"""
    return not best_arrangement(list(cards), context).unused


# --------------------------------------------------------------------------- the estimate

#: A change to try in the imagined showdowns: (my cards, contexts, my spare cards) -> (my cards, contexts).
Change = Callable[[list[Card], dict[int, ScoringContext], list[Card]], tuple[list[Card], dict[int, ScoringContext]]]


class Sampler:
    """Imagined deals of the unseen cards, scored by the evaluator, with a budget."""

    def __init__(self, table: Table, rng: random.Random, evaluations: int, samples: int,
                 out_of_time: Callable[[], bool] = lambda: False, hard: bool = False) -> None:
        self.table, self.rng = table, rng
        self.evaluations, self.samples, self.out_of_time = evaluations, samples, out_of_time
        self.used = 0
        #: hard deals each opponent, among its face-down cards, a set it could have kept in
        #: the exchange (see _keep), scores a hand that every deal gives it alike once, and
        #: counts the evaluations it really makes against its cap.
        self.hard = hard

    def _keep(self, pool: list[Card], at: int, k: int, context: ScoringContext) -> None:
        """Make ``pool[at:at + k]`` a random set of ``k`` cards that all group, as the cards
        a player keeps after swapping ``5 - k`` do (a player keeps what its best arrangement
        uses): rejection sampling over random ``k``-sets of ``pool[at:]``, a few tries."""
        rng, end = self.rng, len(pool)
        if at + k > end:
            return
        for _ in range(KEPT_TRIES):
            self.used += 0.1  # a small hand's check costs about a tenth of a full hand's
            if _groups(tuple(sorted(pool[at:at + k])), context):
                return
            for j in range(at, at + k):
                i = rng.randrange(j, end)
                pool[j], pool[i] = pool[i], pool[j]

    def _deals(self, spare: int, per_sample: int):
        """Yield (my spare cards, opponents' full hands) until the budget is spent; at least one deal."""
        t = self.table
        pool = list(t.unseen)
        made = 0
        while made < self.samples and (made == 0 or (self.used + per_sample <= self.evaluations
                                                     and not self.out_of_time())):
            self.rng.shuffle(pool)
            mine, at = pool[:spare], spare
            hands = {}
            for p in t.opponents:
                n = t.hidden[p] + t.future(p)
                if self.hard and t.kept.get(p):
                    self._keep(pool, at, t.kept[p], t.contexts[p])
                hands[p] = [*t.known[p], *pool[at:at + n]]
                at += n
            made += 1
            if not self.hard:  # easy counts a full set of evaluations per deal
                self.used += per_sample
            yield mine, hands

    def win_shares(self, candidates: Sequence[Callable[[list[Card]], tuple[list[Card], dict[int, ScoringContext]]]],
                   spare: int, signals: Mapping[int, float] | None = None) -> list[float]:
        """The share of imagined showdowns each candidate wins (same deals for all).
        A candidate maps my spare cards to (my final hand, the contexts).

        ``signals`` (hard): opponent -> how strongly their bets now on the table say
        "strong hand". Each deal then counts with weight ``rank ** signal`` per such
        opponent, ``rank`` being where their imagined hand falls among all their imagined
        hands (0 weakest, 1 strongest): a big bet makes their strong deals count more."""
        t = self.table
        results: list[list[float]] = []
        signals = signals or {}
        ranks: dict[int, list[tuple[int, ...]]] = {p: [] for p in t.opponents}
        mine_memo: dict[tuple[tuple[Card, ...], ScoringContext], Arrangement] = {}
        for spare_cards, hands in self._deals(spare, len(candidates) + len(t.opponents)):
            cache: dict[tuple[ScoringContext, ...], dict[int, Arrangement]] = {}
            row = []
            for candidate in candidates:
                if results and self.out_of_time():
                    break  # a deal the clock cuts short is dropped
                hand, contexts = candidate(spare_cards)
                key = tuple(contexts[p] for p in t.opponents)
                theirs = cache.get(key)
                if theirs is None:
                    theirs = {p: best_arrangement(hands[p], contexts[p]) for p in t.opponents}
                    cache[key] = theirs
                    self.used += len(theirs) if self.hard else 0
                mk = (tuple(sorted(hand)), contexts[t.me])
                mine = mine_memo.get(mk) if self.hard else None
                if mine is None:  # a complete hand is the same in every deal: scored once
                    mine = mine_memo[mk] = best_arrangement(hand, contexts[t.me])
                    self.used += 1 if self.hard else 0
                    if len(mine_memo) > 64:
                        mine_memo.clear()
                        mine_memo[mk] = mine
                row.append(_won(t, mine, theirs))
            if len(row) < len(candidates):
                break
            first = next(iter(cache.values()))
            for p in ranks:
                ranks[p].append(first[p].key)
            results.append(row)
        weights = [1.0] * len(results)
        self.ranks = {}
        for p, keys in ranks.items():
            order = sorted(keys)
            rank = [(bisect_left(order, k) + 0.5 * (bisect_right(order, k) - bisect_left(order, k))) / len(keys)
                    for k in keys]
            self.ranks[p] = rank
            for i, r in enumerate(rank):
                weights[i] *= r ** signals.get(p, 0.0)
        total = sum(weights)
        self.results, self.weights = results, [w / total for w in weights]
        return [sum(w * row[c] for w, row in zip(self.weights, results)) for c in range(len(candidates))]

    def gain(self, i: int, j: int) -> tuple[float, float]:
        """How much more often candidate ``i`` wins than candidate ``j`` over the deals of the
        last :meth:`win_shares`, and the standard error of that (paired: the same deals)."""
        diffs = [row[i] - row[j] for row in self.results]
        mean = sum(w * d for w, d in zip(self.weights, diffs))
        return mean, sum(w * w * (d - mean) ** 2 for w, d in zip(self.weights, diffs)) ** 0.5

    def better(self, i: int, j: int, margin: float) -> bool:
        """Does candidate ``i`` clearly beat ``j``: by ``margin`` and by two standard errors?"""
        mean, error = self.gain(i, j)
        return len(self.results) >= MIN_DEALS and mean >= margin and mean >= CLEAR * error

    def win_share(self, signals: Mapping[int, float] | None = None) -> float:
        """This seat's chance of winning the showdown with its hand as it is."""
        t = self.table
        need = t.future(t.me)
        return self.win_shares([lambda spare: ([*t.mine, *spare[:need]], dict(t.contexts))], need, signals)[0]


def _won(t: Table, mine: Arrangement, theirs: Mapping[int, Arrangement]) -> float:
    order = [t.me, *t.opponents]
    best = showdown_winners([mine, *(theirs[p] for p in t.opponents)])
    winners = [order[i] for i in best]
    senior = min(winners, key=lambda p: t.precedence.index(p) if p in t.precedence else len(t.precedence))
    return 1.0 if senior == t.me else 0.0


# --------------------------------------------------------------------------- the levels


@dataclass
class Mind:
    """One decision's reasoning at one level."""

    view: PlayerView
    level: str
    rng: random.Random
    budget: Budget | None = None

    def __post_init__(self) -> None:
        self.obs = self.view.observation
        self.table = read_table(self.view)
        self.legal = list(self.view.legal)
        self.codes = {a.code(): a for a in self.legal}

    def sampler(self) -> Sampler:
        if self.level == "hard":
            b = self.budget or Budget()
            return Sampler(self.table, self.rng, b.iterations, min(HARD_SAMPLES, b.determinizations), b.out_of_time,
                           hard=True)
        return Sampler(self.table, self.rng, EASY_EVALUATIONS, 1000)

    # -- money

    @property
    def stake(self) -> int:
        return int(self.obs["stake"])

    @property
    def chips(self) -> int:
        return int(next(s["chips"] for s in self.obs["seats"] if s["player"] == self.view.player))

    def pot(self) -> int:
        return int(self.obs["pot"]) + sum(int(s["pending"]) for s in self.obs["seats"])

    def signals(self) -> dict[int, float]:
        """hard reads the bets on the table now as strength: chips an opponent has put up
        in this step (a raise, a bid, an extra bet held near the Pot, or the amount the
        Dealer named), in Stakes, times SIGNAL."""
        obs, stake = self.obs, self.stake
        out: dict[int, float] = {}
        for s in obs["seats"]:
            if s["player"] in self.table.opponents and s["pending"]:
                out[s["player"]] = SIGNAL * s["pending"] / stake
        dealer = obs["dealer"]
        if obs["phase"] == "bet" and obs["step"] == "respond" and dealer in self.table.opponents and obs["amount"]:
            out[dealer] = out.get(dealer, 0.0) + SIGNAL * obs["amount"] / stake
        return out

    def edge(self, p: float) -> float:
        return p - 1.0 / (len(self.table.opponents) + 1)

    def amount(self, kind: str, chips: int, cap: int, scale: float) -> Action:
        """The ``kind`` action of ``scale`` Stakes (rounded), within what is legal; 0 if allowed."""
        n = max(0, min(cap, chips, int(round(scale)) * self.stake))
        return Action(kind, arg=str(n))

    def worth(self, p: float, owed: int) -> bool:
        """Is staying in worth ``owed`` chips at win share ``p``?"""
        if owed == 0:
            return True
        return p >= owed / (self.pot() + owed) + CALL_MARGIN[self.level]

    # -- decisions

    def decide(self) -> Action:
        obs = self.obs
        kinds = {a.kind for a in self.legal}
        if kinds <= {"pick", "disclose"}:
            return self.task()
        phase, step = obs["phase"], obs["step"]
        if phase == "exchange":
            return self.exchange()
        if phase == "declare":
            return self.declare()
        if phase == "duel":
            return self.duel()
        sampler = self.sampler()
        p = sampler.win_share(self.signals() if self.level == "hard" else None)
        e = self.edge(p)
        cap = int(obs["cap"])
        chips = self.chips
        owed = int(obs["owed"].get(str(self.view.player), 0)) if obs.get("owed") else 0
        heads_up = self.level == "hard" and len(self.table.opponents) == 1
        if phase == "bet" and step in ("name", "respond") and heads_up:
            return self.heads_up_bet(sampler, owed)
        if phase == "bet" and step == "name":
            return self.amount("bet", chips, cap, e * 8 if e > 0.05 else 0)
        if phase == "bet":
            if not self.worth(p, owed) or "match" not in kinds:
                return Action("fold")
            if "raise" in kinds and e > 0.15:
                room = min(cap, chips - owed)
                if room >= self.stake:
                    n = max(self.stake, min(room, int(round(e * 10)) * self.stake))
                    return Action("raise", arg=str(n))
            return Action("match")
        if phase == "auction":
            mine = int((obs["auction"] or {}).get("bids", {}).get(str(self.view.player), 0))
            low = int(obs["auction"]["minimum"])
            limit = min(chips + mine, int(p * self.pot()))
            keen = e > 0
            return Action("bid", arg=str(low)) if keen and low <= limit else Action("decline")
        if phase == "buy" and step == "buy":
            reserve = chips - 3 * self.stake
            k = 2 if e > 0.1 else 1 if e > 0 else 0
            return Action("buy", arg=str(max(0, min(k, reserve // self.stake, 5))))
        if phase == "buy":
            return self.amount("extra", chips, cap, e * 6 if e > 0.1 else 0)
        if phase == "offer":
            return Action("match") if "match" in kinds and self.worth(p, owed) else Action("pass")
        return self.legal[-1]

    def heads_up_bet(self, sampler: Sampler, owed: int) -> Action:
        """hard, one opponent: the bet with the best expected chips, if the opponent calls
        a bet only with the part of its imagined hands strong enough for the price (its rank
        above the pot odds it is offered, as easy does) and folds the rest. A fold by the
        opponent wins the Pot (a Dealer who folds leaves us the last player in)."""
        pot = self.pot()
        (them,) = self.table.opponents
        wins, ranks, weights = [r[0] for r in sampler.results], sampler.ranks[them], sampler.weights
        name = self.obs["step"] == "name"

        def value(bet: int) -> float:
            # name: we bet ``bet`` (0 allowed); respond: we pay ``owed`` and raise ``bet``.
            paid = bet if name else owed + bet
            if bet == 0:
                return sum(w * (win * (pot + paid) - paid) for w, win in zip(weights, wins))
            calls_at = bet / (pot + paid + bet) + CALL_MARGIN["easy"]
            total = 0.0
            for w, win, rank in zip(weights, wins, ranks):
                if rank < calls_at:
                    total += w * pot  # they fold: the Pot (and our own chips back)
                else:
                    total += w * (win * (pot + paid + bet) - paid)
            return total

        options: list[tuple[float, Action]] = []
        for action in self.legal:
            if action.kind == "bet" or action.kind == "raise":
                options.append((value(int(action.arg)), action))
            elif action.kind == "match":
                options.append((value(0), action))
            elif action.kind == "fold":
                options.append((0.0, action))
        return max(options, key=lambda o: o[0])[1]

    def exchange(self) -> Action:
        t = self.table
        down = [parse_card(c) for c in self.obs.get("hand", [])]
        best = best_arrangement(down, t.contexts[t.me])
        unused = [c for c in down if c in best.unused][:4]
        if len(unused) == len(down):  # nothing groups: keep the highest card
            unused = sorted(down)[:4]
        if self.level != "hard":
            return Action("discard", tuple(unused))
        options = [tuple(c) for k in range(len(unused), -1, -1) for c in combinations(unused, k)]
        options = list(dict.fromkeys(options))[:EXCHANGE_OPTIONS]
        need = t.future(t.me)  # the second deal's five (the exchange keeps five)

        def keep(discard: tuple[Card, ...]):
            kept = [c for c in down if c not in discard]
            return lambda spare: ([*kept, *spare[:len(discard)], *spare[4:4 + need]], dict(t.contexts))

        sampler = self.sampler()
        shares = sampler.win_shares([keep(d) for d in options], 4 + need)
        # Easy's discard (the first) stands unless another is clearly better.
        best_i = max(range(len(options)), key=lambda i: (shares[i], -i))
        if best_i and not sampler.better(best_i, 0, 0.0):
            best_i = 0
        return Action("discard", options[best_i])

    def duel(self) -> Action:
        """Millard's showdown: show the hand when it may be shown and wins this duel; else a
        modifier that wins it (easy: tried against the hand laid opposite; hard: the
        declaration its imagined showdowns favour, as in the declaration round); else show
        if allowed (never worse than conceding: the loser answers again), else concede."""
        d = self.obs.get("duel") or {}
        me = self.view.player
        other = d.get("champion") if d.get("champion") != me else d.get("challenger")
        show, concede = self.codes.get("show"), self.codes.get("concede", self.legal[-1])
        mods = [a for a in self.legal if a.kind in ("declare", "rewild")]
        if other is None or other not in self.table.known:
            return show or concede
        if show is not None and self._wins_duel(other, _shown(self.table, self.obs)):
            return show
        # The rules offer only rearrangements that hold against the hand opposite (a smaller
        # Onion escaping a cripple, or a dodged hand re-formed at its best): take one.
        rearranged = [a for a in self.legal if a.kind == "rearrange"]
        if rearranged:
            return rearranged[0]
        if self.level == "hard":
            fallback = show or concede
            chosen = self.declare(fallback)
            if chosen != fallback:
                return chosen
        # A modifier that wins this duel outright (hard too, when its imagined deals were
        # too few to be sure: conceding loses for certain).
        for action in mods:
            if action.arg not in ("lady", "fate") and self._wins_duel(other, _change(action, self.table)):
                return action
        return show or concede

    def _wins_duel(self, other: int, change: Change | None) -> bool:
        """Would this seat's hand beat ``other``'s laid hand, after ``change``?"""
        t = self.table
        hand, contexts = list(t.mine), dict(t.contexts)
        if change is not None:
            hand, contexts = change(hand, contexts, [])
        mine = best_arrangement(hand, contexts[t.me])
        theirs = best_arrangement(list(t.known[other]), contexts[other])
        # A hand laid otherwise (around a smaller Onion) is compared as it lies.
        layouts = (self.obs.get("duel") or {}).get("layouts") or []
        top = next((cards for q, cards in layouts if q == other), None)
        if top:
            theirs = laid_as(list(t.known[other]), [parse_card(c) for c in top], contexts[other], theirs) or theirs
        best = showdown_winners([mine, theirs])
        if len(best) == 2:
            return t.precedence.index(t.me) < t.precedence.index(other)
        return best == [0]

    def declare(self, fallback: Action | None = None) -> Action:
        t = self.table
        tries: list[tuple[Action, Callable]] = []
        for action in self.legal:
            change = _change(action, t)
            if change is not None:
                tries.append((action, change))
        done = fallback or self.codes.get("done", self.legal[-1])
        if not tries:
            return done
        need = t.future(t.me)

        def candidate(change):
            def run(spare):
                hand = [*t.mine, *spare[:need]]
                contexts = dict(t.contexts)
                if change is not None:
                    hand, contexts = change(hand, contexts, spare[need:need + 2])
                return hand, contexts
            return run

        sampler = self.sampler()
        shares = sampler.win_shares([candidate(None)] + [candidate(c) for _, c in tries], need + 2)
        best_i = max(range(len(tries)), key=lambda i: shares[i + 1])
        if self.level == "hard":
            clear = sampler.better(best_i + 1, 0, DECLARE_MARGIN)
        else:
            clear = shares[best_i + 1] >= shares[0] + DECLARE_MARGIN
        return tries[best_i][0] if clear else done

    def task(self) -> Action:
        t = self.table
        ctx = t.contexts.get(t.me, ScoringContext())
        if self.legal[0].kind == "pick":
            base = list(t.mine)
            return max(self.legal, key=lambda a: (best_arrangement([*base, a.cards[0]], ctx).key, a.code()))
        best = best_arrangement(list(t.mine), ctx)
        return min(self.legal, key=lambda a: (a.cards[0] not in best.unused, a.cards[0]))


def _shown(t: Table, obs: Mapping[str, Any]) -> Change:
    """Laying this seat's hand face up: a K⚔ or J♦ in it becomes visible and acts."""
    death = _on(obs, 9) and DEATH in t.mine
    sender = _on(obs, 8) and SENDER_OF_EIGHT in t.mine
    changes = {**({"death": True} if death else {}), **({"sender": True} if sender else {})}
    return lambda hand, ctx, spare: (hand, _with(ctx, list(ctx), **changes) if changes else ctx)


def _with(contexts: dict[int, ScoringContext], who: Sequence[int], **changes: Any) -> dict[int, ScoringContext]:
    return {p: replace(c, **changes) if p in who else c for p, c in contexts.items()}


def _change(action: Action, t: Table) -> Change | None:
    """What declaring ``action`` would change in an imagined showdown (None: not tried)."""
    if action.kind == "rewild":
        return lambda hand, ctx, spare: (hand, _with(ctx, [t.me], eights_wild=True, null_eights=False))
    if action.kind != "declare":
        return None
    power, card = action.arg, action.cards[0]
    everyone = list(t.contexts)
    if power in ("lady", "fate"):
        def swap(hand, ctx, spare):
            rest = [c for c in hand if c != card]
            me = ctx[t.me]
            pick = max(spare, key=lambda c: best_arrangement([*rest, c], me).key) if spare else None
            out = ctx
            if power == "fate":  # the Lady's user loses their aces
                out = _with(ctx, [t.declared.get("lady")], aces_zeroed=True)
            return [*rest, *([pick] if pick else [])], out
        return swap
    if power == "unwild":
        return lambda hand, ctx, spare: (hand, {p: replace(c, eights_wild=False, null_eights=True)
                                                for p, c in ctx.items()})
    if power in ("atuin", "elephants"):
        return lambda hand, ctx, spare: (hand, _with(ctx, [t.me], **{power: True}))
    if power == "sender":
        return lambda hand, ctx, spare: (hand, _with(ctx, everyone, sender=True))
    if power == "death":
        return lambda hand, ctx, spare: (hand, _with(ctx, everyone, death=True))
    if power == "fool":
        return lambda hand, ctx, spare: (hand, _with(ctx, everyone, fool=True))
    return None  # the Archchancellor: never declared


def easy(view: PlayerView, rng: random.Random) -> Action:
    return Mind(view, "easy", rng).decide()


def hard(view: PlayerView, rng: random.Random, budget: Budget) -> Action:
    return Mind(view, "hard", rng, budget).decide()


def determinize(observation: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> OnionGame:
    raise NotImplementedError("Onion's computer players sample hands themselves; they do not search imagined rounds.")


def evaluate(game: OnionGame, player: int) -> float:
    """How well ``player`` stands in chips (more is better)."""
    chips = {p: -game.chips[p] for p in game.players}
    return standing(chips, player, scale=10.0 * game.options["stake"]) if player in chips else 0.0


AI = GameAI(OnionGame, easy, determinize, evaluate, hard=hard)
