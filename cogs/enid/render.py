"""Enid observations -> Discord embeds, controls and log lines.

Implements the ``GameRender`` protocol of ``bot/games.py`` as module functions. Every
input is an observation (or events read through ``visible_to(None)``), never the full
state, so hidden cards (and the Enid chain, which observations never hold) cannot
reach a public message. What players *said* is logged exactly as they said it.
"""

from __future__ import annotations

import re

from collections.abc import Mapping, Sequence
from typing import Any

from bot.rules.cards import Card, Rank, Suit, parse_card, suit_name
from bot.rules.engine import Action, Control, Event
from bot.rules.ballots import Ballot, Choice
from bot.words.i18n import N_, _, ngettext, pgettext
from bot.words.panel import Panel
from bot.words.render_util import (
    BUTTON_LABEL_LIMIT,
    DESCRIPTION_LIMIT,
    OPTION_TEXT_LIMIT,
    clip,
    clip_lines_from_end,
    fit_embed,
    card_text,
    name_of,
    suit_text,
)
from cogs.enid.names import (
    BUCKLE_CRY,
    Names,
    CHURCH_SHOUT,
    LAST_CARD_CALL,
    LAST_ENID_CALL,
    MIDDLE_NAME_PROBLEMS,
    SUIT_NAMES,
)
from storage.repos import FORMER_PLAYERS

COLOUR = 0x11806A  # Discord's dark teal
#: The finished board's button (``bot/discord_front/sessions.py``): the same players' next game, in the same session.
NEXT_LABEL = N_("Next game")
SUIT_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)


def table_option_lines(options: Mapping[str, Any]) -> list[str]:
    """The table's mode as a sentence for the lobby (the platform adds the house rules)."""
    if options.get("mode", "enid") == "plain":
        return [_("Plain mode: Mike Taylor's Blackjack with its magic cards; the one thing to type is “{call}”.", call=LAST_CARD_CALL)]
    return [_("Enid mode: name every card you lay and say the rituals (the note below says where).")]


#: House rules only Enid mode's names, limericks and votes use: a plain table has none of them.
ENID_MODE_RULES = frozenset({"beginner_names", "limerick_seconds", "vote_seconds", "builtin_names"})


def house_rule_line(key: str, value: str, options: Mapping[str, Any]) -> str | None:
    """A house rule's lobby sentence at this table (``bot/discord_front/tables/lobby.py``): a plain
    table leaves out Enid mode's rules, and its one ritual is “Last card”."""
    if options.get("mode", "enid") != "plain":
        return None
    if key in ENID_MODE_RULES:
        return ""
    if key == "ritual_seconds":
        return _("“{call}” must be typed within {seconds} seconds of laying your last-but-one card, or you pick up 7.",
                 call=LAST_CARD_CALL, seconds=value)
    return None


#: What a player owes, as a verb phrase after "must" / "did not" (translated where shown).
RITUALS = {
    "name": N_("name their card"),
    "last": N_("say the last-card call"),
    "church": N_("shout the Church"),
    "cry": N_("cry John Buckle's cry"),
    "first_line": N_("type a limerick's first line"),
    "limerick": N_("recite a limerick"),
    "vote": N_("await the vote"),
}


#: Said of a ritual whose kind this version does not know.
_FINISH_A_RITUAL = N_("finish a ritual")
_FINISH_THE_RITUAL = N_("finish the ritual")


def _ritual(kind: str, fallback: str | None = None) -> str:
    """A ritual's verb phrase in the current language; an unknown kind is shown as
    ``fallback`` (translated) or as itself."""
    if kind in RITUALS:
        return _(RITUALS[kind])
    return _(fallback) if fallback is not None else kind


#: A draw's log line by its reason; ``{n}`` is the count.
DRAW_REASONS = {
    "cannot_play": N_("{who} drew 1 card (nothing to lay)"),
    "voluntary": N_("{who} chose to draw 1 card"),
    "timeout": N_("{who} ran out of time and drew 1 card"),
    "eight_last": N_("{who} went out on an Eight, so drew 1 card"),
    "misnamed": N_("{who} drew {n} for a wrong or missing name"),
    "last_card": N_("{who} forgot the last-card call and picked up {n}"),
    "water_buffalo": N_("{who} said Water-buffalo and picked up {n}"),
    "church": N_("{who} drew 1 for a missed Church shout"),
    "cry": N_("{who} drew 1 for a forgotten John Buckle cry"),
    "limerick_refused": N_("{who} refused the limerick and drew 1"),
    "limerick_unfinished": N_("{who} did not finish the limerick and drew 1"),
    "vote_limerick": N_("{who} drew 1: the limerick was voted down"),
    "vote_middle": N_("{who} drew 1: the middle name was voted down"),
    "enid": N_("{who} drew 1 (the Enid Blyton)"),
    "pickup": N_("{who} picked up {n}"),
}
_DREW = N_("{who} drew {n}")  # a reason this version does not know


