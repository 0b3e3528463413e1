"""Cripple Mr Onion's computer players (issue 12): always legal, fair by construction,
both variants, rounds always end, and they decide sensibly on clear hands."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot.ai import Budget, PlayerView, decide
from bot.rules.engine import Action
from cogs.onion.rules import OnionGame
from cogs.onion.scoring import parse_card
from tests.onion.onion_round_helpers import new_round

#: One imagined deal: legality and fairness do not need strength, only a decision.
TINY = Budget(iterations=12, determinizations=1)
SMALL = Budget(iterations=60, determinizations=4)


def positions(count: int, seed: int = 0) -> Iterator[tuple[OnionGame, int]]:
    """``count`` (round, seat to ask) pairs from seeded rounds of 2-6 seats, both variants
    and wild eights sometimes, played on by a mix of random and easy moves."""
    rng = random.Random(f"onion-{seed}")
    made = game_no = 0
    while made < count:
        seats = (2, 3, 4, 6)[game_no % 4]
        options = {"variant": "plain" if game_no % 5 == 4 else "gambling"}
        if game_no % 3 == 2:
            options["carry"] = {"round": 1, "eights_wild": True}
        if game_no % 2 == 1:
            options["showdown"] = "millard"  # the duel (issue 24)
        game = OnionGame.new(list(range(11, 11 + seats)), options, seed=f"onion-pos-{seed}-{game_no}")
        game_no += 1
        while not game.is_over() and made < count:
            player = rng.choice(sorted(game.current_players()))
            yield game, player
            made += 1
            view = PlayerView.of(game, player)
            action = rng.choice(view.legal) if rng.random() < 0.75 else decide(view, "easy", rng)
            game.apply(player, action)


def redeal(game: OnionGame, player: int, rng: random.Random) -> OnionGame:
    """The same round with every card ``player`` cannot see shuffled among the places
    it cannot see (the others' face-down cards and offered cards, the deck, the discard
    pot), each place keeping its count."""
    data = game.to_dict()
    # A hand laid in the duel lies face up: everyone sees it.
    laid = {s["player"] for s in data["showdown"]} if data["phase"] == "duel" else set()
    hidden = [p for p in game.players if p != player and p not in laid]
    places: list[tuple[str, str]] = [("deck", ""), ("discard", "")]
    places += [("down", str(p)) for p in hidden]
    tasks = [t for t in data["tasks"] if t["player"] != player and t["kind"] == "pick"]
    pool = [*data["deck"], *data["discard"]]
    pool += [c for p in hidden for c in data["down"][str(p)]]
    pool += [c for t in tasks for c in t["cards"]]
    rng.shuffle(pool)
    at = 0

    def take(n: int) -> list[str]:
        nonlocal at
        at += n
        return pool[at - n:at]

    data["deck"], data["discard"] = take(len(data["deck"])), take(len(data["discard"]))
    for p in hidden:
        data["down"][str(p)] = take(len(data["down"][str(p)]))
    for t in tasks:
        t["cards"] = take(len(t["cards"]))
    for t in data["tasks"]:  # a disclosure offers the discloser's own face-down cards
        if t["kind"] == "disclose" and t["player"] != player:
            t["cards"] = sorted(data["down"][str(t["player"])], key=parse_card)
    assert at == len(pool)
    return OnionGame.from_dict(data)


@pytest.mark.parametrize("level, count, budget", [("random", 2000, TINY), ("easy", 600, TINY), ("hard", 2000, TINY)])
def test_the_chosen_action_is_always_accepted(level, count, budget):
    kinds = set()
    for index, (game, player) in enumerate(positions(count, seed=len(level))):
        view = PlayerView.of(game, player)
        action = decide(view, level, random.Random(index), budget=budget)
        game.validate(player, action)  # an amount off the quick buttons is judged by the engine
        if action.kind not in OnionGame.AMOUNT_KINDS:
            assert action in view.legal
        kinds.add(action.kind)
    assert {"discard", "bet", "match", "fold", "buy", "extra", "done"} <= kinds
    if level != "random":
        assert kinds & {"show", "concede"}  # the duel was met


def test_hard_out_of_time_still_decides_legally():
    expired = Budget(deadline=lambda: True)
    for index, (game, player) in enumerate(positions(300, seed=9)):
        action = decide(PlayerView.of(game, player), "hard", random.Random(index), budget=expired)
        game.validate(player, action)


def test_redealing_the_hidden_cards_keeps_the_view():
    moved = 0
    for index, (game, player) in enumerate(positions(400, seed=11)):
        other = redeal(game, player, random.Random(index))
        assert other.observation(player) == game.observation(player)
        assert other.legal_actions(player) == game.legal_actions(player)
        moved += other.to_json() != game.to_json()
    assert moved > 300


@pytest.mark.parametrize("level, count", [("easy", 120), ("hard", 120)])
def test_the_same_decision_whatever_the_hidden_cards(level, count):
    for index, (game, player) in enumerate(positions(count, seed=12)):
        chosen = decide(PlayerView.of(game, player), level, random.Random(index), budget=SMALL)
        for again in range(2):
            other = redeal(game, player, random.Random(f"{index}-{again}"))
            assert decide(PlayerView.of(other, player), level, random.Random(index), budget=SMALL) == chosen


@pytest.mark.parametrize("variant", ["gambling", "plain"])
@pytest.mark.parametrize("levels", [("easy", "hard", "easy"), ("hard", "hard")])
def test_computers_alone_finish_rounds_and_a_session(variant, levels):
    """A session of rounds among computers only: every round ends, chips are conserved."""
    players = list(range(1, len(levels) + 1))
    carry = None
    for round_no in range(3):
        options = {"variant": variant, **({"carry": carry} if carry else {}),
                   "showdown": "millard" if round_no == 1 else "quick"}
        game = OnionGame.new(players, options, seed=f"alone-{variant}-{round_no}")
        total = game.total_chips()
        for step in range(400):
            if game.is_over():
                break
            player = min(game.current_players())
            level = levels[player - 1]
            game.apply(player, decide(PlayerView.of(game, player), level, random.Random(step), budget=TINY))
            assert game.total_chips() == total
        assert game.is_over()
        carry = game.carry_out()
    assert carry["round"] == 3


def _view(game: OnionGame, player: int) -> PlayerView:
    return PlayerView.of(game, player)


def test_a_great_hand_raises_and_a_hopeless_one_folds_to_a_big_bet():
    # Player 1 deals; 2 is the Elder and holds a Double Onion; 3 holds nines and tens
    # (it wins about one imagined showdown in twenty).
    game = new_round([1, 2, 3], 1, {1: ["2c", "3d", "4h", "5s", "6c"], 2: ["Kc", "Ah", "Kd", "As", "Kh"],
                                    3: ["9d", "9h", "Ts", "Tw", "5t"]})
    for p in (2, 3, 1):
        game.apply(p, Action("discard"))
    game.apply(1, Action("bet", arg="10"))
    strong = decide(_view(game, 2), "hard", random.Random(1), budget=Budget(iterations=400))
    assert strong.kind == "raise", strong
    game.apply(2, Action("match"))
    weak = decide(_view(game, 3), "easy", random.Random(1))
    assert weak == Action("fold")


def test_easy_discards_what_its_best_five_leave_unused():
    game = new_round([1, 2], 1, {1: ["2c", "3d", "4h", "5s", "6c"], 2: ["Kc", "Ah", "Kd", "As", "2w"]})
    action = decide(_view(game, 2), "easy", random.Random(0))
    assert action == Action("discard", (parse_card("2w"),))
    hard = decide(_view(game, 2), "hard", random.Random(0), budget=Budget(iterations=300))
    assert hard.kind == "discard" and parse_card("Kc") not in hard.cards


def test_heads_up_hard_bets_a_strong_hand_and_folds_a_hopeless_one_to_a_big_bet():
    # Two players: 1 deals with a Double Onion's makings; 2 holds nines and tens.
    game = new_round([1, 2], 1, {1: ["Kc", "Ah", "Kd", "As", "Kh"], 2: ["9d", "9h", "Ts", "Tw", "5t"]})
    for p in (2, 1):
        game.apply(p, Action("discard"))
    named = decide(_view(game, 1), "hard", random.Random(2), budget=Budget(iterations=400))
    assert named.kind == "bet" and int(named.arg) > 0, named
    game.apply(1, Action("bet", arg="10"))
    answer = decide(_view(game, 2), "hard", random.Random(2), budget=Budget(iterations=400))
    assert answer == Action("fold")


def test_hard_reads_the_announced_exchange_as_cards_that_group():
    from dataclasses import replace

    from cogs.onion.ai import Sampler, _groups, read_table

    # 2 (the Elder) keeps a middling hand; 1 (the Dealer) either keeps all five or swaps four.
    hands = {1: ["2c", "3d", "4h", "5s", "6c"], 2: ["9d", "Th", "7s", "4w", "Qt"]}
    kept_all = new_round([1, 2], 1, hands)
    kept_all.apply(2, Action("discard", (parse_card("4w"),)))
    kept_all.apply(1, Action("discard"))
    table = read_table(_view(kept_all, 2))
    assert table.kept == {1: 5}
    swapped = new_round([1, 2], 1, hands)
    swapped.apply(2, Action("discard", (parse_card("4w"),)))
    swapped.apply(1, Action("discard", tuple(parse_card(c) for c in ["3d", "4h", "5s", "6c"])))
    assert read_table(_view(swapped, 2)).kept == {}  # keeping one lone card says nothing

    # Every imagined deal gives 1 five face-down cards that all group (or the last try),
    # where blind deals would group about one time in six.
    def grouped(table) -> int:
        sampler = Sampler(table, random.Random(3), 10_000, 200, hard=True)
        return sum(_groups(tuple(sorted(theirs[1][:5])), table.contexts[1]) for _, theirs in sampler._deals(5, 2))

    assert grouped(table) >= 190
    assert grouped(replace(table, kept={})) < 80


def test_in_the_duel_easy_and_hard_play_what_wins_and_concede_when_nothing_helps():
    """Millard's showdown: the Elder's Double Onion is laid; seat 3 holds Death and a
    seven-card onion. Death keeps a picture out of the Double Onion: it wins the duel."""
    from tests.onion.onion_round_helpers import act, advance, codes

    def duel(p3):
        hands = {1: ("2c 3s 4d 5c 9s", "2d 3d 4c 6c 9d"), 2: ("Ac Kd Ah Qh 2u", "Tc Ts 9u 6h 7u"), 3: p3}
        game = new_round([1, 2, 3], 1, {p: codes(h[0]) for p, h in hands.items()},
                         second={p: codes(h[1]) for p, h in hands.items()}, showdown="millard")
        advance(game, "declare")
        for p in (2, 3, 1):
            act(game, p, "done")
        assert game.phase == "duel" and game.current_players() == {3}
        return game

    # Death held face down: laid face up it is visible and acts (docs/rules/onion.md), so
    # showing the hand wins as declaring Death first would.
    game = duel(("Kw 2h 2s 4u 5h", "6s As Aw 9c 7c"))
    for level in ("easy", "hard"):
        assert decide(_view(game, 3), level, random.Random(1), budget=SMALL) == Action("show")
    # Great A'Tuin turns a losing Double Onion into a Triple Onion: played; in a hand that
    # loses anyway (a bagel and junk) nothing wins, so concede.
    game = duel(("Qo Kt Ad 3w Ks", "As Tw To 6d 5s"))
    assert [a.code() for a in game.legal_actions(3)] == ["show", "declare:Qo:atuin", "concede"]
    for level in ("easy", "hard"):
        assert decide(_view(game, 3), level, random.Random(1), budget=SMALL) == Action("declare", (parse_card("Qo"),), "atuin")
    game = duel(("Qo 2h 3h 4u 7h", "6s 9c 9h Tt 5w"))
    for level in ("easy", "hard"):
        assert decide(_view(game, 3), level, random.Random(1), budget=SMALL) == Action("concede")
