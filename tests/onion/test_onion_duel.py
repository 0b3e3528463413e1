"""Millard's showdown (house rule ``showdown: millard``), from stacked packs: the Elder's
hand is laid, each player in turn equals or beats it, plays a modifier or concedes, and
the survivor faces the next player up to the Dealer (docs/rules/onion.md, "The showdown").

Seats 1, 2, 3; seat 1 deals, so the Elder is 2 and the Younger 3. Timer defaults up to the
declaration round (no discards, zero bets, nothing bought: the second five of 2 and 3 are
face up), then everyone says done."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from onion_round_helpers import act, advance, codes, default_step, kinds, new_round

from bot.rules.engine import Action, RuleError
from cogs.onion.rules import DECLARE, DUEL, HOUSE_RULES, OnionGame, laid_as
from cogs.onion.scoring import PLAIN, best_arrangement, compare, cripples, onion_deck, parse_cards

P = [1, 2, 3]
DEALER_JUNK = ("2c 3s 4d 5c 9s", "2d 3d 4c 6c 9d")


def to_duel(p2, p3, p1=DEALER_JUNK, after=(), mode="millard", **options) -> tuple[OnionGame, list]:
    hands = {1: p1, 2: p2, 3: p3}
    game = new_round(P, 1, {p: codes(h[0]) for p, h in hands.items()},
                     second={p: codes(h[1]) for p, h in hands.items()}, after=list(after),
                     showdown=mode, **options)
    advance(game, DECLARE)
    events = []
    for p in (2, 3, 1):
        events += act(game, p, "done")
    return game, events


def finish(game):
    events = []
    while not game.is_over():
        events += default_step(game)
    return events


def test_the_showdown_is_the_duel_unless_the_server_chooses_quick():
    rule = next(r for r in HOUSE_RULES if r.key == "showdown")
    assert rule.choices == ("millard", "quick") and rule.default == "millard"
    game = new_round(P, 1, {1: codes(DEALER_JUNK[0]), 2: codes("Ac Kd Ah Qh 2u"), 3: codes("Aw Ko Au Qu Tt")},
                     showdown="quick")
    advance(game, DECLARE)
    events = []
    for p in (2, 3, 1):
        events += act(game, p, "done")
    assert game.is_over() and "duel_start" not in kinds(events) and kinds(events).count("showdown") == 3


# Both hold a Double Onion; seat 2's next grouping (a flush) beats seat 3's broken flush.
FLUSH_SECOND = ("Ac Kd Ah Qh 2u", "Tc Ts 9u 6h 7u")
BROKEN_SECOND = ("Aw Ko Au Qu Tt", "Th 7w 7s 5w 5t")


def test_a_lower_grouping_decides_equal_top_groupings_and_the_dealer_is_brought_in_last():
    game, events = to_duel(FLUSH_SECOND, BROKEN_SECOND)
    # Nobody has a modifier to play: equal hands are shown, beaten ones concede, by themselves.
    assert game.is_over() and game.winner == 2 and game.outcome == "showdown"
    duels = [(e.data["champion"], e.data["challenger"]) for e in events if e.kind == "duel"]
    assert duels == [(2, 3), (2, 1)]  # from the Elder, the Dealer brought in last
    lead = next(e for e in events if e.kind == "duel_lead")
    assert lead.data == {"winner": 2, "loser": 3, "tie": False, "how": "grouping", "at": 1, "a": "flush",
                         "b": "broken flush"}  # the Double Onions equal, the 2nd grouping decides
    assert [e.player for e in events if e.kind == "concede"] == [3, 1]
    assert [s["player"] for s in game.observation(None)["showdown"]] == [2, 3, 1]  # all laid face up
    # Swapped seats: the challenger wins on the next grouping, and the Elder concedes.
    game, events = to_duel(BROKEN_SECOND, FLUSH_SECOND)
    assert game.winner == 3 and [e.player for e in events if e.kind == "concede"] == [2, 1]


# Seat 2 (Elder): a Double Onion of K♦ Q♥ and two aces. Seat 3 holds Death (K⚔) face down
# and a seven-card onion, which loses to a Double Onion.
DOUBLE = ("Ac Kd Ah Qh 2u", "Tc Ts 9u 6h 7u")
DEATH_AND_SEVEN = ("Kw 2h 2s 4u 5h", "6s As Aw 9c 7c")


def test_a_modifier_played_in_answer_and_the_laid_hand_re_formed_once():
    game, events = to_duel(DOUBLE, DEATH_AND_SEVEN)
    assert game.phase == DUEL and game.current_players() == {3}
    obs = game.observation(3)
    assert obs["duel"]["champion"] == 2 and obs["duel"]["challenger"] == 3 and obs["duel"]["step"] == "challenge"
    assert obs["showdown"][0]["groupings"][0] == "Double Onion"
    # The seven-card onion alone can neither equal nor beat, but laid face up its K⚔ is
    # visible and acts (docs/rules/onion.md, "visible"): so it may be shown. Death may also
    # be played first (it touches the Elder's Double Onion), or the hand conceded.
    assert [a.code() for a in game.legal_actions(3)] == ["show", "declare:Kw:death", "concede"]
    with pytest.raises(RuleError, match="show your hand, rearrange it, play a modifier or concede"):
        game.apply(3, Action("rewild"))
    events = act(game, 3, "declare:Kw:death")
    reformed = [e for e in events if e.kind == "reformed"]
    assert [e.player for e in reformed] == [2]  # the devalued hand re-forms, once
    assert game.observation(None)["showdown"][0]["groupings"][0] != "Double Onion"
    events += finish(game)
    assert game.winner == 3 and game.outcome == "showdown"
    assert kinds(events).count("reformed") == 1
    assert [e.player for e in events if e.kind == "concede"] == [2, 1]


# Seat 3 holds the Lady (Q♠) with K♥ K♠ A♠: one Onion pair, and a six-card onion that loses
# to seat 2's seven-card onion. The next two cards are A♦ and 2♦: taking the A♦ in the
# Lady's place makes a Double Onion.
SEVEN = ("Ac Ah 2u 2w 4t", "5t 6h Tc Ts 9u")
LADY = ("Qs Kh Ks As 2h", "3u 4u 5h 6s 7c")


def test_the_lady_declared_in_the_middle_of_the_showdown():
    game, _ = to_duel(SEVEN, LADY, after=("Ad", "7d"))
    assert game.current_players() == {3}
    assert "declare:Qs:lady" in [a.code() for a in game.legal_actions(3)]
    assert "show" not in [a.code() for a in game.legal_actions(3)]
    act(game, 3, "declare:Qs:lady")
    assert game.current_players() == {3} and game.observation(3)["offered"] == ["Ad", "7d"]
    events = act(game, 3, "pick:Ad")
    assert game.is_over() and game.winner == 3
    mine = next(s for s in game.observation(None)["showdown"] if s["player"] == 3)
    assert mine["groupings"][0] == "Double Onion" and "Qs" not in mine["cards"]
    assert [e.player for e in events if e.kind == "concede"] == [2, 1]


# Seat 2 (Elder) holds Great A'Tuin (Q🪙) face down: at its best a five-card onion and a
# double bagel; with A'Tuin's shift (10 -> 2, 3 -> 11) a Double Onion.
ATUIN = ("Qo Kt Ad 3w 4o", "Tw To 6d 7u 5s")


def test_a_beaten_champion_answers_with_a_modifier():
    # Seat 3's seven-card onion beats the Elder's five-card onion. Beaten, the Elder answers
    # with Great A'Tuin, and its Double Onion beats the seven-card onion.
    game, events = to_duel(ATUIN, SEVEN)
    # The challenger has no modifier to play: its hand, which beats, is shown for it.
    assert "show" not in kinds(events) and [e.player for e in events if e.kind == "showdown"] == [2, 3]
    lead = next(e for e in events if e.kind == "duel_lead")
    assert lead.data["winner"] == 3 and game.current_players() == {2}
    assert [a.code() for a in game.legal_actions(2)] == ["declare:Qo:atuin", "concede"]
    events = act(game, 2, "declare:Qo:atuin")
    assert [(e.player, e.data["was"][0], e.data["groupings"][0]) for e in events if e.kind == "reformed"] == [
        (2, "five-card onion", "Double Onion")]
    events += finish(game)
    assert game.winner == 2


def test_a_hand_laid_keeps_its_record_in_the_event_and_the_story_when_it_re_forms():
    """Issue 36, item 6: the showdown event and the story say the hand as it was laid; the
    hand's record on the table is the one a re-form changes."""
    game, events = to_duel(ATUIN, SEVEN)
    laid = next(e for e in events if e.kind == "showdown" and e.player == 2)
    act(game, 2, "declare:Qo:atuin")
    assert laid.data["explanation"].startswith("five-card onion")
    assert next(s for s in game.showdown if s["player"] == 2)["explanation"].startswith("Double Onion")
    told = [(e["kind"], e.get("player")) for e in game.story]
    assert told[:5] == [("showdown", 2), ("duel", None), ("showdown", 3), ("duel_lead", None), ("declared", 2)]
    assert game.story[0]["explanation"].startswith("five-card onion") and game.story[0]["how"] == "elder"
    assert OnionGame.from_dict(game.to_dict()).story == game.story