#: Which part of a name was wrong (a misnamed event's ``why``, ``cogs/enid/names.py``);
#: a middle name's problem is already a sentence and is shown as it is.
MISNAMED = {
    "wrong name": N_("the name was wrong"),
    "wrong suit": N_("the name was right, the fish (the suit) was wrong"),
    # Translators: “of” is the word players type between a card's name and its fish ("Tarski of Carp").
    "no suit": N_("the name was right, but “of” and the fish (the suit) were missing"),
    "no middle name": N_("it needs a made-up middle name (Dennis M… Richie, Brian W… Kernighan)"),
    "wrong chain": N_("“Enid … Blyton” was right, the middle names were not (the whole chain in order, then one new one)"),
}


def _misnamed_why(why: str) -> str:
    """A misnamed event's ``why`` in the current language (a reason this version does
    not know is shown as recorded)."""
    if why in MISNAMED:
        return _(MISNAMED[why])
    if why in MIDDLE_NAME_PROBLEMS:
        return _(why)
    return why


def _suit_word(letter: str | None, enid: bool) -> str:
    if not letter:
        return ""
    suit = Suit(letter)
    word = SUIT_NAMES[suit][0] if enid else suit_name(suit, capital=True)  # Enid's fish stay English
    return f"{suit_text(suit.symbol)} {word}"


def _is_enid(observation: Mapping[str, Any]) -> bool:
    return observation.get("mode", "enid") == "enid"


def _face_up_line(observation: Mapping[str, Any]) -> str:
    """The face-up card, with the suit named for an Ace on it (what the next card must
    follow): the board's and the hand's alike (the hand said only "A♠" while spades were barred)."""
    top = card_text(observation.get("top"))
    if observation.get("chosen_suit"):
        return _("**Face up:** {card} ({suit} named)", card=top,
                 suit=_suit_word(observation["chosen_suit"], _is_enid(observation)))
    return _("**Face up:** {card}", card=top)


#: The board keeps only the last few events (the thread holds the rest: the rituals typed,
#: the votes' messages).
RECENT_LINES = 3


def _status_lines(observation: Mapping[str, Any], names: Mapping[int, str], first_line: bool = False) -> list[str]:
    """The board's head, shortest first: whose turn and which way play passes (the
    waiting, if any: a vote, a ritual, a pickup, a limerick), the face-up card and the
    Enid Blyton's chain, then everyone's cards and the piles on one line."""
    enid = _is_enid(observation)
    lines: list[str] = []
    if observation.get("over"):
        lines.append(_("**Game over.**"))  # (the result line above names the winner)
    else:
        lines += _waiting_lines(observation, names, first_line)
    line = _face_up_line(observation)
    if enid and observation.get("enid_suit"):
        chain = observation.get("chain_length", 0)
        line = ngettext("{face_up} · **The Enid Blyton:** the nine of {suit}, chain of {n} middle name",
                        "{face_up} · **The Enid Blyton:** the nine of {suit}, chain of {n} middle names",
                        chain, face_up=line, suit=_suit_word(observation["enid_suit"], True))
    lines.append(line)
    # (At the end, only those left holding cards: the winner, with none, is named by the result line.)
    seats = " · ".join(f"{name_of(names, seat['player'])} {seat['cards']}" for seat in observation.get("seats", [])
                       if seat["cards"] or not observation.get("over"))
    lines.append(_("**Cards:** {seats} · deck {deck} · face-up stock {stock}", seats=seats,
                   deck=observation.get("deck_size", 0), stock=observation.get("discard_size", 0)))
    return lines


