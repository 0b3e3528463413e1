"""Blackjack observations -> Discord embeds, controls and log lines.

Implements the ``GameRender`` protocol of ``bot/games.py`` as module functions. Every
input is an observation (or events read through ``visible_to(None)``), never the full
state, so hidden cards cannot reach a public message.
"""

from __future__ import annotations

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

COLOUR = discord.Colour.dark_green()

SUIT_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)

PHASE_HINTS = {
    "start": "to play a card matching the top card (or an Ace)",
    "chain": "adding cards of the same value, or ending the turn",
    "free": "playing on with a matching card, or ending the turn",
    "must_play": "who must play another matching card (or draw one)",
    "any_card": "who played a Queen and may now play any card",
    "suit": "naming a suit for their Ace",
}

DRAW_REASONS = {
    "cannot_play": "drew 1 card (nothing to play)",
    "voluntary": "chose to draw 1 card",
    "timeout": "ran out of time and drew 1 card",
    "power_last": "went out on a Power Card, so drew 1 card",
}










def _suit_word(letter: str | None) -> str:
    if not letter:
        return ""
    suit = Suit(letter)
    return f"{suit.symbol} {suit.title.lower()}"


def _top_line(observation: Mapping[str, Any]) -> str:
    top = observation.get("top")
    if not top:
        return "**Top card:** none yet: the first card may be anything."
    line = f"**Top card:** {show_card(top)}"
    if observation.get("chosen_suit"):
        line += f" ({_suit_word(observation['chosen_suit'])} named)"
    return line


def _status_lines(observation: Mapping[str, Any], names: Mapping[int, str]) -> list[str]:
    lines = [_top_line(observation)]
    if observation.get("pickup"):
        lines.append(f"**Pickup waiting:** {observation['pickup']} cards")
    if observation.get("over"):
        winner = observation.get("winner")
        lines.append(f"🏆 **{name_of(names, winner)} wins!**" if winner is not None else "**Game over.**")
        return lines
    current = observation.get("current") or []
    if current:
        hint = PHASE_HINTS.get(observation.get("phase", ""), "")
        if observation.get("phase") == "start" and not observation.get("top"):
            hint = "to play any card"
        lines.append(f"**Turn:** {name_of(names, current[0])}" + (f", {hint}" if hint else ""))
    direction = "to the left ↻" if observation.get("direction", 1) > 0 else "to the right ↺"
    skip = abs(int(observation.get("offset", 1)))
    lines.append(f"**Play passes** {direction}" + (f", skipping {skip - 1}" if skip > 1 else ""))
    if observation.get("turn_cards"):
        lines.append("**This turn:** " + " ".join(show_card(c) for c in observation["turn_cards"]))
    return lines


def _seat_lines(observation: Mapping[str, Any], names: Mapping[int, str]) -> list[str]:
    current = set(observation.get("current") or [])
    lines = []
    for seat in observation.get("seats", []):
        player = seat["player"]
        marker = "▶ " if player in current else ""
        count = seat["cards"]
        line = f"{marker}{name_of(names, player)}: {count} card{'s' if count != 1 else ''}"
        if seat.get("debt"):
            line += f" (owes {seat['debt']})"
        lines.append(line)
    return lines




def table_embed(observation: Mapping[str, Any], names: Mapping[int, str], recent: Sequence[str]) -> discord.Embed:
    """The public table, from the spectator observation."""
    embed = discord.Embed(title="Blackjack", colour=COLOUR)
    embed.description = clip("\n".join(_status_lines(observation, names)), DESCRIPTION_LIMIT)
    embed.add_field(name="Players", value=clip_lines_from_end(_seat_lines(observation, names), FIELD_VALUE_LIMIT) or "—", inline=False)
    piles = f"Draw pile: {observation.get('deck_size', 0)} · Discard pile: {observation.get('discard_size', 0)}"
    embed.add_field(name="Piles", value=piles, inline=False)
    if recent:
        embed.add_field(name="Recent", value=clip_lines_from_end(list(recent), FIELD_VALUE_LIMIT) or "—", inline=False)
    rules = observation.get("rules", {})
    embed.set_footer(
        text=f"Turn {observation.get('turn_number', 1)} · Shortfall: {rules.get('pickup_shortfall', 'cap')}"
        f" · Voluntary draw: {rules.get('voluntary_draw', 'no')} · /rules for the rules"
    )
    return fit_embed(embed)