def test_a_king_of_swords_laid_face_up_acts_on_every_hand():
    """Our reading of "visible" (docs/rules/onion.md, Modifiers in play): a card face up
    on the table in a hand still in, and a hand laid at the showdown lies face up. So
    a K⚔ in a laid hand acts at once, on the hands laid before it and after it, its
    holder's too, as if it had been declared."""
    # The Elder lays K⚔ (held face down) with a seven-card onion: Death is visible now, so
    # seat 3's Double Onion (K♦ Q♥, two pictures) loses a picture and cannot beat.
    game, events = to_duel(DEATH_AND_SEVEN, DOUBLE)
    assert game.context_for(3).death and not game.context_for(3).atuin
    laid = {e.player: e.data for e in events if e.kind == "showdown"}
    assert laid[2]["how"] == "elder" and laid[3]["how"] == "cannot"
    assert laid[3]["groupings"][0] != "Double Onion" and "Death bars K♦ from a Double Onion" in laid[3]["explanation"]
    assert game.winner == 2
    # The other way round: the challenger's K⚔ goes face up when the hand is shown, and the
    # Elder's Double Onion, laid before it, re-forms under Death.
    game, _ = to_duel(DOUBLE, DEATH_AND_SEVEN)
    events = act(game, 3, "show")
    reformed = next(e for e in events if e.kind == "reformed")
    assert reformed.player == 2 and reformed.data["was"][0] == "Double Onion"
    assert reformed.data["cause"] == {"player": 3, "cards": ["Kw"], "power": "laid"}
    events += finish(game)
    assert game.winner == 3
    # A hand once laid has nothing left to declare: its K⚔ is visible already. Beaten by
    # seat 3's Great A'Tuin (a Double Onion even with one of its three pictures killed),
    # the Elder has no answer left and is not asked.
    game, _ = to_duel(DEATH_AND_SEVEN, ("Qo Kt Ad 3w Jh", "Tw To 6d 7u 5s"))
    assert game.current_players() == {3}
    events = act(game, 3, "declare:Qo:atuin")
    assert game.winner == 3 and [(e.player, e.data["forced"]) for e in events if e.kind == "concede"][0] == (2, True)


