"""Engines of Discrimination observations -> Discord embeds, controls and log lines.

Implements the ``GameRender`` protocol of ``bot/games.py`` as module functions. Every
input is an observation (or events read through ``visible_to(None)``), never the full
state, so a hidden hand or an unrevealed pick cannot reach a public message.

- ``table_embed`` puts the game's own hint ("Closest card wins ...") in the embed's
  footer; ``footer_hint`` returns the same text. The platform keeps it and adds its own
  note after it rather than replacing it.
- ``table_cards`` / ``hand_cards`` describe the card pictures (``bot/cardart.py`` rows):
  the public table from the spectator observation, a hand from its player's observation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.cardart import CardRow, card_name, spoken_list
from bot.cards import parse_card
from bot.engine import Action, Control, Event
from bot.render_util import (
    BUTTON_LABEL_LIMIT,
    DESCRIPTION_LIMIT,
    EMBED_TOTAL_LIMIT,
    FIELD_VALUE_LIMIT,
    OPTION_TEXT_LIMIT,
    clip,
    clip_lines_from_end,
    name_of,
    plural,
    seat_label,
    seat_spoken,
    show_card,
)

GOOGLE_COLOUR = discord.Colour.blue()
YAHOO_COLOUR = discord.Colour.purple()
TABLE_COLOUR = discord.Colour.dark_teal()

RECENT_LINES = 8

SIDE_TITLE = {"google": "Google", "yahoo": "Yahoo"}
SIDE_ICON = {"google": "🔵", "yahoo": "🟣"}

WIN_REASONS = {
    "closest": "closest card",
    "match": "exact match",
    "tie_last_winner": "tie, won by the side that won the last search",
    "yahoo_special": "tie, won by Yahoo's tie-breaker",
}
END_REASONS = {
    "deck_used_up": "a deck ran out",
    "sets": "best two sets out of three",
    "forfeit": "a player left",
    "no_cards": "nobody had a card left",
}


# --------------------------------------------------------------------------- helpers


def _names(names: Mapping[int, str], players: Sequence[int]) -> str:
    return " & ".join(name_of(names, p) for p in players)


def _value(code: str) -> int | None:
    card = parse_card(code)
    return None if card.rank.is_picture else int(card.rank)


def _distance(request: str, code: str) -> int | None:
    """Same measure as the rules: images only match the same image."""
    req, card = parse_card(request), parse_card(code)
    if req.rank.is_picture:
        return 0 if card.rank == req.rank else None
    value = _value(code)
    return None if value is None else abs(value - int(req.rank))


def _how_close(request: str | None, code: str) -> str:
    if not request:
        return ""
    gap = _distance(request, code)
    shown = show_card(request)
    if gap == 0:
        return f"matches the {shown} request"
    if gap is None:
        if parse_card(request).rank.is_picture:
            return f"cannot win the {shown} request (only the same image can)"
        return f"an image: no value against the {shown} request"
    return f"{gap} point{'s' if gap != 1 else ''} from the {shown} request"


def _outcome_text(reveal: Mapping[str, Any], names: Mapping[int, str]) -> str:
    outcome = reveal.get("outcome") or {}
    kind = outcome.get("kind")
    if kind == "won":
        cards = ", ".join(f"{name_of(names, w['player'])} {show_card(w['card'])}" for w in outcome["winners"])
        side = SIDE_TITLE.get(outcome.get("side"), "")
        text = f"**{side}** wins ({WIN_REASONS.get(outcome['reason'], outcome['reason'])}): {cards} put aside"
        shown = outcome.get("shown")
        if shown:
            text += f"; {name_of(names, shown['player'])} showed {show_card(shown['card'])}"
        return text
    if kind == "discarded":
        return "nobody answered it: request discarded"
    if kind == "tie_returned":
        return "tie on the first search: cards go back, new request"
    if kind == "tie_pending":
        return "tie! Yahoo may show a tie-breaker"
    return ""


def _reveal_text(reveal: Mapping[str, Any], names: Mapping[int, str]) -> str:
    plays = " · ".join(f"{name_of(names, p['player'])} {show_card(p['card'])}" for p in reveal["plays"])
    outcome = _outcome_text(reveal, names)
    return f"Request {show_card(reveal['request'])}: {plays}" + (f"\n→ {outcome}" if outcome else "")


def _status_line(observation: Mapping[str, Any], names: Mapping[int, str]) -> str:
    phase = observation["phase"]
    if phase == "choose":
        seats = observation["seats"]
        marks = [
            f"{'✅' if seat['chosen'] else '⏳'} {name_of(names, seat['player'])}"
            for seat in seats
            if seat["chosen"] or seat["player"] in observation["current"]
        ]
        return "Picks (hidden until everyone has picked): " + ", ".join(marks)
    if phase == "tiebreak":
        tie = observation.get("tiebreak") or {}
        return f"⚖️ Tie! Waiting for {_names(names, tie.get('players', []))} (Yahoo) to show a tie-breaker or decline."
    if phase == "refill":
        return f"🔄 Waiting for {_names(names, observation['refill_pending'])} to refill: team deck or partner's hand."
    return ""


def _result_text(observation: Mapping[str, Any], names: Mapping[int, str]) -> str:
    result = observation.get("result") or {}
    placements = result.get("placements") or []
    scores = result.get("scores") or {}
    score = f"Google {scores.get('google', 0)} – Yahoo {scores.get('yahoo', 0)}"
    if observation["players"] == 4 and result.get("set_wins"):
        sets = result["set_wins"]
        score = f"sets: Google {sets['google']} – Yahoo {sets['yahoo']}"
    reason = END_REASONS.get(result.get("reason"), result.get("reason", ""))
    if len(placements) == 1:
        return f"🏁 **Game over: a draw** ({score}; {reason})."
    winners = placements[0] if placements else []
    side = SIDE_TITLE.get(_side_of(observation, winners[0]) if winners else "", "")
    return f"🏁 **Game over: {side} wins!** {_names(names, winners)} ({score}; {reason})."


def _side_of(observation: Mapping[str, Any], player: int) -> str:
    for side, players in observation["teams"].items():
        if player in players:
            return side
    return ""


def _side_field(observation: Mapping[str, Any], names: Mapping[int, str], side: str) -> tuple[str, str]:
    players = observation["teams"][side]
    seats = {seat["player"]: seat for seat in observation["seats"]}
    lines = []
    for p in players:
        size = seats[p]["hand_size"]
        picked = " + 1 picked" if seats[p]["chosen"] else ""
        lines.append(f"{name_of(names, p)}: {size} card{'s' if size != 1 else ''} in hand{picked}")
    lines.append(f"Put aside: **{observation['scores'][side]}**")
    lines.append(f"Player deck: {observation['decks'][side]}")
    if side == "google":
        lines.append(f"IPOs left: {observation['ipos_left']}")
    if observation.get("last_winner") == side:
        lines.append("Won the last search")
    title = f"{SIDE_ICON[side]} {SIDE_TITLE[side]}"
    if observation["players"] == 4:
        title += f" — sets won: {observation['set_wins'][side]}"
    return title, clip("\n".join(lines), FIELD_VALUE_LIMIT)


# --------------------------------------------------------------------------- the protocol


def table_embed(observation: Mapping[str, Any], names: Mapping[int, str], recent: Sequence[str]) -> discord.Embed:
    """The public table, from the spectator observation."""
    title = "Engines of Discrimination"
    if observation["players"] == 4:
        title += f" — set {observation['set_number']} (best of three)"
    lines: list[str] = []
    if observation["phase"] == "over":
        lines.append(_result_text(observation, names))
    else:
        if observation["request"]:
            lines.append(
                f"🔎 Search Request **{show_card(observation['request'])}** "
                f"(#{observation['search_number']}, turned by {name_of(names, observation['turn'])})"
            )
        # (No request while a search winner chooses how to refill: the search is
        # decided and shown below as "This search".)
        lines.append(_status_line(observation, names))
    reveal = observation.get("reveal")
    if not reveal and observation.get("cut"):
        cuts = ", ".join(f"{name_of(names, c['player'])} {show_card(c['card'])}" for c in observation["cut"])
        lines.append(f"✂️ Yahoo cut for low card: {cuts}")
    if reveal:
        label = "This search" if reveal["search"] == observation["search_number"] and observation["phase"] != "choose" else "Last search"
        lines.append(f"**{label}** — {_reveal_text(reveal, names)}")
    embed = discord.Embed(title=title, description=clip("\n".join(lines), DESCRIPTION_LIMIT), colour=TABLE_COLOUR)
    for side in ("google", "yahoo"):
        name, value = _side_field(observation, names, side)
        embed.add_field(name=name, value=value, inline=True)
    decks = observation["decks"]
    embed.add_field(
        name="🗂️ Search deck",
        value=f"{decks['search']} cards left, {observation['search_discard']} discarded",
        inline=True,
    )
    if recent:
        room = EMBED_TOTAL_LIMIT - len(embed) - 50
        text = clip_lines_from_end(list(recent)[-RECENT_LINES:], max(0, min(FIELD_VALUE_LIMIT, room)))
        if text:
            embed.add_field(name="Recent", value=text, inline=False)
    embed.set_footer(text=footer_hint(observation))
    return embed


def footer_hint(observation: Mapping[str, Any]) -> str:
    """The game's own footer: the rules of a search in one line."""
    parts = [
        "Closest card wins",
        "an image (J, Q, K) only matches the same image",
        "Yahoo can win a tie with a card one point further away"
        + (" (shown for them)" if observation.get("yahoo_tiebreak") == "auto" else ""),
    ]
    if observation.get("ipos_left"):
        parts.append("Google may declare an IPO for 4 extra cards")
    return " · ".join(parts)


