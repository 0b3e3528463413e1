"""``deckhand play`` through a pseudo-terminal, as a person plays it: whole games of
Idiot and Enid against computer players, Ctrl+C and a resume, refused input, Onion's
typed bet. Each game is dealt from a seed with no pause between computer moves; every
wait is bounded by the driver's timeout."""

from __future__ import annotations

import re

import pexpect

from tests.terminal.driver import OVER, SAVED, Screen, asks, exchange, next_screen, play_out, spawn, transcript, type_line
from tests.terminal.enid_player import EnidPlayer


READY_OFFERED = re.compile(r"^\s+\d+\. Ready$", re.M)


def lowest_move(screen: Screen) -> str:
    """Ready first in a swap phase, else the first move listed."""
    moves = screen.moves
    ready = [n for n, label in moves.items() if label == "Ready"]
    return str(ready[0] if ready else min(moves))


def first_moves(child: pexpect.spawn) -> Screen:
    """The first screen that lists your moves."""
    for _ in range(20):
        screen = next_screen(child)
        assert screen is not None, transcript(child)
        if screen.moves and "Your moves:" in screen.text:
            return screen
        type_line(child, "board")
    raise AssertionError(transcript(child))


def ends_saved(child: pexpect.spawn) -> None:
    child.expect_exact(SAVED)
    child.expect(pexpect.EOF)
    child.wait()
    assert child.exitstatus == 0, transcript(child)


def test_a_whole_game_of_idiot_against_an_easy_and_a_hard_computer(tmp_path):
    child = spawn("idiot", tmp_path, "--seed", "3", "--name", "Ann", "--computers", "easy", "hard")
    text = play_out(child, lowest_move)
    assert child.exitstatus == 0, text[-3000:]
    assert text.startswith("A new game of Idiot: Ann, 🤖 Deckhand 1 (easy), 🤖 Deckhand 2 (hard).")
    assert "· Play begins:" in text and "· Ann played" in text and "🤖 Deckhand 2 (hard) played" in text
    assert re.search(r"· Game over\. Winner: [^\n]+\.", text) and OVER in text
    assert "<@" not in text and "**" not in text  # Discord's markup never reaches the terminal

    # The finished game is not resumed: the same command deals a new one.
    again = spawn("idiot", tmp_path, "--seed", "4", "--name", "Ann")
    assert first_moves(again).text.startswith("A new game of Idiot")
    type_line(again, "quit")
    ends_saved(again)


def test_a_whole_game_of_enid_with_its_rituals_judged(tmp_path):
    child = spawn("enid", tmp_path, "--seed", "5", "--name", "Ann", "--rule", "beginner_names=yes")
    text = play_out(child, EnidPlayer())
    assert child.exitstatus == 0, text[-3000:]
    assert "· Turned up:" in text and "The Enid Blyton is the nine of" in text
    # Ann's words were said at the table and judged by the rules: names, and a ritual.
    assert re.search(r"· 💬 Ann: “[^”]+ of (Carp|Sturgeon|Halibut|Dalmations)", text)
    assert "· ✅ Ann named" in text
    assert re.search(r"· 🏁 [^\n]+ is out of cards and wins!", text) and OVER in text, text[-3000:]


def test_ctrl_c_at_your_turn_saves_and_the_same_command_resumes(tmp_path):
    child = spawn("idiot", tmp_path, "--seed", "3", "--name", "Ann")
    before = first_moves(child)
    hand = re.search(r"Your hand \(3\): (.+)", before.text).group(1)
    child.sendintr()
    ends_saved(child)

    child = spawn("idiot", tmp_path, "--seed", "99", "--name", "Ann")  # the seed of a saved game is its own
    resumed = first_moves(child)
    assert resumed.text.startswith("Resuming your saved game of Idiot (3 players).")
    assert f"Your hand (3): {hand}" in resumed.text and resumed.moves == before.moves
    type_line(child, lowest_move(resumed))  # Ready
    child.expect_exact("· Ann is ready.")
    child.sendeof()  # Ctrl+D
    ends_saved(child)

    child = spawn("idiot", tmp_path, "--name", "Ann")
    text = play_out(child, lowest_move)
    assert text.startswith("Resuming your saved game of Idiot")
    assert not READY_OFFERED.search(text)  # Ann's Ready was kept: she is not asked again
    assert "· Game over. Winner:" in text and child.exitstatus == 0


def test_ctrl_c_while_the_computers_move_then_the_game_goes_on(tmp_path):
    child = spawn("idiot", tmp_path, "--seed", "8", "--name", "Ann", "--computers", "hard", "--pause", "0.3")
    screen = first_moves(child)
    type_line(child, lowest_move(screen))  # Ready: the computers swap and play their turns
    child.expect(r"· 🤖 Deckhand \d \(hard\)")
    child.sendintr()
    ends_saved(child)
    saved_part = transcript(child)

    child = spawn("idiot", tmp_path, "--name", "Ann", "--pause", "0")
    text = play_out(child, lowest_move)
    assert text.startswith("Resuming your saved game of Idiot (3 players)."), text[:500]
    assert "· Game over. Winner:" in text and child.exitstatus == 0
    assert "Ann is ready" in saved_part and not READY_OFFERED.search(text)