def test_a_king_of_swords_acts_at_the_quick_showdown_where_every_hand_is_laid():
    game, events = to_duel(DEATH_AND_SEVEN, DOUBLE, mode="quick")
    shown = {e.player: e.data for e in events if e.kind == "showdown"}
    assert "Death bars K♦ from a Double Onion" in shown[3]["explanation"] and game.winner == 2


def test_a_sender_laid_face_up_zeroes_the_aces_of_hands_using_eights():
    # The Elder lays J♦ (the Sender, eights normal), held face down. Seat 3's best was a
    # six-card onion with a null eight and an ace at 1; with the Sender visible, a hand
    # using an eight has its aces zeroed, so seat 3 is laid without its eight.
    game, events = to_duel(("Jd 5s 6s 7s 2t", "Ks Kd Qu Qc 9o"), ("8h Ah 2h 3h 4h", "Tt Qt 9t 6u 7w"))
    shown = {e.player: e.data for e in events if e.kind == "showdown"}
    assert game.context_for(3).sender
    assert shown[3]["groupings"][0] == "five-card onion" and "unused 8♥" in shown[3]["explanation"]


# A Triple Onion with Death (K⚔) face down: Death cannot touch a Triple Onion with eights
# normal, but it can touch the Elder's Double Onion (DOUBLE).
TRIPLE_AND_DEATH = ("Kw Kh As Ks Ad", "Qc Ao 2h 3h 4s")


