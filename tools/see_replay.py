"""See a replay as the member who presses Replay does (issue 42): the real bot in
SimCord, a fixed-seed game played to its end by four members, Replay pressed on the
final board, the replay message (only the clicker sees it) stepped with ▶, Go to move…
and ⏭, and each moment opened in SimCord's Preview in Chromium at 960 px, measured and
saved as a PNG, as ``tools/see.py`` does for the boards.

    python -m tools.see_replay [--out FOLDER] [--games onion idiot] [--docs FOLDER]

The plans: one Cripple Mr Onion round (four players) that reaches the showdown, and one
Idiot game. Random legal play folds a round of Onion away long before its showdown, so
Onion's members play by :class:`StaysIn`: random moves, except that nobody folds or
concedes or passes the extra bets on while they may stay in (a policy of this script only). The moments shot:
``first`` (the deal, as the replay opens), ``middle`` (Go to move… with half the
game's moves), ``showdown`` (Onion: the step whose words first tell the showdown, when it
is not the last) and ``end`` (⏭); then Save as picture is pressed and one frame of the animated PNG posted in
the game's thread is saved (``<plan>-animation-frame.png``) with its size and frame
count. FOLDER gets ``<plan>-replay-<moment>.png``, ``<plan>-steps.txt`` (Onion: every
step's words as the clicker reads them, stepped with ▶ from the deal to the end),
``measures.json`` and ``measures.md`` (``tools/see.py``'s table: height, text lines,
alt text, raw markdown...). ``--docs FOLDER`` also writes small copies of the shots and
the frame for the players' guide (``replay-<plan>-<moment>.png``: 256 colours, at most
720 px wide).

Needs what ``tools/see.py`` needs: Debian's ``chromium`` and ``pip install -e ".[looks]"``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import random
import re
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import transcript  # noqa: E402
from tools import see  # noqa: E402

#: The replay's controls, by the last part of their custom_id (bot/discord_front/replay_view.py).
FIRST, BACK, NEXT, LAST = "f", "p", "n", "l"
#: A few ▶ before the jumps, as a player starts.
FORWARD = 3
#: The docs' copies: at most this wide (px), 256 colours.
DOCS_WIDTH = 720
#: Onion's actions that give the round up: a fold, a conceded duel, the extra bets
#: not matched (everyone passing them on ends the round with no showdown).
#: Seconds SimCord may wait for Save as picture's drawing to end.
SAVE_SETTLE = 120.0
GIVE_UP = frozenset({"fold", "concede", "pass"})


class StaysIn(random.Random):
    """``bench/transcript.py``'s random choices, except that an action that gives the
    round up (:data:`GIVE_UP`) is chosen only when it is the only one offered: a round
    played this way reaches Cripple Mr Onion's showdown."""

    def choice(self, seq: Sequence[Any]) -> Any:  # type: ignore[override]
        staying = [a for a in seq if getattr(a, "kind", None) not in GIVE_UP]
        return super().choice(staying or seq)


@contextlib.contextmanager
def driven_by(policy: type[random.Random] | None) -> Iterator[None]:
    """The transcript driver's random moves drawn from ``policy`` (a ``random.Random``
    subclass) while the block runs; None: its own."""
    if policy is None:
        yield
        return
    kept = transcript.random
    transcript.random = SimpleNamespace(Random=policy)  # type: ignore[assignment]
    try:
        yield
    finally:
        transcript.random = kept


@contextlib.contextmanager
def camera_class(camera: type[see.Camera]) -> Iterator[None]:
    """``tools/see.py``'s ``shoot_plan`` (the seeded deal, the bot's settings for a fixed
    game, the driver) with ``camera`` as its watcher."""
    kept = see.Camera
    see.Camera = camera  # type: ignore[misc]
    try:
        yield
    finally:
        see.Camera = kept  # type: ignore[misc]


@dataclass(frozen=True)
class ReplayPlan:
    """A fixed-seed game to replay, and how its members play it."""

    plan: see.Plan
    policy: type[random.Random] | None = None
    #: Onion: shoot the step that tells the showdown; write every step's words.
    showdown: bool = False


PLANS = (
    ReplayPlan(see.Plan("onion", "onion", seed=2, mid_move=10**6, max_moves=400), policy=StaysIn, showdown=True),
    ReplayPlan(see.Plan("idiot", "idiot", seed=1, mid_move=10**6)),
)


