"""Idiot observations -> Discord embeds, controls and log lines.

Implements the ``GameRender`` protocol of ``bot/games.py`` as module functions. Inputs
are observations (or events read through ``visible_to(None)``), never the full state,
so no hand card or face-down card can reach a public message.

- ``table_embed`` puts the game's own hint (the house rules in words) in the embed's
  footer; ``footer_hint`` returns the same text. The platform keeps it and adds its own
  note after it rather than replacing it.
- ``table_cards`` / ``hand_cards`` describe the card pictures (``bot/cardart.py`` rows):
  the public table from the spectator observation, a hand from its player's observation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.cardart import CardRow, spoken_list
from bot.cards import Rank, parse_card
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
    ordinal,
    plural,
    seat_label,
    seat_spoken,
    show_card,
)

COLOUR = discord.Colour.dark_red()
#: The board's Turn line says who must act (and what to do): the platform's "👉 ...: your
#: move" line is added only to a board posted anew to notify, and seats carry no ▶.
TURN_ON_BOARD = True


FACE_DOWN = "🂠"
COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}
STAGE_WORDS = {
    "hand": "from your hand",
    "face_up": "from your face-up cards",
    "face_down": "blind, from your face-down cards",
}
#: The board's turn line: where the player to move plays from (the ping line above it
#: already names them; this says what the table can expect).
BOARD_STAGE_WORDS = {
    "hand": "plays from their hand",
    "face_up": "plays from their face-up cards",
    "face_down": "turns over a face-down card",
}
FINISH_WORDS = {
    "first_out": "The first player out wins",
    "last_idiot": "Play goes on until one player is left holding cards: the Idiot",
}


def _show_all(codes: Sequence[str]) -> str:
    return " ".join(show_card(c) for c in codes) if codes else "—"


def _rank_name(code: str, article: bool = False) -> str:
    """'7', 'Ace'; with ``article``: 'a 7', 'an 8', 'an Ace'."""
    rank = parse_card(code).rank
    word = {Rank.ACE: "Ace", Rank.JACK: "Jack", Rank.QUEEN: "Queen", Rank.KING: "King"}.get(rank, rank.label)
    if not article:
        return word
    return f"{'an' if rank in (Rank.ACE, Rank.EIGHT) else 'a'} {word}"


def _stalemated(observation: Mapping[str, Any]) -> bool:
    return observation["phase"] == "over" and observation["idle_turns"] >= observation["stalemate_turns"]


def _rank_plural(rank: Rank, count: int) -> str:
    words = {Rank.ACE: "Ace", Rank.JACK: "Jack", Rank.QUEEN: "Queen", Rank.KING: "King"}
    word = words.get(rank, rank.label)
    if count == 1:
        return f"{'an' if rank in (Rank.ACE, Rank.EIGHT) else 'a'} {word}"
    return f"{COUNT_WORDS.get(count, str(count))} {word}s"


def _places(placements: Sequence[Sequence[int]], names: Mapping[int, str]) -> str:
    lines = []
    place = 1
    for group in placements:
        lines.append(f"{place}. " + ", ".join(name_of(names, p) for p in group))
        place += len(group)
    return "\n".join(lines)


def _game_over(observation: Mapping[str, Any], names: Mapping[int, str]) -> str:
    places = _places(observation["placements"] or [], names)
    if _stalemated(observation):
        # Nobody won: the standings rank the players still holding cards by how few they hold.
        return (
            f"**Game over: a stalemate** ({observation['stalemate_turns']} turns without progress). "
            "Standings, fewest cards first:\n" + places
        )
    return "**Game over.**\n" + places


# --------------------------------------------------------------------------- table


def _pile_line(observation: Mapping[str, Any]) -> str:
    size = observation["pile_size"]
    if not size:
        return "**Pile:** empty: any card starts a new one."
    top = observation["pile_top"]
    shown = " ".join(show_card(c) for c in top[:-1])
    shown = (shown + " " if shown else "") + f"**{show_card(top[-1])}**"
    hidden_below = size - len(top)
    below = f"({hidden_below} more below) " if hidden_below else ""
    line = f"**Pile ({plural(size, 'card')}):** {below}{shown}"
    return line if observation["phase"] == "over" else f"{line} · next: {_next_play(observation['to_beat'])}"


def _next_play(to_beat: str | None) -> str:
    """What may go on the pile, in words (twos and tens go on anything)."""
    if not to_beat:
        return "any card"
    rank = parse_card(to_beat).rank
    if rank is Rank.TWO:
        return "any card (a 2 is on top)"
    if rank is Rank.TEN:
        return "any card (a 10 on top burns the pile)"
    if rank is Rank.ACE:
        return "an Ace, or a 2 or 10"
    return f"{_rank_name(to_beat, article=True)} or higher, or a 2 or 10"


def _seat_line(seat: Mapping[str, Any], observation: Mapping[str, Any], names: Mapping[int, str]) -> str:
    player = seat["id"]
    name = name_of(names, player)
    if seat["removed"]:
        return f"{name}: left the game"
    if seat["finished"]:
        return f"{name}: out of cards ({ordinal(seat['finished'])})"
    parts = [
        f"hand {seat['hand_count']}",
        f"face up {_show_all(seat['face_up'])}",
        f"face down {FACE_DOWN * len(seat['face_down']) or '—'}",
    ]
    status = ""
    if observation["phase"] == "swap":
        status = " ✅ ready" if seat["ready"] else " ⏳ swapping"
    return f"{name}: " + " · ".join(parts) + status


def _status_line(observation: Mapping[str, Any], names: Mapping[int, str]) -> str:
    phase = observation["phase"]
    if phase == "swap":
        # Who is still swapping is on each seat's line (⏳ / ✅) and in the board's turn line.
        return "**Swap phase:** each player may swap face-up cards with their hand, then presses Ready. Play starts when everyone is ready."
    if phase == "play":
        player = observation["current"][0] if observation["current"] else None
        stage = next((seat["stage"] for seat in observation["seats"] if seat["id"] == player), None)
        doing = f" {BOARD_STAGE_WORDS[stage]}" if stage in BOARD_STAGE_WORDS else ""
        return f"**Turn:** {name_of(names, player)}{doing}"
    return _game_over(observation, names)


def table_embed(observation: Mapping[str, Any], names: Mapping[int, str], recent: Sequence[str]) -> discord.Embed:
    """The public table, from the spectator observation."""
    lines = [_status_line(observation, names)]
    if observation["phase"] != "over" or observation["pile_size"]:
        lines.append(_pile_line(observation))
    lines.append(f"**Draw pile:** {observation['draw_size']} · **Burned:** {observation['burned_count']}")
    if observation["phase"] == "play" and observation["idle_turns"] >= observation["stalemate_turns"] - 20:
        left = observation["stalemate_turns"] - observation["idle_turns"]
        lines.append(f"⚠️ Stalemate in {plural(left, 'turn')} unless a card is drawn, burned or played from the table.")
    lines.append("")
    lines.extend(_seat_line(seat, observation, names) for seat in observation["seats"])
    embed = discord.Embed(title="Idiot", colour=COLOUR, description=clip("\n".join(lines), DESCRIPTION_LIMIT))
    if recent:
        embed.add_field(name="Recent", value=clip_lines_from_end(recent, FIELD_VALUE_LIMIT, empty="—"), inline=False)
    embed.set_footer(text=footer_hint(observation))
    return fit_embed(embed)


def footer_hint(observation: Mapping[str, Any]) -> str:
    """The game's own footer: the house rules in words, and where the rules are."""
    options = observation["options"]
    parts = [FINISH_WORDS.get(options["finish"], FINISH_WORDS["first_out"])]
    if options["voluntary_pickup"] == "on":
        parts.append("You may pick up the pile by choice")
    parts.append("The rules: /rules idiot")
    return " · ".join(parts)


