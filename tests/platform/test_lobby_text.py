"""Lobby wording: a house rule is shown as the sentence for its chosen value, never as
``key: value``; final texts say stalemate, draw or win as they are."""

from __future__ import annotations

import pytest

from bot.discord_front.publish import final_text, standings
from bot.rules.engine import HouseRule
from cogs.blackjack.rules import HOUSE_RULES as BLACKJACK
from cogs.engines.rules import HOUSE_RULES as ENGINES
from cogs.enid.rules import HOUSE_RULES as ENID
from cogs.idiot.rules import HOUSE_RULES as IDIOT
from cogs.onion.rules import HOUSE_RULES as ONION


@pytest.mark.parametrize("rule", [*BLACKJACK, *ENGINES, *ENID, *IDIOT, *ONION], ids=lambda r: r.key)
def test_every_house_rule_choice_reads_as_its_own_sentence(rule):
    sentences = {c: rule.sentence(c) for c in rule.choices}
    assert len(set(sentences.values())) == len(rule.choices)  # each choice says something different
    for choice, sentence in sentences.items():
        assert sentence.endswith(".") and f"{rule.key}:" not in sentence
        assert "(**" not in sentence  # its own sentence, not the fallback


def test_blackjack_shortfall_cap_sentence():
    (rule,) = [r for r in BLACKJACK if r.key == "pickup_shortfall"]
    assert rule.sentence("cap") == rule.choice_descriptions[0]
    assert "forgiven" in rule.sentence("cap")


def test_a_rule_without_choice_sentences_keeps_the_choice_in_bold():
    rule = HouseRule("jokers", "Jokers are wild.", ("on", "off"), "on")
    assert rule.sentence("on") == "Jokers are wild. (**on**)"


class _Over:
    def __init__(self, placements, **attrs):
        self._placements = placements
        self.__dict__.update(attrs)

    def placements(self):
        return self._placements


def test_final_texts():
    assert final_text("Idiot", _Over([[1], [2, 3]], stalemate=True)).startswith("🤝 The Idiot game ended in a stalemate: nobody won.")
    assert "won" not in final_text("Idiot", _Over([[1], [2, 3]], stalemate=True)).replace("nobody won", "")
    assert final_text("Engines", _Over([[1, 2]], result={"reason": "deck_used_up"})) == "🤝 The Engines game ended in a draw between <@1> and <@2>."
    assert final_text("Toy", _Over([[1], [2]])) == "🥇 <@1> won the Toy game! Standings: 1st <@1>; 2nd <@2>."
    # The rating moves are said in the standings, not on a line naming everyone again.
    assert final_text("Toy", _Over([[1], [2]]), moves={1: 65, 2: -12}) == "🥇 <@1> won the Toy game! Standings and rating moves: 1st <@1> (+65); 2nd <@2> (-12)."
    assert standings([[5], [6, 7], [8]]) == "1st <@5>; 2nd <@6> and <@7>; 3rd <@8>"


def test_a_lobby_lists_few_house_rules_whole_in_the_games_order_and_counts_many_at_their_usual_setting():
    from bot.discord_front.tables.lobby import LOBBY_RULES_LISTED
    from cogs.blackjack import render as blackjack_render
    from cogs.blackjack.rules import BlackjackGame
    from cogs.onion import render as onion_render
    from cogs.onion.rules import OnionGame
    from tests.lobby import lobby_option_lines, spec_of

    blackjack = spec_of(BlackjackGame, blackjack_render, BLACKJACK)
    options = {r.key: r.default for r in reversed(BLACKJACK)}  # stored in another order
    assert len(BLACKJACK) <= LOBBY_RULES_LISTED
    assert lobby_option_lines(blackjack, options) == [r.sentence(r.default) for r in BLACKJACK]

    onion = spec_of(OnionGame, onion_render, ONION)
    options = {"chips": 50, **{r.key: r.default for r in ONION}, "mod5": "off"}
    (mod5,) = [r for r in ONION if r.key == "mod5"]
    assert lobby_option_lines(onion, options) == [
        "Gambling: everyone starts with 50 chips; the Stake is 1 chip and a raise is at most 10 chips.",
        mod5.sentence("off"),
        f"{len(ONION) - 1} other house rules are at their usual setting: `/settings show game:onion` lists them.",
    ]


def test_an_onion_table_is_won_as_a_round():
    assert final_text("Cripple Mr Onion", _Over([[1], [2]]), unit="round").startswith("🥇 <@1> won the Cripple Mr Onion round!")
