"""Enid's computer player (cogs/enid/ai.py): legal in thousands of positions with every
obligation it owes answered, fair (re-dealing what it cannot see changes nothing), and
its rituals, memory, middle names, limericks and votes."""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Iterator

import pytest

from bot.ai import LEVELS, Budget, PlayerView, decide, game_ai
from bot.rules.engine import Action
from cogs.enid import ai as enid_ai
from cogs.enid import limerick
from cogs.enid.rules import EnidGame
from tests.enid.enid_helpers import act, say, stacked

AI = game_ai("enid")
SMALL = Budget(iterations=40, determinizations=2, playout_moves=6)


def askable(game: EnidGame) -> list[int]:
    """Seats the platform would ask now: those owing words, then the current ones."""
    owing = [p for p in game.players if AI.owes(game.observation(p), p)]
    return owing + [p for p in sorted(game.current_players()) if p not in owing]


def positions(count: int, seed: int) -> Iterator[tuple[EnidGame, int]]:
    """Seeded games of 2-5 seats in both modes (some with a session chain already
    heard), played on with a mix of random moves (rituals right, wrong, late) and the
    computer's own moves; yields (game, seat to ask)."""
    rng = random.Random(f"enid-ai-{seed}")
    made = game_no = 0
    carry = None
    while made < count:
        seats = (2, 3, 4, 5)[game_no % 4]
        mode = "plain" if game_no % 5 == 4 else "enid"
        options = {"mode": mode, **({"carry": carry} if carry and mode == "enid" else {})}
        game = EnidGame.new(list(range(11, 11 + seats)), options, seed=f"ai-{seed}-{game_no}")
        game_no += 1
        for _ in range(600):
            if game.is_over() or made >= count:
                break
            ask = askable(game)
            if ask:
                player = rng.choice(ask[:2])
                yield game, player
                made += 1
            if ask and rng.random() < 0.6:
                player = ask[0]
                game.apply(player, decide(PlayerView.of(game, player), rng.choice(LEVELS), rng, budget=SMALL))
            else:
                player, action = game.random_move(rng)
                game.apply(player, action)
        if mode == "enid":
            carry = game.carry_out()


def spoken_owed(game: EnidGame, player: int) -> set[str]:
    return {o["id"] for o in game.obligations if o["player"] == player and o["kind"] in enid_ai.SPOKEN}


@pytest.mark.parametrize("level", LEVELS)
def test_every_choice_is_accepted_and_every_owed_ritual_answered(level):
    kinds = set()
    owed_asked = 0
    for index, (game, player) in enumerate(positions(1500, seed=LEVELS.index(level))):
        view = PlayerView.of(game, player)
        action = decide(view, level, random.Random(index), budget=SMALL)
        assert action in view.legal or action.kind == "say", (level, action, view.legal)
        owed = spoken_owed(game, player)
        if owed:
            owed_asked += 1
            assert action.kind == "say"  # words before any move
        trial = copy.deepcopy(game)
        trial.apply(player, action)  # the engine accepts it (validate raises otherwise)
        left = owed & spoken_owed(trial, player)
        # Every ritual it owed is over, except a first line or limerick owed beside short
        # rituals: those are said first, the poem at the next ask.
        kinds_left = {o["kind"] for o in game.obligations if o["id"] in left}
        kinds_owed = {o["kind"] for o in game.obligations if o["id"] in owed}
        assert not left or (kinds_left <= {"first_line", "limerick"} and kinds_owed - kinds_left), (action, owed)
        kinds.add(action.kind)
    assert {"play", "say", "draw"} <= kinds and owed_asked > 300


def _redeal(game: EnidGame, player: int, rng: random.Random) -> EnidGame:
    """The same game with every card ``player`` cannot see shuffled among the places it
    cannot see (others' hands, the deck, the face-up stock under the top card)."""
    data = game.to_dict()
    places = [("hand", str(p)) for p in game.players if p != player] + [("deck", None), ("under", None)]
    pool = [c for p in game.players if p != player for c in data["hands"][str(p)]] + data["deck"] + data["discard"][:-1]
    rng.shuffle(pool)
    for kind, key in places:
        size = len(data["hands"][key]) if kind == "hand" else (len(data["deck"]) if kind == "deck" else len(data["discard"]) - 1)
        taken, pool = pool[:size], pool[size:]
        if kind == "hand":
            data["hands"][key] = taken
        elif kind == "deck":
            data["deck"] = taken
        else:
            data["discard"] = [*taken, data["discard"][-1]]
    return EnidGame.from_dict(data)


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_the_same_decision_whatever_the_hidden_cards(level):
    moved = 0
    for index, (game, player) in enumerate(positions(500, seed=40 + LEVELS.index(level))):
        chosen = decide(PlayerView.of(game, player), level, random.Random(index), budget=SMALL)
        for redeal in range(2):
            other = _redeal(game, player, random.Random(f"{index}-{redeal}"))
            assert other.observation(player) == game.observation(player)
            moved += other.to_dict() != game.to_dict()
            assert decide(PlayerView.of(other, player), level, random.Random(index), budget=SMALL) == chosen
    assert moved > 700


