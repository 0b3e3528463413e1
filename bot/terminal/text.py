"""What the render modules write for Discord, made plain text for a terminal.

The render modules (``cogs/<game>/render.py``) are the one place a game's words are
written; this front end reuses them as they are and undoes only what is Discord's:

- markdown (``**bold**``, ``*italic*``, ``__underline__``, ``~~strike~~``, ``` `code` ```,
  ``> quotes``, ``-# small print``, ``[links](url)``, escapes);
- mentions ``<@123>`` become the seat's name, channels and roles a plain word,
  ``<t:1700000000:R>`` timestamps a time, custom emoji ``<:name:id>`` their ``:name:``;
- a few phrases that point at Discord's own controls ("in the game's thread", "press
  **Ready**", "/rules game:enid") are said the terminal's way (:data:`TERMINAL_WORDS`).

A board or a hand comes as a :class:`bot.words.panel.Panel` (title, description,
fields, footer), with no Discord in it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Mapping

from bot.words.panel import Panel

#: Discord's words for its own controls, and what a terminal player does instead.
#: Checked in order, each a plain substring; the longer phrases come first.
TERMINAL_WORDS: tuple[tuple[str, str], ...] = (
    ("use the Yes / No buttons on the vote message in the game's thread", "choose Yes or No from your moves"),
    ("with the buttons on its vote message", "by choosing Yes or No from your moves"),
    ("from their hands until their next move", "until their next move"),
    ("@mention them or reply to one of their messages", "name them, e.g. @Deckhand 1"),
    (" in the game's thread (or with /say)", ""),
    (" in the game's thread", ""),
    (" in the thread", ""),
    (": type it in the channel", ": type it"),
    (" (the names are in /rules game:enid)", " (type rules for the names)"),
    ("/rules game:", "rules "),
    ("/rules for the rules", "type rules for the rules"),
    ("The rules: /rules ", "type rules for the rules of "),
    ("then press **Ready**", "then choose **Ready**"),
    ("then presses Ready", "then chooses Ready"),
    ("press Recite and type it", "choose Recite and type it"),
    ("or press No limerick", "or choose No limerick"),
    ("You may **Challenge**", "You may choose **Challenge** against"),
)

_BOLD = re.compile(r"\*\*(.+?)\*\*", re.S)
_UNDERLINE = re.compile(r"__(.+?)__", re.S)
_ITALIC = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])|(?<![\w_])_(?!\s)(.+?)(?<!\s)_(?![\w_])", re.S)
_STRIKE = re.compile(r"~~(.+?)~~", re.S)
_SPOILER = re.compile(r"\|\|(.+?)\|\|", re.S)
_CODE_BLOCK = re.compile(r"```(?:[a-z]*\n)?(.*?)```", re.S)
_CODE = re.compile(r"`([^`]+)`")
_LINK = re.compile(r"\[([^\]]+)\]\(<?(https?://[^)>\s]+)>?\)")
_USER = re.compile(r"<@!?(-?\d+)>")
_ROLE = re.compile(r"<@&\d+>")
_CHANNEL = re.compile(r"<#\d+>")
_EMOJI = re.compile(r"<a?:(\w+):\d+>")
_TIME = re.compile(r"<t:(-?\d+)(?::([tTdDfFR]))?>")
_COMMAND = re.compile(r"</([\w -]+):\d+>")
_LINE_MARK = re.compile(r"^(?:>>> |> |-# |#{1,3} )", re.M)
_ESCAPE = re.compile(r"\\([*_~`|>#\-\\])")
#: Escaped markers wait in the Private Use Area (U+F000 + their code) while markup is undone.
_SET_ASIDE = 0xF000


def relative_time(unix: int, now: float | None = None) -> str:
    """A Discord ``<t:…:R>`` timestamp as a terminal says it: "in 25 s", "3 min ago"."""
    delta = round(unix - (time.time() if now is None else now))
    amount = abs(delta)
    words = f"{amount} s" if amount < 90 else f"{round(amount / 60)} min" if amount < 5400 else f"{round(amount / 3600)} h"
    return f"in {words}" if delta >= 0 else f"{words} ago"


def plain(text: str, names: Mapping[int, str] | None = None, *, now: float | None = None) -> str:
    """``text`` with Discord's markup undone and its control words said the terminal's
    way; a mention of a seat is that seat's name (``names``), anyone else "someone"."""
    if not text:
        return ""
    for discord_words, terminal_words in TERMINAL_WORDS:
        text = text.replace(discord_words, terminal_words)
    names = names or {}
    # Escaped markers (\*) are set aside first, so no markup pattern reads them.
    text = _ESCAPE.sub(lambda m: chr(_SET_ASIDE + ord(m.group(1))), text)
    text = _USER.sub(lambda m: names.get(int(m.group(1)), "someone"), text)
    text = _ROLE.sub("a role", text)
    text = _CHANNEL.sub("the table", text)
    text = _COMMAND.sub(lambda m: "/" + m.group(1), text)
    text = _EMOJI.sub(lambda m: f":{m.group(1)}:", text)
    text = _TIME.sub(lambda m: _timestamp(int(m.group(1)), m.group(2) or "f", now), text)
    text = _CODE_BLOCK.sub(lambda m: m.group(1).rstrip("\n"), text)
    text = _CODE.sub(r"\1", text)
    text = _LINK.sub(lambda m: m.group(1) if m.group(1) == m.group(2) else f"{m.group(1)} ({m.group(2)})", text)
    text = _LINE_MARK.sub("", text)
    for pattern in (_BOLD, _UNDERLINE, _STRIKE, _SPOILER):
        text = pattern.sub(r"\1", text)
    text = _ITALIC.sub(lambda m: m.group(1) or m.group(2), text)
    return re.sub("[\uf000-\uf07f]", lambda m: chr(ord(m.group(0)) - _SET_ASIDE), text)


def _timestamp(unix: int, style: str, now: float | None) -> str:
    if style == "R":
        return relative_time(unix, now)
    return time.strftime("%H:%M" if style in "tT" else "%Y-%m-%d %H:%M", time.localtime(unix))


def panel_lines(panel: Panel, names: Mapping[int, str] | None = None, *, skip_fields: Iterable[str] = ()) -> list[str]:
    """A panel (a board or a hand) as plain lines: its title, description, each field as
    "Name:" and its value, then its footer. Fields named in ``skip_fields`` are left out
    (the terminal prints the log of moves on its own)."""
    skipped = set(skip_fields)
    lines: list[str] = []
    if panel.title:
        lines.append(f"== {plain(panel.title, names)} ==")
    if panel.description:
        lines.extend(plain(panel.description, names).splitlines())
    for item in panel.fields:
        name = plain(item.name or "", names)
        if name in skipped:
            continue
        value = plain(item.value or "", names)
        if "\n" in value or len(name) + len(value) > 70:
            lines.append(f"{name}:")
            lines.extend(f"  {line}" for line in value.splitlines())
        else:
            lines.append(f"{name}: {value}")
    if panel.footer:
        lines.append(f"({plain(panel.footer, names)})")
    return lines


def wrap_each(lines: Iterable[str], width: int) -> list[str]:
    """Each line wrapped to ``width`` columns, continuation lines indented two spaces
    (a line of cards is never broken inside a card: textwrap breaks at spaces only)."""
    import textwrap

    out: list[str] = []
    for line in lines:
        if len(line) <= width or not line.strip():
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip())]
        out.extend(textwrap.wrap(line, width, subsequent_indent=indent + "  ", break_long_words=False))
    return out