def hand_embed(observation: Mapping[str, Any], names: Mapping[int, str]) -> discord.Embed:
    """One player's private view: their cards and how close each is."""
    side = observation.get("side") or "google"
    request = observation.get("request")
    embed = discord.Embed(
        title=f"Your hand — {SIDE_TITLE.get(side, '?')}",
        colour=GOOGLE_COLOUR if side == "google" else YAHOO_COLOUR,
    )
    lines: list[str] = []
    reveal = observation.get("reveal")
    if reveal and observation["phase"] != "over":
        # A hand that updated itself for the next search says how the last one went
        # (the same public words as the board), so its player need not look up.
        this = reveal["search"] == observation["search_number"] and observation["phase"] != "choose"
        lines.append(f"**{'This' if this else 'Last'} search** — {_reveal_text(reveal, names)}")
    if observation["phase"] != "over":
        lines.append(f"🔎 Search Request: **{show_card(request)}**")
    mine = observation.get("my_choice")
    if mine:
        lines.append(f"Your pick: **{show_card(mine)}** (hidden until everyone has picked)")
    hand = observation.get("hand") or []
    card_lines = [f"{show_card(code)} — {_how_close(request, code)}" if request else show_card(code) for code in hand]
    lines.append("**Your cards**")
    lines.extend(card_lines or ["(no cards)"])
    target = observation["hand_target"][side]
    if len(hand) > target:
        lines.append(f"You hold more than {target} cards after your IPO: you draw again once you hold fewer than {target}.")
    partner = observation.get("partner")
    if partner is not None:
        lines.append(f"Partner: {name_of(names, partner)}")
    if observation.get("ipo_allowed"):
        lines.append("📈 You may declare your IPO now (4 extra cards), before you pick.")
    if observation["phase"] == "tiebreak" and observation.get("viewer") in (observation.get("tiebreak") or {}).get("players", []):
        lines.append("⚖️ You can win this tie by showing a card one point further from the request.")
    if observation.get("viewer") in observation.get("refill_pending", []):
        lines.append("🔄 You won: refill from the team deck, or blindly from your partner's hand.")
    embed.description = clip("\n".join(lines), DESCRIPTION_LIMIT)
    return embed