# --------------------------------------------------------------------------- memory


CHAIN = [["marmalade"], ["quux"], ["ethel"]]


def _enid_game(heard_by, *, first_hand=("9s", "5c", "5h")):
    carry = {"chain": [{"words": w, "author": 2, "heard_by": heard_by} for w in CHAIN]}
    return stacked({-201: list(first_hand), 2: ["Kc", "Kd", "Ks"], 3: ["Qc", "Qd", "Qh"]}, discard=["5s"], first=-201, carry=carry)


def test_hard_names_the_enid_with_the_chain_it_heard_and_the_chain_grows():
    game = _enid_game([-201, 2, 3])
    assert game.observation(-201)["heard"]["chain"] == CHAIN
    act(game, -201, "9s")
    action = decide(PlayerView.of(game, -201), "hard", random.Random(1))
    assert action.kind == "say" and action.arg.startswith("Enid Marmalade Quux Ethel ") and action.arg.endswith("Blyton")
    events = game.apply(-201, action)
    assert any(e.kind == "named" and e.data["chain_length"] == 4 for e in events)
    # Everyone seated heard the new name; it is carried to the next game of the session.
    assert game.observation(2)["heard"]["chain"][-1] == game.chain[-1]["words"]
    after = EnidGame.new([5, -201], {"carry": game.carry_out()}, seed=1)
    assert after.observation(-201)["heard"]["chain"] == [*CHAIN, game.chain[-1]["words"]]
    assert after.observation(5)["heard"]["chain"] == [None] * 4  # 5 was not there
    assert "heard" not in after.observation(None)


def test_a_name_it_never_heard_it_cannot_say_and_it_keeps_the_enid_back():
    game = _enid_game([2, 3])  # said before the computer sat down
    assert game.observation(-201)["heard"]["chain"] == [None, None, None]
    view = PlayerView.of(game, -201)
    assert decide(view, "hard", random.Random(0)).cards[0].rank is enid_ai.Rank.FIVE  # not the Enid
    act(game, -201, "9s")
    events = game.apply(-201, decide(PlayerView.of(game, -201), "hard", random.Random(0)))
    assert any(e.kind == "misnamed" and e.data["draws"] == 3 for e in events)


def test_easy_forgets_now_and_then_hard_never():
    right = {"easy": 0, "hard": 0}
    for level in right:
        for seed in range(200):
            game = _enid_game([-201, 2, 3])
            act(game, -201, "9s")
            events = game.apply(-201, enid_ai.speak(PlayerView.of(game, -201), level, random.Random(seed)))
            right[level] += any(e.kind == "named" for e in events)
    assert right["hard"] == 200
    assert 60 < right["easy"] < 190  # (1 - 0.15)^3 = 61%, less the slips


def test_middle_names_are_fresh_for_the_session_and_never_water_buffalo():
    used = [w for w in enid_ai.W_WORDS[:-1]]
    carry = {"middle_names": [{"key": w, "words": [w], "author": 2, "heard_by": [-201, 2]} for w in used]}
    game = stacked({-201: ["4s", "5c", "5h"], 2: ["Kc", "Kd"]}, discard=["4c"], first=-201, carry=carry)
    act(game, -201, "4s")
    action = decide(PlayerView.of(game, -201), "hard", random.Random(3))
    assert action.arg == f"Brian {enid_ai.W_WORDS[-1].capitalize()} Kernighan of Sturgeon"
    events = game.apply(-201, action)
    assert any(e.kind == "named" for e in events)
    # All used up: two run together, still new, never the buffalo.
    name = enid_ai.middle_name(enid_ai.Rank.FOUR, [*enid_ai.W_WORDS, "waterbuffalo"], random.Random(0))
    assert "-" in name and name.lower().replace("-", "") not in enid_ai.W_WORDS


# --------------------------------------------------------------------------- rituals