@dataclass
class Seen:
    """What one plan's replay showed: the shots, every step's words (if stepped through
    them all), and the animated picture's facts."""

    shots: list[see.Shot] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)
    animation: dict[str, Any] = field(default_factory=dict)
    #: Onion: whether the showdown is told on the last step (then it is the ``end`` shot).
    showdown_is_last: bool | None = None


def control(message: Any, prefix: str, which: str = "") -> str | None:
    """The custom_id of the message's control starting with ``prefix`` (and ending with
    ``:which``), if it has one."""
    return next((cid for cid in transcript.button_ids(message)
                 if cid.startswith(prefix) and cid.endswith(f":{which}" if which else "")), None)


def read(message: Any, names: dict[int, str]) -> str:
    """A replay message's words as its reader sees them: mentions as @names (Discord
    draws them so), the controls and the picture's address left out, its alt text kept."""
    words = re.sub(r"<@!?(\d+)>", lambda m: "@" + names.get(int(m.group(1)), m.group(1)), transcript.text_of(message))
    return "\n".join(line for line in words.splitlines() if not line.strip().startswith(("[button", "[picture")))


def enabled(message: Any, custom_id: str) -> bool:
    for row in message.components:
        for item in getattr(row, "children", ()) or ():
            if getattr(item, "custom_id", None) == custom_id:
                return not getattr(item, "disabled", False)
    return False