def test_timer_concedes_unless_the_hand_may_be_shown_and_the_duel_survives_a_restart():
    game, _ = to_duel(SEVEN, LADY, after=("Ad", "7d"))
    assert game.timeout_action(3) == Action("concede")  # the Lady unplayed, the hand cannot be shown
    saved = game.to_dict()
    back = OnionGame.from_dict(saved)
    assert back.to_dict() == saved and back.legal_actions(3) == game.legal_actions(3)
    act(back, 3, "concede")
    finish(back)
    assert back.winner == 2
    game, _ = to_duel(ATUIN, SEVEN)
    assert game.timeout_action(2) == Action("concede")  # beaten, with Great A'Tuin unplayed
    game, _ = to_duel(DOUBLE, DEATH_AND_SEVEN)
    assert game.timeout_action(3) == Action("show")  # laid, its K⚔ breaks the Double Onion
    # A challenger whose hand beats, asked because it holds a modifier that answers (Death
    # touches the Elder's Double Onion): the cards speak.
    game, _ = to_duel(DOUBLE, TRIPLE_AND_DEATH)
    assert [a.code() for a in game.legal_actions(3)] == ["show", "declare:Kw:death", "concede"]
    assert game.timeout_action(3) == Action("show")


def test_a_duellist_leaving_brings_in_the_next_player():
    game, _ = to_duel(DOUBLE, DEATH_AND_SEVEN)
    events = game.remove_player(2)  # the champion leaves: the challenger holds on
    events += finish(game)
    assert game.is_over() and game.winner in (1, 3) and 2 in game.folded
    assert game.total_chips() == 300


def test_the_archchancellor_may_be_declared_at_any_time_during_the_game():
    # "At any time during the game": here by the Elder while the Dealer's amount is owed.
    game = new_round(P, 1, {1: codes(DEALER_JUNK[0]), 2: codes("Jt 3h 4s 7c 7s"), 3: codes("Kw 3c 4h 5h 7h")})
    advance(game, "bet")
    act(game, 1, "bet::1")
    assert game.current_players() == {2}
    assert "declare:Jt:archchancellor" in [a.code() for a in game.legal_actions(2)]
    events = act(game, 2, "declare:Jt:archchancellor")
    assert [(e.data["card"], e.data["forced"]) for e in events if e.kind == "declared"] == [("Jt", False), ("Kw", True)]
    assert game.current_players() == {1}  # the Dealer discloses a card first
    act(game, 1, "disclose:2c")
    assert game.current_players() == {2} and game.phase == "bet" and game.owed(2) == 1  # the turn goes on
    assert "declare:Jt:archchancellor" not in [a.code() for a in game.legal_actions(2)]
    act(game, 2, "match")
    assert game.current_players() == {3}


def test_a_hand_given_up_is_conceded_not_crippled_and_a_cripple_is_recorded():
    from bot.discord_front.publish import final_text
    from cogs.onion import render

    # Seat 3 (Death, a Triple Onion) beats the Elder's Double Onion but gives up. Its cards
    # lie face up, so its K⚔ is visible and the Elder's Double Onion falls too: the
    # Dealer's hand holds the better cards in the end.
    game, _ = to_duel(DOUBLE, TRIPLE_AND_DEATH)
    act(game, 3, "concede")
    finish(game)
    assert game.winner == 1
    said = final_text("Cripple Mr Onion", game, unit="round", render=render)
    assert "crippling" not in said and "<@3> — conceded with Triple Onion" in said
    # A ten-card running flush against the Elder's Greater Onion: crippled, and said so.
    game, events = to_duel(("Ac As Ah Ad Aw", "Kc Ks Kh Kd Qc"), ("2h 3h 4h 5h 6h", "7h 8u 9u Tu Ju"))
    assert game.winner == 3 and "crippled" in kinds(events)
    said = final_text("Cripple Mr Onion", game, unit="round", render=render)
    assert "by crippling <@2>'s Greater Onion" in said