def _waiting_lines(observation: Mapping[str, Any], names: Mapping[int, str], first_line: bool = False) -> list[str]:
    """Whose turn and which way play passes, then what the table waits for. ``first_line``:
    the platform's first line names who must act (the mover, the voters, who owes words)
    and what they do (:func:`turn_task`), so the Turn and vote lines name nobody."""
    lines: list[str] = []
    vote = observation.get("vote")
    direction = (_("play passes to the left ↻") if observation.get("direction", 1) > 0
                 else _("play passes to the right ↺"))
    turn = observation.get("turn")
    if turn is not None:
        player = name_of(names, turn)
        n = observation.get("turn_number", 1)
        if first_line:
            line = _("**Turn {n}**", n=n)
        elif vote:
            line = _("**Turn {n}:** {player} (after the vote)", n=n, player=player)
        elif observation.get("current"):
            line = _("**Turn {n}:** {player}", n=n, player=player)
        else:
            line = _("**Turn {n}:** {player} (waiting for a ritual)", n=n, player=player)
        lines.append(f"{line} · {direction}")
    if vote:
        voted = vote.get("voted", [])
        waiting_for = [v for v in vote.get("voters", []) if v not in voted]
        count = {"voted": len(voted), "voters": len(vote.get("voters", [])), "subject": _vote_subject(vote)}
        if waiting_for and not first_line:
            line = _("**Vote on {subject}:** {voted}/{voters} voted, waiting for {players}",
                     players=", ".join(name_of(names, v) for v in waiting_for), **count)
        else:
            line = _("**Vote on {subject}:** {voted}/{voters} voted", **count)
        lines.append(line + _closes(observation, vote.get("id"), closes=True))
    for o in observation.get("obligations", []):
        if o.get("ritual") != "vote":
            owes = _("⏳ {player} must {ritual}", player=name_of(names, o.get("player")), ritual=_ritual(o.get("ritual", "")))
            lines.append(owes + _closes(observation, o.get("id"), closes=False))
    if observation.get("pickup"):
        lines.append(_("**Pickup waiting:** {n} cards", n=observation["pickup"]))
    if observation.get("limerick"):
        lim = observation["limerick"]
        lines.append(_("**Limerick waiting**, first line by {player}: “{line}”",
                       player=name_of(names, lim.get("by")), line=clip(str(lim.get("first_line", "")), 200)))
    if observation.get("reciting"):
        rec = observation["reciting"]
        lines.append(_("**Reciting:** {player} ({lines}/5 lines)", player=name_of(names, rec.get("poet")), lines=rec.get("lines", 0)))
    return lines


def _recent(observation: Mapping[str, Any], names: Mapping[int, str], recent: Sequence[str]) -> list[str]:
    """The last few events, without what the board says elsewhere: the poem under a
    limerick vote (its vote message shows it, line by line); none at the end (the result
    line says it)."""
    lines = list(recent)
    vote = observation.get("vote") or {}
    poem = {str(verse).strip() for verse in vote.get("lines") or []} if vote.get("about") == "limerick" else set()

    def recited(line: str) -> bool:  # "💬 @Cy: “verse\nverse”": a message of the poem (one verse or several)
        said = line.partition("“")[2].rpartition("”")[0]
        return line.startswith("💬 ") and any(verse.strip() in poem for verse in said.split("\n"))

    if poem:
        lines = [line for line in lines if not recited(line)]
    if observation.get("over"):
        # No last events at the end: the result line says how the game ended, and the
        # winner's last card and its naming would name them again.
        return []
    return lines[-RECENT_LINES:]


def _closes(observation: Mapping[str, Any], obligation_id: Any, *, closes: bool) -> str:
    """`` · closes <t:…:R>`` (a vote) or `` · time runs out <t:…:R>`` (a ritual) from
    the deadlines the platform adds, or nothing."""
    deadline = (observation.get("deadlines") or {}).get(str(obligation_id))
    if deadline is None:
        return ""
    when = f"<t:{int(deadline)}:R>"
    return " · " + (_("closes {when}", when=when) if closes else _("time runs out {when}", when=when))


def table_embed(observation: Mapping[str, Any], names: Mapping[int, str], recent: Sequence[str], *,
                pictures: bool = False, first_line: bool = False) -> Panel:
    """The public table, from the spectator observation: a few lines (whose turn, what is
    owed, the face-up card, everyone's cards), then the last few events. Enid draws no
    table picture, so ``pictures`` (the platform's keyword for a board that carries one)
    changes nothing: this board is whole and short in both. ``first_line``: the platform's
    first line names who must act and what they do (:func:`turn_task`), so no line here
    names them again (the terminal's board, without it, does)."""
    title = "Enid" if _is_enid(observation) else _("Enid: plain Blackjack")
    embed = Panel(title=title, colour=COLOUR)
    # The last events follow the head without a heading of their own (each starts with
    # its player or its mark): a line saved on a board read all game.
    head = "\n".join(_status_lines(observation, names, first_line))
    events = clip_lines_from_end(_recent(observation, names, recent), max(0, DESCRIPTION_LIMIT - len(head) - 1))
    embed.description = clip(f"{head}\n{events}" if events else head, DESCRIPTION_LIMIT)
    # (No footer of the game's: the turn's number is on the Turn line; the rituals' time
    # and the voluntary draw are house rules, said in the lobby and by /rules.)
    return fit_embed(embed)


#: The command that shows this game's rules (a command, never translated).
RULES_COMMAND = "/rules game:enid"