def _your_task(observation: Mapping[str, Any]) -> str:
    phase = observation.get("phase")
    pickup = observation.get("pickup", 0)
    if observation.get("over"):
        return "The game is over."
    if observation.get("viewer") not in (observation.get("current") or []):
        return "Waiting for your turn."
    if phase == "suit":
        return "Name a suit for your Ace."
    if phase == "start" and pickup:
        return f"{pickup} cards to pick up: answer with an Ace or a matching 2 or Jack, or take them."
    if phase == "start" and not observation.get("top"):
        return "Your turn: play any card to start the pile."
    if phase == "start":
        return "Your turn: play a card matching the top card (or an Ace)."
    if phase == "chain":
        rank = observation.get("chain_rank") or ""
        plural = {"A": "Aces", "J": "Jacks", "Q": "Queens", "K": "Kings"}.get(rank, f"{rank}s")
        return f"Add more {plural}, or end your turn." if rank else "Add cards of the same value, or end your turn."
    if phase == "free":
        return "Play on with a matching card, or end your turn."
    if phase == "any_card":
        return "You played a Queen: play any card."
    return "You must play another matching card (or an Ace), or draw one."


def hand_embed(observation: Mapping[str, Any], names: Mapping[int, str]) -> discord.Embed:
    """One player's private view, from that player's observation."""
    cards = [parse_card(code) for code in observation.get("hand") or []]
    embed = discord.Embed(title=f"Your hand: {len(cards)} card{'s' if len(cards) != 1 else ''}", colour=COLOUR)
    by_suit = []
    for suit in SUIT_ORDER:
        mine = [c for c in cards if c.suit is suit]
        if mine:
            by_suit.append(f"{suit.symbol} " + " ".join(c.display() for c in mine))
    lines = [*by_suit] or ["(no cards)"]
    lines += ["", _top_line(observation)]
    if observation.get("pickup"):
        lines.append(f"**Pickup waiting:** {observation['pickup']} cards")
    lines += ["", f"**{_your_task(observation)}**"]
    viewer = observation.get("viewer")
    seat = next((s for s in observation.get("seats", []) if s["player"] == viewer), None)
    if seat and seat.get("debt"):
        lines.append(f"You owe {seat['debt']} cards: you draw them as they become available.")
    embed.description = clip("\n".join(lines), DESCRIPTION_LIMIT)
    return fit_embed(embed)


def _card_effect(card: Card, observation: Mapping[str, Any]) -> str:
    rank = card.rank
    if rank is Rank.ACE:
        return "Ace: then you name a suit" + (" (cancels the pickup)" if observation.get("pickup") and observation.get("phase") == "start" else "")
    if rank is Rank.TWO:
        return "Pickup +2 for the next player"
    if rank is Rank.JACK:
        return f"Pickup +{3 if card.is_red else 5} for the next player"
    if rank is Rank.THREE:
        return "You must then play another card"
    if rank is Rank.EIGHT:
        return "Skips a player"
    if rank is Rank.QUEEN:
        return "Then play any card"
    if rank is Rank.KING:
        return "Reverses direction"
    if observation.get("phase") == "chain":
        return f"Another {rank.label}"
    return "Plain card"


