"""Text helpers every game's render module shares: Discord's size limits, clipping,
and names and cards as players read them."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from bot.rules.cards import DISPLAY_BY_CODE, parse_card
from bot.words.i18n import _, and_list, join, language, number, pgettext  # noqa: F401  (and_list: used by the games through here)
from bot.words.panel import Field, Panel

# Discord's limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits).
DESCRIPTION_LIMIT = 4096
FIELD_VALUE_LIMIT = 1024
EMBED_TOTAL_LIMIT = 6000
BUTTON_LABEL_LIMIT = 80
OPTION_TEXT_LIMIT = 100


#: How long a line of a board's Recent may be beside the card picture before it is cut, in
#: characters as sent: a mention is about 21 of them but shows as a name, and each card
#: carries two invisible ones (a word joiner and the text presentation selector), so 140
#: keeps a whole sentence such as Idiot's "turned over face-down card 1, 5♣, which cannot
#: be played: they picked it up with the pile (13 cards)." (100 cut it at "picked it u…").
RECENT_LINE = 140


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def clip_lines_from_end(lines: Sequence[str], limit: int, empty: str = "") -> str:
    """Join the newest lines that fit ``limit``; the oldest are dropped first."""
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        line = clip(line, limit)
        if size + len(line) + 1 > limit:
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join(reversed(kept)) or empty


#: How many of the last events a board keeps beside its card picture.
PICTURE_RECENT = 3


def recent_beside_picture(recent: Sequence[str]) -> str:
    """A picture board's Recent: the last :data:`PICTURE_RECENT` events, each cut to
    :data:`RECENT_LINE`, as one field's value ("—" for none)."""
    shown = [clip(line, RECENT_LINE) for line in list(recent)[-PICTURE_RECENT:]]
    return clip_lines_from_end(shown, FIELD_VALUE_LIMIT, empty="—")


def fit_embed(embed: Panel) -> Panel:
    """Last guard on the 6000-character total: shorten the longest field, then the
    description, until the panel fits."""
    if len(embed) <= EMBED_TOTAL_LIMIT:  # the usual case: its size counted once
        return embed
    while len(embed) > EMBED_TOTAL_LIMIT and embed.fields:
        index = max(range(len(embed.fields)), key=lambda i: len(embed.fields[i].value or ""))
        field = embed.fields[index]
        value = field.value or ""
        if len(value) <= 1:
            break
        excess = len(embed) - EMBED_TOTAL_LIMIT
        embed.fields[index] = Field(field.name, clip(value, max(1, len(value) - excess)), field.inline)
    excess = len(embed) - EMBED_TOTAL_LIMIT
    if excess > 0 and embed.description:
        embed.description = clip(embed.description, max(1, len(embed.description) - excess))
    return embed


def show_card(code: str | None) -> str:
    """A card code as players read it ('Tc' -> '10♣'), or a dash for none."""
    if not code:
        return "—"
    shown = DISPLAY_BY_CODE.get(code)  # a canonical code, as observations hold them (~15 a move)
    return shown if shown is not None else parse_card(code).display()


#: The suits as a board's text prints them: signs drawn in the text's own colour, never as
#: emoji. ♠ ♥ ♦ ♣ alone are emoji (Discord's client draws them as Twemoji pictures: ♠ ♣
#: dark grey on the dark theme, 1.32:1); followed by U+FE0E (VARIATION SELECTOR-15, text
#: presentation) they are text glyphs, 11.4:1 on the dark theme and 12.6:1 on the light
#: one (the white signs ♤ ♡ ♢ ♧ that were printed before are thin outlines: 3.07-4.34:1 on
#: the light theme). Onion's Latin suits: ⚔ the same way; 🪄 🏆 🪙 have no text form, so
#: a sign like the picture's pip: ♆ staves, ⚱︎ cups, ◉ coins. bench/suit_contrast.py
#: measures the candidates; docs/developers/boards.md says why these.
VS15 = "\ufe0e"
TEXT_SUITS = {"♠": "♠" + VS15, "♥": "♥" + VS15, "♦": "♦" + VS15, "♣": "♣" + VS15,
              "⚔": "⚔" + VS15, "🪄": "♆", "🏆": "⚱" + VS15, "🪙": "◉"}
#: A suit sign as the pack displays it (an emoji selector after it, or a text one already, kept out).
_SUIT_SIGN = re.compile("([" + "".join(TEXT_SUITS) + "])[\ufe0e\ufe0f]?")


def _text_suits(text: str) -> str:
    return _SUIT_SIGN.sub(lambda match: TEXT_SUITS[match.group(1)], text)


#: U+2060 WORD JOINER: no line break between a card's rank and its suit ("2 / 🪙").
WORD_JOINER = "\u2060"


def unbroken(shown: str) -> str:
    """A card as displayed ('10♣', '2🪙') with a word joiner between its rank and its
    suit, so a line never breaks inside it."""
    for index, char in enumerate(shown):
        if not char.isalnum():
            return shown if index == 0 else shown[:index] + WORD_JOINER + shown[index:]
    return shown