def test_the_church_is_shouted_at_the_player_who_would_have_played_next():
    game = stacked({-201: ["7c", "5h", "5d"], 2: ["Kh", "Kd"], 3: ["Qh", "Qd"]}, discard=["4c"], first=-201)
    act(game, -201, "7c")
    action = decide(PlayerView.of(game, -201), "hard", random.Random(0))
    assert action.arg == "Alonzo Church of Carp Haaargh! Be Alonzo Churched! (a bit) <@2>"
    events = game.apply(-201, action)
    assert [e.data["ritual"] for e in events if e.kind == "ritual_met"] == ["church"]
    # Owed on its own (the name came in a separate breath): the target is behind it now.
    game = stacked({-201: ["7c", "5h", "5d"], 2: ["Kh", "Kd"], 3: ["Qh", "Qd"]}, discard=["4c"], first=-201)
    act(game, -201, "7c")
    say(game, -201, "Alonzo Church of Carp")
    events = game.apply(-201, decide(PlayerView.of(game, -201), "hard", random.Random(0)))
    assert [e.data["ritual"] for e in events if e.kind == "ritual_met"] == ["church"]


def test_john_buckles_cry_and_last_st_francis_in_one_breath():
    game = stacked({1: ["Js", "5s"], -201: ["Jh", "5d"], 3: ["Qc", "Qd"]}, discard=["4s"], first=1)
    act(game, 1, "Js")
    say(game, 1, "Mark Rafter of Sturgeon")
    view = PlayerView.of(game, -201)
    assert decide(view, "easy", random.Random(0)) == Action.play("Jh")
    act(game, -201, "Jh")
    action = decide(PlayerView.of(game, -201), "hard", random.Random(0))
    assert action.arg == "John Buckle of Halibut My John Buckle casts your Mark Rafter to type void! Last St. Francis of Assisi!"
    events = game.apply(-201, action)
    assert sorted(e.data["ritual"] for e in events if e.kind == "ritual_met") == ["cry", "last"]
    assert game.pickup == 0 and game.hands[-201] == [enid_ai.parse_card("5d")]


def test_plain_mode_says_last_card_and_names_nothing():
    game = stacked({-201: ["5c", "6c"], 2: ["Kh", "Kd"]}, discard=["4c"], first=-201, options={"mode": "plain"})
    act(game, -201, "5c")
    assert decide(PlayerView.of(game, -201), "easy", random.Random(0)) == Action("say", arg="Last card!")


def test_a_black_turing_sets_a_first_line_and_a_forced_computer_recites_a_rhyming_limerick():
    game = stacked({-201: ["6s", "5s", "5d"], -202: ["Kh", "Kd"], 3: ["Qc", "Qd"]}, discard=["4s"], first=-201)
    act(game, -201, "6s")
    game.apply(-201, decide(PlayerView.of(game, -201), "hard", random.Random(0)))  # the name
    first = decide(PlayerView.of(game, -201), "hard", random.Random(0))
    assert first.arg in enid_ai.FIRST_LINES
    game.apply(-201, first)
    assert decide(PlayerView.of(game, -202), "easy", random.Random(0)) == Action("recite")
    act(game, -202, "recite")
    poem = decide(PlayerView.of(game, -202), "easy", random.Random(0))
    game.apply(-202, poem)
    vote = game.observation(3)["vote"]
    assert vote["about"] == "limerick" and vote["hint"]["rhyme_125"] is True and vote["hint"]["rhyme_34"] is True
    assert decide(PlayerView.of(game, -201), "easy", random.Random(0)) == Action("vote", arg="yes")


@pytest.mark.parametrize("first", [*enid_ai.FIRST_LINES, "There was an old man with a beard", "A limerick typed in a hurry"])
def test_composed_limericks_rhyme_by_the_dictionary(first):
    for seed in range(5):
        lines = [first, *enid_ai.compose(first, random.Random(seed))]
        hint = limerick.hint(lines)
        assert len(lines) == 5 and hint["rhyme_125"] is True and hint["rhyme_34"] is True, lines
        assert enid_ai.limerick_stands(hint)


def test_votes_follow_the_hint_and_middle_names_stand_unless_silly():
    bad = limerick.hint(["There once was a coder from Kent", "who liked cheese", "a", "b c d e f", "the end of the day"])
    assert not enid_ai.limerick_stands(bad)
    assert enid_ai.middle_name_stands("marmalade") and enid_ai.middle_name_stands("water lily")
    assert not enid_ai.middle_name_stands("m1234") and not enid_ai.middle_name_stands("a b c d e")


def test_it_answers_attacks_with_its_kept_cards():
    # A Minsky waiting: pass it on with a Two rather than pick up.
    game = stacked({1: ["2s", "5s"], -201: ["2h", "5d", "Kd"], 3: ["Qc", "Qd"]}, discard=["4s"], first=1)
    act(game, 1, "2s")
    say(game, 1, "Marvin Minsky of Sturgeon")
    assert decide(PlayerView.of(game, -201), "easy", random.Random(0)) == Action.play("2h")
    # Ordinary play: it keeps its Two and sheds something else (nobody is close to going out).
    game = stacked({-201: ["2c", "5c", "Kc"], 2: ["Qh", "Qd", "Ah"], 3: ["Qc", "Qs", "As"]}, discard=["4c"], first=-201)
    assert decide(PlayerView.of(game, -201), "easy", random.Random(0)).cards[0].rank is not enid_ai.Rank.TWO