def test_refused_input_is_one_sentence_and_changes_nothing(tmp_path):
    child = spawn("enid", tmp_path, "--seed", "5", "--name", "Ann", "--rule", "beginner_names=yes")
    screen = first_moves(child)
    type_line(child, "99")
    child.expect_exact(f"There is no move 99: type a move's number, 1 to {len(screen.moves)} (or help).")
    type_line(child, "Last St. Francis of Assisi")  # said when nobody waits for words: the rules refuse
    child.expect_exact("Nobody is waiting for words from you just now.")
    type_line(child, "board")
    again = first_moves(child)
    assert again.moves == screen.moves and "· " not in again.text.split("== Enid ==")[0]  # nothing happened
    exchange(
        child,
        ("help", "help: this; rules: the game's rules"),
        ("rules", "Alonzo Church"),  # the rules text, markup undone
        ("quit", SAVED),
    )
    child.expect(pexpect.EOF)


def test_idiot_hears_no_words(tmp_path):
    child = spawn("idiot", tmp_path, "--seed", "3", "--name", "Ann")
    screen = first_moves(child)
    exchange(
        child,
        ("hello", f"Type a move's number, 1 to {len(screen.moves)} (or help)."),
        ("10 now", "Move 10 takes nothing after its number."),
        ("quit", SAVED),
    )
    child.expect(pexpect.EOF)


def test_onion_takes_a_typed_amount_and_typed_cards(tmp_path):
    child = spawn("onion", tmp_path, "--seed", "2", "--name", "Ann")
    screen = first_moves(child)
    discard = next(n for n, label in screen.moves.items() if label.startswith("Discard 1 to"))
    type_line(child, f"{discard} 9")
    child.expect_exact("Its cards are numbered 1 to 5")
    type_line(child, f"{discard} 1 2")
    child.expect_exact("· Ann exchanged 2 cards")
    for _ in range(40):  # on to a choice of amount: the Dealer's bet, a raise, a bid or an extra bet
        screen = first_moves(child)
        amount = next((n for n, label in screen.moves.items() if "another amount" in label), None)
        if amount is not None:
            break
        type_line(child, str(min(screen.moves)))
    else:
        raise AssertionError(transcript(child)[-3000:])
    low, high = map(int, re.search(r"another amount \((\d+)–(\d+)\)", screen.moves[amount]).groups())
    type_line(child, f"{amount} lots")
    child.expect_exact(f"Type {amount} and one whole number after it, e.g. {amount} 5.")
    type_line(child, f"{amount} {high + 1}")
    child.expect(r"\n[A-Z][^\n]*\.\r?\n> ")  # the rules' own sentence for an amount out of range
    type_line(child, f"{amount} {high}")
    child.expect(rf"· Ann [^\n]*{high}")
    type_line(child, "quit")
    ends_saved(child)


def test_with_timers_your_moves_say_when_your_turn_ends(tmp_path):
    untimed = spawn("idiot", tmp_path / "untimed", "--seed", "3", "--name", "Ann")
    screen = first_moves(untimed)
    assert "No timers: take your time" in screen.text and "Your turn ends" not in screen.text
    type_line(untimed, "quit")
    ends_saved(untimed)

    timed = spawn("idiot", tmp_path / "timed", "--seed", "3", "--name", "Ann", "--timers")
    screen = first_moves(timed)
    assert "Timers are on, as on Discord." in screen.text
    assert re.search(r"Your turn ends in \d+ (s|min): then the game makes a move for you\.", screen.text), screen.text
    type_line(timed, "quit")
    ends_saved(timed)


CALM = ("Keep all five", "Match", "Bet nothing", "Buy none", "No extra bet", "Done declaring", "Show my hand", "Concede")


def calm_move(screen: Screen) -> str:
    """Stay in as cheaply as possible: keep the cards, match, bet and buy nothing."""
    for wanted in CALM:
        chosen = next((n for n, label in screen.moves.items() if label.startswith(wanted)), None)
        if chosen is not None:
            return str(chosen)
    return str(min(screen.moves))


def test_onion_plays_a_whole_session_round_after_round_and_ends_it(tmp_path):
    """Issue 36: one run plays the session: after a round, Enter (or next) deals the next
    one from the carried bankrolls, end shows the standings and ends the session."""
    child = spawn("onion", tmp_path, "--seed", "2", "--name", "Ann", timeout=60)
    rounds = 0
    for _ in range(900):
        screen = next_screen(child)
        if screen is None:
            break
        if "The round is over." in screen.text:
            rounds += 1
            assert "Type next (or press Enter) for the next round of this session, end to end the session" in screen.text
            type_line(child, ("next", "", "end")[rounds - 1])
        else:
            type_line(child, calm_move(screen) if asks(screen) else "board")
    child.wait()
    text = transcript(child)
    assert child.exitstatus == 0 and rounds == 3, text[-3000:]
    assert "Round 2 of this session of Cripple Mr Onion: Ann, " in text and "Round 3 of this session" in text
    assert "Cripple Mr Onion: the session is over.\n3 rounds played.\n" in text, text[-2000:]
    assert re.search(r"\nAnn: \d+ chips \(\d rounds? won\)\n", text)
    assert "for the next round of this session, or add --new" not in text  # no stop after every round
    assert OVER not in text
    # The session was ended: the same command opens a new one.
    again = spawn("onion", tmp_path, "--seed", "3", "--name", "Ann")
    assert first_moves(again).text.startswith("A new game of Cripple Mr Onion")
    type_line(again, "quit")
    ends_saved(again)
