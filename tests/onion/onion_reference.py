"""Exhaustive reference evaluator for Cripple Mr Onion: slow, simple, independent.

It shares only the Card type and ScoringContext with ``cogs/onion/scoring.py``.
Every card becomes a list of *faces* (what it may count as); every subset of the
hand is classified straight from the definitions by trying faces; then every way
of cutting the hand into disjoint groupings is searched (memoised on the set of
cards left, the lowest card either unused or in some grouping), comparing sorted
tuples of grouping classes. Modifiers are plain loops: the player's options are
maximised, the choices made against the player (Lady, Death) minimised.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from cogs.onion.scoring import ARCHCHANCELLOR, GREAT_ATUIN, Card, ScoringContext

# Lowest to highest, written out from the rules text (see docs/rules/onion.md).
NORMAL = (
    ["bagel", "double bagel", "triple bagel", "lesser bagel", "great bagel",
     "two-card onion", "broken flush",
     "three-card onion/1", "three-card onion/0", "flush",
     "four-card onion/2", "four-card onion/1", "four-card onion/0", "broken Royal",
     "five-card onion/3", "five-card onion/2", "five-card onion/1", "five-card onion/0", "Royal",
     "six-card onion/4", "six-card onion/3", "six-card onion/2", "six-card onion/1",
     "six-card onion/0", "Wild Royal",
     "seven-card onion/5", "seven-card onion/4", "seven-card onion/3", "seven-card onion/2",
     "seven-card onion/1", "seven-card onion/0",
     "Elephants", "Double Onion", "Triple Onion", "Lesser Onion", "Octavo", "Greater Onion"]
)
_LOW_FOOL = ["two-card onion", "Elephants", "Double Onion", "Triple Onion", "Lesser Onion", "Octavo"]
FOOL = (
    _LOW_FOOL + ["bagel"]
    + [n for n in NORMAL if n not in _LOW_FOOL and "bagel" not in n and n != "Greater Onion"]
    + ["double bagel", "triple bagel", "lesser bagel", "great bagel", "Greater Onion"]
)
ONION_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}
BAGELS = {1: "bagel", 2: "double bagel", 3: "triple bagel", 4: "lesser bagel", 5: "great bagel"}
ONIONS = {2: "Double Onion", 3: "Triple Onion", 4: "Lesser Onion", 5: "Greater Onion"}


@dataclass(frozen=True)
class Face:
    value: int
    suit: int | None          # paired suit 0..3; None: any (a wild card)
    rank: int = 0             # for Royals: 6, 7 or 8 when it may stand as that rank
    pic: bool = False         # a picture for a picture-and-ace pair
    ace: bool = False         # an ace of value 11 for a pair
    great_only: bool = False  # only usable inside a Greater Onion (the Lady's victim at 11)
    null: bool = False        # a null eight (only in onions)
    wild8: bool = False


@dataclass(frozen=True)
class RCard:
    card: Card
    faces: tuple[Face, ...]
    death: bool = False
    wild8: bool = False


def faces_of(card: Card, *, wild, null_ok, no8, sender_wild, jt_wild, lady=False) -> tuple[Face, ...]:
    r = int(card.rank)
    ps = list(type(card.suit)).index(card.suit) % 4
    is8 = r == 8
    if (is8 and wild) or (card == ARCHCHANCELLOR and jt_wild):
        out = []
        for v in range(1, 12):
            if is8 and sender_wild and v in (1, 11):
                continue
            if is8 and no8 and v == 8:
                continue
            rank = v if v in (6, 7, 8) else 0
            out.append(Face(v, None, rank, pic=(v == 10), ace=(v == 11), wild8=is8,
                            great_only=(lady and v == 11)))
        if lady:  # held to 1: the 11 face survives only for a Greater Onion
            pass
        return tuple(out)
    if r == 1:
        return (Face(1, ps), Face(11, ps, ace=True, great_only=lady))
    if is8:
        out = [] if no8 else [Face(8, ps, 8)]
        if null_ok:
            out.append(Face(0, ps, null=True))
        return tuple(out)
    if r >= 11:
        return (Face(10, ps, pic=True),)
    return (Face(r, ps, r if r in (6, 7) else 0),)


# --------------------------------------------------------------------------- classify


def _sums(cards, allow_null):
    """Set of (total, nulls) reachable, never using great_only faces."""
    got = {(0, 0)}
    for c in cards:
        nxt = set()
        for t, z in got:
            for f in c.faces:
                if f.great_only or (f.null and not allow_null):
                    continue
                nxt.add((t + f.value, z + f.null))
        got = nxt
    return got


def classify(cards: tuple[RCard, ...], wild: bool) -> list[str]:
    """All class names this exact set of cards qualifies for."""
    # Only faces matter, not which card carries them: cache on the multiset of faces.
    return _classify(tuple(sorted(((c.faces, c.death, c.wild8) for c in cards), key=repr)), wild)


@lru_cache(maxsize=500_000)
def _classify(kinds, wild: bool) -> list[str]:
    cards = tuple(RCard(None, faces, death, wild8) for faces, death, wild8 in kinds)
    k = len(cards)
    out = []
    if 2 <= k <= 7:
        nulls = [z for t, z in _sums(cards, True) if t == 21 and k - z >= 2]
        if nulls:
            z = min(nulls)
            out.append("two-card onion" if k == 2 else f"{ONION_WORDS[k]}-card onion/{z}")
    plain = _sums(cards, False)
    if k == 2 and any(t == 20 for t, _ in plain):
        out.append("bagel")
    if k >= 3 and any(16 <= t <= 21 for t, _ in plain):
        for s in range(4):
            off = sum(1 for c in cards if not any(f.suit in (None, s) for f in c.faces))
            if off == 0:
                out.append("flush")
            elif off == 1:
                out.append("broken flush")
    if k == 3:
        if all(any(f.rank == 7 for f in c.faces) for c in cards):
            out.append("Royal")
        for perm in ((6, 7, 8), (6, 8, 7), (7, 6, 8), (7, 8, 6), (8, 6, 7), (8, 7, 6)):
            if all(any(f.rank == r for f in c.faces) for c, r in zip(cards, perm)):
                out.append("broken Royal")
        if wild and all(c.wild8 for c in cards):
            out.append("Wild Royal")
    if k % 2 == 0 and 4 <= k <= 10:
        m = k // 2
        barred = m == 2 or (wild and m == 3)
        for pics in combinations(range(k), m):
            ok = True
            for i, c in enumerate(cards):
                if i in pics:
                    ok = ok and any(f.pic for f in c.faces) and not (barred and c.death)
                else:
                    ok = ok and any(f.ace and (m == 5 or not f.great_only) for f in c.faces) \
                        and not (barred and c.death)
            if ok:
                out.append(ONIONS[m])
                break
        if _perfect_bagels(cards):
            out.append(BAGELS[m])
    if k == 8 and wild and all(c.wild8 for c in cards):
        out.append("Octavo")
    return out


def _perfect_bagels(cards) -> bool:
    if not cards:
        return True
    first, rest = cards[0], cards[1:]
    for j in range(len(rest)):
        if any(f.value + g.value == 20 for f in first.faces for g in rest[j].faces
               if not (f.null or g.null or f.great_only or g.great_only)):
            if _perfect_bagels(rest[:j] + rest[j + 1:]):
                return True
    return False


def core(cards: list[RCard], ctx: ScoringContext, fixed: tuple[str, ...] = ()) -> tuple[int, ...]:
    """Best key (sorted class indices, highest first) of ``cards`` plus ``fixed`` groupings."""
    order = FOOL if ctx.fool else NORMAL
    index = {name: i for i, name in enumerate(order)}
    n = len(cards)
    valid: dict[int, int] = {}
    for mask in range(1, 1 << n):
        sub = tuple(cards[i] for i in range(n) if mask >> i & 1)
        names = classify(sub, ctx.eights_wild)
        if names:
            valid[mask] = max(index[x] for x in names)

    @lru_cache(maxsize=None)
    def best(mask: int) -> tuple[int, ...]:
        if not mask:
            return ()
        low = mask & -mask
        result = best(mask ^ low)
        for sub, cls in valid.items():
            if sub & low and sub & mask == sub:
                cand = tuple(sorted(best(mask ^ sub) + (cls,), reverse=True))
                if cand > result:
                    result = cand
        return result

    return tuple(sorted(best((1 << n) - 1) + tuple(index[x] for x in fixed), reverse=True))


# --------------------------------------------------------------------------- modifiers


def reference_key(hand, ctx: ScoringContext) -> tuple[int, ...]:
    wild = ctx.eights_wild
    live = [c for c in hand if c not in ctx.excluded]
    if ctx.aces_zeroed or (ctx.sender and wild):
        live = [c for c in live if c.rank != 1]
    holds_qo = GREAT_ATUIN in live
    lady_opts = [None]
    if ctx.lady_devalues and wild:
        cands = [c for c in live if c.rank == 1
                 or (c.rank == 8 and not ctx.sender)
                 or (c == ARCHCHANCELLOR and ctx.archchancellor_wild)
                 or (holds_qo and ctx.atuin and c.rank == 3)
                 or (holds_qo and ctx.elephants and c.rank in (9, 10))]
        lady_opts = cands or [None]
    death_opts = [None]
    pictures = [c for c in live if c.rank >= 11]
    if ctx.death and len(pictures) >= 2:
        if ctx.death_victim is None:
            death_opts = pictures
        elif ctx.death_victim in pictures:
            death_opts = [ctx.death_victim]
    return min(_player(live, ctx, lv, dv) for lv in lady_opts for dv in death_opts)


def _player(live, ctx, lady, death):
    wild = ctx.eights_wild
    branches = [(live, False)]
    if ctx.sender and not wild:
        branches = [([c for c in live if c.rank != 8], False), ([c for c in live if c.rank != 1], False)]
    out = []
    for cards, _ in branches:
        if ARCHCHANCELLOR in cards and (ctx.archchancellor_declared or ctx.archchancellor_wild):
            opts = [(cards, True)]
        elif ARCHCHANCELLOR in cards and ctx.archchancellor:
            opts = [([c for c in cards if c != ARCHCHANCELLOR], False), (cards, True)]
        else:
            opts = [(cards, False)]
        for cs, no8 in opts:
            rcards = []
            for c in cs:
                faces = faces_of(c, wild=wild, null_ok=ctx.null_eights and not wild, no8=no8,
                                 sender_wild=ctx.sender and wild, jt_wild=ctx.archchancellor_wild,
                                 lady=(c == lady))
                if faces:
                    rcards.append(RCard(c, faces, death=(c == death), wild8=(c.rank == 8 and wild)))
            out.append(core(rcards, ctx))
            if GREAT_ATUIN in cs and ctx.atuin:
                out.extend(_atuin(rcards, ctx, lady))
            if GREAT_ATUIN in cs and ctx.elephants:
                out.extend(_elephants(rcards, ctx, lady))
    return max(out)


def _atuin(rcards, ctx, lady):
    wild_cards = {i for i, rc in enumerate(rcards) if any(f.suit is None for f in rc.faces)}
    for i, di in enumerate(rcards):
        for j, uj in enumerate(rcards):
            if i == j or i in wild_cards or j in wild_cards:
                continue
            for fd in di.faces:
                if fd.value < 9 or fd.great_only:
                    continue
                for fu in uj.faces:
                    if fu.value > 3 or fu.null:
                        continue
                    if fu.value == 3 and uj.card == lady:
                        continue
                    new = list(rcards)
                    new[i] = RCard(di.card, (Face(fd.value - 8, fd.suit),))
                    up = {1: Face(9, fu.suit), 2: Face(10, fu.suit, pic=True),
                          3: Face(11, fu.suit, ace=True)}[fu.value]
                    new[j] = RCard(uj.card, (up,), death=uj.death)
                    yield core(new, ctx)


def _elephants(rcards, ctx, lady):
    qo = next(i for i, rc in enumerate(rcards) if rc.card == GREAT_ATUIN)
    elig = [i for i, rc in enumerate(rcards)
            if i != qo and (rc.wild8 or (rc.card.rank in (9, 10)))]
    for four in combinations(elig, 4):
        costs = []
        for pics in combinations(four, 2):
            cost, ok = 0, True
            for i in four:
                rc = rcards[i]
                if i in pics:  # becomes a picture: a nine +1, a wild eight free
                    if rc.wild8:
                        pass
                    elif rc.card.rank == 9:
                        cost += 1
                    else:
                        ok = False
                else:  # becomes an ace of 11: ten +1, nine +2, wild eight free
                    if rc.card == lady:
                        ok = False
                    elif not rc.wild8:
                        cost += 1 if rc.card.rank == 10 else 2
            if ok:
                costs.append(cost)
        if not costs:
            continue
        shift = min(costs)
        rest = []
        for i, rc in enumerate(rcards):
            if i in four:
                continue
            ps = rc.faces[0].suit
            if i == qo:
                rest.append(RCard(rc.card, (Face(10 - shift, ps),)))
            elif not rc.wild8 and rc.card.rank == 9:
                rest.append(RCard(rc.card, rc.faces + (Face(1, ps),)))
            elif not rc.wild8 and rc.card.rank == 10:
                rest.append(RCard(rc.card, rc.faces + (Face(2, ps),)))
            else:
                rest.append(rc)
        yield core(rest, ctx, fixed=("Elephants",))