def controls(observation: Mapping[str, Any], legal: Sequence[Action]) -> list[Control]:
    """The controls for ``legal``: card plays in the select menu, the rest as buttons."""
    out: list[Control] = []
    for action in legal:
        if action.kind == "play" and len(action.cards) == 1:
            card = action.cards[0]
            out.append(
                Control(
                    action,
                    label=clip(card.display(), OPTION_TEXT_LIMIT),
                    place="select",
                    description=clip(_card_effect(card, observation), OPTION_TEXT_LIMIT),
                )
            )
        elif action.kind == "draw":
            pickup = observation.get("pickup", 0)
            if observation.get("phase") == "start" and pickup:
                out.append(Control(action, label=f"Pick up {pickup} cards", style="danger"))
            else:
                out.append(Control(action, label="Draw 1 card", style="primary"))
        elif action.kind == "end":
            out.append(Control(action, label="End turn", style="success"))
        elif action.kind == "suit":
            suit = Suit(action.arg)
            out.append(Control(action, label=clip(f"{suit.symbol} {suit.title}", BUTTON_LABEL_LIMIT), style="primary"))
        else:
            out.append(Control(action, label=clip(action.code(), BUTTON_LABEL_LIMIT)))
    return out


def event_lines(events: Sequence[Event], names: Mapping[int, str]) -> list[str]:
    """Public one-liners; consecutive plays by one player share a line."""
    lines: list[str] = []
    run_player: int | None = None
    run_cards: list[str] = []
    run_notes: list[str] = []

    def flush() -> None:
        nonlocal run_player, run_cards, run_notes
        if run_cards:
            line = f"{name_of(names, run_player)} played " + " ".join(run_cards)
            if run_notes:
                line += " (" + ", ".join(run_notes) + ")"
            lines.append(line)
        run_player, run_cards, run_notes = None, [], []

    for event in events:
        data = event.visible_to(None)
        kind = event.kind
        if kind == "play":
            if run_player != event.player:
                flush()
                run_player = event.player
            run_cards.append(show_card(data.get("card")))
            if data.get("cancelled"):
                run_notes.append(f"pickup of {data['cancelled']} cancelled")
            if data.get("card", "")[:1] in ("2", "J"):
                run_notes = [n for n in run_notes if not n.startswith("pickup now")]
                run_notes.append(f"pickup now {data.get('pickup')}")
            continue
        if kind == "suit" and run_cards and event.player == run_player:
            run_notes.append(f"named {_suit_word(data.get('suit'))}")
            continue
        if kind in ("skip", "reverse") and run_cards and event.player == run_player:
            run_notes.append("skip" if kind == "skip" else "reverse")
            continue
        flush()
        who = name_of(names, event.player)
        if kind == "suit":
            lines.append(f"{who} named {_suit_word(data.get('suit'))}")
        elif kind == "draw":
            reason = data.get("reason")
            count = data.get("count", 0)
            short = data.get("short", 0)
            if reason == "pickup":
                continue  # the pickup_taken line says it
            if reason == "debt":
                lines.append(f"{who} drew {count} owed card{'s' if count != 1 else ''}")
            else:
                text = DRAW_REASONS.get(str(reason), "drew a card")
                if short and not count:
                    text = text.replace("drew 1 card", "had to draw, but there was nothing to draw")
                lines.append(f"{who} {text}")
        elif kind == "pickup_taken":
            count, drawn = data.get("count", 0), data.get("drawn", 0)
            line = f"{who} picked up {drawn} card{'s' if drawn != 1 else ''}"
            if drawn < count:
                line += f" ({count} were due, only {drawn} could be drawn)"
            lines.append(line)
        elif kind == "skip":
            lines.append(f"Skip: play moves {data.get('offset')} seats on")
        elif kind == "reverse":
            lines.append("Direction reversed")
        elif kind == "reshuffle":
            lines.append(f"🔀 The discard pile was shuffled into a new draw pile ({data.get('cards')} cards)")
        elif kind == "turn":
            lines.append(f"It's {name_of(names, data.get('player', event.player))}'s turn")
        elif kind == "won":
            lines.append(f"🏆 {who} is out of cards and wins!")
        elif kind == "player_removed":
            lines.append(f"{who} left the game; their {data.get('cards', 0)} cards went under the draw pile")
        elif kind == "game_over":
            if not any(e.kind == "won" for e in events):
                lines.append("Game over.")
    flush()
    return lines
