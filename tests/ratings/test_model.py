"""The rating model on its own (bot/players/ratings.py's pure part): who moves, by how much, and when nobody does."""

from __future__ import annotations

import math

import pytest

from bot.players import ratings
from bot.players.ratings import Rating, rate

EASY, HARD = -201, -301  # bot/core/computer.py's ids: easy seat 1, hard seat 1


def test_a_win_against_a_stronger_player_moves_more():
    newcomer = Rating()
    strong, weak = Rating(mu=32, sigma=3), Rating(mu=18, sigma=3)
    upset = rate("idiot", [(1, 1), (2, 2)], {1: newcomer, 2: strong})
    expected = rate("idiot", [(1, 1), (2, 2)], {1: newcomer, 2: weak})
    assert upset[1].mu - newcomer.mu > expected[1].mu - newcomer.mu > 0
    assert upset[2].mu < strong.mu  # the favourite who lost drops


def test_free_for_all_order_and_ties():
    after = rate("idiot", [(1, 1), (2, 2), (3, 3)], {})
    assert after[1].mu > after[2].mu > after[3].mu
    # A stalemate or draw: everyone shares place 1, equals stay equal and nobody wins ground.
    tie = rate("idiot", [(1, 1), (2, 1), (3, 1)], {})
    assert tie[1].mu == pytest.approx(tie[2].mu) == pytest.approx(tie[3].mu) == pytest.approx(25, abs=1e-9)
    assert tie[1].sigma < ratings.MODEL.sigma
    assert all(r.won == 0 and r.played == 1 for r in tie.values())  # nobody won it
    # A tie with a stronger player pulls the weaker one up and the stronger one down.
    mixed = rate("idiot", [(1, 1), (2, 1)], {1: Rating(mu=20, sigma=4), 2: Rating(mu=30, sigma=4)})
    assert mixed[1].mu > 20 and mixed[2].mu < 30


def test_teams_share_an_outcome():
    # Engines: each placement group is a side. Teammates of equal rating move alike,
    # and winners all rise, losers all fall.
    after = rate("engines", [(1, 1), (2, 1), (3, 2), (4, 2)], {})
    assert after[1].mu == pytest.approx(after[2].mu) and after[1].mu > 25
    assert after[3].mu == pytest.approx(after[4].mu) and after[3].mu < 25
    # As a team game it is not a four-way ranking: 1 and 2 are not ranked apart.
    assert after[1].won == after[2].won == 1 and after[3].won == 0
    # The same placements in a free-for-all game rank each player against each.
    ffa = rate("idiot", [(1, 1), (2, 1), (3, 2), (4, 2)], {})
    assert ffa[1].mu != pytest.approx(after[1].mu)


def test_engines_draw_is_a_tie_of_all():
    after = rate("engines", [(1, 1), (2, 1), (3, 1), (4, 1)], {})
    assert {round(r.mu, 9) for r in after.values()} == {25.0}


def test_fewer_than_two_people_do_not_rate():
    assert rate("idiot", [(1, 1), (EASY, 2)], {}) is None
    assert rate("idiot", [(EASY, 1), (HARD, 2)], {}) is None
    assert rate("idiot", [(1, 1)], {}) is None


def test_beating_a_hard_computer_moves_a_person_more_than_beating_an_easy_one():
    base = {1: Rating(), 2: Rating()}
    over_hard = rate("idiot", [(1, 1), (HARD, 2), (2, 3)], base)
    over_easy = rate("idiot", [(1, 1), (EASY, 2), (2, 3)], base)
    assert over_hard[1].mu > over_easy[1].mu
    assert set(over_hard) == {1, 2}  # computers get no rating back


def test_computer_ratings_are_fixed_and_follow_their_tournaments():
    for game, facts in ratings.GAMES.items():
        easy, hard, rnd = (ratings.computer_mu(game, level) for level in ("easy", "hard", "random"))
        assert easy == 25
        c = math.sqrt(2 * ratings.COMPUTER_SIGMA**2 + 2 * ratings.MODEL.beta**2)
        # The model's own two-player win chance between the fixed ratings is the measured one.
        assert 1 / (1 + math.exp(-(hard - easy) / c)) == pytest.approx(facts.hard_vs_easy)
        assert 1 / (1 + math.exp(-(easy - rnd) / c)) == pytest.approx(facts.easy_vs_random)
    assert ratings.computer_mu("idiot", "hard") > 25 > ratings.computer_mu("idiot", "random")
    assert ratings.level_of(EASY) == "easy" and ratings.level_of(HARD) == "hard"


def test_shown_rating_is_conservative():
    assert ratings.shown(25, 25 / 3) == 1000
    assert ratings.shown(25, 2) > ratings.shown(25, 5)


def test_moves_text():
    assert ratings.moves_text({}) == ""
    assert ratings.moves_text({5: -12, 7: 23}) == "📈 Ratings: <@7> +23, <@5> -12."


def test_a_former_player_is_an_unknown_opponent_and_never_rated():
    former = ratings.FORMER_PLAYERS.start
    after = rate("idiot", [(1, 1), (former, 2)], {1: Rating(), former: Rating(mu=40, sigma=1)})
    assert set(after) == {1} and after[1].mu > 25  # counted as a person, rated as a newcomer, given nothing
    assert after[1].mu == rate("idiot", [(1, 1), (2, 2)], {})[1].mu
    assert rate("idiot", [(former, 1), (former + 1, 2)], {}) is None  # nobody left to rate
    assert rate("idiot", [(1, 1), (EASY, 2), (former, 3)], {}) is not None


def test_computer_ratings_are_the_figures_the_players_docs_quote():
    """docs/players/computer-players.md's table of measured win rates is what the computer
    seats are rated from (issue 36: Onion's page said 64.0% while the rating used 62.2%)."""
    import re
    from pathlib import Path

    games = {"Blackjack": "blackjack", "Idiot": "idiot", "Engines": "engines", "Enid": "enid", "Cripple Mr Onion": "onion"}
    page = (Path(__file__).resolve().parents[2] / "docs" / "players" / "computer-players.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| ([A-Z][^|]*?) \|([^|]*)\|([^|]*)\|$", page, re.M)
    quoted = {games[name.split(" (")[0]]: (easy, hard) for name, easy, hard in rows if name.split(" (")[0] in games}
    assert set(quoted) == set(ratings.GAMES)
    for game, (easy, hard) in quoted.items():
        figure = lambda text: float(re.match(r"\s*([\d.]+)%", text).group(1)) / 100  # noqa: E731
        assert ratings.GAMES[game].hard_vs_easy == pytest.approx(figure(hard)), game
        if easy.strip():  # (Onion's easy vs random is per round, in the developers' page)
            assert ratings.GAMES[game].easy_vs_random == pytest.approx(figure(easy)), game