def _naming_hint(observation: Mapping[str, Any]) -> str:
    """How to say the name of the card the viewer just laid: what it is called (unless
    the table plays names from memory, ``beginner_names: no``), never the Enid chain."""
    top = parse_card(str(observation["top"])) if observation.get("top") else None
    if top is not None and observation.get("enid_suit") == top.suit.value and top.rank is Rank.NINE:
        return _("name your Enid Blyton in the game's thread: “{first}”, every middle name of the chain so far in order, "
                 "one new middle name of your own, then “{last}”", first="Enid", last="Blyton")
    if top is not None and (observation.get("rules") or {}).get("beginner_names", "naming") != "no":
        name = Names.of_observation(observation).display(top)
        if top.rank in (Rank.THREE, Rank.FOUR):
            initial = "M" if top.rank is Rank.THREE else "W"
            # Translators: {name} is English as players type it, e.g. “Dennis M. Richie of Carp”.
            return _("type its name in the game's thread: your {card} is “{name}”, with a middle name of your own "
                     "starting with {initial} in place of “{initial}.”, never used before this session",
                     card=card_text(str(observation["top"])), name=name, initial=initial)
        # Translators: {name} is English as players type it, e.g. “Alonzo Church of Carp”.
        return _("type its name in the game's thread: your {card} is “{name}”", card=card_text(str(observation["top"])), name=name)
    if top is not None and top.rank in (Rank.THREE, Rank.FOUR):
        initial = "M" if top.rank is Rank.THREE else "W"
        return _("type the card's Enid name in the game's thread, with a made-up middle name starting with {initial} "
                 "never used before this session (the names are in {rules})", initial=initial, rules=RULES_COMMAND)
    # Translators: “of” and “Tarski of Carp” are typed by players as they are: keep them in English.
    return _("type the card's Enid name in the game's thread: its computer scientist, “of”, its fish, e.g. “{example}” "
             "(the names are in {rules})", example="Tarski of Carp", rules=RULES_COMMAND)


def _you_owe(ritual: str, observation: Mapping[str, Any]) -> str:
    """What the viewer must type now, in the second person."""
    enid = _is_enid(observation)
    if ritual == "name":
        return _naming_hint(observation)
    if ritual == "last":
        call = LAST_ENID_CALL if enid else LAST_CARD_CALL
        return _("type “{call}” in the game's thread before the next player moves, or pick up 7", call=call)
    if ritual == "church":
        return _("shout “{shout}” in the game's thread at the player who would have played next: "
                 "@mention them or reply to one of their messages", shout=CHURCH_SHOUT)
    if ritual == "cry":
        return _("type “{cry}” in the game's thread", cry=BUCKLE_CRY)
    if ritual == "first_line":
        # Translators: "No limerick" is the label of the hand's button (the same words as its msgid).
        return _("type the first line of a limerick in the game's thread: the next player must finish it; "
                 "or press No limerick to set none (it is your choice)")
    if ritual == "limerick":
        reciting = observation.get("reciting") or {}
        first = clip(str(reciting.get("first_line", "")), 150)
        return _("type the rest of the limerick (lines 2 to 5, in one message or several) in the game's thread; "
                 "its first line is “{line}”", line=first)
    return _ritual(ritual)


def _your_task(observation: Mapping[str, Any], names: Mapping[int, str] | None = None) -> str:
    viewer = observation.get("viewer")
    if observation.get("over"):
        return _("The game is over.")
    owed = [o["ritual"] for o in observation.get("obligations", []) if o.get("player") == viewer and o.get("ritual") != "vote"]
    if owed:
        tasks = [_you_owe(r, observation) for r in owed]
        task = tasks[0]
        for more in tasks[1:]:
            task = _("{task}; and {more}", task=task, more=more)
        words = _("Now {task}.", task=task)
        if viewer in (observation.get("current") or []):
            # "Last card", a shout or a cry does not hold the turn: say what the turn wants too
            # (the Ace's suit, the Eight's follow-up), in the order the player does them.
            then = _turn_task(observation, then=True)
            words = _("{now} Then {then}", now=words, then=then[:1].lower() + then[1:])
        return words
    vote = observation.get("vote")
    if vote and viewer in vote.get("voters", []) and viewer not in vote.get("voted", []):
        return _("Vote on {subject}: use the Yes / No buttons on the vote message in the game's thread.", subject=_vote_subject(vote))
    if vote:
        return _("A vote is open; play goes on when it closes.")
    holding = [o for o in observation.get("obligations", []) if o.get("ritual") in ("name", "first_line", "limerick")]
    if holding:
        o = holding[0]
        return _("Waiting: {player} must {ritual} in the thread.", player=name_of(names or {}, o.get("player")),
                 ritual=_ritual(o.get("ritual", ""), _FINISH_A_RITUAL))
    if viewer not in (observation.get("current") or []):
        return _("Waiting for your turn.")
    return _turn_task(observation)


def turn_task(observation: Mapping[str, Any]) -> str | None:
    """What the player to move must do, for the board's first line ("👉 @Ann: ..."; no
    full stop, lower case: the hand's own sentence, :func:`_turn_task`, without "Your
    turn:"). During a vote the vote's own wording (:func:`ping_task`) is said."""
    if observation.get("over") or observation.get("vote") or not observation.get("current"):
        return None
    task = _turn_task(observation, then=True)
    return (task[:1].lower() + task[1:]).rstrip(".")