def controls(observation: Mapping[str, Any], legal: Sequence[Action]) -> list[Control]:
    """Picks as a select menu; the specials and refill choices as buttons."""
    request = observation.get("request")
    out: list[Control] = []
    for action in legal:
        if action.kind == "play" and action.cards:
            code = str(action.cards[0])
            out.append(
                Control(
                    action,
                    label=clip(show_card(code), OPTION_TEXT_LIMIT),
                    place="select",
                    style="primary",
                    description=clip(_how_close(request, code), OPTION_TEXT_LIMIT),
                )
            )
        elif action.kind == "ipo":
            out.append(Control(action, label="Declare IPO (+4 cards)", style="success", emoji="📈"))
        elif action.kind == "tiebreak" and action.cards:
            label = f"Show {action.cards[0].display()} and win the tie"
            out.append(Control(action, label=clip(label, BUTTON_LABEL_LIMIT), style="success", emoji="⚖️"))
        elif action.kind == "decline":
            out.append(Control(action, label="Don't show a tie-breaker", style="secondary"))
        elif action.kind == "refill" and action.arg == "deck":
            out.append(Control(action, label="Refill from the team deck", style="primary"))
        elif action.kind == "refill" and action.arg == "partner":
            out.append(Control(action, label="Take blindly from your partner", style="secondary"))
    return out