# Seat 3 holds Death face down and a five-card onion; the Elder lays a seven-card onion and
# a bagel, with no picture: Death cannot touch the laid hand, nor better seat 3's.
NO_PICTURES = SEVEN
DEATH_USELESS = ("Kw 2h 3h 4u 5h", "9c 6s 7d Jh Jw")


def test_a_modifier_that_cannot_affect_the_shown_cards_is_not_offered():
    game, events = to_duel(NO_PICTURES, DEATH_USELESS)
    # Not asked: Death changes nothing here, so seat 3 has no answer and concedes by itself.
    concede = next(e for e in events if e.kind == "concede")
    assert concede.player == 3 and concede.data["forced"]
    assert game.is_over() and game.winner == 2
    # Against a Double Onion the same card answers, and is offered (it kills a picture there).
    game, _ = to_duel(DOUBLE, DEATH_USELESS)
    assert game.current_players() == {3}
    assert [a.code() for a in game.legal_actions(3)] == ["show", "declare:Kw:death", "concede"]


# Seat 2 (Elder) holds a ten-card running flush 3..Q of clubs/swords. Seat 3 holds a Lesser
# Onion and a bagel (T T): laid at its best the Lesser Onion would be crippled by that run,
# but laid as a Triple Onion (and a two-card onion, a bagel) it beats the run's groupings.
# The Dealer (seat 1) holds a Lesser Onion and nothing else, which beats a Triple Onion.
RUN = ("3c 4c 5w 6w 7c", "8c 9w Tc Jw Qc")
LESSER = ("Kh Ah Qd Ad Ks", "As Qu Au Th Td")
DEALER_LESSER = ("Kc Ac Qw Aw Kt", "At Ko Ao 2s 3d")


def test_a_hand_rearranged_to_escape_a_cripple_and_re_formed_once_when_beaten():
    game, events = to_duel(RUN, LESSER, p1=DEALER_LESSER)
    assert game.current_players() == {3}  # asked: laid otherwise, the hand holds
    legal = [a.code() for a in game.legal_actions(3)]
    assert "show" in legal and "concede" in legal
    rearrange = [a for a in game.legal_actions(3) if a.kind == "rearrange"]
    assert rearrange and rearrange[0].arg == "Triple-Onion" and len(rearrange[0].cards) == 6
    assert game.timeout_action(3) == rearrange[0]  # the cards speak: laid so that they hold
    # Shown at its best, the Lesser Onion is crippled (on a copy of the round).
    shown = OnionGame.from_dict(game.to_dict())
    lost = act(shown, 3, "show")  # crippled, it may not be retracted: no answer is left
    assert [(e.player, e.data["forced"]) for e in lost if e.kind == "concede"][0] == (3, True)
    assert shown.is_over() and shown.winner != 3
    # Laid as a Triple Onion it holds; the Elder has no answer.
    events = act(game, 3, rearrange[0].code())
    mine = next(s for s in game.observation(None)["showdown"] if s["player"] == 3)
    assert mine["groupings"][0] == "Triple Onion"
    assert [e.player for e in events if e.kind == "concede"] == [2]
    # The Dealer's Lesser Onion beats the Triple Onion; seat 3 may re-form at its best, once.
    assert game.current_players() == {3} and game.observation(None)["duel"]["loser"] == 3
    saved = game.to_dict()
    back = OnionGame.from_dict(saved)  # a restart keeps the hand as laid
    assert back.to_dict() == saved and back.legal_actions(3) == game.legal_actions(3)
    assert [a.code() for a in game.legal_actions(3)] == ["rearrange::best", "concede"]
    guarded = OnionGame.from_dict(saved)
    guarded.duel["rearranged"].append(3)  # had it re-formed already, it could not again
    assert guarded.legal_actions(3) == [Action("concede")]
    events = act(game, 3, "rearrange::best")
    assert [e.player for e in events if e.kind == "rearranged"] == [3]
    mine = next(s for s in game.observation(None)["showdown"] if s["player"] == 3)
    assert mine["groupings"][:2] == ["Lesser Onion", "bagel"]
    assert game.is_over() and game.winner == 3 and game.outcome == "showdown"


