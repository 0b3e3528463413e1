"""Idiot observations -> Discord embeds, controls and log lines.

Implements the ``GameRender`` protocol of ``bot/games.py`` as module functions. Inputs
are observations (or events read through ``visible_to(None)``), never the full state,
so no hand card or face-down card can reach a public message.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

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
    show_card,
)

COLOUR = discord.Colour.dark_red()


FACE_DOWN = "🂠"
COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}
STAGE_WORDS = {
    "hand": "from your hand",
    "face_up": "from your face-up cards",
    "face_down": "blind, from your face-down cards",
    "out": "nothing: you are out",
}




def _show_all(codes: Sequence[str]) -> str:
    return " ".join(show_card(c) for c in codes) if codes else "—"






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
    count = f"{size} card{'s' if size != 1 else ''}"
    return f"**Pile ({count}):** {below}{shown} · beat {show_card(observation['to_beat'])}"


def _seat_line(seat: Mapping[str, Any], observation: Mapping[str, Any], names: Mapping[int, str]) -> str:
    player = seat["id"]
    marker = "▶ " if player in observation["current"] and observation["phase"] == "play" else ""
    name = name_of(names, player)
    if seat["removed"]:
        return f"{name}: left the game"
    if seat["finished"]:
        return f"{name}: out, place {seat['finished']}"
    parts = [f"hand {seat['hand_count']}", f"up {_show_all(seat['face_up'])}", f"down {FACE_DOWN * len(seat['face_down']) or '—'}"]
    status = ""
    if observation["phase"] == "swap":
        status = " ✅ ready" if seat["ready"] else " ⏳ swapping"
    return f"{marker}{name}: " + " · ".join(parts) + status


def _status_line(observation: Mapping[str, Any], names: Mapping[int, str]) -> str:
    phase = observation["phase"]
    if phase == "swap":
        waiting = ", ".join(name_of(names, p) for p in observation["current"])
        return f"**Swap phase:** swap face-up cards with your hand, then press Ready. Waiting for {waiting}."
    if phase == "play":
        player = observation["current"][0] if observation["current"] else None
        return f"**Turn:** {name_of(names, player)}"
    return "**Game over.**\n" + _places(observation["placements"] or [], names)


def table_embed(observation: Mapping[str, Any], names: Mapping[int, str], recent: Sequence[str]) -> discord.Embed:
    """The public table, from the spectator observation."""
    lines = [_status_line(observation, names)]
    if observation["phase"] != "over" or observation["pile_size"]:
        lines.append(_pile_line(observation))
    lines.append(f"**Draw pile:** {observation['draw_size']} · **Burned:** {observation['burned_count']}")
    if observation["phase"] == "play" and observation["idle_turns"] >= observation["stalemate_turns"] - 20:
        left = observation["stalemate_turns"] - observation["idle_turns"]
        lines.append(f"⚠️ Stalemate in {left} turns unless a card is drawn, burned or played from the table.")
    lines.append("")
    lines.extend(_seat_line(seat, observation, names) for seat in observation["seats"])
    embed = discord.Embed(title="Idiot", colour=COLOUR, description=clip("\n".join(lines), DESCRIPTION_LIMIT))
    if recent:
        embed.add_field(name="Recent", value=clip_lines_from_end(recent, FIELD_VALUE_LIMIT, empty="—"), inline=False)
    options = observation["options"]
    footer = "Finish: " + ("last player holding cards is the Idiot" if options["finish"] == "last_idiot" else "first out wins")
    if options["voluntary_pickup"] == "on":
        footer += " · pick-up by choice allowed"
    embed.set_footer(text=footer)
    return fit_embed(embed)






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
        lines.append(
            "Swap face-up cards with hand cards if you like (tens, twos, high cards and pairs are good face up), "
            "then press **Ready**."
        )
    elif phase == "play":
        lines.append(_pile_line(observation))
        if me in observation["current"]:
            lines.append(f"**Your turn:** you play {STAGE_WORDS[observation['stage']]}.")
        else:
            player = observation["current"][0] if observation["current"] else None
            lines.append(f"Waiting for {name_of(names, player)}. You will play {STAGE_WORDS[observation['stage']]}.")
    else:
        lines.append("**Game over.**\n" + _places(observation["placements"] or [], names))
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
        count = data["count"]
        return f"{who} drew {count} card{'s' if count != 1 else ''}."
    if kind == "pickup":
        count = data["count"]
        return f"{who} picked up the pile ({count} card{'s' if count != 1 else ''})."
    if kind == "blind":
        card = show_card(data["card"])
        if data["played"]:
            return f"{who} turned face-down card {data['position']}: {card}, played."
        return (
            f"{who} turned face-down card {data['position']}: {card} cannot be played, "
            f"picked up with the pile ({data['picked_up']} cards)."
        )
    if kind == "burn":
        count = data["count"]
        if data["reason"] == "starter":
            return f"🔥 The starting card burns ({count} card{'s' if count != 1 else ''})."
        cause = "a 10" if data["reason"] == "ten" else "four of a kind"
        return f"🔥 {who} burns the pile with {cause} ({count} cards)."
    if kind == "turn":
        return f"{who} plays again." if data.get("again") else None
    if kind == "out":
        return f"🏁 {who} has played out all their cards (place {data['place']})."
    if kind == "stalemate":
        return f"Stalemate: {data['turns']} turns without progress."
    if kind == "game_over":
        placements = data.get("placements") or []
        if not placements:
            return "Game over."
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
        if event.kind == "draw" and previous is not None and previous.kind == "play" and previous.player == event.player:
            # Fold the refill into the play line: "X played 7♥ and drew 1."
            lines[-1] = lines[-1].rstrip(".") + f" and drew {event.visible_to(None)['count']}."
            previous = event
            continue
        previous = event
        line = _event_line(event, names)
        if line:
            lines.append(line)
    return lines