def _turn_task(observation: Mapping[str, Any], *, then: bool = False) -> str:
    """What the viewer's turn asks of them (they are current). ``then``: said after a
    ritual ("Then lay a card…"), so without "Your turn:"."""
    phase = observation.get("phase")
    if phase == "suit":
        return _("Name a suit for your Ace.")
    if phase == "eight":
        return _("Lay any other card after your Eight.")
    if phase == "ten":
        return _("Lay more cards of the Ten's suit, or end your turn.")
    if observation.get("pickup"):  # (what answers it, as the rules' refusal says: "a matching card" read as suit or rank)
        n, enid_card = observation["pickup"], bool(_is_enid(observation) and observation.get("enid_suit"))
        if observation.get("pickup_kind") == "jack":
            return (_("{n} cards to pick up: answer with a Jack or the Enid Blyton, or pick them up.", n=n) if enid_card
                    else _("{n} cards to pick up: answer with a Jack, or pick them up.", n=n))
        return (_("{n} cards to pick up: answer with a Two or the Enid Blyton, or pick them up.", n=n) if enid_card
                else _("{n} cards to pick up: answer with a Two, or pick them up.", n=n))
    if observation.get("limerick"):
        return _("A limerick for you: lay a Six to pass it on or cancel it, press Recite and type it, or draw one to refuse.")
    if (observation.get("rules") or {}).get("voluntary_draw") == "yes":
        task = _("lay a card of the same suit or rank, or draw.")
    else:
        task = _("lay a card of the same suit or rank; draw only if you cannot.")
    return task if then else _("Your turn: {task}", task=task)


def hand_embed(observation: Mapping[str, Any], names: Mapping[int, str]) -> Panel:
    """One player's private view, from that player's observation."""
    codes = observation.get("hand") or []
    cards = [parse_card(code) for code in codes]
    embed = Panel(title=ngettext("Your hand: {n} card", "Your hand: {n} cards", len(cards)), colour=COLOUR)
    lines: list[str] = []
    beginner = observation.get("hand_names")
    if beginner:
        lines += [f"{card_text(code)} · {name}" for code, name in zip(codes, beginner)]
    else:
        for suit in SUIT_ORDER:
            # (A row per suit, without a bare suit sign before it: each card shows its own.)
            mine = [code for code, c in zip(codes, cards) if c.suit is suit]
            if mine:
                lines.append(" ".join(card_text(code) for code in mine))
    lines = lines or [_("(no cards)")]
    lines += ["", _face_up_line(observation), "", f"**{_your_task(observation, names)}**"]
    viewer = observation.get("viewer")
    others = [e for e in observation.get("challengeable", []) if e.get("player") != viewer]
    if others and not observation.get("vote"):
        entry = others[-1]
        lines += ["", _("You may **Challenge** {player}'s middle name “{name}” if you think it is a proper noun, "
                        "and not a really good one: the other players then vote on it.",
                        player=name_of(names, entry.get("player")), name=clip(str(entry.get("name", "")), 60))]
    embed.description = clip("\n".join(lines), DESCRIPTION_LIMIT)
    return fit_embed(embed)


def _card_effect(card: Card, observation: Mapping[str, Any]) -> str:
    rank = card.rank
    enid_suit = observation.get("enid_suit")
    if enid_suit and rank is Rank.NINE and card.suit.value == enid_suit:
        return _("The Enid Blyton: cancels, and everyone else draws")
    if observation.get("phase") == "ten":
        return _("Laid under the Ten (no magic)")
    if rank is Rank.JACK:
        return _("Takes 7 off a black Jack's pickup") if card.is_red else _("Next player picks up 7 more")
    if rank is Rank.SIX and _is_enid(observation):
        return _("Cancels a limerick") if card.is_red else _("A limerick for the next player")
    return _(_CARD_EFFECTS.get(rank, _PLAIN_CARD))


#: What a magic card does, shown under it in the card menu.
_CARD_EFFECTS = {
    Rank.ACE: N_("Then you name a suit"),
    Rank.TWO: N_("Next player picks up 2 more"),
    Rank.SEVEN: N_("Reverses direction"),
    Rank.EIGHT: N_("Then lay any other card"),
    Rank.TEN: N_("Then lay more of its suit"),
    Rank.QUEEN: N_("Skips the next player"),
    Rank.KING: N_("Skips the next two players"),
}
_PLAIN_CARD = N_("Plain card")


