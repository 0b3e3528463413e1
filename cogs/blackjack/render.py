"""Blackjack observations -> Discord embeds, controls and log lines.

Implements the ``GameRender`` protocol of ``bot/games.py`` as module functions. Every
input is an observation (or events read through ``visible_to(None)``), never the full
state, so hidden cards cannot reach a public message.

- ``table_embed`` puts the game's own hint (turn number, house rules in words, where the
  rules are) in the embed's footer; ``footer_hint`` returns the same text. The platform
  keeps it and adds its own note after it rather than replacing it.
- ``table_cards`` / ``hand_cards`` describe the card pictures (``bot/cardart.py`` rows):
  the public table from the spectator observation, a hand from its player's observation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.cardart import CardRow
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
    plural,
    seat_label,
    seat_spoken,
    show_card,
)

COLOUR = discord.Colour.dark_green()
#: The board's Turn line says who must act (and what to do): the platform's "👉 ...: your
#: move" line is added only to a board posted anew to notify, and seats carry no ▶.
TURN_ON_BOARD = True

SUIT_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)

# What the player to move does next, for the table (third person). A draw is offered
# exactly when ``controls`` would show a Draw button (see _turn_hint).
PHASE_HINTS = {
    "start": "to play a card matching the top card, or an Ace",
    "chain": "to add more cards of the same value or end the turn",
    "free": "to play on with a matching card or end the turn",
    "must_play": "to play another card matching the top card, or an Ace",
    "any_card": "who played a Queen, to play any card",
    "suit": "to name a suit for their Ace",
}

DRAW_REASONS = {
    "cannot_play": "drew 1 card (nothing to play)",
    "voluntary": "chose to draw 1 card",
    "timeout": "ran out of time and drew 1 card",
    "power_last": "went out on a Power Card, so drew 1 card",
}

# House rules in words for the footer (the full sentences are the HouseRule's).
SHORTFALL_WORDS = {"cap": "Pickup cards that cannot be drawn are forgiven", "debt": "Pickup cards that cannot be drawn are owed"}
DRAW_WORDS = {"no": "Draw only when you cannot play", "yes": "You may draw instead of playing"}


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
        hint = _turn_hint(observation)
        lines.append(f"**Turn:** {name_of(names, current[0])}" + (f", {hint}" if hint else ""))
    direction = "to the left ↻" if observation.get("direction", 1) > 0 else "to the right ↺"
    skip = abs(int(observation.get("offset", 1)))
    lines.append(f"**Play passes** {direction}" + (f", skipping {plural(skip - 1, 'player')}" if skip > 1 else ""))
    if observation.get("turn_cards"):
        lines.append("**This turn:** " + " ".join(show_card(c) for c in observation["turn_cards"]))
    return lines


def _voluntary_draw(observation: Mapping[str, Any]) -> bool:
    return (observation.get("rules") or {}).get("voluntary_draw") == "yes"


def _turn_hint(observation: Mapping[str, Any]) -> str:
    """What the player to move may do, as the table says it. Mid-turn a player who
    cannot go on is moved on by the rules at once, so a draw is only ever a choice
    there (the voluntary-draw house rule); at the start of a turn it is the way out."""
    phase = observation.get("phase", "")
    pickup = observation.get("pickup", 0)
    if phase == "start" and pickup:
        return f"to answer the pickup with an Ace or a matching 2 or Jack, or pick up {plural(pickup, 'card')}"
    if phase == "start" and not observation.get("top"):
        return "to play any card"
    hint = PHASE_HINTS.get(phase, "")
    if phase == "start":
        hint += " (or draw 1 card)" if _voluntary_draw(observation) else " (or draw 1 card if they cannot)"
    elif phase in ("must_play", "any_card") and _voluntary_draw(observation):
        hint += " (or draw 1 card)"
    return hint


def _seat_lines(observation: Mapping[str, Any], names: Mapping[int, str]) -> list[str]:
    lines = []
    for seat in observation.get("seats", []):
        player = seat["player"]
        count = seat["cards"]
        line = f"{name_of(names, player)}: {count} card{'s' if count != 1 else ''}"
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
    embed.set_footer(text=footer_hint(observation))
    return fit_embed(embed)


def footer_hint(observation: Mapping[str, Any]) -> str:
    """The game's own footer: the turn, the house rules in words, where the rules are."""
    rules = observation.get("rules") or {}
    return (
        f"Turn {observation.get('turn_number', 1)}"
        f" · {SHORTFALL_WORDS.get(rules.get('pickup_shortfall', 'cap'), SHORTFALL_WORDS['cap'])}"
        f" · {DRAW_WORDS.get(rules.get('voluntary_draw', 'no'), DRAW_WORDS['no'])}"
        " · The rules: /rules blackjack"
    )