# --------------------------------------------------------------------------- hand


def hand_embed(observation: Mapping[str, Any], names: Mapping[int, str]) -> discord.Embed:
    """One player's private view, from that player's observation."""
    me = observation["viewer"]
    seat = next(s for s in observation["seats"] if s["id"] == me)
    hand = observation.get("hand", [])
    lines = [f"**Your hand ({len(hand)}):** {_show_all(hand)}"]
    lines.append(f"**Face up:** {_show_all(seat['face_up'])}")
    positions = seat["face_down"]
    lines.append(
        "**Face down:** "
        + (" ".join(f"{FACE_DOWN}{p}" for p in positions) + " (unseen, even by you)" if positions else "—")
    )
    phase = observation["phase"]
    if phase == "swap":
        lines.append("")
        if seat["ready"]:
            lines.append("You are ready. Play starts when everyone is ready.")
        else:
            lines.append(
                "Swap face-up cards with hand cards if you like (tens, twos, high cards and pairs are good face up), "
                "then press **Ready**."
            )
    elif phase == "play":
        lines.append(_pile_line(observation))
        stage = observation["stage"]
        # Who is being waited for is the hand message's status line (the platform's,
        # above this text): saying it here too made it read twice.
        if stage == "out":
            lines.append("You are out of cards: nothing more to play.")
        elif me in observation["current"]:
            lines.append(f"**Your turn:** you play {STAGE_WORDS[stage]}.")
        else:
            lines.append(f"On your turn you will play {STAGE_WORDS[stage]}.")
    else:
        lines.append(_game_over(observation, names))
    embed = discord.Embed(title="Your cards · Idiot", colour=COLOUR, description=clip("\n".join(lines), DESCRIPTION_LIMIT))
    return fit_embed(embed)