def test_computers_lay_a_hand_otherwise_to_escape_a_cripple_and_re_form_it_when_beaten():
    import random

    from bot.ai import Budget, PlayerView, decide

    game, _ = to_duel(RUN, LESSER, p1=DEALER_LESSER)
    budget = Budget(iterations=60, determinizations=4)
    for level in ("easy", "hard"):
        chosen = decide(PlayerView.of(game, 3), level, random.Random(1), budget=budget)
        assert chosen.kind == "rearrange" and chosen.arg == "Triple-Onion"
    act(game, 3, decide(PlayerView.of(game, 3), "easy", random.Random(1), budget=budget).code())
    assert game.current_players() == {3}  # the Dealer's Lesser Onion beats the Triple Onion
    for level in ("easy", "hard"):
        assert decide(PlayerView.of(game, 3), level, random.Random(1), budget=budget) == Action("rearrange", (), "best")


def _split(cards):
    return cards[:10], cards[10:]


RICH = [c for c in onion_deck() if c.rank in (1, 11, 12, 13)] * 3 + onion_deck()  # Onions come up


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cards=st.lists(st.sampled_from(RICH), min_size=20, max_size=20, unique=True), data=st.data())
@example(cards=parse_cards(" ".join(LESSER + RUN)), data=None)
def test_a_hand_laid_otherwise_wins_only_by_escaping_a_cripple(cards, data):
    """Why the duel offers a rearrangement only against a run that cripples: a hand laid
    around another top grouping never outranks the evaluator's best arrangement (groupings
    compare highest first and the best has the highest key), so it can win where the best
    does not only when the best's top is crippled and the other top is not."""
    hand, other = _split(cards)
    best, theirs = best_arrangement(hand), best_arrangement(other)
    tops = [t for t in _dodge_tops(hand, best)]
    if data is not None:
        tops.append(data.draw(st.lists(st.sampled_from(hand), min_size=2, max_size=7, unique=True)))
    for top in tops:
        laid = laid_as(hand, top, PLAIN)
        if laid is None:
            continue
        assert laid.key <= best.key
        if compare(laid, theirs) > 0 and compare(best, theirs) <= 0:
            assert cripples(theirs.running_flush, best.top) and not cripples(theirs.running_flush, laid.top)


def _dodge_tops(hand, best):
    """Smaller Onions inside the best's top grouping (what the duel tries)."""
    if best.top is None or best.top.kind not in (("Onion", 5), ("Onion", 4)):
        return []
    n = best.top.kind[1]
    return [list(t) for m in range(n - 1, 1, -1) for t in combinations(best.top.cards, 2 * m)][:60]


def test_a_hand_laid_in_the_duel_is_shown_to_its_player_as_everyone_sees_it():
    """Once laid, a hand is no longer its player's secret: their picture says so and shows
    it as the board does (it said "only you see them" of cards the whole table saw), and
    their text lists it once, not as face-down and face-up cards again."""
    from cogs.onion import render
    from tests.e2e.embeds import embed_text

    game, _ = to_duel(ATUIN, SEVEN)  # the Elder (2) laid, the Younger's (3) laid hand beats it: 2 answers
    board = render.table_cards(game.observation(None))
    for p in (2, 3):
        mine = render.hand_cards(game.observation(p))
        assert mine[0].label == "Your hand, laid face up for everyone · 10"
        assert mine[0].cards == board[P.index(p)].cards and mine[0].face_down == 0
    answering = embed_text(render.hand_embed(game.observation(2), {}))
    assert "**Yours, as laid:**" in answering and "Face down" not in answering and "Laid face up" not in answering
    waiting = embed_text(render.hand_embed(game.observation(3), {}))
    assert "Face down" not in waiting and "**Laid face up for everyone:** seven-card onion" in waiting
    # The Dealer, not brought in yet, still holds cards only they see.
    assert render.hand_cards(game.observation(1))[0].label == "Your face-down cards · 10 (only you see them)"
    assert "**Face down:**" in embed_text(render.hand_embed(game.observation(1), {}))