class ReplayCamera(see.Camera):
    """Plays as ``tools/see.py``'s camera does, shooting nothing during the game; at its
    end a member presses Replay on the final board and the replay is looked at."""

    replay_plan: ReplayPlan
    watched: Seen

    async def moment(self, kind: str, **where: Any) -> None:
        if kind == "moved":
            self.moves += 1
        elif kind == "ended" and where["table"].status == "finished":
            await self.watch_replay(where["place"], where["members"], where["table"])

    async def watch_replay(self, place: Any, members: Sequence[Any], table: Any) -> None:
        env, clicker = self.env, members[1]  # not the host: any member of the server may watch it again
        final = next(m for m in reversed(place.history()) if control(m, "dh:replay:"))
        opened = await clicker.click(final, custom_id=control(final, "dh:replay:"))
        message = opened.response.message

        def now() -> Any:
            return transcript.to_discord_message(env, env.backend.messages[message.channel.id][message.id])

        async def press(which: str) -> Any:
            await clicker.click(now(), custom_id=control(now(), "dh:rp:", which))
            return now()

        names = {m.id: m.user.name for m in members}
        placements = table.state.placements()
        winners = [names[p] for p in (placements[0] if placements else ()) if p in names]

        async def shoot(moment: str) -> None:
            await self.shoot(f"replay-{moment}", place, [clicker], now(), winners if moment == "end" else ())

        await shoot("first")
        if self.replay_plan.showdown:
            await self.every_step(now, press, shoot, names)
        for _ in range(FORWARD):
            await press(NEXT)
        moves = table.record.version
        form = await clicker.click(now(), custom_id=control(now(), "dh:rpj:"))
        await clicker.submit_modal(form, {"move": str(moves // 2)})
        await shoot("middle")
        await press(LAST)
        await shoot("end")
        await self.animation(clicker, place, now())

    async def every_step(self, now: Any, press: Any, shoot: Any, names: dict[int, str]) -> None:
        """▶ from the deal to the end, keeping each step's words as the clicker reads
        them; the first step that tells the showdown is shot (unless it is the last
        step, shot as ``end``). Back to the deal (⏮) after."""
        shown = now()
        self.watched.steps.append(read(shown, names))
        told = False
        while enabled(shown, control(shown, "dh:rp:", NEXT) or ""):
            shown = await press(NEXT)
            self.watched.steps.append(read(shown, names))
            last = not enabled(shown, control(shown, "dh:rp:", NEXT) or "")
            if not told and "showdown" in shown.content.split("\n", 1)[-1].lower():
                told = True
                self.watched.showdown_is_last = last
                if not last:
                    await shoot("showdown")
        await press(FIRST)

    async def animation(self, clicker: Any, place: Any, shown: Any) -> None:
        """Save as picture: the posted animated PNG's size and frames; one frame saved."""
        from PIL import Image

        before = {m.id for m in place.history()}
        # Drawing a whole game is seconds of work in a thread: more than SimCord's
        # default 5 s to settle on a busy machine (as the replay tests allow it).
        settle, self.env.settle_timeout = self.env.settle_timeout, max(self.env.settle_timeout, SAVE_SETTLE)
        try:
            await clicker.click(shown, custom_id=control(shown, "dh:rpa:"))
        finally:
            self.env.settle_timeout = settle
        posted = [m for m in place.history() if m.id not in before and m.author.bot and m.attachments]
        if not posted:
            self.watched.animation = {"posted": False}
            return
        picture = posted[-1].attachments[0]
        data = self.env.backend.cdn.get(picture.url)
        with Image.open(io.BytesIO(data)) as image:
            frames = getattr(image, "n_frames", 1)
            facts = {"posted": True, "filename": picture.filename, "bytes": len(data), "frames": frames,
                     "size": list(image.size), "format": image.format, "alt": picture.description}
            if self.folder is not None:
                chosen = frames // 2
                image.seek(chosen)
                name = f"{self.plan.name}-animation-frame.png"
                image.convert("RGBA").save(self.folder / name)
                facts.update(frame=chosen, png=name)
        self.watched.animation = facts


async def watch(replay_plan: ReplayPlan, eyes: see.Eyes, out: Path | None) -> Seen:
    """Play one plan and look at its replay."""
    seen = Seen()
    camera = type("Camera", (ReplayCamera,), {"replay_plan": replay_plan, "watched": seen})
    with camera_class(camera), driven_by(replay_plan.policy):
        seen.shots = await see.shoot_plan(replay_plan.plan, eyes, out, light=False)
    return seen


async def watch_all(plans: Sequence[ReplayPlan], out: Path | None) -> dict[str, Seen]:
    async with see.Eyes() as eyes:
        return {p.plan.name: await watch(p, eyes, out) for p in plans}


def docs_copy(png: Path, to: Path, width: int = DOCS_WIDTH) -> int:
    """A small copy of a screenshot for the guide: at most ``width`` px wide, 256
    colours. Returns its size in bytes."""
    from PIL import Image

    with Image.open(png) as image:
        image = image.convert("RGB")
        if image.width > width:
            image = image.resize((width, round(image.height * width / image.width)), Image.Resampling.LANCZOS)
        image.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(to, optimize=True)
    return to.stat().st_size


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=None, help="folder for the PNGs and measures (default: a new temporary folder)")
    parser.add_argument("--games", nargs="*", default=None, help=f"plans to play (default all: {', '.join(p.plan.name for p in PLANS)})")
    parser.add_argument("--docs", default=None, help="also write small copies of the shots (replay-*.png) here")
    args = parser.parse_args(argv)
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="deckhand-see-replay-"))
    out.mkdir(parents=True, exist_ok=True)
    plans = [p for p in PLANS if args.games is None or p.plan.name in args.games]
    try:
        seen = asyncio.run(watch_all(plans, out))
    except see.NoBrowser as error:
        sys.exit(f"Cannot render the pages: {error}.")
    shots = [shot for s in seen.values() for shot in s.shots]
    see.write_report(shots, out)
    (out / "animations.json").write_text(json.dumps({k: s.animation for k, s in seen.items()}, indent=1), encoding="utf-8")
    print(see.table_markdown(shots))
    for name, s in seen.items():
        a = s.animation
        if a.get("posted"):
            print(f"{name}: Save as picture posted {a['filename']}, {a['bytes']:,} bytes ({a['bytes'] / 2**20:.2f} MiB), "
                  f"{a['frames']} frames of {a['size'][0]}x{a['size'][1]}; frame {a.get('frame')} saved as {a.get('png')}")
        else:
            print(f"{name}: Save as picture posted nothing")
        if s.steps:
            steps = out / f"{name}-steps.txt"
            steps.write_text("".join(f"===== step {i}\n{text}\n\n" for i, text in enumerate(s.steps)), encoding="utf-8")
            print(f"{name}: the words of its {len(s.steps)} replay steps in {steps}")
        if s.showdown_is_last:
            print(f"{name}: the showdown is told on the last step: the 'end' shot shows it")
    if args.docs:
        docs = Path(args.docs)
        docs.mkdir(parents=True, exist_ok=True)
        pngs = [shot.png for shot in shots if shot.png] + [s.animation["png"] for s in seen.values() if s.animation.get("png")]
        for png in pngs:
            plan, _, moment = png.partition("-")
            size = docs_copy(out / png, docs / f"replay-{plan}-{moment.removeprefix('replay-')}")
            print(f"docs copy of {png}: {size:,} bytes")
    print(f"{len(shots)} moments: PNGs, measures.json and measures.md in {out}")


if __name__ == "__main__":
    main()