# --------------------------------------------------------------------------- controls


def _play_description(observation: Mapping[str, Any], action: Action) -> str:
    rank = action.cards[0].rank
    count = len(action.cards)
    text = f"Play {_rank_plural(rank, count)}"
    if rank is Rank.TEN:
        return text + ": burns the pile, then you play again"
    on_top = observation["pile_top"]
    same_on_top = 0
    for code in reversed(on_top):
        if parse_card(code).rank is not rank:
            break
        same_on_top += 1
    if same_on_top + count >= 4:
        return text + ": four of a kind burns the pile, then you play again"
    if rank is Rank.TWO:
        return text + ": goes on anything"
    return text


def controls(observation: Mapping[str, Any], legal: Sequence[Action]) -> list[Control]:
    """Plays and swaps go in the select menu; pick up, blind cards and Ready are buttons."""
    out: list[Control] = []
    for action in legal:
        if action.kind == "play":
            label = " ".join(card.display() for card in action.cards)
            out.append(
                Control(
                    action,
                    clip(label, OPTION_TEXT_LIMIT),
                    place="select",
                    description=clip(_play_description(observation, action), OPTION_TEXT_LIMIT),
                )
            )
        elif action.kind == "swap":
            up, held = action.cards
            out.append(
                Control(
                    action,
                    clip(f"Swap {up.display()} ↔ {held.display()}", OPTION_TEXT_LIMIT),
                    place="select",
                    description=clip(f"Put {held.display()} face up and take {up.display()} into your hand", OPTION_TEXT_LIMIT),
                )
            )
        elif action.kind == "ready":
            out.append(Control(action, "Ready", style="success", emoji="✅"))
        elif action.kind == "pickup":
            size = observation["pile_size"]
            out.append(Control(action, clip(f"Pick up the pile ({size})", BUTTON_LABEL_LIMIT), style="danger"))
        elif action.kind == "blind":
            # No emoji: 🂠 (U+1F0A0) is not a Unicode emoji, and Discord refuses a
            # component carrying it (BUTTON_COMPONENT_INVALID_EMOJI), so the hand would not show.
            out.append(Control(action, f"Turn face-down card {action.arg}", style="primary"))
        else:  # a future action kind still gets a usable button
            out.append(Control(action, clip(action.code(), BUTTON_LABEL_LIMIT)))
    return out


# --------------------------------------------------------------------------- log


