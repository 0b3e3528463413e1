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

import discord

from bot.cards import Card, Rank, Suit, parse_card
from bot.engine import Action, Control, Event
from bot.render_util import (
    BUTTON_LABEL_LIMIT,
    DESCRIPTION_LIMIT,
    FIELD_VALUE_LIMIT,
    OPTION_TEXT_LIMIT,
    clip,
    clip_lines_from_end,
    fit_embed,
    name_of,
    show_card,
)
from cogs.enid.names import SUIT_NAMES

COLOUR = discord.Colour.dark_teal()
SUIT_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)

RITUALS = {
    "name": "name their card",
    "last": "say the last-card call",
    "church": "shout the Church",
    "cry": "cry John Buckle's cry",
    "first_line": "type a limerick's first line",
    "limerick": "recite a limerick",
    "vote": "await the vote",
}

DRAW_REASONS = {
    "cannot_play": "drew 1 card (nothing to lay)",
    "voluntary": "chose to draw 1 card",
    "timeout": "ran out of time and drew 1 card",
    "eight_last": "went out on an Eight, so drew 1 card",
    "misnamed": "drew {n} for a wrong name",
    "last_card": "forgot the last-card call and picked up {n}",
    "water_buffalo": "said Water-buffalo and picked up {n}",
    "church": "drew 1 for a missed Church shout",
    "cry": "drew 1 for a forgotten John Buckle cry",
    "limerick_refused": "refused the limerick and drew 1",
    "limerick_unfinished": "did not finish the limerick and drew 1",
    "vote_limerick": "drew 1: the limerick was voted down",
    "vote_middle": "drew 1: the middle name was voted down",
    "enid": "drew 1 (the Enid Blyton)",
    "pickup": "picked up {n}",
}


def _suit_word(letter: str | None, enid: bool) -> str:
    if not letter:
        return ""
    suit = Suit(letter)
    word = SUIT_NAMES[suit][0] if enid else suit.title
    return f"{suit.symbol} {word}"


def _is_enid(observation: Mapping[str, Any]) -> bool:
    return observation.get("mode", "enid") == "enid"


def _status_lines(observation: Mapping[str, Any], names: Mapping[int, str]) -> list[str]:
    enid = _is_enid(observation)
    line = f"**Face up:** {show_card(observation.get('top'))}"
    if observation.get("chosen_suit"):
        line += f" ({_suit_word(observation['chosen_suit'], enid)} named)"
    lines = [line]
    if enid and observation.get("enid_suit"):
        lines.append(f"**The Enid Blyton:** the nine of {_suit_word(observation['enid_suit'], True)} · chain of {observation.get('chain_length', 0)} middle name{'s' if observation.get('chain_length', 0) != 1 else ''}")
    if observation.get("over"):
        winner = observation.get("winner")
        lines.append(f"🏆 **{name_of(names, winner)} wins!**" if winner is not None else "**Game over.**")
        return lines
    if observation.get("pickup"):
        lines.append(f"**Pickup waiting:** {observation['pickup']} cards")
    if observation.get("limerick"):
        lim = observation["limerick"]
        lines.append(f"**Limerick waiting**, first line by {name_of(names, lim.get('by'))}: “{clip(str(lim.get('first_line', '')), 200)}”")
    if observation.get("reciting"):
        rec = observation["reciting"]
        lines.append(f"**Reciting:** {name_of(names, rec.get('poet'))} ({rec.get('lines', 0)}/5 lines)")
    vote = observation.get("vote")
    if vote:
        about = "the limerick" if vote.get("about") == "limerick" else f"the middle name “{clip(str(vote.get('name', '')), 100)}”"
        lines.append(f"**Vote on {about}:** {len(vote.get('voted', []))}/{len(vote.get('voters', []))} voted{_closes(observation, vote.get('id'), 'closes')}")
    turn = observation.get("turn")
    if turn is not None:
        waiting = "" if observation.get("current") else " (waiting for a ritual)"
        lines.append(f"**Turn:** {name_of(names, turn)}{waiting}")
    direction = "to the left ↻" if observation.get("direction", 1) > 0 else "to the right ↺"
    lines.append(f"**Play passes** {direction}")
    for o in observation.get("obligations", []):
        if o.get("ritual") != "vote":
            lines.append(f"⏳ {name_of(names, o.get('player'))} must {RITUALS.get(o.get('ritual', ''), o.get('ritual', ''))}{_closes(observation, o.get('id'), 'time runs out')}")
    return lines


def _closes(observation: Mapping[str, Any], obligation_id: Any, verb: str) -> str:
    """`` · closes <t:…:R>`` from the deadlines the platform adds, or nothing."""
    deadline = (observation.get("deadlines") or {}).get(str(obligation_id))
    return f" · {verb} <t:{int(deadline)}:R>" if deadline is not None else ""