def controls(observation: Mapping[str, Any], legal: Sequence[Action]) -> list[Control]:
    """The controls for ``legal``: card plays in the select menu, the rest as buttons."""
    out: list[Control] = []
    enid = _is_enid(observation)
    for action in legal:
        kind = action.kind
        if kind == "play" and len(action.cards) == 1:
            card = action.cards[0]
            out.append(Control(action, label=clip(card.display(), OPTION_TEXT_LIMIT), place="select",
                               description=clip(_card_effect(card, observation), OPTION_TEXT_LIMIT)))
        elif kind == "draw":
            if observation.get("pickup"):
                out.append(Control(action, label=_("Pick up {n} cards", n=observation["pickup"]), style="danger"))
            elif observation.get("limerick"):
                out.append(Control(action, label=_("Refuse (draw 1)"), style="danger"))
            else:
                out.append(Control(action, label=_("Draw 1 card"), style="primary"))
        elif kind == "end":
            out.append(Control(action, label=_("End turn"), style="success"))
        elif kind == "suit":
            out.append(Control(action, label=clip(_suit_word(action.arg, enid), BUTTON_LABEL_LIMIT), style="primary"))
        elif kind == "recite":
            out.append(Control(action, label=_("Recite the limerick"), style="primary"))
        elif kind == "no_limerick":
            out.append(Control(action, label=_("No limerick"), style="secondary"))
        elif kind == "vote":
            continue  # votes are cast on the vote message of their own (ballots below)
        elif kind == "challenge":
            entry = next((e for e in observation.get("challengeable", []) if e.get("id") == action.arg), {})
            name = entry["name"] if "name" in entry else _("the middle name")
            out.append(Control(action, label=clip(_("Challenge “{name}”", name=name), BUTTON_LABEL_LIMIT)))
        else:
            out.append(Control(action, label=clip(action.code(), BUTTON_LABEL_LIMIT)))
    return out


_COMPUTER_MENTION = re.compile(r"<@(-\d+)>")


def event_lines(events: Sequence[Event], names: Mapping[int, str]) -> list[str]:
    """Public one-liners for the table's log."""
    lines: list[str] = []
    for event in events:
        data = event.visible_to(None)
        kind = event.kind
        who = name_of(names, event.player)
        if kind == "turned_up":
            card = card_text(data.get("card"))
            if data.get("enid_suit"):
                lines.append(_("Turned up: {card}. The Enid Blyton is the nine of {suit}", card=card, suit=_suit_word(data["enid_suit"], True)))
            else:
                lines.append(_("Turned up: {card}", card=card))
        elif kind == "said":
            # A computer seat cannot be @mentioned on Discord: its mention shows as its name.
            text = _COMPUTER_MENTION.sub(lambda m: name_of(names, int(m.group(1))), str(data.get("text", "")))
            lines.append(f"💬 {who}: “{clip(text, 300)}”")
        elif kind == "play":
            lines.append(_("{player} laid {card}", player=who, card=card_text(data.get("card"))))
        elif kind == "named":
            card = card_text(data.get("card"))
            if data.get("middle"):
                middle = " ".join(w.capitalize() for w in str(data["middle"]).split())
                lines.append(_("✅ {player} named {card} right, middle name “{name}” (others may challenge it from their hands "
                               "until their next move)", player=who, card=card, name=clip(middle, 60)))
            elif "chain_length" in data:
                lines.append(_("✅ {player} named {card} right (chain now {n})", player=who, card=card, n=data["chain_length"]))
            else:
                lines.append(_("✅ {player} named {card} right", player=who, card=card))
        elif kind == "misnamed":
            card = card_text(data.get("card"))
            if data.get("why") == "time ran out":
                lines.append(_("❌ {player} did not name {card} in time: its magic is void", player=who, card=card))
            else:
                why = _misnamed_why(str(data.get("why", "wrong name")))
                lines.append(_("❌ {player} misnamed {card}: {why}; its magic is void", player=who, card=card, why=why))
        elif kind == "draw":
            reason = str(data.get("reason", ""))
            text = _(DRAW_REASONS.get(reason, _DREW), who=who, n=data.get("count", 0))
            if data.get("short"):
                text = _("{drew} ({n} short: the deck ran out)", drew=text, n=data["short"])
            lines.append(text)
        elif kind == "suit":  # (the fish are Enid's: Taylor's plain mode names the suits; older events say neither)
            lines.append(_("{player} named {suit}", player=who, suit=_suit_word(data.get("suit"), data.get("enid", True))))
        elif kind == "pickup":
            lines.append(_("Pickup now {n}", n=data.get("pickup")))
        elif kind == "rafter_cancelled":
            lines.append(_("{player}'s red Jack takes 7 off: pickup now {n}", player=who, n=data.get("pickup")))
        elif kind == "reverse":
            lines.append(_("Direction reversed"))
        elif kind == "skip":
            lines.append(ngettext("{n} player will be skipped", "{n} players will be skipped", data.get("skip")))
        elif kind == "eight":
            lines.append(_("{player} must lay another card", player=who))
        elif kind == "ten":
            lines.append(_("{player} may lay more {suit}", player=who, suit=_suit_word(data.get("suit"), data.get("enid", True))))
        elif kind == "enid":
            lines.append(_("💥 The Enid Blyton! Everyone else draws"))
        elif kind == "limerick_refused":
            continue  # its draw, next, says "refused the limerick and drew 1": one line, not two
        elif kind in _LIMERICK_EVENTS:
            lines.append(_(_LIMERICK_EVENTS[kind], player=who))
        elif kind == "challenge":
            lines.append(_("⚖️ {player} challenged {other}'s middle name “{name}”", player=who, other=name_of(names, data.get("of")),
                           name=clip(str(data.get("name", "")), 100)))
        elif kind == "vote_open":
            lines.append(_("🗳️ Vote open: does the limerick scan and rhyme?") if data.get("about") == "limerick"
                         else _("🗳️ Vote open: does the middle name stand?"))
        elif kind == "vote_closed":
            tally = {"yes": data.get("yes", 0), "no": data.get("no", 0)}
            lines.append(_("🗳️ Vote closed: {yes} yes, {no} no: voted down", **tally) if data.get("against")
                         else _("🗳️ Vote closed: {yes} yes, {no} no: it stands", **tally))
        elif kind == "ritual_met":
            lines.append(_(_RITUAL_MET.get(data.get("ritual", ""), _DID_THE_RITUAL), player=who))
        elif kind in ("ritual_failed", "ritual_timeout"):
            lines.append(_("⏰ {player} did not {ritual}", player=who, ritual=_ritual(data.get("ritual", ""), _FINISH_THE_RITUAL)))
        elif kind == "water_buffalo":
            lines.append(_("🐃 {player} said {name}!", player=who, name="Water-buffalo"))
        elif kind == "reshuffle":
            lines.append(_("🔀 The face-up stock was shuffled into a new deck ({n} cards)", n=data.get("cards")))
        elif kind == "turn":
            continue  # the board shows whose turn it is; the log carries plays
        elif kind == "won":
            lines.append(_(_WON_LINE, player=who))
        elif kind == "player_removed":
            lines.append(_("{player} left the game; their {n} cards went under the deck", player=who, n=data.get("cards", 0)))
    return lines