def _event_line(event: Event, names: Mapping[int, str]) -> str | None:
    data = event.visible_to(None)
    who = name_of(names, event.player)
    kind = event.kind
    if kind == "swap":
        return f"{who} swapped: {show_card(data['to_table'])} face up, {show_card(data['to_hand'])} into the hand."
    if kind == "ready":
        return f"{who} is ready."
    if kind == "play_begins":
        return f"Play begins: {name_of(names, data['first'])} starts."
    if kind == "play":
        where = " from the table" if data["from"] == "face_up" else ""
        return f"{who} played {_show_all(data['cards'])}{where}."
    if kind == "draw":
        return f"{who} drew {plural(data['count'], 'card')}."
    if kind == "pickup":
        return f"{who} picked up the pile ({plural(data['count'], 'card')})."
    if kind == "blind":
        card = show_card(data["card"])
        if data["played"]:
            return f"{who} turned over face-down card {data['position']}, {card}, and played it."
        return (
            f"{who} turned over face-down card {data['position']}, {card}, which cannot be played: "
            f"they picked it up with the pile ({plural(data['picked_up'], 'card')})."
        )
    if kind == "burn":
        count = plural(data["count"], "card")
        if data["reason"] == "starter":
            return f"🔥 The starting card burns ({count})."
        cause = "a 10" if data["reason"] == "ten" else "four of a kind"
        return f"🔥 {who} burns the pile with {cause} ({count})."
    if kind == "turn":
        return f"{who} plays again." if data.get("again") else None
    if kind == "out":
        return f"🏁 {who} has played out all their cards ({ordinal(data['place'])} place)."
    if kind == "stalemate":
        return f"Stalemate: {data['turns']} turns without progress."
    if kind == "game_over":
        placements = data.get("placements") or []
        if not placements:
            return "Game over."
        if data.get("reason") == "stalemate":
            # Nobody won: rank the standings (fewest cards first), never call it a win.
            standings = "; ".join(
                f"{ordinal(sum(len(g) for g in placements[:i]) + 1)} " + ", ".join(name_of(names, p) for p in group)
                for i, group in enumerate(placements)
            )
            return f"Game over: a stalemate, nobody wins. Standings by fewest cards: {standings}."
        line = "Game over. Winner: " + ", ".join(name_of(names, p) for p in placements[0]) + "."
        if data.get("idiot") is not None:
            line += f" The Idiot: {name_of(names, data['idiot'])}."
        return line
    if kind == "player_removed":
        return f"{who} left the game; their cards are out of play."
    return None


def event_lines(events: Sequence[Event], names: Mapping[int, str]) -> list[str]:
    """Public one-liners (private events through ``visible_to(None)``); an ordinary
    turn change is left out, since the table shows whose turn it is."""
    lines: list[str] = []
    previous: Event | None = None
    for event in events:
        if event.kind == "draw" and previous is not None and previous.kind in ("play", "blind") and previous.player == event.player and lines:
            # Fold the refill into the play line: "X played 7♥ and drew 1 card."
            lines[-1] = lines[-1].rstrip(".") + f" and drew {plural(event.visible_to(None)['count'], 'card')}."
            previous = event
            continue
        if event.kind == "turn" and event.data.get("again") and previous is not None and previous.kind == "burn" and lines:
            # "X burns the pile with a 10 (5 cards) and plays again."
            lines[-1] = lines[-1].rstrip(".") + " and plays again."
            previous = event
            continue
        previous = event
        line = _event_line(event, names)
        if line:
            lines.append(line)
    return lines


# --------------------------------------------------------------------------- pictures


