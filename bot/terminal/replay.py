"""``deckhand replay <game>``: a finished terminal game, step by step, as a spectator saw it.

``deckhand play`` keeps every game it dealt in its data folder (each game's "server"
is one SQLite file, ``bot.terminal.table.guild_of``), finished ones included; this
opens one of them with the replay core (``bot/replay/``, the one Discord's Replay
button uses) and shows each step: the board as it was, and the lines of what happened.
Enter goes on, ``b`` goes back, ``f``/``l`` to the first and the last step, a number
to that move, ``q`` (or Ctrl+C, Ctrl+D) stops. ``--list`` lists the finished games,
``--picture FILE`` writes the whole game as one animated PNG instead.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

from bot.terminal.cli import EXIT_USAGE, CommandLineError, Parser, _or_list, default_data_dir, game_class, login_name
from bot.terminal.options import GAMES

DESCRIPTION = """\
Watch a finished game of deckhand play again, step by step, as a spectator saw it:
the board at each moment and what happened, never a hidden card."""

EPILOG = """\
examples:
  deckhand replay idiot                 (the last finished game of Idiot)
  deckhand replay idiot --list          (the finished games saved, newest first)
  deckhand replay idiot --table 3       (Idiot #3)
  deckhand replay idiot --picture idiot.png   (the whole game as one animated picture)

While it plays: Enter (or n) the next step, b back, f the first step, l the last,
a move's number that move, rules the game's rules, q (or Ctrl+C, Ctrl+D) stop."""

KEYS = "Enter: next step · b: back · f: first · l: last · a number: that move · rules · q: quit"
PROMPT = "> "


@dataclass(frozen=True)
class ReplayOptions:
    game: str
    table: int | None = None
    listing: bool = False
    picture: Path | None = None
    name: str = "Player"
    data_dir: Path = Path("data/terminal")


class _ReplayParser(Parser):
    missing_game = "Name the game to replay: {games} (e.g. deckhand replay idiot)."


def build_parser(prog: str = "deckhand replay") -> Parser:
    import argparse

    parser = _ReplayParser(prog=prog, description=DESCRIPTION, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", metavar="<game>", help="idiot, enid, blackjack, engines or onion")
    parser.add_argument("--table", metavar="N", type=int, help="the game's number (Idiot #N; default: the last finished one)")
    parser.add_argument("--list", dest="listing", action="store_true", help="list the finished games saved, newest first")
    parser.add_argument("--picture", metavar="FILE", type=Path, help="write the whole game as one animated PNG to FILE")
    parser.add_argument("--name", help="your name in the replay (default: your login name)")
    parser.add_argument("--data-dir", metavar="DIR", type=Path, help="where deckhand play saved its games (default: $DATA_DIR/terminal)")
    return parser


def parse(argv: Sequence[str], environ: Mapping[str, str] | None = None) -> ReplayOptions:
    args = build_parser().parse_args(list(argv))
    game = args.game.strip().lower()
    if game not in GAMES:
        raise CommandLineError(f"There is no game called '{args.game[:30]}': choose {_or_list(GAMES)}.")
    if args.table is not None and args.table < 1:
        raise CommandLineError(f"--table takes a game's number (1 or more), not {args.table}.")
    name = " ".join((args.name if args.name is not None else login_name()).split())[:32] or "Player"
    return ReplayOptions(game=game, table=args.table, listing=args.listing, picture=args.picture, name=name,
                         data_dir=args.data_dir or default_data_dir(environ))


def main(argv: Sequence[str] | None = None) -> int:
    try:
        options = parse(sys.argv[2:] if argv is None else argv)
    except CommandLineError as error:
        print(f"deckhand replay: {error}", file=sys.stderr)
        return EXIT_USAGE
    return run(options)


class Refused(Exception):
    """Nothing to replay; ``str()`` is one sentence (exit code 2)."""


def run(options: ReplayOptions, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    stdin, out = stdin or sys.stdin, out or sys.stdout
    try:
        replay = asyncio.run(_open(options, out))
    except Refused as refusal:
        print(f"deckhand replay: {refusal}", file=sys.stderr)
        return EXIT_USAGE
    if replay is None:  # --list
        return 0
    if options.picture is not None:
        return _picture(replay, options, out)
    try:
        Stepper(replay, options, stdin, out).run()
    except KeyboardInterrupt:
        out.write("\n")
    return 0


async def _open(options: ReplayOptions, out: TextIO) -> Any:
    """The replay asked for (None after a listing), or Refused."""
    from bot.replay.opening import NoReplay, open_replay
    from bot.terminal.table import guild_of
    from cogs import catalog
    from storage import open_storage, repos
    from storage.db import GuildDataMissing, StorageError

    title = game_class(options.game).title
    nothing = (f"No game of {title} is saved under {options.data_dir}: play one with deckhand play {options.game}"
               " (or point --data-dir where it was saved).")
    if not options.data_dir.is_dir():
        raise Refused(nothing)
    storage = open_storage(options.data_dir)
    guild = guild_of(options.game)
    try:
        async with storage.reading(guild, create=False) as db:
            finished = await repos.finished_tables(db, options.game, limit=20 if options.listing else 1)
        if options.listing:
            _list(finished, options, title, out)
            return None
        table = options.table if options.table is not None else (finished[0][0] if finished else None)
        if table is None:
            raise Refused(f"No finished game of {title} is saved under {options.data_dir}: a game in progress "
                          f"goes on with deckhand play {options.game}.")
        return await open_replay(storage, catalog.registry((options.game,)), guild, table)
    except GuildDataMissing:
        raise Refused(nothing) from None
    except NoReplay as refusal:
        raise Refused(str(refusal).replace("in this server", f"saved under {options.data_dir}")) from None
    except StorageError as error:
        raise Refused(f"The saved games under {options.data_dir} cannot be read ({error}).") from None
    finally:
        await storage.close()


def _list(finished: Sequence[tuple[int, int, float]], options: ReplayOptions, title: str, out: TextIO) -> None:
    if not finished:
        out.write(f"No finished game of {title} is saved under {options.data_dir}.\n")
        return
    for table, moves, at in finished:
        when = datetime.fromtimestamp(at).strftime("%Y-%m-%d %H:%M")
        out.write(f"{title} #{table}: {moves} move{'s' if moves != 1 else ''}, finished {when}\n")
    out.write(f"Replay one with deckhand replay {options.game} --table N.\n")


def _picture(replay: Any, options: ReplayOptions, out: TextIO) -> int:
    from bot.replay import animation

    shown = animation.frames(replay, _picture_names(replay, options))
    if not shown:
        print(f"deckhand replay: {replay.spec.title} draws no card pictures, so there is no animated picture of it.", file=sys.stderr)
        return EXIT_USAGE
    data = animation.animate(shown)
    if data is None:
        print(f"deckhand replay: the animated picture of {replay.spec.title} #{replay.table_id} would be too large.", file=sys.stderr)
        return 1
    try:
        options.picture.write_bytes(data)
    except OSError as error:
        print(f"deckhand replay: {options.picture} cannot be written ({error.strerror or error}).", file=sys.stderr)
        return EXIT_USAGE
    out.write(f"Saved {replay.spec.title} #{replay.table_id} as an animated picture ({len(shown)} steps, "
              f"{len(data) / 1_000_000:.1f} MB): {options.picture}\n")
    return 0


def _picture_names(replay: Any, options: ReplayOptions) -> dict[int, str]:
    from bot.pictures import cardart

    return {p: cardart.drawable(name) for p, name in _names(replay, options).items()}


def _names(replay: Any, options: ReplayOptions) -> dict[int, str]:
    from bot.terminal.table import YOU

    return replay.names(lambda player: options.name if player == YOU else f"Player {player}")


class Stepper:
    """The replay at the keyboard: one step shown at a time."""

    def __init__(self, replay: Any, options: ReplayOptions, stdin: TextIO, out: TextIO) -> None:
        from bot.terminal.screen import Screen

        self.replay = replay
        self.stdin = stdin
        self.names = _names(replay, options)
        self.screen = Screen(out, self.names)
        self.at = 0

    def run(self) -> None:
        replay = self.replay
        players = ", ".join(self.names[p] for p in replay.players)
        self.screen.show([f"Replay of {replay.describe()}: {players}.", KEYS])
        self.show()
        while True:
            self.screen.prompt(PROMPT)
            line = self.stdin.readline()
            self.screen.typed()
            if not line:
                self.screen.show([""])
                return
            word = line.strip().lower()
            if word in ("q", "quit", "exit"):
                return
            if word in ("", "n", "next"):
                if self.at == len(replay) - 1:
                    self.screen.show(["End of the replay."])
                    return
                self.at += 1
            elif word in ("b", "back", "p"):
                self.at = max(0, self.at - 1)
            elif word in ("f", "first"):
                self.at = 0
            elif word in ("l", "last"):
                self.at = len(replay) - 1
            elif word.isdigit() and len(word) < 7:
                self.at = replay.step_at(int(word)).index
            elif word in ("h", "help", "?"):
                self.screen.show([KEYS])
                continue
            elif word == "rules":
                self.screen.show(self.screen.plain(replay.spec.rules_text()).splitlines())
                continue
            else:
                self.screen.show([f"'{line.strip()[:20]}' is not a key here: {KEYS}."])
                continue
            self.show()

    def show(self) -> None:
        replay, screen = self.replay, self.screen
        step = replay.step(self.at)
        lines = ["", f"{replay.heading(step)}:"]
        said = replay.lines(step, self.names) or replay.quiet_lines(step, self.names)  # (Onion's "declares nothing")
        told = [f"· {screen.plain(line)}" for line in said]
        # A move neither the game's log nor its replay words tell: whose it was.
        lines += told or [f"· {screen.plain(self.names.get(move.player, ''))} moved." for move in step.moves]
        lines += ["", *screen.board(replay.spec.render, step.observation)]
        ending = replay.ending(step)
        if ending:
            lines += ["", screen.plain(ending)]
        end = " · the end: Enter stops, b goes back" if step is replay.last else ""
        lines += ["", f"(step {step.index + 1} of {len(replay)}{end})"]
        screen.show(lines)