#: (No 🏆: the platform's result line marks the winner.)
_WON_LINE = N_("🏁 {player} is out of cards and wins!")
_LIMERICK_EVENTS = {
    "limerick_set": N_("📜 {player} set a limerick for the next player"),
    "limerick_passed": N_("📜 {player} passed the limerick on"),
    "limerick_cancelled": N_("📜 {player} cancelled the limerick"),
    "limerick_declined": N_("📜 {player} set no limerick"),
}
_RITUAL_MET = {
    "last": N_("✅ {player} made the last-card call"),
    "church": N_("✅ {player} shouted the Church at the right player"),
    "cry": N_("✅ {player} cried John Buckle's cry"),
}
_DID_THE_RITUAL = N_("✅ {player} did the ritual")


def _person(player: Any) -> str:
    """A mention, or "a former player" for someone forgotten (bot/players/privacy.py): a chain
    name without its author, or a reserved id that no one may be @mentioned as."""
    if not isinstance(player, int) or isinstance(player, bool) or player in FORMER_PLAYERS:
        return _("a former player")
    return f"<@{player}>"


def session_summary(carry: Mapping[str, Any]) -> str:
    """A session's whole story (``/enid session end``, ``bot/discord_front/sessions.py``): the Enid
    chain in order with each name's author, and each game's result."""
    chain = carry.get("chain") or []
    results = carry.get("results") or []
    lines = [ngettext("**The Enid chain** ({n} middle name):", "**The Enid chain** ({n} middle names):", len(chain))]
    if chain:
        lines += [_("{n}. {name} — by {person}", n=n, name=" ".join(str(w).capitalize() for w in entry.get("words", [])),
                    person=_person(entry.get("author"))) for n, entry in enumerate(chain, 1)]
        full = "Enid " + " ".join(" ".join(str(w).capitalize() for w in e.get("words", [])) for e in chain) + " Blyton"
        lines.append(_("In full: {name}.", name=full))
    else:
        lines.append(_("Nobody named the Enid Blyton this session."))
    middle = carry.get("middle_names") or []
    if middle:
        lines.append(_("Middle names used: {n}.", n=len(middle)))
    lines.append(ngettext("**Results** ({n} game):", "**Results** ({n} games):", len(results)))
    for n, result in enumerate(results, 1):
        order = _placements(result.get("placements") or [])
        winner = result.get("winner")
        if winner is not None:
            line = _("Game {n}: {player} won ({order}).", order=order, n=n, player=_person(winner)) if order else \
                _("Game {n}: {player} won.", n=n, player=_person(winner))
        else:
            line = _("Game {n}: no winner ({order}).", n=n, order=order) if order else _("Game {n}: no winner.", n=n)
        lines.append(line)
    lines.append(_("The next Enid game here starts a new chain."))
    return "\n".join(lines)