def table_cards(observation: Mapping[str, Any], names: Mapping[int, str] | None = None) -> list[CardRow]:
    """The public picture, from the spectator observation only: the top of the pile,
    the draw pile as card backs, then each seat's face-up cards and face-down backs
    (hand sizes are in the labels: a hand is never drawn on the table).

    ``names`` (optional) maps player id to a plain-text display name for the row
    labels ("Seat 2 · Ann"); without it, or for a mention, rows say "Seat 2"."""
    size = observation["pile_size"]
    top = tuple(observation["pile_top"])
    if size:
        label = f"Pile · {plural(size, 'card')}"
        if size > len(top):
            label += f" (top {len(top)} shown)"
        if observation["phase"] != "over":
            label += f" · next: {_next_play(observation['to_beat'])}"
        rows = [CardRow(label, top, spoken=_pile_spoken(observation))]
    else:
        rows = [CardRow("Pile: empty, any card starts it", spoken="The pile is empty: any card starts it")]
    draw, burned = observation["draw_size"], observation["burned_count"]
    rows.append(
        CardRow(
            f"Draw pile · {plural(draw, 'card')} · burned {burned}",
            face_down=draw,
            spoken=(f"The draw pile has {plural(draw, 'card')}" if draw else "The draw pile is empty")
            + (f", and {plural(burned, 'card')} {'was' if burned == 1 else 'were'} burned" if burned else ""),
        )
    )
    players = observation["players"]
    playing = observation["phase"] == "play"
    for seat in observation["seats"]:
        label = seat_label(players, seat["id"], names)
        who = seat_spoken(players, seat["id"], names)
        if seat["removed"]:
            rows.append(CardRow(f"{label} · left the game", spoken=f"{who} left the game"))
            continue
        if seat["finished"]:
            rows.append(CardRow(f"{label} · out of cards ({ordinal(seat['finished'])})",
                                spoken=f"{who} is out of cards, finishing {ordinal(seat['finished'])}"))
            continue
        label += f" · {seat['hand_count']} in hand"
        spoken = f"{who} has {plural(seat['hand_count'], 'card')} in hand"
        spoken += "; face up: {cards}" if seat["face_up"] else "; no cards face up"
        spoken += f"; and {len(seat['face_down'])} face down" if seat["face_down"] else "; and none face down"
        if playing and seat["id"] in observation["current"]:
            label += " · to play"
            spoken += ". It is their turn"
        elif observation["phase"] == "swap":
            label += " · ready" if seat["ready"] else " · swapping"
            spoken += ". They are ready" if seat["ready"] else ". They are still swapping"
        rows.append(CardRow(label, tuple(seat["face_up"]), face_down=len(seat["face_down"]), spoken=spoken))
    return rows


def _pile_spoken(observation: Mapping[str, Any]) -> str:
    """The pile as said aloud: its size, its top cards (the top one last), what may come next."""
    size, top = observation["pile_size"], observation["pile_top"]
    if not top:
        said = "The pile is empty"
    elif size == 1:
        said = "The pile has 1 card: {cards}"
    elif size > len(top):
        said = f"The pile has {size} cards; the top {len(top)}, top card last, are {{cards}}"
    else:
        said = f"The pile has {size} cards, top card last: {{cards}}"
    if observation["phase"] != "over":
        said += f". Next to play: {_next_play(observation['to_beat'])}"
    return said


def hand_cards(observation: Mapping[str, Any]) -> list[CardRow]:
    """A player's own picture, from their observation: the top of the pile, then their
    hand, their face-up cards and their face-down cards (backs: unseen even by them)."""
    me = observation["viewer"]
    seat = next(s for s in observation["seats"] if s["id"] == me)
    top = tuple(observation["pile_top"])
    if observation["phase"] == "over":
        rows = [CardRow("Pile", top, spoken=_pile_spoken(observation)) if top else CardRow("Pile: empty", spoken="The pile is empty")]
    else:
        rows = [CardRow(f"Pile · next: {_next_play(observation['to_beat'])}", top, spoken=_pile_spoken(observation)) if top
                else CardRow("Pile: empty, any card starts it", spoken="The pile is empty: any card starts it")]
    hand = tuple(observation.get("hand", ()))
    rows.append(CardRow(f"Your hand · {plural(len(hand), 'card')}", hand,
                        spoken=f"Your hand has {plural(len(hand), 'card')}: {{cards}}" if hand else "Your hand is empty"))
    rows.append(CardRow("Your face-up cards", tuple(seat["face_up"]),
                        spoken="Your face-up cards: {cards}" if seat["face_up"] else "You have no face-up cards"))
    positions = seat["face_down"]
    label = "Your face-down cards: " + (", ".join(str(p) for p in positions) if positions else "none")
    # The numbers are the Turn face-down card buttons'; not even their owner sees these cards.
    spoken = (f"You have {plural(len(positions), 'face-down card')}, unseen even by you, "
              f"numbered {spoken_list([str(p) for p in positions])}" if positions else "You have no face-down cards")
    rows.append(CardRow(label, face_down=len(positions), spoken=spoken))
    return rows
