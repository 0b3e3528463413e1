"""Every request of fixed-seed whole games, recorded, to compare two versions of the bot.

    python bench/recorded_requests.py record OUT.json [--moves 60]
    python bench/recorded_requests.py compare BEFORE.json AFTER.json

``record`` plays the same games every run (bench/rest_calls.py's members and moves, its
random choices and the deals seeded): Idiot with a player's hand in DMs, Blackjack, both
in Components V2, then Engines and Idiot with the classic layout. It writes every
request the bot sent to SimCord in order: method, path, query and JSON body, with
Discord ids renumbered in order of appearance and interaction tokens hidden (both differ
from run to run), and each file's picture decoded: its mode, size and the digests of its
pixels and palette (a PNG's bytes may differ where its writer changed; what a player
sees may not). ``compare`` prints the first requests that differ, or that they are the
same. Run ``record`` in each checkout (``python /path/to/checkout/bench/recorded_requests.py``
runs that checkout's bot). Numbers only; nothing is asserted.

The loop's lag is not measured (as in the tests), so a busy machine does not defer
clicks at once; a move that really takes two seconds is still deferred, so on a very
busy machine record twice before reading a difference as a change.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import io
import json
import logging
import random
import re
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

GAMES = (("idiot", "v2", 1), ("blackjack", "v2", 0), ("engines", "classic", 0), ("idiot", "classic", 0))


def picture(data: bytes) -> list[Any]:
    from PIL import Image

    img = Image.open(io.BytesIO(data))
    img.load()
    return [img.mode, list(img.size), hashlib.sha256(img.tobytes()).hexdigest(), hashlib.sha256(bytes(img.getpalette("RGB") or b"")).hexdigest()]


def record(out: Path, moves: int) -> None:
    import pronouncing
    import simcord
    import simcord.http.router as router

    import bot.discord_front.tables.lobby
    import rest_calls
    from bot.discord_front import guard

    # As the tests do (tests/conftest.py): a slow turn of the loop on a busy machine
    # (another process's CPU) would defer clicks at once and reorder the requests.
    guard.BEHIND_AFTER = float("inf")

    pronouncing.rhymes("cat")  # Enid's dictionary read before SimCord starts a bot, as bench/load.py does
    files: dict[int, list[Any]] = {}
    dispatch = router.dispatch

    def seen_dispatch(backend: Any, method: str, path: str, **kw: Any) -> Any:
        shown = []
        for sent in kw.get("files") or []:
            fp = getattr(sent, "fp", None)
            data = None
            if fp is not None:
                at = fp.tell()
                fp.seek(0)
                data = fp.read()
                fp.seek(at)
            shown.append(picture(data) if isinstance(data, bytes) and data[:8] == b"\x89PNG\r\n\x1a\n" else type(sent).__name__)
        files[len(backend.http_requests)] = shown
        return dispatch(backend, method, path, **kw)

    router.dispatch = seen_dispatch
    records: list[dict[str, Any]] = []
    run = simcord.run

    class Recorded:
        def __init__(self, bot: Any) -> None:
            self.inner = run(bot)

        async def __aenter__(self) -> Any:
            self.env = await self.inner.__aenter__()
            return self.env

        async def __aexit__(self, *exc: Any) -> Any:
            for i, sent in enumerate(self.env.http_requests):
                records.append({"method": sent.method, "path": sent.path, "params": sent.params, "json": sent.json, "files": files.get(i)})
            files.clear()
            return await self.inner.__aexit__(*exc)

    rest_calls.simcord = SimpleNamespace(run=Recorded)
    logging.basicConfig(level=logging.ERROR)
    for game, layout, dm in GAMES:
        deals = random.Random(7)
        bot.discord_front.tables.lobby.secrets = SimpleNamespace(randbits=deals.getrandbits)  # type: ignore[attr-defined]
        with tempfile.TemporaryDirectory(prefix="deckhand-bench-") as tmp:
            asyncio.run(rest_calls.play(game, 1, random.Random(3), Path(tmp), moves, 0.0, layout, dm))
    out.write_text(json.dumps(normalised(records), sort_keys=True))
    print(f"{len(records)} requests, {sum(1 for r in records if r['files'])} with files: {out}")


def normalised(records: list[dict[str, Any]]) -> Any:
    """Discord ids renumbered in order of appearance, interaction tokens hidden."""
    ids: dict[str, str] = {}

    def renumbered(value: Any) -> str:
        return ids.setdefault(str(value), f"ID{len(ids)}")

    def walk(value: Any) -> Any:
        if isinstance(value, dict):
            return {walk(k) if isinstance(k, str) else k: walk(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [walk(v) for v in value]
        if isinstance(value, int) and not isinstance(value, bool) and value >= 10**14:
            return renumbered(value)
        if isinstance(value, str):
            value = re.sub(r"(?<![\w.])\d{15,20}(?![\w.])", lambda m: renumbered(m.group(0)), value)
            return re.sub(r"/(interactions|webhooks)/(ID\d+)/[^/\"]+", r"/\1/\2/TOKEN", value)
        return value

    return walk(records)


def compare(before: Path, after: Path) -> None:
    a, b = json.loads(before.read_text()), json.loads(after.read_text())
    differ = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
    print(f"{len(a)} and {len(b)} requests; {len(differ)} of the first {min(len(a), len(b))} differ")
    for i in differ[:5]:
        for key in a[i]:
            if a[i][key] != b[i][key]:
                print(f"  request {i} ({a[i]['method']} {a[i]['path']}), {key}:\n    before {json.dumps(a[i][key])[:400]}\n    after  {json.dumps(b[i][key])[:400]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("out", type=Path)
    rec.add_argument("--moves", type=int, default=60, help="moves per game before it is cancelled")
    cmp_ = sub.add_parser("compare")
    cmp_.add_argument("before", type=Path)
    cmp_.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.command == "record":
        record(args.out, args.moves)
    else:
        compare(args.before, args.after)


if __name__ == "__main__":
    main()