def _placements(placements: Sequence[Sequence[Any]]) -> str:
    """"<@1>, then <@2> and <@3>": places in order, players tied at a place together."""
    places = []
    for place in placements:
        people = [_person(p) for p in place]
        together = people[0] if people else ""
        for person in people[1:]:
            together = _("{players} and {player}", players=together, player=person)
        places.append(together)
    order = places[0] if places else ""
    for later in places[1:]:
        order = _("{earlier}, then {later}", earlier=order, later=later)
    return order


# ----------------------------------------------------------------------- votes


def _vote_subject(vote: Mapping[str, Any]) -> str:
    if vote.get("about") == "limerick":
        return _("the limerick")
    return _("the middle name “{name}”", name=clip(str(vote.get("name", "")), 100))


def ping_task(observation: Mapping[str, Any]) -> str | None:
    """What the ping asks of the players it names (``bot/discord_front/publish.py``)."""
    vote = observation.get("vote")
    if vote:
        return _("vote on {subject} with the buttons on its vote message", subject=_vote_subject(vote))
    return None


def _mark(value: Any) -> str:
    if value is True:
        return _("yes")
    if value is False:
        return _("no")
    return _("unsure (a word the dictionary lacks)")


def _limerick_body(vote: Mapping[str, Any], names: Mapping[int, str]) -> str:
    lines = [str(x) for x in vote.get("lines") or []]
    hint = vote.get("hint") or {}
    counts = list(hint.get("syllables") or [])
    poem = [f"> {clip(line, 200)}" + ("  " + _("({n} syllables)", n=counts[i]) if i < len(counts) else "") for i, line in enumerate(lines)]
    return "\n".join([
        _("{player} recited:", player=name_of(names, vote.get("subject"))),
        *poem,
        "",
        _("Hint from a pronouncing dictionary (a hint, not the verdict): lines 1, 2 and 5 rhyme: **{rhyme_125}**; "
          "lines 3 and 4 rhyme: **{rhyme_34}**. A limerick usually has 8-9 syllables in lines 1, 2 and 5 and 5-6 in lines 3 and 4.",
          rhyme_125=_mark(hint.get("rhyme_125")), rhyme_34=_mark(hint.get("rhyme_34"))),
        "",
        _("Vote **Yes** if it scans and rhymes well enough, **No** if not. More No than Yes and the poet draws a card; a tie lets it stand."),
    ])


def _middle_body(vote: Mapping[str, Any], names: Mapping[int, str]) -> str:
    subject = name_of(names, vote.get("subject"))
    return "\n".join([
        _("{challenger} challenged {player}'s made-up middle name “{name}”.", challenger=name_of(names, vote.get("challenger")),
          player=subject, name=clip(str(vote.get("name", "")), 100)),
        _("Middle names may not be proper nouns unless they are really good ones."),
        _("Vote **Yes** if it stands, **No** if not. More No than Yes and {player} draws a card; a tie lets it stand.", player=subject),
    ])


def ballots(observation: Mapping[str, Any], names: Mapping[int, str]) -> list[Ballot]:
    """The open vote (``bot/discord_front/votes.py``), from the spectator observation."""
    vote = observation.get("vote")
    if not vote:
        return []
    if vote.get("about") == "limerick":
        question = _("does the limerick scan and rhyme?")  # no mention: titles do not render them
        body = _limerick_body(vote, names)
    else:
        question = _("does the middle name “{name}” stand?", name=clip(str(vote.get("name", "")), 60))
        body = _middle_body(vote, names)
    choices = (Choice("vote::yes", _("Yes, it stands"), "success"), Choice("vote::no", pgettext("vote", "No"), "danger"))
    return [Ballot(id=str(vote["id"]), question=question, body=body, voters=tuple(vote.get("voters", [])),
                   voted=tuple(vote.get("voted", [])), choices=choices)]


def ballot_verdict(events: Sequence[Event], vote_id: str, names: Mapping[int, str]) -> str | None:
    """The result of the vote ``vote_id`` from the move that closed it, if it did."""
    for event in events:
        data = event.visible_to(None)
        if event.kind == "vote_closed" and data.get("id") == vote_id:
            tally = _("{yes} yes, {no} no", yes=data.get("yes", 0), no=data.get("no", 0))
            who = name_of(names, event.player)
            if data.get("against"):
                return _("**Voted down** ({tally}): {player} draws a card.", tally=tally, player=who)
            if data.get("about") == "limerick":
                return _("The limerick **stands** ({tally}): {player} draws nothing.", tally=tally, player=who)
            return _("The middle name **stands** ({tally}): {player} draws nothing.", tally=tally, player=who)
    return None