def test_renamed_cards_are_said_by_the_servers_names():
    game = stacked({-201: ["Jh", "5c"], 2: ["Kc", "Kd"]}, discard=["4h"], first=-201,
                   options={"renames": {"red_jack": "Fred Bloggs"}, "builtin_names": "drop"})
    act(game, -201, "Jh")
    action = decide(PlayerView.of(game, -201), "hard", random.Random(0))
    assert action.arg.startswith("Fred Bloggs of Halibut")
    assert any(e.kind == "named" for e in game.apply(-201, action))


def test_the_rhyming_pairs_rhyme_by_the_dictionary():
    assert [pair for pair in enid_ai.PAIRS if limerick.rhyme(*pair) is not True] == []


def test_a_person_shouts_the_church_at_a_computer_seat_by_its_name():
    from bot.core import computer

    game = stacked({1: ["7c", "5h", "5d"], -201: ["Kh", "Kd"], 3: ["Qh", "Qd"]}, discard=["4c"], first=1)
    act(game, 1, "7c")
    say(game, 1, "Alonzo Church of Carp")
    typed = computer.addressed("Haaargh! Be Alonzo Churched! (a bit) @Deckhand 1", game.players)
    assert typed == "Haaargh! Be Alonzo Churched! (a bit) <@-201>"
    events = say(game, 1, typed)
    assert [e.data["ritual"] for e in events if e.kind == "ritual_met"] == ["church"]
    assert computer.addressed("hello Deckhand 7", game.players) == "hello Deckhand 7"  # no such seat: unchanged


# --------------------------------------------------------------------------- hard's search


def _searched_positions(count: int) -> Iterator[tuple[EnidGame, int, PlayerView]]:
    for game, player in positions(4 * count, seed=77):
        view = PlayerView.of(game, player)
        if player in game.current_players() and enid_ai._searchable(view) and not enid_ai.owes(view.observation, player):
            yield game, player, view
            count -= 1
            if not count:
                return


def test_an_imagined_deal_matches_what_the_seat_sees_and_takes_every_card_it_may_lay():
    for index, (game, player, view) in enumerate(_searched_positions(150)):
        obs = view.observation
        imagined = enid_ai.determinize(obs, view.legal, random.Random(index))
        assert sorted(map(str, imagined.hands[player])) == sorted(obs["hand"])
        assert {p: len(h) for p, h in imagined.hands.items()} == {s["player"]: s["cards"] for s in obs["seats"]}
        assert str(imagined.discard[-1]) == obs["top"] and len(imagined.discard) == obs["discard_size"]
        assert len(imagined.deck) == obs["deck_size"]
        every = [c for h in imagined.hands.values() for c in h] + imagined.deck + imagined.discard
        assert len(every) == len(set(every)) == 52
        assert imagined.enid == game.enid and imagined.suit_to_match() == game.suit_to_match()
        legal = [a for a in view.legal if a.kind != "challenge"]
        assert imagined.legal_actions(player) == legal
        for action in legal:  # each applies to its own copy, and the copy is independent
            trial = imagined.clone()
            trial.apply(player, action)
            assert sorted(map(str, imagined.hands[player])) == sorted(obs["hand"])


def test_playouts_only_make_legal_moves_and_end_in_a_score():
    from bot.ai.search import playout

    for index, (_game, player, view) in enumerate(_searched_positions(60)):
        imagined = enid_ai.determinize(view.observation, view.legal, random.Random(index))
        for _ in range(200):
            if imagined.is_over():
                break
            mover = min(imagined.current_players())
            action = enid_ai.playout_move(imagined, mover)
            assert action in imagined.legal_actions(mover)
            imagined.apply(mover, action)
        score = playout(enid_ai.determinize(view.observation, view.legal, random.Random(index)), player, enid_ai.SEARCH,
                        random.Random(index), 12)
        assert 0.0 <= score <= 1.0


def test_the_search_lays_a_card_it_may_lay_within_its_budget():
    import time

    chosen = Counter()
    for index, (_game, _player, view) in enumerate(_searched_positions(40)):
        action = decide(view, "hard", random.Random(index), budget=Budget(iterations=120))
        assert action in view.legal
        chosen[action == enid_ai.sharp(view, random.Random(index))] += 1
        timed = decide(view, "hard", random.Random(index), budget=Budget.timed(time.perf_counter, 0.02))
        assert timed in view.legal
    assert chosen[True] > 0
