"""The card pictures of a bench/load.py run, recorded once and drawn again alone.

    python bench/picture_replay.py capture FILE [load.py's options, one rate]
    python bench/picture_replay.py replay FILE [--rounds 3] [--prof]

``capture`` runs bench/load.py with its options (say ``--tables 300 --seconds 10 --seed 1
--rates 40``) and writes to FILE (a pickle) every picture the bot asked for, in order:
the rows, the layout, and whether the bot's picture cache held it, each marked as of
the set-up or of the measured run (with several rates, every rate's pictures are "run").

``replay`` draws them again in this process, the set-up's first (they warm the caches
as the run found them), then the run's, and prints, per round, the thread CPU time per
picture drawn (a picture the PNG cache still holds costs a look-up, counted in the time
but not as a picture) and the mean PNG size of the run's pictures; each round starts
from empty caches. The pixels do not depend on the caches (tests/platform/test_cardart*.py),
so a change to bot/pictures/cardart.py can be timed on real pictures in seconds, without the noise
of the bench's other threads. In place it costs more: the drawing threads share the
core and its caches with the event loop (``render_rows`` took 1.35-1.4 times this
figure's CPU inside bench/load.py in the fourth round, main and after alike).
``--prof`` adds a cProfile of the last round's run part. Numbers only, nothing asserted.

Only replay files written by ``capture`` (a pickle runs code when read).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pickle
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bot.pictures import cardart  # noqa: E402


def capture(path: str, load_args: list[str]) -> None:
    import load  # bench/load.py

    from bot.pictures import picture_pool

    log: list[tuple[str, tuple, dict, bool]] = []
    phase = ["setup"]
    draw = picture_pool.PictureDrawer.draw

    async def recorded_draw(self, rows, **layout):
        log.append((phase[0], tuple(rows), layout, cardart.cached_png(rows, **layout) is not None))
        return await draw(self, rows, **layout)

    def started() -> None:
        phase[0] = "run"

    def ended(row) -> None:
        with open(path, "wb") as f:
            pickle.dump(log, f)

    picture_pool.PictureDrawer.draw = recorded_draw
    load.main_recording(load_args, started, ended)
    print(f"{len(log)} pictures asked for, {sum(p == 'run' for p, *_ in log)} in the run: {path}")


def replay_once(log: list, profile: cProfile.Profile | None) -> tuple[float, int, int, float]:
    """One replay from empty caches: (ms per drawn picture, pictures drawn, pictures asked
    for, mean PNG bytes of the run's pictures) for the run part."""
    cardart.clear_caches()
    cardart.warm_up("french")
    cardart.warm_up("onion")
    drawn, cpu, sizes = 0, 0.0, []
    for phase, rows, layout, _ in log:
        run = phase == "run"
        start = time.thread_time()
        if run and profile is not None:
            profile.enable()
        png = cardart.cached_png(rows, **layout)
        if png is None:
            png = cardart.render_rows(rows, **layout)
            drawn += run
            if run:
                sizes.append(len(png))
        if run and profile is not None:
            profile.disable()
        if run:
            cpu += time.thread_time() - start
    asked = sum(phase == "run" for phase, *_ in log)
    return 1000 * cpu / max(drawn, 1), drawn, asked, statistics.fmean(sizes) if sizes else 0.0


def replay(path: str, rounds: int, prof: bool) -> None:
    with open(path, "rb") as f:
        log = pickle.load(f)
    results = []
    for n in range(rounds):
        profile = cProfile.Profile(time.thread_time) if prof and n == rounds - 1 else None
        ms, drawn, asked, size = replay_once(log, profile)
        results.append(ms)
        print(f"round {n + 1}: {ms:.2f} ms per drawn picture ({drawn} drawn of {asked} asked for), "
              f"PNG {size:,.0f} bytes on average{' (profiled)' if profile else ''}")
    plain = results[:-1] if prof and rounds > 1 else results
    print(f"median {statistics.median(plain):.2f} ms per drawn picture over {len(plain)} round(s)")
    if prof:
        pstats.Stats(profile).sort_stats(os.environ.get("SORT", "tottime")).print_stats(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    cap = sub.add_parser("capture", help="run bench/load.py and record the pictures it asks for")
    cap.add_argument("file")
    rep = sub.add_parser("replay", help="draw a recorded run's pictures again and time them")
    rep.add_argument("file")
    rep.add_argument("--rounds", type=int, default=3)
    rep.add_argument("--prof", action="store_true", help="cProfile the last round's run part")
    args, rest = parser.parse_known_args()
    if args.command == "capture":
        capture(args.file, rest)
    elif rest:
        parser.error(f"unknown options: {' '.join(rest)}")
    else:
        replay(args.file, args.rounds, args.prof)


if __name__ == "__main__":
    main()