def _your_task(observation: Mapping[str, Any]) -> str:
    phase = observation.get("phase")
    pickup = observation.get("pickup", 0)
    if observation.get("over"):
        return "The game is over."
    if observation.get("viewer") not in (observation.get("current") or []):
        return "Waiting for your turn."
    if phase == "suit":
        return "Name a suit for your Ace."
    # A draw is offered only where ``controls`` shows a Draw button: at the start of
    # a turn when you cannot play, and anywhere a card may be played under the
    # voluntary-draw house rule (mid-turn, the rules draw for you when you cannot play).
    draw = " or draw 1 card" if _voluntary_draw(observation) else ""
    if phase == "start" and pickup:
        return f"{pickup} cards to pick up: answer with an Ace or a matching 2 or Jack, or pick them up."
    if phase == "start" and not observation.get("top"):
        return "Your turn: play any card to start the pile."
    if phase == "start":
        if draw:
            return "Your turn: play a card matching the top card (or an Ace), or draw 1 card."
        return "Your turn: play a card matching the top card (or an Ace); if you have none, draw 1 card."
    if phase == "chain":
        rank = observation.get("chain_rank") or ""
        many = {"A": "Aces", "J": "Jacks", "Q": "Queens", "K": "Kings"}.get(rank, f"{rank}s")
        return f"Add more {many}, or end your turn." if rank else "Add cards of the same value, or end your turn."
    if phase == "free":
        return "Play on with a matching card, or end your turn."
    if phase == "any_card":
        return f"You played a Queen: play any card{draw}."
    return f"Play another card matching the top card (or an Ace){draw}."


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
        lines.append(f"You owe {plural(seat['debt'], 'card')}: you draw them as they become available.")
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
            run_notes.append("skips a player" if kind == "skip" else "reverses the direction")
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
            lines.append(f"Skip: play moves {plural(abs(int(data.get('offset') or 2)), 'seat')} on")
        elif kind == "reverse":
            lines.append("Direction reversed")
        elif kind == "reshuffle":
            lines.append(f"🔀 The discard pile was shuffled into a new draw pile ({plural(data.get('cards', 0), 'card')})")
        elif kind == "turn":
            continue  # the board shows whose turn it is; the log carries plays
        elif kind == "won":
            lines.append(f"🏆 {who} is out of cards and wins!")
        elif kind == "player_removed":
            cards = data.get("cards", 0)
            lines.append(
                f"{who} left the game; their {plural(cards, 'card')} went under the draw pile" if cards else f"{who} left the game"
            )
        elif kind == "game_over":
            if not any(e.kind == "won" for e in events):
                lines.append("Game over.")
    flush()
    return lines


# --------------------------------------------------------------------------- pictures


def table_cards(observation: Mapping[str, Any], names: Mapping[int, str] | None = None) -> list[CardRow]:
    """The public picture, from the spectator observation only: the cards played this
    turn (or the top card), the draw pile and each seat's hand as card backs.

    ``names`` (optional) maps player id to a plain-text display name for the row
    labels ("Seat 2 · Ann"); without it, or for a mention, rows say "Seat 2"."""
    rows: list[CardRow] = []
    top = observation.get("top")
    turn_cards = tuple(observation.get("turn_cards") or ())
    discard = observation.get("discard_size", 0)
    pile = f". The discard pile has {plural(discard, 'card')}"
    if len(turn_cards) > 1:
        rows.append(CardRow(f"Played this turn (top card last) · discard pile {discard}", turn_cards,
                            spoken="Played this turn, top card last: {cards}" + pile))
    elif top:
        label = f"Top card · discard pile {discard}"
        spoken = "The top card is {cards}"
        if observation.get("chosen_suit"):
            suit = Suit(observation["chosen_suit"]).title.lower()
            label += f" · {suit} named"
            spoken += f", and {suit} are named"
        rows.append(CardRow(label, (top,), spoken=spoken + pile))
    else:
        rows.append(CardRow("Discard pile: empty", spoken="The discard pile is empty"))
    if observation.get("pickup"):
        waiting = observation["pickup"]
        rows[-1] = CardRow(rows[-1].label + f" · pickup {waiting} waiting", rows[-1].cards,
                           spoken=rows[-1].spoken + f". A pickup of {plural(waiting, 'card')} is waiting")
    deck = observation.get("deck_size", 0)
    rows.append(CardRow(f"Draw pile · {plural(deck, 'card')}", face_down=deck,
                        spoken=f"The draw pile has {plural(deck, 'card')}" if deck else "The draw pile is empty"))
    players = observation.get("players") or [s["player"] for s in observation.get("seats", [])]
    current = set(observation.get("current") or [])
    for seat in observation.get("seats", []):
        label = f"{seat_label(players, seat['player'], names)} · {plural(seat['cards'], 'card')}"
        spoken = f"{seat_spoken(players, seat['player'], names)} has {plural(seat['cards'], 'card')}"
        if seat.get("debt"):
            label += f" · owes {seat['debt']}"
            spoken += f" and owes {plural(seat['debt'], 'card')}"
        if seat["player"] in current:
            label += " · to play"
            spoken += ", and it is their turn"
        rows.append(CardRow(label, face_down=seat["cards"], spoken=spoken))
    return rows


def hand_cards(observation: Mapping[str, Any]) -> list[CardRow]:
    """A player's own picture, from their observation: the top card to match, then
    their hand, one row per suit."""
    top = observation.get("top")
    rows = [CardRow("Top card", (top,), spoken="The top card is {cards}") if top
            else CardRow("Top card: none yet, play any card", spoken="There is no top card yet: you may play any card")]
    cards = [parse_card(code) for code in observation.get("hand") or []]
    for suit in SUIT_ORDER:
        mine = tuple(str(c) for c in cards if c.suit is suit)
        if mine:
            rows.append(CardRow(f"Your {suit.title.lower()}", mine))
    if len(rows) == 1:
        rows.append(CardRow("Your hand: no cards", spoken="You have no cards left"))
    return rows
