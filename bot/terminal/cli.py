"""The command line of ``deckhand play`` (also ``python -m bot play``).

Everything here is checked before the table core, the render modules or discord.py
are imported: ``--help`` and a bad command line answer at once, and a bad command
line is one sentence on stderr with exit code 2 (as the bot's own start-up).
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn

from bot.terminal.options import DEFAULT_LEVEL, DEFAULT_PAUSE, GAMES, LEVELS, MAX_PAUSE, PlayOptions

EXIT_USAGE = 2

DESCRIPTION = """\
Play one of Deckhand's card games in this terminal, against computer players:
the same rules, computer players and storage as the Discord bot, no Discord needed.
The game is saved after every move: Ctrl+C (or typing quit) stops, and the same
command resumes it."""

EPILOG = """\
games: idiot, enid, blackjack, engines (Engines of Discrimination), onion (Cripple Mr Onion)

examples:
  deckhand play idiot
  deckhand play enid --players 3 --computers easy hard
  deckhand play enid --rule mode=plain          (plain mode: Taylor's game, no names or rituals)
  deckhand play onion --rule variant=plain      (no chips)
  deckhand play idiot --rule finish=last_idiot  (a house rule)
  deckhand play idiot --new                     (abandon the saved game, deal afresh)

At the table: type a move's number (and, where the move asks for one, an amount or
cards after it: 4 7); in Enid, anything else you type is said at the table. Also:
help, rules, board, quit."""


class CommandLineError(Exception):
    """A command line that cannot be played; ``str()`` is one sentence."""


class Parser(argparse.ArgumentParser):
    """argparse, with its errors said in one sentence (no usage block) and exit code 2
    (``deckhand replay`` uses it too, with its own ``missing_game`` sentence)."""

    missing_game = "Name the game to play: {games} (e.g. deckhand play idiot)."

    def error(self, message: str) -> NoReturn:
        if "required: <game>" in message:
            raise CommandLineError(self.missing_game.format(games=_or_list(GAMES)))
        raise CommandLineError(message[:1].upper() + message[1:].rstrip(".") + f" (see {self.prog} --help).")


def build_parser(prog: str = "deckhand play") -> argparse.ArgumentParser:
    parser = Parser(prog=prog, description=DESCRIPTION, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", metavar="<game>", help="idiot, enid, blackjack, engines or onion")
    parser.add_argument("--players", metavar="N", type=_whole_number, help="players at the table, you included (default: 3; Engines: 2)")
    parser.add_argument(
        "--computers", metavar="LEVEL", nargs="+", default=None,
        help="the computer players' levels, easy or hard: one for all of them, or one each (default: easy)",
    )
    parser.add_argument("--timers", action="store_true", help="turn timers and ritual deadlines, as on Discord (off by default)")
    parser.add_argument(
        "--rule", metavar="KEY=VALUE", action="append", default=[],
        help="a house rule or table option (repeatable); a wrong key or value lists the right ones",
    )
    parser.add_argument("--new", action="store_true", help="abandon the saved game of this game and start a fresh one")
    parser.add_argument("--name", help="your name at the table (default: your login name)")
    parser.add_argument("--seed", help="deal from this seed (a number or a word), for a game you can deal again")
    parser.add_argument(
        "--pause", metavar="SECONDS", type=float, default=DEFAULT_PAUSE,
        help=f"seconds between computer moves, so you can follow them (default {DEFAULT_PAUSE:g}; 0 to {MAX_PAUSE:g})",
    )
    parser.add_argument("--data-dir", metavar="DIR", type=Path, help="where games are saved (default: $DATA_DIR/terminal, DATA_DIR being ./data unless set)")
    return parser


def _whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text[:20]}' is not a whole number") from None


def _or_list(words: Sequence[str], conjunction: str = "or") -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {conjunction} {words[-1]}"


# --------------------------------------------------------------------------- games


def rules_module(game: str) -> Any:
    """``cogs.<game>.rules``: pure, so importing it for checks costs no Discord."""
    return importlib.import_module(f"cogs.{game}.rules")


def game_class(game: str) -> Any:
    from bot.rules.engine import Game

    module = rules_module(game)
    return next(v for v in vars(module).values() if isinstance(v, type) and issubclass(v, Game) and getattr(v, "key", None) == game)


def table_option_choices(game: str) -> dict[str, tuple[str, ...]]:
    """The options a Discord lobby's ``/<game> new`` takes that are not house rules,
    as ``--rule`` keys: Enid's mode, Onion's variant."""
    module = rules_module(game)
    if game == "enid":
        return {"mode": tuple(module.MODES)}
    if game == "onion":
        return {"variant": (module.GAMBLING, module.PLAIN_VARIANT)}
    return {}


def rule_choices(game: str) -> dict[str, tuple[str, ...]]:
    """Every ``--rule`` key of ``game`` with its choices: its house rules, then its table options."""
    choices = {rule.key: tuple(rule.choices) for rule in rules_module(game).HOUSE_RULES}
    choices.update(table_option_choices(game))
    return choices


def default_players(game: str) -> int:
    cls = game_class(game)
    return max(cls.min_players, min(3, cls.max_players)) if game != "engines" else 2


def allowed_counts(game: str) -> tuple[int, ...]:
    cls = game_class(game)
    counts = tuple(range(cls.min_players, cls.max_players + 1))
    if game == "engines":
        return tuple(n for n in counts if n in (2, 4))  # Google against Yahoo, or two teams of two
    return counts


# --------------------------------------------------------------------------- checks


def parse(argv: Sequence[str], environ: Mapping[str, str] | None = None) -> PlayOptions:
    """The checked options of a command line, or a CommandLineError with one sentence."""
    args = build_parser().parse_args(list(argv))
    game = args.game.strip().lower()
    if game not in GAMES:
        raise CommandLineError(f"There is no game called '{args.game[:30]}': choose {_or_list(GAMES)}.")
    title = game_class(game).title

    levels = [level.strip().lower() for level in args.computers or [DEFAULT_LEVEL]]
    wrong = next((level for level in levels if level not in LEVELS), None)
    if wrong is not None:
        raise CommandLineError(f"There is no computer level called '{wrong[:20]}': choose {_or_list(LEVELS)}.")
    counts = allowed_counts(game)
    if args.players is not None:
        players = args.players
    elif args.computers and len(levels) > 1:
        players = 1 + len(levels)
    else:
        players = default_players(game)
    if players not in counts:
        allowed = f"{counts[0]} to {counts[-1]}" if counts == tuple(range(counts[0], counts[-1] + 1)) else _or_list([str(n) for n in counts])
        raise CommandLineError(f"{title} is played by {allowed} players, you included, not {players}.")
    if len(levels) == 1:
        levels = levels * (players - 1)
    elif len(levels) != players - 1:
        raise CommandLineError(
            f"{players} players means {players - 1} computer player{'s' if players != 2 else ''}, "
            f"but --computers names {len(levels)} levels: give one level for all of them, or one each."
        )

    rules = _checked_rules(game, title, args.rule)
    if not math.isfinite(args.pause) or not 0 <= args.pause <= MAX_PAUSE:
        raise CommandLineError(f"--pause takes a number of seconds from 0 to {MAX_PAUSE:g}, not {args.pause:g}.")
    name = " ".join((args.name if args.name is not None else login_name()).split())
    if not name or len(name) > 32:
        raise CommandLineError("--name takes a name of 1 to 32 characters.")
    return PlayOptions(
        game=game, computers=tuple(levels), rules=rules, timers=args.timers, new=args.new, name=name,
        seed=args.seed, pause=args.pause, data_dir=args.data_dir or default_data_dir(environ),
    )


def _checked_rules(game: str, title: str, typed: Sequence[str]) -> dict[str, str]:
    choices = rule_choices(game)
    rules: dict[str, str] = {}
    for item in typed:
        key, sep, value = (part.strip() for part in item.partition("="))
        key = key.lower().replace("-", "_")
        if not sep or not key or not value:
            raise CommandLineError(f"--rule takes KEY=VALUE (e.g. {next(iter(choices), 'key')}=...), not '{item[:40]}'.")
        if key not in choices:
            known = f"its rules are {_or_list(sorted(choices), 'and')}" if choices else "it has none"
            raise CommandLineError(f"{title} has no rule called '{key[:30]}'; {known}.")
        if value.lower() in (c.lower() for c in choices[key]):
            value = next(c for c in choices[key] if c.lower() == value.lower())
        else:
            raise CommandLineError(f"The rule {key} takes {_or_list(choices[key])}, not '{value[:30]}'.")
        rules[key] = value
    return rules


def login_name() -> str:
    """Your name at the table unless --name says otherwise: the login name, capitalised."""
    import getpass

    try:
        name = getpass.getuser()
    except (OSError, KeyError, ImportError):
        name = ""
    return name[:1].upper() + name[1:32] if name.strip() else "Player"


def default_data_dir(environ: Mapping[str, str] | None = None) -> Path:
    """``$DATA_DIR/terminal``: beside the bot's own data (DATA_DIR from the environment
    or ./.env, as the bot reads it; ./data when unset), in a folder of its own."""
    env = os.environ if environ is None else environ
    if environ is None and "DATA_DIR" not in env:
        from dotenv import dotenv_values

        env = {**dotenv_values(Path.cwd() / ".env"), **env}
    return Path((env.get("DATA_DIR") or "").strip() or "./data") / "terminal"


def main(argv: Sequence[str] | None = None) -> int:
    try:
        options = parse(sys.argv[2:] if argv is None else argv)
    except CommandLineError as error:
        print(f"deckhand play: {error}", file=sys.stderr)
        return EXIT_USAGE
    from bot.terminal.table import run  # the core, the render modules and their imports

    return run(options)
