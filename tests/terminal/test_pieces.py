"""The terminal front end's pieces that need no table: the command line, Discord's
markup made plain, and typed input read back as moves."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.rules.engine import Action, Control
from bot.terminal import cli, menu
from bot.terminal.text import panel_lines, plain
from bot.words.panel import Field, Panel

ROOT = Path(__file__).resolve().parents[2]


# --------------------------------------------------------------------------- command line


def test_a_plain_command_line_is_you_against_easy_computers(tmp_path):
    options = cli.parse(["idiot"], environ={"DATA_DIR": str(tmp_path)})
    assert options.game == "idiot" and options.computers == ("easy", "easy") and options.players == 3
    assert options.data_dir == tmp_path / "terminal" and not options.timers and options.rules == {}


def test_levels_players_and_rules_are_read_and_checked():
    options = cli.parse(["enid", "--computers", "easy", "HARD", "--rule", "mode=plain", "--pause", "0", "--seed", "7"], environ={})
    assert options.computers == ("easy", "hard") and options.players == 3
    assert options.rules == {"mode": "plain"} and options.pause == 0 and options.seed == "7"
    assert cli.parse(["engines"], environ={}).players == 2
    assert cli.parse(["onion", "--players", "5", "--computers", "hard"], environ={}).computers == ("hard",) * 4
    assert cli.parse(["idiot", "--rule", "finish=LAST_IDIOT"], environ={}).rules == {"finish": "last_idiot"}


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        ([], "Name the game to play"),
        (["idoit"], "no game called 'idoit'"),
        (["idiot", "--players", "9"], "2 to 8 players"),
        (["engines", "--players", "3"], "2 or 4 players"),
        (["idiot", "--players", "x"], "not a whole number"),
        (["idiot", "--computers", "medium"], "no computer level called 'medium'"),
        (["idiot", "--players", "4", "--computers", "easy", "hard"], "give one level for all of them, or one each"),
        (["idiot", "--rule", "finish"], "--rule takes KEY=VALUE"),
        (["idiot", "--rule", "colour=red"], "Idiot has no rule called 'colour'; its rules are finish and voluntary_pickup"),
        (["enid", "--rule", "mode=silly"], "The rule mode takes enid or plain"),
        (["idiot", "--pause", "-1"], "--pause takes a number of seconds from 0 to 10"),
        (["idiot", "--bogus"], "Unrecognized arguments: --bogus"),
    ],
)
def test_a_bad_command_line_is_one_sentence(argv, words):
    with pytest.raises(cli.CommandLineError) as refused:
        cli.parse(argv, environ={})
    sentence = str(refused.value)
    assert words in sentence and "\n" not in sentence and sentence.endswith((".", ")."))


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    code = (
        "import atexit, sys; atexit.register(lambda: print('DISCORD' if 'discord' in sys.modules else 'NO DISCORD'))\n"
        "from bot.__main__ import main; sys.argv[1:] = sys.argv[1:]; sys.exit(main())"
    )
    return subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_help_and_a_bad_command_line_never_import_discord():
    done = _run("play", "--help")
    assert done.returncode == 0 and done.stdout.startswith("usage: deckhand play") and done.stdout.rstrip().endswith("NO DISCORD")
    assert "--computers" in done.stdout and "deckhand play enid --rule mode=plain" in done.stdout
    bad = _run("play", "checkers")
    assert bad.returncode == 2 and bad.stdout.strip() == "NO DISCORD"
    assert bad.stderr.count("\n") == 1 and bad.stderr.startswith("deckhand play: There is no game called 'checkers'")
    usage = _run("--help")
    assert usage.returncode == 0 and "play <game>" in usage.stdout and usage.stdout.rstrip().endswith("NO DISCORD")


# --------------------------------------------------------------------------- text


def test_markup_mentions_times_and_discord_words_become_plain_text():
    names = {-201: "🤖 Deckhand 1 (easy)", 1: "Ann"}
    text = plain("**Turn:** <@-201> · <@1> · <@999> · ~~x~~ __y__ *z* `code` <:carp:12> <t:1060:R>", names, now=1000)
    assert text == "Turn: 🤖 Deckhand 1 (easy) · Ann · someone · x y z code :carp: in 60 s"
    assert plain("type it in the game's thread (the names are in /rules game:enid)") == "type it (type rules for the names)"
    assert plain("> a quoted line\n-# small print\n\\*not bold\\*") == "a quoted line\nsmall print\n*not bold*"


def test_a_panel_reads_as_lines_without_its_log():
    board = Panel(title="Idiot", description="**Turn:** <@1>\n**Pile:** empty", footer="The rules: /rules idiot",
                  fields=[Field("Recent", "a\nb"), Field("Players", "<@1>: 3 cards")])

    assert panel_lines(board, {1: "Ann"}, skip_fields=("Recent",)) == [
        "== Idiot ==", "Turn: Ann", "Pile: empty", "Players: Ann: 3 cards", "(type rules for the rules of idiot)",
    ]


# --------------------------------------------------------------------------- typed moves


PLAY = Action.parse("play:7h")
LISTED = menu.entries([
    Control(PLAY, "7♥", place="select", description="Play a 7"),
    Control(Action("bet"), "Bet another amount (1–10)…", place="amount"),
    Control(Action("discard"), "Discard 1 to 3 cards…", place="multi", choices=(("As", "A♠"), ("7h", "7♥"), ("Kd", "K♦")), max_values=3),
])


def test_the_menu_numbers_each_move_and_says_what_follows_the_number():
    printed = menu.lines(LISTED)
    assert printed[0] == "  1. 7♥  (Play a 7)"
    assert printed[1].startswith("  2. Bet another amount (1–10)…") and "type 2 and the amount" in printed[1]
    assert "type 3 and the cards' numbers" in printed[2] and printed[3].split() == ["1)", "A♠", "2)", "7♥", "3)", "K♦"]


def test_a_number_an_amount_cards_and_words_are_read_back():
    parse = Action.parse
    assert menu.read("1", LISTED, parse, hears_words=False) == menu.Choice(PLAY)
    assert menu.read("2 7", LISTED, parse, hears_words=False).action == Action("bet", arg="7")
    assert menu.read("3 3 1", LISTED, parse, hears_words=False).action == Action.parse("discard:Kd.As")
    assert menu.read("1 Alonzo Church of Halibut", LISTED, parse, hears_words=True) == menu.Choice(PLAY, "Alonzo Church of Halibut")
    assert menu.read("Last card", LISTED, parse, hears_words=True) == menu.Choice(None, "Last card")


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("9", "There is no move 9: type a move's number, 1 to 3"),
        ("2", "Type 2 and one whole number after it"),
        ("2 lots", "Type 2 and one whole number after it"),
        ("3", "Type 3 and the numbers of 1 to 3 of its cards"),
        ("3 4", "Its cards are numbered 1 to 3"),
        ("1 now", "Move 1 takes nothing after its number"),
        ("hello", "Type a move's number, 1 to 3"),
    ],
)
def test_input_that_names_no_move_is_refused_with_a_sentence(line, words):
    with pytest.raises(menu.Refused) as refused:
        menu.read(line, LISTED, Action.parse, hears_words=False)
    assert str(refused.value).startswith(words)


# --------------------------------------------------------------------------- layers


def test_the_terminal_front_end_sits_on_the_core_not_on_discord():
    """No module of bot/terminal/ imports discord.py through any import chain (the games'
    render modules, loaded through their specs when a game starts, do not either)."""
    from tests.platform.imports import ROOT as REPO, chain_to, graph, import_blocked, modules_under

    terminal = sorted(name for name in modules_under(REPO, ["bot"]) if name.startswith("bot.terminal"))
    assert {"bot.terminal.cli", "bot.terminal.table", "bot.terminal.menu", "bot.terminal.text"} <= set(terminal)
    own, outside = graph()
    chains = {name: chain_to(own, outside, name, "discord") for name in terminal}
    assert {name: " -> ".join(chain) for name, chain in chains.items() if chain} == {}
    result = import_blocked(terminal, {"discord"})
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr


def test_a_data_dir_that_cannot_be_used_is_one_sentence(tmp_path):
    taken = tmp_path / "a-file"
    taken.write_text("not a folder")
    done = subprocess.run([sys.executable, "-m", "bot", "play", "idiot", "--data-dir", str(taken)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(f"deckhand play: {taken} cannot be used")

    (tmp_path / "games" / "guilds").mkdir(parents=True)
    (tmp_path / "games" / "guilds" / "1.sqlite3").write_text("garbage")  # Idiot's saved games
    done = subprocess.run([sys.executable, "-m", "bot", "play", "idiot", "--data-dir", str(tmp_path / "games")], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    assert "cannot be used" in done.stderr and "file is not a database" in (tmp_path / "games" / "play.log").read_text()