def event_lines(events: Sequence[Event], names: Mapping[int, str]) -> list[str]:
    """Public one-liners, from what the channel may see of each event."""
    lines: list[str] = []
    for event in events:
        data = event.visible_to(None)
        line = _event_line(event.kind, data, names)
        if line:
            lines.append(line)
    return lines


def _event_line(kind: str, data: Mapping[str, Any], names: Mapping[int, str]) -> str | None:
    who = name_of(names, data.get("player"))
    if kind == "first_turn":
        cut = data.get("cut") or []
        if cut:
            cuts = ", ".join(f"{name_of(names, c['player'])} {show_card(c['card'])}" for c in cut)
            return f"✂️ Yahoo cut for low card ({cuts}): {who} goes first."
        return f"{who} goes first."
    if kind == "search_request":
        return f"🔎 {who} turns Search Request #{data['search']}: **{show_card(data['card'])}**"
    if kind == "chosen":
        return f"✅ {who} has picked a card."
    if kind == "reveal":
        plays = " · ".join(f"{name_of(names, p['player'])} {show_card(p['card'])}" for p in data["plays"])
        return f"🃏 Reveal on {show_card(data['request'])}: {plays}"
    if kind == "search_won":
        cards = ", ".join(f"{name_of(names, w['player'])} {show_card(w['card'])}" for w in data["winners"])
        line = f"🏆 {SIDE_TITLE.get(data['side'], '')} wins the search ({WIN_REASONS.get(data['reason'], data['reason'])}): {cards}"
        shown = data.get("shown")
        if shown:
            line += f" — {name_of(names, shown['player'])} shows {show_card(shown['card'])}"
        return line
    if kind == "search_discarded":
        if data.get("reason") == "no_match":
            return f"🗑️ Nobody matched the {show_card(data['request'])}: request discarded."
        return f"🗑️ Only images were played on the {show_card(data['request'])}: request discarded."
    if kind == "tie_returned":
        return f"🔁 Tie on the {show_card(data['request'])} before any search was won: cards go back, new request."
    if kind == "tiebreak_offered":
        return f"⚖️ Tie! {_names(names, data['players'])} may show a card one point further away for Yahoo."
    if kind == "tiebreak_declined":
        return f"{who} does not show a tie-breaker."
    if kind == "ipo":
        return f"📈 {who} declares an IPO and takes {plural(data['count'], 'card')}!"
    if kind == "refill_offered":
        return f"🔄 {_names(names, data['players'])} may refill from the team deck or blindly from their partner."
    if kind == "refill":
        if data.get("source") == "partner":
            count = data.get("count", 0)
            return f"🔄 {who} takes {count} card{'s' if count != 1 else ''} blindly from {name_of(names, data.get('partner'))}."
        return f"🔄 {who} refills from the team deck."
    if kind == "search_reshuffled":
        return f"♻️ The search deck is reshuffled ({plural(data['count'], 'card')})."
    if kind == "set_over":
        scores, sets = data["scores"], data["set_wins"]
        return (
            f"🏁 Set {data['set']} goes to {SIDE_TITLE[data['winner']]} "
            f"({scores['google']}–{scores['yahoo']}). Sets: Google {sets['google']}, Yahoo {sets['yahoo']}."
        )
    if kind == "new_set":
        return f"🆕 Set {data['set']} begins with three fresh decks."
    if kind == "game_over":
        scores = data.get("scores", {})
        placements = data.get("placements") or []
        if len(placements) == 1:
            return f"🏁 Game over: a draw ({scores.get('google', 0)}–{scores.get('yahoo', 0)})."
        return f"🏁 Game over: {_names(names, placements[0])} win{'s' if len(placements[0]) == 1 else ''}!"
    if kind == "player_removed":
        return f"🚪 {who} left the table; their side forfeits."
    # "drew", "given" and "turn" are visible on the table itself (hand sizes, turn).
    return None