def _seat_lines(observation: Mapping[str, Any], names: Mapping[int, str]) -> list[str]:
    current = set(observation.get("current") or [])
    turn = observation.get("turn")
    lines = []
    for seat in observation.get("seats", []):
        player = seat["player"]
        marker = "▶ " if player in current or player == turn else ""
        count = seat["cards"]
        lines.append(f"{marker}{name_of(names, player)}: {count} card{'s' if count != 1 else ''}")
    return lines


def table_embed(observation: Mapping[str, Any], names: Mapping[int, str], recent: Sequence[str]) -> discord.Embed:
    """The public table, from the spectator observation."""
    title = "Enid" if _is_enid(observation) else "Enid: plain Blackjack"
    embed = discord.Embed(title=title, colour=COLOUR)
    embed.description = clip("\n".join(_status_lines(observation, names)), DESCRIPTION_LIMIT)
    embed.add_field(name="Players", value=clip_lines_from_end(_seat_lines(observation, names), FIELD_VALUE_LIMIT) or "—", inline=False)
    embed.add_field(name="Piles", value=f"Deck: {observation.get('deck_size', 0)} · Face-up stock: {observation.get('discard_size', 0)}", inline=False)
    if recent:
        embed.add_field(name="Recent", value=clip_lines_from_end(list(recent), FIELD_VALUE_LIMIT) or "—", inline=False)
    rules = observation.get("rules", {})
    embed.set_footer(text=f"Turn {observation.get('turn_number', 1)} · Rituals: {rules.get('ritual_seconds', '30')} s · Voluntary draw: {rules.get('voluntary_draw', 'no')} · /rules for the rules")
    return fit_embed(embed)


def _your_task(observation: Mapping[str, Any]) -> str:
    viewer = observation.get("viewer")
    if observation.get("over"):
        return "The game is over."
    owed = [o["ritual"] for o in observation.get("obligations", []) if o.get("player") == viewer and o.get("ritual") != "vote"]
    if owed:
        return "Type in the channel: you must " + ", ".join(RITUALS.get(r, r) for r in owed) + "."
    vote = observation.get("vote")
    if vote and viewer in vote.get("voters", []) and viewer not in vote.get("voted", []):
        return "Vote now."
    if viewer not in (observation.get("current") or []):
        return "Waiting for your turn."
    phase = observation.get("phase")
    if phase == "suit":
        return "Name a suit for your Ace."
    if phase == "eight":
        return "Lay any other card after your Eight."
    if phase == "ten":
        return "Lay more cards of the Ten's suit, or end your turn."
    if observation.get("pickup"):
        return f"{observation['pickup']} cards to pick up: answer with a matching card, or pick them up."
    if observation.get("limerick"):
        return "A limerick: lay a Six, recite, or draw one to refuse."
    return "Your turn: lay a card of the same suit or rank, or draw."


def hand_embed(observation: Mapping[str, Any], names: Mapping[int, str]) -> discord.Embed:
    """One player's private view, from that player's observation."""
    codes = observation.get("hand") or []
    cards = [parse_card(code) for code in codes]
    embed = discord.Embed(title=f"Your hand: {len(cards)} card{'s' if len(cards) != 1 else ''}", colour=COLOUR)
    lines: list[str] = []
    beginner = observation.get("hand_names")
    if beginner:
        lines += [f"{c.display()} · {name}" for c, name in zip(cards, beginner)]
    else:
        for suit in SUIT_ORDER:
            mine = [c for c in cards if c.suit is suit]
            if mine:
                lines.append(f"{suit.symbol} " + " ".join(c.display() for c in mine))
    lines = lines or ["(no cards)"]
    lines += ["", f"**Face up:** {show_card(observation.get('top'))}", "", f"**{_your_task(observation)}**"]
    embed.description = clip("\n".join(lines), DESCRIPTION_LIMIT)
    return fit_embed(embed)


