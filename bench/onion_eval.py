"""Cripple Mr Onion evaluator speed: median and p99 per 10-card hand, fast vs reference.

    python bench/onion_eval.py [--hands 2000] [--ref-hands 100] [--seed 1]

Hands are random 10-card draws from the 104-card pack (seeded). The reference is
the exhaustive search kept in tests/onion/onion_reference.py, timed in the same
run on the first ``--ref-hands`` hands of each context. Prints numbers only; it
asserts nothing about time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "onion"))

from cogs.onion.scoring import ScoringContext, best_arrangement, onion_deck  # noqa: E402
import onion_reference  # noqa: E402

CONTEXTS = {
    "plain": ScoringContext(),
    "null eights": ScoringContext(null_eights=True),
    "wild eights": ScoringContext(eights_wild=True),
    "wild + Lady + Death + Sender": ScoringContext(eights_wild=True, lady_devalues=True, death=True,
                                                   sender=True),
    "null + A'Tuin + Elephants + Arch": ScoringContext(null_eights=True, atuin=True, elephants=True,
                                                       archchancellor=True),
    "everything at once (wild)": ScoringContext(
        eights_wild=True, lady_devalues=True, death=True, atuin=True, elephants=True,
        archchancellor=True, sender=True, fool=True),
}


def timings(fn, hands, ctx) -> list[float]:
    out = []
    for hand in hands:
        t = time.perf_counter()
        fn(hand, ctx)
        out.append(time.perf_counter() - t)
    return out


def cold_reference(hand, ctx):
    """The reference with its subset-classification cache emptied first (no help from other hands)."""
    onion_reference._classify.cache_clear()
    return onion_reference.reference_key(hand, ctx)


def summary(ts: list[float]) -> str:
    ts = sorted(ts)
    p99 = ts[min(len(ts) - 1, int(0.99 * len(ts)))]
    return f"median {statistics.median(ts) * 1e3:7.3f} ms  p99 {p99 * 1e3:8.3f} ms"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--ref-hands", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    deck = onion_deck()
    rng = random.Random(args.seed)
    hands = [rng.sample(deck, 10) for _ in range(args.hands)]
    best_arrangement(hands[0])  # warm imports
    print(f"{args.hands} random 10-card hands (seed {args.seed}); reference on {args.ref_hands}")
    for name, ctx in CONTEXTS.items():
        fast = timings(best_arrangement, hands, ctx)
        ref = timings(cold_reference, hands[: args.ref_hands], ctx)
        print(f"{name:34s} fast: {summary(fast)}   reference: {summary(ref)}")


if __name__ == "__main__":
    main()