# --------------------------------------------------------------------------- pictures


def table_cards(observation: Mapping[str, Any], names: Mapping[int, str] | None = None) -> list[CardRow]:
    """The public picture, from the spectator observation only: the Search Request,
    the picks of the last reveal, each seat's hand as card backs, the search deck.
    A pick not yet revealed is never a card here, only "has picked" in a label.

    ``names`` (optional) maps player id to a plain-text display name for the row
    labels ("Seat 2 · Ann"); without it, or for a mention, rows say "Seat 2"."""
    seats = observation["seats"]
    order = [seat["player"] for seat in seats]
    rows: list[CardRow] = []
    if observation.get("request"):
        rows.append(CardRow(f"Search Request #{observation['search_number']}", (observation["request"],),
                            spoken=f"Search number {observation['search_number']} requests {{cards}}"))
    reveal = observation.get("reveal")
    if reveal:
        this = reveal["search"] == observation["search_number"] and observation["phase"] != "choose"
        who = ", ".join(seat_label(order, play["player"], names, short=True) for play in reveal["plays"])
        outcome = reveal.get("outcome") or {}
        won = f", won by {SIDE_TITLE[outcome['side']]}" if outcome.get("kind") == "won" and outcome.get("side") in SIDE_TITLE else ""
        plays = spoken_list([f"{seat_label(order, play['player'], names, short=True)} played {card_name(play['card'])}" for play in reveal["plays"]])
        rows.append(
            CardRow(
                f"{'This' if this else 'Last'} search, request #{reveal['search']}{won}: {who}",
                tuple(play["card"] for play in reveal["plays"]),
                spoken=f"In {'this' if this else 'the last'} search, number {reveal['search']}, {plays}"
                + (f"; {SIDE_TITLE[outcome['side']]} won it" if won else ""),
            )
        )
    for seat in seats:
        label = f"{seat_label(order, seat['player'], names)} · {SIDE_TITLE.get(seat['side'], '')} · {seat['hand_size']} in hand"
        spoken = f"{seat_spoken(order, seat['player'], names)} plays for {SIDE_TITLE.get(seat['side'], 'no side')} and has {plural(seat['hand_size'], 'card')} in hand"
        if seat["chosen"]:
            label += " · has picked"
            spoken += ", and has picked"
        rows.append(CardRow(label, face_down=seat["hand_size"], spoken=spoken))
    search = observation["decks"]["search"]
    discarded = observation["search_discard"]
    rows.append(
        CardRow(f"Search deck · {plural(search, 'card')} · {discarded} discarded", face_down=search,
                spoken=f"The search deck has {plural(search, 'card')} left, and {discarded} {'is' if discarded == 1 else 'are'} discarded")
    )
    return rows


def hand_cards(observation: Mapping[str, Any]) -> list[CardRow]:
    """A player's own picture, from their observation: the Search Request, their
    hidden pick (theirs to see) and their hand."""
    rows: list[CardRow] = []
    if observation.get("request"):
        rows.append(CardRow("Search Request", (observation["request"],), spoken="The Search Request is {cards}"))
    if observation.get("my_choice"):
        rows.append(CardRow("Your pick (hidden from the others until everyone has picked)", (observation["my_choice"],),
                            spoken="Your pick is {cards}; the others see it when everyone has picked"))
    hand = tuple(observation.get("hand") or ())
    rows.append(CardRow(f"Your hand · {plural(len(hand), 'card')}", hand,
                        spoken=f"Your hand has {plural(len(hand), 'card')}: {{cards}}" if hand else "Your hand is empty"))
    return rows
