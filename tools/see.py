"""See the boards as a Discord member does: the real bot in SimCord, rendered by SimCord's
Preview in Chromium at 960 px, screenshots of each game's key moments and measures taken
on the rendered page (not on the text the bot sent).

    python -m tools.see [--out FOLDER] [--games idiot onion ...] [--no-light]

Each game is played by four members (bench/transcript.py's driver: fixed seeds, random
legal moves, Enid's rituals typed) with the server's defaults (Components V2, pictures
on). At its key moments (the lobby, a board mid-game, a hand on the player's turn, a hand
in DMs, Onion's betting, auction and duel, Enid's limerick vote and a naming, the final
board, and a Spanish game) the message is opened in the Preview and measured: its height,
the text lines above its picture, how often the winner is named, the contrast of the suit
signs on the dark and the light theme, whether every picture loaded and has alt text, raw
markdown (``**``, ``__``) and lists that swallow the next line. FOLDER gets a PNG per
moment (``<game>-<moment>.png``; ``-light.png`` for the light theme), ``measures.json``
and ``measures.md`` (the table that is also printed). docs/developers/looking.md says
how to read them.

The browser is Debian's ``chromium`` (``apt-get install chromium``), driven by Playwright
(``pip install -e ".[looks]"``); Playwright's own browser download is not used.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import transcript  # noqa: E402

WIDTH = 960  # the Preview's message width, as the issue measures
VIEWPORT = (1400, 2600)  # room for the Preview's sidebar and the tallest board
# The suit signs text may print: the black ones (emoji on Discord) and the white ones
# (``bot/words/render_util.py``'s ``card_text``), so a board printing either is measured.
SUITS = "♠♣♥♦♤♧♡♢"
# Onion's pack adds the Discworld suits (coins, wands, cups, swords); elsewhere 🏆 marks a winner.
GAME_SUITS = {"onion": SUITS + "🪙🪄🏆⚔"}
# What the Preview shows as a picture's alt text when Discord would have none.
FALLBACK_ALT = re.compile(r"^(Gallery item \d+|Thumbnail|Embed \d+ (image|thumbnail)|Preview media|Media)?$")

# Discord's light theme, over the Preview's (dark-only) colours: text, surfaces, mentions.
LIGHT_THEME_CSS = """
:root, .preview-app {
  color-scheme: light; background: #ffffff !important; color: #313338 !important;
  --discord-bg: #ffffff; --discord-surface: #f2f3f5; --discord-elevated: #e3e5e8;
  --discord-text: #313338; --discord-muted: #5c5e66; --discord-subtle: #4e5058;
  --component-surface: #f2f3f5; --component-border: #e1e2e4; --embed-field-name: #060607;
  --link-text: #006ce7; --entity-text: #313338; --code-surface: #f2f3f5; --code-text: #313338;
}
.message-surface, .message-components, .text-display, .embed-text { color: #313338 !important; }
.message-surface { background: #ffffff !important; }
.mention { color: #505cdc !important; background: rgba(88, 101, 242, 0.15) !important; }
"""

# Runs in the Preview's page; returns the raw facts of the focused message. The checks
# (:func:`problems`) are made in Python on these facts, so they can be tested on
# hand-made pages too.
MEASURE_JS = r"""
(args) => {
  const root = document.querySelector(args.selector);
  if (!root) return { found: false };
  const box = root.getBoundingClientRect();
  const skip = (el) => el.closest('.message-header, .component-row, button, select, figure, .media-unavailable');
  const bodyParts = [...root.querySelectorAll('.text-display, .message-content, .embed-title, .embed-description, .embed-field, .embed-footer, .embed-author')];
  const pictures = [...root.querySelectorAll('figure img, .media-unavailable')].map((el) => {
    const r = el.getBoundingClientRect();
    const img = el.tagName === 'IMG' ? el : null;
    return {
      alt: img ? img.getAttribute('alt') || '' : '',
      loaded: !!(img && img.complete && img.naturalWidth > 0),
      natural: img ? [img.naturalWidth, img.naturalHeight] : [0, 0],
      top: r.top, height: r.height,
      kind: el.closest('figure') ? el.closest('figure').className : 'unavailable',
    };
  });
  const pictureTop = pictures.length ? Math.min(...pictures.map((p) => p.top)) : Infinity;
  // Every rendered line box of the message's words, by Range.getClientRects.
  const rects = [];
  const suits = [];
  const suitPattern = new RegExp('(?:' + [...args.suits].join('|') + ')\ufe0f?', 'gu');
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.textContent.trim() || skip(n.parentElement)) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    for (const r of range.getClientRects()) if (r.width > 0 && r.height > 0) rects.push([r.top, r.bottom]);
    for (const m of n.textContent.matchAll(suitPattern)) {
      if (suits.length >= 80) break;
      const one = document.createRange();
      one.setStart(n, m.index); one.setEnd(n, m.index + m[0].length);
      const r = one.getBoundingClientRect();
      if (r.width > 0) suits.push({ suit: m[0].replace('\ufe0f', ''), x: r.left, y: r.top, w: r.width, h: r.height });
    }
  }
  rects.sort((a, b) => a[0] - b[0]);
  const lines = [];
  for (const [top, bottom] of rects) {
    const last = lines[lines.length - 1];
    const overlap = last ? Math.min(last[1], bottom) - Math.max(last[0], top) : 0;
    if (last && overlap > 0.5 * Math.min(last[1] - last[0], bottom - top)) {
      last[0] = Math.min(last[0], top); last[1] = Math.max(last[1], bottom);
    } else lines.push([top, bottom]);
  }
  const above = lines.filter(([top, bottom]) => bottom <= pictureTop + 1).length;
  const text = bodyParts.filter((el) => !skip(el)).map((el) => el.innerText).join('\n');
  const swallowing = [...root.querySelectorAll('li')].filter((li) => !skip(li) && li.querySelector('br'))
    .map((li) => li.innerText);
  return {
    found: true, height: Math.round(box.height), width: Math.round(box.width),
    top: box.top + window.scrollY, left: box.left + window.scrollX,
    lines: lines.length, linesAbovePicture: pictures.length ? above : null,
    pictures, text, swallowing, suits,
  };
}
"""


# ------------------------------------------------------------------ the browser


def find_chromium() -> str | None:
    """Debian's chromium (or Chromium by another of its names) on the PATH."""
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


class NoBrowser(Exception):
    """No Chromium, or no Playwright, to render pages with; the message says which."""


class Eyes:
    """One Chromium (through Playwright's public API, launched from the system's
    executable) that opens SimCord Preview pages and measures what they render."""

    def __init__(self) -> None:
        self._playwright: Any = None
        self.browser: Any = None

    async def __aenter__(self) -> Eyes:
        executable = find_chromium()
        if executable is None:
            raise NoBrowser("Chromium is not installed (Debian: sudo apt-get install chromium)")
        try:
            from playwright.async_api import async_playwright
        except ImportError as error:
            raise NoBrowser('Playwright is not installed (pip install -e ".[looks]")') from error
        self._playwright = await async_playwright().start()
        try:
            self.browser = await self._playwright.chromium.launch(executable_path=executable)
        except Exception as error:
            await self._playwright.stop()
            raise NoBrowser(f"Chromium ({executable}) did not start: {error}") from error
        return self

    async def __aexit__(self, *exc: Any) -> None:
        if self.browser is not None:
            await self.browser.close()
        if self._playwright is not None:
            await self._playwright.stop()

    async def page(self) -> Any:
        """A page of its own context; the Preview's Content Security Policy is bypassed
        so that the light theme's style can be added."""
        return await self.browser.new_page(viewport={"width": VIEWPORT[0], "height": VIEWPORT[1]}, device_scale_factor=1,
                                           bypass_csp=True, reduced_motion="reduce")

    async def measure_page(self, page: Any, selector: str, png: Path | None, light_png: Path | None = None,
                           winners: Sequence[str] = (), suits: str = SUITS) -> dict[str, Any]:
        """Measure the element ``selector`` of an open page on the dark theme, then on
        the light one (contrast only); screenshots of the element where asked."""
        facts = await page.evaluate(MEASURE_JS, {"selector": selector, "suits": suits})
        if not facts.get("found"):
            return {"found": False}
        clip = {"x": facts["left"], "y": facts["top"], "width": facts["width"], "height": facts["height"]}
        shot = await page.screenshot(clip=clip, full_page=True)
        facts["contrast"] = suit_contrast(shot, facts["suits"], clip)
        if png is not None:
            png.write_bytes(shot)
        await page.add_style_tag(content=LIGHT_THEME_CSS)
        await page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        light = await page.evaluate(MEASURE_JS, {"selector": selector, "suits": suits})
        if light["suits"] or light_png is not None:
            shot = await page.screenshot(clip=clip, full_page=True)
            facts["contrastLight"] = suit_contrast(shot, light["suits"], clip)
            if light_png is not None:
                light_png.write_bytes(shot)
        else:
            facts["contrastLight"] = {}
        facts["winnerMentions"] = {name: mentions_of(name, facts["text"]) for name in winners}
        del facts["suits"]
        return facts

    async def look(self, env: Any, place: Any, viewers: Sequence[Any], target: Any, png: Path | None,
                   light_png: Path | None = None, winners: Sequence[str] = (), suits: str = SUITS) -> dict[str, Any]:
        """Open ``target`` (a message or an interaction's answer) in a Preview of ``place``
        seen by ``viewers[0]``, and measure it."""
        async with env.preview(place, viewers=viewers, display="fixed", width=WIDTH, height=VIEWPORT[1] - 100) as preview:
            await preview.show(target)
            page = await self.page()
            try:
                await page.goto(preview.url)
                await page.wait_for_function("() => window.simcordPreview && window.simcordPreview.ready === true", timeout=30000)
                return await self.measure_page(page, "#focused-content", png, light_png, winners, suits)
            finally:
                await page.close()


# ------------------------------------------------------------------ measures


def luminance(rgb: Sequence[int]) -> float:
    """WCAG 2's relative luminance of an sRGB colour."""
    def channel(c: int) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Sequence[int], b: Sequence[int]) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def glyph_contrast(image: Any) -> float | None:
    """The contrast of what is drawn in a glyph's box against the box's background:
    the background is the commonest colour of the box's edge, the ink the median (by
    luminance) of the half of the differing pixels that differ most (antialiased edges
    left out). Measures emoji glyphs as drawn, whatever their CSS colour."""
    rgb = image.convert("RGB")
    w, h = rgb.size
    if w < 2 or h < 2:
        return None
    pixels = rgb.load()
    edge = [pixels[x, y] for x in range(w) for y in (0, h - 1)] + [pixels[x, y] for y in range(h) for x in (0, w - 1)]
    background = max(set(edge), key=edge.count)
    def distance(p: Sequence[int]) -> int:
        return sum(abs(a - b) for a, b in zip(p, background))
    ink = sorted((pixels[x, y] for x in range(w) for y in range(h)), key=distance, reverse=True)
    ink = [p for p in ink if distance(p) > 30]
    if not ink:
        return 1.0
    ink = sorted(ink[: max(1, len(ink) // 2)], key=luminance)
    return round(contrast(ink[len(ink) // 2], background), 2)


def suit_contrast(screenshot: bytes, suits: Iterable[dict[str, Any]], clip: dict[str, float]) -> dict[str, float]:
    """The lowest contrast of each suit sign drawn in the text (pixels of a screenshot of
    ``clip``, at the boxes the page gave for each sign)."""
    from PIL import Image

    page = Image.open(io.BytesIO(screenshot))
    lowest: dict[str, float] = {}
    for s in suits:
        x, y = s["x"] - clip["x"], s["y"] - clip["y"]
        box = (int(x), int(y), int(x + s["w"] + 0.999), int(y + s["h"] + 0.999))
        value = glyph_contrast(page.crop(box))
        if value is not None:
            lowest[s["suit"]] = min(value, lowest.get(s["suit"], value))
    return lowest


def mentions_of(name: str, text: str) -> int:
    """How often a display name (or its @mention) is written in the text."""
    return len(re.findall(rf"(?<![\w@])@?{re.escape(name)}(?!\w)", text))


@dataclass(frozen=True)
class Limits:
    """The targets of issue 35 (4 players, pictures on, 960 px)."""

    lines_above_picture: int = 8
    mid_height: int = 800
    final_height: int = 900
    winner_mentions: int = 2
    suit_contrast: float = 4.5


LIMITS = {"onion": Limits(lines_above_picture=10), "engines": Limits(lines_above_picture=10)}


def limits_for(game: str) -> Limits:
    return LIMITS.get(game, Limits())


def markdown_problems(facts: dict[str, Any]) -> list[str]:
    """What the page shows wrongly whatever the board: raw markdown, a list that swallows
    the next line, a picture not loaded or without alt text."""
    found = []
    for mark in ("**", "__"):
        if mark in facts["text"]:
            at = facts["text"].index(mark)
            found.append(f"raw {mark} visible: …{facts['text'][max(0, at - 30):at + 30]!r}…")
    found += [f"a list swallows the next line: {item[:80]!r}" for item in facts["swallowing"]]
    for i, picture in enumerate(facts["pictures"], 1):
        if not picture["loaded"]:
            found.append(f"picture {i} did not load")
    return found


def target_problems(game: str, moment: str, facts: dict[str, Any]) -> list[str]:
    """Issue 35's targets for a board: alt text, suit contrast, lines above the picture,
    heights, how often the winner is named."""
    limits, found = limits_for(game), []
    for i, picture in enumerate(facts["pictures"], 1):
        if FALLBACK_ALT.match(picture["alt"].strip()):
            found.append(f"picture {i} has no alt text (the Preview shows {picture['alt']!r})")
    for theme, key in (("dark", "contrast"), ("light", "contrastLight")):
        for suit, value in sorted(facts.get(key, {}).items()):
            if value < limits.suit_contrast:
                found.append(f"{suit} at {value}:1 on the {theme} theme (at least {limits.suit_contrast}:1)")
    if moment == "mid":
        lines = facts["linesAbovePicture"]
        if lines is not None and lines > limits.lines_above_picture:
            found.append(f"{lines} text lines above the picture (at most {limits.lines_above_picture})")
        if facts["height"] > limits.mid_height:
            found.append(f"mid-game board {facts['height']} px high (at most {limits.mid_height})")
    if moment == "final":
        if facts["height"] > limits.final_height:
            found.append(f"final board {facts['height']} px high (at most {limits.final_height})")
        for name, count in facts.get("winnerMentions", {}).items():
            if count > limits.winner_mentions:
                found.append(f"the winner {name} is named {count} times (at most {limits.winner_mentions})")
    return found


# ------------------------------------------------------------------ the games


@dataclass(frozen=True)
class Plan:
    """One fixed-seed game and the moments to shoot in it."""

    name: str  # the shots' prefix
    game: str
    seed: int = 1
    players: int = 4
    mid_move: int = 20  # the mid-game board: after this many moves
    max_moves: int = 600
    dm: str | None = None  # this member's hands come by DM
    language: str | None = None
    house_rules: tuple[str, ...] = ()
    rounds: int = 1
    #: How the members choose their moves (bench/transcript.py's ``policy``); None: at random.
    policy: Callable[[Sequence[Any], Any], Any] | None = None


#: Onion's moves that leave the round early: random players take them often enough that no
#: round reaches the showdown (its duel, and the hand that must answer a better one).
LEAVING = frozenset({"fold", "decline", "concede"})


def stay_in(legal: Sequence[Any], rng: Any) -> Any:
    """A player who never folds, declines a bid or concedes while anything else is legal
    (Onion in this tool only: its shots need a showdown), else at random."""
    staying = [action for action in legal if action.kind not in LEAVING]
    return rng.choice(staying or list(legal))


PLANS = (
    Plan("idiot", "idiot", mid_move=30, dm="bob"),
    Plan("onion", "onion", seed=3, mid_move=6, rounds=3, policy=stay_in),
    Plan("blackjack", "blackjack", mid_move=10),
    Plan("engines", "engines", mid_move=40, max_moves=3000),
    Plan("enid", "enid", mid_move=20),
    Plan("idiot-es", "idiot", seed=2, mid_move=30, language="es"),
)
GAMES = tuple(dict.fromkeys(p.game for p in PLANS))


@dataclass
class Shot:
    """One moment seen: which game, which moment, its PNG and its measures."""

    plan: str
    game: str
    moment: str
    png: str | None
    facts: dict[str, Any] = field(default_factory=dict)


class Camera(transcript.Watcher):
    """bench/transcript.py's watcher that also shoots the key moments of one game."""

    plan: Plan
    eyes: Eyes
    folder: Path | None
    light: bool
    moments: frozenset[str] | None

    def __init__(self, env: Any, out: Any) -> None:
        super().__init__(env, out)
        self.shots: list[Shot] = []
        self.moves = 0
        self.taken: set[str] = set()
        self.mid_taken_at: int | None = None
        self.last_board: Any = None

    def show(self, who: str, message: Any) -> None:
        """No transcript is written: only the moments are looked at."""

    def place(self, who: str, channel: Any) -> None:
        """No transcript is written: only the moments are looked at."""

    def wants(self, moment: str) -> bool:
        return moment not in self.taken and (self.moments is None or moment in self.moments)

    async def shoot(self, moment: str, place: Any, viewers: Sequence[Any], target: Any, winners: Sequence[str] = (),
                    light: bool = False) -> None:
        self.taken.add(moment)
        name = f"{self.plan.name}-{moment}"
        png = self.folder / f"{name}.png" if self.folder is not None else None
        light_png = self.folder / f"{name}-light.png" if self.folder is not None and light and self.light else None
        facts = await self.eyes.look(self.env, place, viewers, target, png, light_png, winners,
                                     GAME_SUITS.get(self.plan.game, SUITS))
        self.shots.append(Shot(self.plan.name, self.plan.game, moment, png.name if png else None, facts))

    async def moment(self, kind: str, **where: Any) -> None:
        table = where.get("table")
        members = where.get("members", ())
        if kind == "lobby" and self.wants("lobby"):
            await self.shoot("lobby", where["place"], members, where["message"])
        elif kind == "moved":
            self.moves += 1
            state = table.state
            if table.status != "playing":
                return
            board = self.last_board = transcript.board(where["channel"])
            if self.moves >= self.plan.mid_move and self.wants("mid"):
                self.mid_taken_at = self.moves
                await self.shoot("mid", where["place"], members, board, light=True)
            phase = getattr(state, "phase", None)
            if self.plan.game == "onion" and phase in ("bet", "auction", "duel") and self.wants(phase):
                await self.shoot(phase, where["place"], members, board)
            if self.plan.game == "enid":
                await self.enid_moments(where["place"], members, board)
        elif kind == "turn" and self.mid_taken_at is not None:
            member = where["member"]
            if where["on_dm"] and self.wants("dm-hand"):
                await self.shoot("dm-hand", where["place"], [member.user], where["hand"])
            elif not where["on_dm"] and self.wants("hand"):
                await self.shoot("hand", where["place"], [member], where["hand"])
            elif (not where["on_dm"] and self.plan.game == "onion" and self.wants("duel-hand")
                  and getattr(where["table"].state, "phase", None) == "duel"):
                # A hand in the showdown, answering the hand laid (Millard's duel).
                await self.shoot("duel-hand", where["place"], [member], where["hand"])
        elif kind == "ended" and table.status == "finished" and self.wants("final"):
            names = {m.id: m.user.name for m in members}
            placements = table.state.placements()
            winners = [names[p] for p in (placements[0] if placements else ()) if p in names]
            await self.shoot("final", where["place"], members, self.final_board(where["place"]), winners, light=True)

    def final_board(self, place: Any) -> Any:
        """The finished board: the newest message offering Rematch (or Next round), else
        the message that was the board."""
        ended = [m for m in place.history() if any(c.startswith("dh:rematch:") for c in transcript.button_ids(m))]
        return ended[-1] if ended else self.last_board

    async def enid_moments(self, place: Any, members: Sequence[Any], board: Any) -> None:
        """Enid's limerick vote (its message and the board under it) and a card named."""
        vote = next((m for m in reversed(place.history()) if any(c.startswith("dh:vote:") for c in transcript.button_ids(m))), None)
        if vote is not None and self.wants("vote"):
            await self.shoot("vote", place, members, vote)
            await self.shoot("vote-board", place, members, board)
        last = place.history()[-1] if place.history() else None
        typed = last is not None and not last.author.bot and " of " in (last.content or "")
        if typed and self.wants("naming"):
            await self.shoot("naming", place, members, board)


async def shoot_plan(plan: Plan, eyes: Eyes, out: Path | None, *, light: bool = True,
                     moments: Iterable[str] | None = None) -> list[Shot]:
    """Play one planned game and see its moments (only ``moments``, if given)."""
    camera = type("PlanCamera", (Camera,), {"plan": plan, "eyes": eyes, "folder": out, "light": light,
                                            "moments": frozenset(moments) if moments is not None else None})
    made: list[Camera] = []

    def watcher(env: Any, log: Any) -> Camera:
        made.append(camera(env, log))
        return made[-1]

    import discord

    from bot.discord_front import guard

    # As the tests and bench/recorded_requests.py do: a slow turn of the loop on a busy
    # machine would defer clicks and change the game a fixed seed plays.
    behind_after, guard.BEHIND_AFTER = guard.BEHIND_AFTER, float("inf")
    # The deals drawn from the plan's seed, not from ``secrets`` (as bench/rest_calls.py's
    # --deal-seed does): the same games every run.
    import random
    from types import SimpleNamespace

    import bot.discord_front.tables.lobby

    secrets = bot.discord_front.tables.lobby.secrets
    bot.discord_front.tables.lobby.secrets = SimpleNamespace(randbits=random.Random(plan.seed).getrandbits)  # type: ignore[attr-defined]
    flags = transcript.let_the_bot_read_chat() if plan.game == "enid" else None
    try:
        await transcript.play(plan.game, plan.players, plan.seed, io.StringIO(), plan.max_moves, [],
                              house_rules=plan.house_rules, dm=plan.dm, rounds=plan.rounds, watcher=watcher,
                              language=plan.language, policy=plan.policy)
    finally:
        guard.BEHIND_AFTER = behind_after
        bot.discord_front.tables.lobby.secrets = secrets  # type: ignore[attr-defined]
        if flags is not None:
            discord.AppInfo.flags = flags  # type: ignore[assignment]
    return made[0].shots if made else []


async def see(plans: Sequence[Plan], out: Path | None, *, light: bool = True,
              moments: Iterable[str] | None = None) -> list[Shot]:
    """Every plan's moments, with one browser."""
    shots: list[Shot] = []
    async with Eyes() as eyes:
        for plan in plans:
            shots += await shoot_plan(plan, eyes, out, light=light, moments=moments)
    return shots


# ------------------------------------------------------------------ the report


def row(shot: Shot) -> list[str]:
    f = shot.facts
    if not f.get("found"):
        return [shot.plan, shot.moment, "not found"] + [""] * 7
    def low(key: str) -> str:
        values = f.get(key) or {}
        return " ".join(f"{s}{v:g}" for s, v in sorted(values.items())) or "-"
    alts = [p["alt"] for p in f["pictures"]]
    alt = "-" if not alts else ("yes" if not any(FALLBACK_ALT.match(a.strip()) for a in alts) else "NO")
    problems = markdown_problems(f)
    return [shot.plan, shot.moment, str(f["height"]), str(f["lines"]),
            "-" if f["linesAbovePicture"] is None else str(f["linesAbovePicture"]),
            " ".join(f"{n}:{c}" for n, c in f.get("winnerMentions", {}).items()) or "-",
            low("contrast"), low("contrastLight"), alt, "; ".join(problems) or "-"]


HEADER = ["game", "moment", "height px", "text lines", "lines above picture", "winner named",
          "suit contrast dark", "suit contrast light", "alt text", "markdown / lists / pictures"]


def table_markdown(shots: Sequence[Shot]) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row(s)) + " |" for s in shots]
    return "\n".join(lines) + "\n"


def write_report(shots: Sequence[Shot], out: Path) -> None:
    (out / "measures.json").write_text(json.dumps([s.__dict__ for s in shots], indent=1, ensure_ascii=False), encoding="utf-8")
    (out / "measures.md").write_text(table_markdown(shots), encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=None, help="folder for the PNGs and measures (default: a new temporary folder)")
    parser.add_argument("--games", nargs="*", default=None, help=f"plans to play (default all: {', '.join(p.name for p in PLANS)})")
    parser.add_argument("--no-light", action="store_true", help="no light-theme PNGs (the contrast is still measured)")
    args = parser.parse_args(argv)
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="deckhand-see-"))
    out.mkdir(parents=True, exist_ok=True)
    plans = [p for p in PLANS if args.games is None or p.name in args.games or p.game in args.games]
    try:
        shots = asyncio.run(see(plans, out, light=not args.no_light))
    except NoBrowser as error:
        sys.exit(f"Cannot render the pages: {error}.")
    write_report(shots, out)
    print(table_markdown(shots))
    print(f"{len(shots)} moments: PNGs, measures.json and measures.md in {out}")


if __name__ == "__main__":
    main()