#: A card inside a sentence ("six-card onion 2♥ 3⚔"): its rank, then its suit.
_CARD_IN_TEXT = re.compile("(?<![0-9A-Za-z\u2060])(10|[2-9AJQK])(?=[♠♣♥♦⚔🪄🏆🪙])")


def text_cards(text: str) -> str:
    """Every card inside ``text`` as :func:`card_text` prints one (text suit signs, rank
    and suit unbroken): for sentences a game's rules module words with its cards in them."""
    return _text_suits(_CARD_IN_TEXT.sub(lambda match: match.group(1) + WORD_JOINER, text))


def suit_text(symbol: str) -> str:
    """A suit sign as text prints it (see ``TEXT_SUITS``): '♠' -> '♠\ufe0e'."""
    return _text_suits(symbol)


def card_text(code: str | None) -> str:
    """A card code as a board's or a hand's text prints it: its suit as a text sign
    (readable on both themes), rank and suit kept on one line: 'Tc' -> '10⁠♣︎'. A dash
    for none. Games with their own card display (Onion's) pass it to :func:`unbroken`."""
    if not code:
        return "—"
    return unbroken(_text_suits(show_card(code)))


def cards_text(codes: Sequence[str]) -> str:
    """Card codes as text (:func:`card_text`), space-separated; a dash for none."""
    return " ".join(card_text(code) for code in codes) if codes else "—"


#: A markdown list item ("1. …", "- …", "* …") at the start of a line.
_LIST_ITEM = re.compile(r"^\s*(?:\d+[.)]|[-*+])\s")


def end_lists(text: str) -> str:
    """A blank line after every markdown list that a plain line follows: Discord's
    markdown otherwise reads the next line as part of the list's last item (a board's
    standings swallowed the pile line that came after them)."""
    lines = text.split("\n")
    out: list[str] = []
    for index, line in enumerate(lines):
        out.append(line)
        following = lines[index + 1] if index + 1 < len(lines) else None
        if _LIST_ITEM.match(line) and following and following.strip() and not _LIST_ITEM.match(following):
            out.append("")
    return "\n".join(out)


def name_of(names: Mapping[int, str], player: int | None) -> str:
    if player is None:
        return _("someone")
    return names.get(player) or _("Player {player}", player=player)


def plural(count: int, word: str, many: str | None = None) -> str:
    """'1 card', '2 cards' ('many' for an irregular plural). English only: text players
    read uses ``bot.words.i18n.ngettext`` instead, which knows each language's plurals."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def ordinal(place: int) -> str:
    """1 -> '1st', 2 -> '2nd', 11 -> '11th' (in Spanish '1.º')."""
    if language() == "en":
        suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
        return f"{place}{suffix}"
    # Translators: an ordinal number, a place in a game ("3rd place").
    return pgettext("ordinal", "{n}th", n=number(place))


def seat_spoken(players: Sequence[int], player: int, names: Mapping[int, str] | None = None, role: str = "") -> str:
    """A player as the subject of an alt-text sentence: "Ann, in seat 2," (so "Ann, in
    seat 2, has 5 cards"), or "Seat 2" without a plain-text name; ``role`` is said
    after it ("Ann, in seat 2, the Dealer,")."""
    seated = player in players
    seat = list(players).index(player) + 1 if seated else 0
    name = (names or {}).get(player, "")
    if not name or name.startswith("<"):
        if role:
            return _("Seat {seat}, the {role},", seat=seat, role=role) if seated else _("A seat, the {role},", role=role)
        return _("Seat {seat}", seat=seat) if seated else _("A seat")
    name = clip(name, 32)
    if role:
        if seated:
            return _("{name}, in seat {seat}, the {role},", name=name, seat=seat, role=role)
        return _("{name}, in a seat, the {role},", name=name, role=role)
    return _("{name}, in seat {seat},", name=name, seat=seat) if seated else _("{name}, in a seat,", name=name)


def seat_label(players: Sequence[int], player: int, names: Mapping[int, str] | None = None, *, short: bool = False) -> str:
    """A player as a picture's row label: 'Seat 2', or 'Seat 2 · Ann' with a plain-text
    display name ('Ann' alone when ``short``). A mention (``<@id>``) is left out: an
    image cannot resolve it."""
    seat = _("Seat {seat}", seat=list(players).index(player) + 1) if player in players else _("Seat ?")
    name = (names or {}).get(player, "")
    if not name or name.startswith("<"):
        return seat
    return clip(name, 32) if short else f"{seat} · {clip(name, 32)}"


def end_embed_lists(embed: Panel) -> Panel:
    """:func:`end_lists` on a panel's description and field values (in place)."""
    if embed.description:
        embed.description = clip(end_lists(embed.description), DESCRIPTION_LIMIT)
    for index, field in enumerate(embed.fields):
        if field.value and "\n" in field.value:
            embed.fields[index] = Field(field.name, clip(end_lists(field.value), FIELD_VALUE_LIMIT), field.inline)
    return embed