def _card_effect(card: Card, observation: Mapping[str, Any]) -> str:
    rank = card.rank
    enid_suit = observation.get("enid_suit")
    if enid_suit and rank is Rank.NINE and card.suit.value == enid_suit:
        return "The Enid Blyton: cancels, and everyone else draws"
    if observation.get("phase") == "ten":
        return "Laid under the Ten (no magic)"
    effects = {
        Rank.ACE: "Then you name a suit",
        Rank.TWO: "Next player picks up 2 more",
        Rank.SEVEN: "Reverses direction",
        Rank.EIGHT: "Then lay any other card",
        Rank.TEN: "Then lay more of its suit",
        Rank.QUEEN: "Skips the next player",
        Rank.KING: "Skips the next two players",
    }
    if rank is Rank.JACK:
        return "Takes 7 off a black Jack's pickup" if card.is_red else "Next player picks up 7 more"
    if rank is Rank.SIX and _is_enid(observation):
        return "Cancels a limerick" if card.is_red else "A limerick for the next player"
    return effects.get(rank, "Plain card")


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
                out.append(Control(action, label=f"Pick up {observation['pickup']} cards", style="danger"))
            elif observation.get("limerick"):
                out.append(Control(action, label="Refuse (draw 1)", style="danger"))
            else:
                out.append(Control(action, label="Draw 1 card", style="primary"))
        elif kind == "end":
            out.append(Control(action, label="End turn", style="success"))
        elif kind == "suit":
            out.append(Control(action, label=clip(_suit_word(action.arg, enid), BUTTON_LABEL_LIMIT), style="primary"))
        elif kind == "recite":
            out.append(Control(action, label="Recite the limerick", style="primary"))
        elif kind == "vote":
            out.append(Control(action, label="Yes, it stands" if action.arg == "yes" else "No", style="success" if action.arg == "yes" else "danger"))
        elif kind == "challenge":
            entry = next((e for e in observation.get("challengeable", []) if e.get("id") == action.arg), {})
            out.append(Control(action, label=clip(f"Challenge “{entry.get('name', 'the middle name')}”", BUTTON_LABEL_LIMIT)))
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
            line = f"Turned up: {show_card(data.get('card'))}"
            if data.get("enid_suit"):
                line += f". The Enid Blyton is the nine of {_suit_word(data['enid_suit'], True)}"
            lines.append(line)
        elif kind == "said":
            # A computer seat cannot be @mentioned on Discord: its mention shows as its name.
            text = _COMPUTER_MENTION.sub(lambda m: name_of(names, int(m.group(1))), str(data.get("text", "")))
            lines.append(f"💬 {who}: “{clip(text, 300)}”")
        elif kind == "play":
            lines.append(f"{who} laid {show_card(data.get('card'))}")
        elif kind == "named":
            extra = f" (chain now {data['chain_length']})" if "chain_length" in data else ""
            lines.append(f"✅ {who} named {show_card(data.get('card'))} right{extra}")
        elif kind == "misnamed":
            lines.append(f"❌ {who} misnamed {show_card(data.get('card'))} ({data.get('why', 'wrong name')}): its magic is void")
        elif kind == "draw":
            reason = str(data.get("reason", ""))
            count = data.get("count", 0)
            text = DRAW_REASONS.get(reason, "drew {n}").format(n=count)
            if data.get("short"):
                text += f" ({data['short']} short: the deck ran out)"
            lines.append(f"{who} {text}")
        elif kind == "suit":
            lines.append(f"{who} named {_suit_word(data.get('suit'), True)}")
        elif kind == "pickup":
            lines.append(f"Pickup now {data.get('pickup')}")
        elif kind == "rafter_cancelled":
            lines.append(f"{who}'s red Jack takes 7 off: pickup now {data.get('pickup')}")
        elif kind == "reverse":
            lines.append("Direction reversed")
        elif kind == "skip":
            lines.append(f"{data.get('skip')} player{'s' if data.get('skip') != 1 else ''} will be skipped")
        elif kind == "eight":
            lines.append(f"{who} must lay another card")
        elif kind == "ten":
            lines.append(f"{who} may lay more {_suit_word(data.get('suit'), True)}")
        elif kind == "enid":
            lines.append("💥 The Enid Blyton! Everyone else draws")
        elif kind in ("limerick_set", "limerick_passed", "limerick_cancelled", "limerick_refused"):
            lines.append({"limerick_set": f"📜 {who} set a limerick for the next player",
                          "limerick_passed": f"📜 {who} passed the limerick on",
                          "limerick_cancelled": f"📜 {who} cancelled the limerick",
                          "limerick_refused": f"📜 {who} refused the limerick"}[kind])
        elif kind == "challenge":
            lines.append(f"⚖️ {who} challenged {name_of(names, data.get('of'))}'s middle name “{clip(str(data.get('name', '')), 100)}”")
        elif kind == "vote_open":
            lines.append("🗳️ Vote open" + (": does the limerick scan and rhyme?" if data.get("about") == "limerick" else ": does the middle name stand?"))
        elif kind == "vote_closed":
            verdict = "against" if data.get("against") else "for"
            lines.append(f"🗳️ Vote closed: {data.get('yes', 0)} yes, {data.get('no', 0)} no ({verdict})")
        elif kind == "ritual_met":
            lines.append(f"✅ {who}: {RITUALS.get(data.get('ritual', ''), '')} done")
        elif kind in ("ritual_failed", "ritual_timeout"):
            lines.append(f"⏰ {who} did not {RITUALS.get(data.get('ritual', ''), 'finish the ritual')}")
        elif kind == "water_buffalo":
            lines.append(f"🐃 {who} said Water-buffalo!")
        elif kind == "reshuffle":
            lines.append(f"🔀 The face-up stock was shuffled into a new deck ({data.get('cards')} cards)")
        elif kind == "turn":
            lines.append(f"It's {name_of(names, data.get('player', event.player))}'s turn")
        elif kind == "won":
            lines.append(f"🏆 {who} is out of cards and wins!")
        elif kind == "player_removed":
            lines.append(f"{who} left the game; their {data.get('cards', 0)} cards went under the deck")
    return lines
