"""What a game's render module returns for a board or a hand: a :class:`Panel`, its words
in a few parts (a title, a text, named fields, a footer) and its colour, with no front end
in it.

Each front end shows a panel its own way: the Discord front end as an embed or a
Components V2 layout (``bot/discord_front/layout.py``, one conversion), the terminal and
replays read its parts directly (``bot/terminal/text.py``). The parts are those of a
Discord embed, so the games' words fit Discord's limits (``bot.words.render_util``).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Field:
    """A named part of a panel ("Players", "Recent"); ``inline``: it may sit beside the
    next one rather than take a whole line."""

    name: str
    value: str
    inline: bool = True


@dataclass
class Panel:
    """A board's or a hand's words. ``colour``: 0xRRGGBB, or None for the front end's own."""

    title: str | None = None
    description: str | None = None
    colour: int | None = None
    fields: list[Field] = field(default_factory=list)
    footer: str | None = None

    def add_field(self, *, name: str, value: str, inline: bool = True) -> Panel:
        """A field after the others (returns the panel, as a chain of calls reads)."""
        self.fields.append(Field(str(name), str(value), inline))
        return self

    def __len__(self) -> int:
        """Its characters as Discord counts them against an embed's 6000: title,
        description, fields' names and values, footer."""
        return (len(self.title or "") + len(self.description or "") + sum(len(f.name) + len(f.value) for f in self.fields)
                + len(self.footer or ""))
