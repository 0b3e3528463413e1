"""Blackjack observations -> Discord embeds, controls and log lines.

Implements the ``GameRender`` protocol of ``bot/games.py`` as module functions. Every
input is an observation (or events read through ``visible_to(None)``), never the full
state, so hidden cards cannot reach a public message.

- ``table_embed`` puts the game's own hint (turn number, house rules in words, where the
  rules are) in the embed's footer; ``footer_hint`` returns the same text. The platform
  keeps it and adds its own note after it rather than replacing it.
- ``table_cards`` / ``hand_cards`` describe the card pictures (``bot/pictures/cardart.py`` rows):
  the public table from the spectator observation, a hand from its player's observation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.pictures.cardart import CardRow
from bot.rules.cards import Card, Rank, Suit, parse_card, rank_name, suit_name
from bot.rules.engine import Action, Control, Event
from bot.words.i18n import N_, _, ngettext
from bot.words.panel import Panel
from bot.words.render_util import (
    BUTTON_LABEL_LIMIT,
    DESCRIPTION_LIMIT,
    FIELD_VALUE_LIMIT,
    OPTION_TEXT_LIMIT,
    card_text,
    clip,
    clip_lines_from_end,
    fit_embed,
    name_of,
    recent_beside_picture,
    seat_label,
    seat_spoken,
    suit_text,
)

COLOUR = 0x1F8B4C  # Discord's dark green

SUIT_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)

# What the player to move does next, for the table (third person), by phase and by
# what drawing means there ("" no draw offered, "may" the voluntary-draw house rule,
# "cannot" the draw of a player who cannot play). A draw is offered exactly when
# ``controls`` would show a Draw button (see _turn_hint).
PHASE_HINTS = {
    # Translators: the end of the board's "Turn: Ann, ..." line, about the player to move.
    ("start", "may"): N_("to play a card matching the top card, or an Ace (or draw 1 card)"),
    ("start", "cannot"): N_("to play a card matching the top card, or an Ace (or draw 1 card if they cannot)"),
    ("chain", ""): N_("to add more cards of the same value or end the turn"),
    ("free", ""): N_("to play on with a matching card or end the turn"),
    ("must_play", ""): N_("to play another card matching the top card, or an Ace"),
    ("must_play", "may"): N_("to play another card matching the top card, or an Ace (or draw 1 card)"),
    ("any_card", ""): N_("who played a Queen, to play any card"),
    ("any_card", "may"): N_("who played a Queen, to play any card (or draw 1 card)"),
    ("suit", ""): N_("to name a suit for their Ace"),
}

# The same, when there is nothing at all to draw (the whole deck is in the players'
# hands: at the start, and whenever the discard pile holds only its top card). The
# rules then draw nothing and end the turn (under the "debt" house rule the card is
# owed): the Draw button is a Pass, and the words say so.
EMPTY_PHASE_HINTS = {
    ("start", "may"): N_("to play a card matching the top card, or an Ace (or pass: there is nothing to draw)"),
    ("start", "cannot"): N_("to play a card matching the top card, or an Ace (if they cannot, their turn ends: there is nothing to draw)"),
    ("must_play", "may"): N_("to play another card matching the top card, or an Ace (or pass: there is nothing to draw)"),
    ("any_card", "may"): N_("who played a Queen, to play any card (or pass: there is nothing to draw)"),
}


def drawable(observation: Mapping[str, Any]) -> int:
    """How many cards a draw could take now: the draw pile, and the discard pile but its
    top card (shuffled into a new draw pile when the draw pile is empty)."""
    return observation.get("deck_size", 0) + max(0, observation.get("discard_size", 0) - 1)


# A draw's log line by its reason; the second when nothing was left to draw.
DRAW_REASONS = {
    "cannot_play": (N_("{player} drew 1 card (nothing to play)"),
                    N_("{player} had to draw, but there was nothing to draw (nothing to play)")),
    "voluntary": (N_("{player} chose to draw 1 card"), N_("{player} chose to draw 1 card")),
    "timeout": (N_("{player} ran out of time and drew 1 card"),
                N_("{player} ran out of time and had to draw, but there was nothing to draw")),
    "power_last": (N_("{player} went out on a Power Card, so drew 1 card"),
                   N_("{player} went out on a Power Card, so had to draw, but there was nothing to draw")),
}

# House rules in words for the footer (the full sentences are the HouseRule's).
SHORTFALL_WORDS = {"cap": N_("Pickup cards that cannot be drawn are forgiven"), "debt": N_("Pickup cards that cannot be drawn are owed")}
DRAW_WORDS = {"no": N_("Draw only when you cannot play"), "yes": N_("You may draw instead of playing")}


def _suit_word(letter: str | None) -> str:
    if not letter:
        return ""
    suit = Suit(letter)
    return f"{suit_text(suit.symbol)} {suit_name(suit)}"


def _top_line(observation: Mapping[str, Any]) -> str:
    top = observation.get("top")
    if not top:
        return _("**Top card:** none yet: the first card may be anything.")
    if observation.get("chosen_suit"):
        return _("**Top card:** {card} ({suit} named)", card=card_text(top), suit=_suit_word(observation["chosen_suit"]))
    return _("**Top card:** {card}", card=card_text(top))


def _status_lines(observation: Mapping[str, Any], names: Mapping[int, str], pictures: bool = False) -> list[str]:
    """The board's head. With the card picture (``pictures``), only what it cannot
    show: the top card to match (and a named suit), a pickup, the direction; the player
    to move and their task are the platform's first line, the result its final line."""
    lines = [_top_line(observation)]
    if observation.get("pickup"):
        lines.append(_("**Pickup waiting:** {n} cards", n=observation["pickup"]))
    if observation.get("over"):
        if pictures:
            return []
        winner = observation.get("winner")
        lines.append(_("🥇 **{player} wins!**", player=name_of(names, winner)) if winner is not None else _("**Game over.**"))
        return lines
    current = observation.get("current") or []
    if current and not pictures:
        hint = _turn_hint(observation)
        who = name_of(names, current[0])
        lines.append(_("**Turn:** {player}, {hint}", player=who, hint=hint) if hint else _("**Turn:** {player}", player=who))
    left = observation.get("direction", 1) > 0
    skip = abs(int(observation.get("offset", 1)))
    if skip > 1 and left:
        lines.append(ngettext("**Play passes** to the left ↻, skipping {n} player",
                              "**Play passes** to the left ↻, skipping {n} players", skip - 1))
    elif skip > 1:
        lines.append(ngettext("**Play passes** to the right ↺, skipping {n} player",
                              "**Play passes** to the right ↺, skipping {n} players", skip - 1))
    else:
        lines.append(_("**Play passes** to the left ↻") if left else _("**Play passes** to the right ↺"))
    if observation.get("turn_cards") and not pictures:
        lines.append(_("**This turn:** {cards}", cards=" ".join(card_text(c) for c in observation["turn_cards"])))
    return lines


#: What the platform's first line ("👉 <@1>: ...") asks of the player to move, by phase;
#: the draw that may go with it is added by :func:`turn_task`.
TASKS = {
    "chain": N_("add more cards of the same value, or end your turn"),
    "free": N_("play on with a matching card, or end your turn"),
    "must_play": N_("play another card matching the top card, or an Ace"),
    "any_card": N_("play any card (you played a Queen)"),
    "suit": N_("name a suit for your Ace"),
}


def turn_task(observation: Mapping[str, Any]) -> str | None:
    """What the player to move must do, for the board's first line (second person, no
    full stop; the hand says it in its own words)."""
    if observation.get("over") or not observation.get("current"):
        return None
    phase = observation.get("phase", "")
    pickup = observation.get("pickup", 0)
    empty = not drawable(observation)
    if phase == "start" and pickup:
        return ngettext("answer the pickup with an Ace or a matching 2 or Jack, or pick up {n} card",
                        "answer the pickup with an Ace or a matching 2 or Jack, or pick up {n} cards", pickup)
    if phase == "start" and not observation.get("top"):
        return _("play any card")
    if phase == "start":
        task = _("play a card matching the top card, or an Ace")
        if _voluntary_draw(observation):
            return _("{task}, or pass: there is nothing to draw", task=task) if empty else _("{task}, or draw 1 card", task=task)
        if empty:
            return _("{task} (if you cannot, your turn ends: there is nothing to draw)", task=task)
        return _("{task} (if you cannot, draw 1 card)", task=task)
    words = TASKS.get(phase)
    if words is None:
        return None
    task = _(words)
    if phase in ("must_play", "any_card") and _voluntary_draw(observation):
        return _("{task}, or pass: there is nothing to draw", task=task) if empty else _("{task}, or draw 1 card", task=task)
    return task


def _voluntary_draw(observation: Mapping[str, Any]) -> bool:
    return (observation.get("rules") or {}).get("voluntary_draw") == "yes"


def _turn_hint(observation: Mapping[str, Any]) -> str:
    """What the player to move may do, as the table says it. Mid-turn a player who
    cannot go on is moved on by the rules at once, so a draw is only ever a choice
    there (the voluntary-draw house rule); at the start of a turn it is the way out."""
    phase = observation.get("phase", "")
    pickup = observation.get("pickup", 0)
    if phase == "start" and pickup:
        there = drawable(observation)
        if there < pickup:  # a shortfall: what is drawn, and what becomes of the rest
            owed = (observation.get("rules") or {}).get("pickup_shortfall") == "debt"
            if owed:
                return ngettext("to answer the pickup with an Ace or a matching 2 or Jack, or pick it up: {m} of the {n} cards can be drawn, the rest is owed",
                                "to answer the pickup with an Ace or a matching 2 or Jack, or pick it up: {m} of the {n} cards can be drawn, the rest is owed",
                                pickup, m=there)
            return ngettext("to answer the pickup with an Ace or a matching 2 or Jack, or pick it up: {m} of the {n} cards can be drawn, the rest is forgiven",
                            "to answer the pickup with an Ace or a matching 2 or Jack, or pick it up: {m} of the {n} cards can be drawn, the rest is forgiven",
                            pickup, m=there)
        return ngettext("to answer the pickup with an Ace or a matching 2 or Jack, or pick up {n} card",
                        "to answer the pickup with an Ace or a matching 2 or Jack, or pick up {n} cards", pickup)
    if phase == "start" and not observation.get("top"):
        return _("to play any card")
    if phase == "start":
        draw = "may" if _voluntary_draw(observation) else "cannot"
    elif phase in ("must_play", "any_card") and _voluntary_draw(observation):
        draw = "may"
    else:
        draw = ""
    hint = (EMPTY_PHASE_HINTS if draw and not drawable(observation) else PHASE_HINTS).get((phase, draw))
    return _(hint) if hint else ""


def _seat_lines(observation: Mapping[str, Any], names: Mapping[int, str]) -> list[str]:
    lines = []
    for seat in observation.get("seats", []):
        who = name_of(names, seat["player"])
        count = seat["cards"]
        if seat.get("debt"):
            lines.append(ngettext("{player}: {n} card (owes {debt})", "{player}: {n} cards (owes {debt})", count,
                                  player=who, debt=seat["debt"]))
        else:
            lines.append(ngettext("{player}: {n} card", "{player}: {n} cards", count, player=who))
    return lines




def table_embed(observation: Mapping[str, Any], names: Mapping[int, str], recent: Sequence[str], *, pictures: bool = False) -> Panel:
    """The public table, from the spectator observation. ``pictures``: the board message
    carries the card picture (the text then leaves out what the picture shows)."""
    embed = Panel(title="Blackjack", colour=COLOUR)
    embed.description = clip("\n".join(_status_lines(observation, names, pictures)), DESCRIPTION_LIMIT) or None
    if pictures:
        # The seats' cards and the piles are in the picture; the last few events stay
        # (none on a finished board, whose result line says how it ended).
        if recent and not observation.get("over"):
            embed.add_field(name=_("Recent"), value=recent_beside_picture(recent), inline=False)
        embed.footer = footer_hint(observation)
        return fit_embed(embed)
    embed.add_field(name=_("Players"), value=clip_lines_from_end(_seat_lines(observation, names), FIELD_VALUE_LIMIT) or "—", inline=False)
    embed.add_field(name=_("Piles"), value=_piles(observation), inline=False)
    if recent:
        embed.add_field(name=_("Recent"), value=clip_lines_from_end(list(recent), FIELD_VALUE_LIMIT) or "—", inline=False)
    embed.footer = footer_hint(observation)
    return fit_embed(embed)


def _piles(observation: Mapping[str, Any]) -> str:
    """The piles, and, when the draw pile is empty, what a draw then does."""
    deck, discard = observation.get("deck_size", 0), observation.get("discard_size", 0)
    if deck:
        return _("Draw pile: {deck} · Discard pile: {discard}", deck=deck, discard=discard)
    if drawable(observation):
        return _("Draw pile: 0 (a draw shuffles the discard pile but its top card into a new one) · Discard pile: {discard}", discard=discard)
    return _("Draw pile: 0 · Discard pile: {discard} (nothing to draw until more cards are played)", discard=discard)


def footer_hint(observation: Mapping[str, Any]) -> str:
    """The game's own footer: the turn, the house rules in words, where the rules are."""
    rules = observation.get("rules") or {}
    return _(
        "Turn {n} · {shortfall} · {draw} · The rules: /rules blackjack",
        n=observation.get("turn_number", 1),
        shortfall=_(SHORTFALL_WORDS.get(rules.get("pickup_shortfall", "cap"), SHORTFALL_WORDS["cap"])),
        draw=_(DRAW_WORDS.get(rules.get("voluntary_draw", "no"), DRAW_WORDS["no"])),
    )


def _your_task(observation: Mapping[str, Any]) -> str:
    phase = observation.get("phase")
    pickup = observation.get("pickup", 0)
    if observation.get("over"):
        return _("The game is over.")
    if observation.get("viewer") not in (observation.get("current") or []):
        return _("Waiting for your turn.")
    if phase == "suit":
        return _("Name a suit for your Ace.")
    # A draw is offered only where ``controls`` shows a Draw button: at the start of
    # a turn when you cannot play, and anywhere a card may be played under the
    # voluntary-draw house rule (mid-turn, the rules draw for you when you cannot play).
    draw = _voluntary_draw(observation)
    if phase == "start" and pickup:
        return _("{n} cards to pick up: answer with an Ace or a matching 2 or Jack, or pick them up.", n=pickup)
    if phase == "start" and not observation.get("top"):
        return _("Your turn: play any card to start the pile.")
    empty = not drawable(observation)
    if phase == "start":
        if draw:
            if empty:
                return _("Your turn: play a card matching the top card (or an Ace), or pass: there is nothing to draw.")
            return _("Your turn: play a card matching the top card (or an Ace), or draw 1 card.")
        if empty:
            return _("Your turn: play a card matching the top card (or an Ace); if you have none, pass: there is nothing to draw.")
        return _("Your turn: play a card matching the top card (or an Ace); if you have none, draw 1 card.")
    if phase == "chain":
        rank = observation.get("chain_rank") or ""
        if rank:
            return _("Add more {ranks}, or end your turn.", ranks=rank_name(Rank.parse(rank), plural=True))
        return _("Add cards of the same value, or end your turn.")
    if phase == "free":
        return _("Play on with a matching card, or end your turn.")
    if phase == "any_card":
        if draw and empty:
            return _("You played a Queen: play any card, or pass: there is nothing to draw.")
        return _("You played a Queen: play any card or draw 1 card.") if draw else _("You played a Queen: play any card.")
    if draw and empty:
        return _("Play another card matching the top card (or an Ace), or pass: there is nothing to draw.")
    if draw:
        return _("Play another card matching the top card (or an Ace) or draw 1 card.")
    return _("Play another card matching the top card (or an Ace).")


def hand_embed(observation: Mapping[str, Any], names: Mapping[int, str]) -> Panel:
    """One player's private view, from that player's observation."""
    cards = [parse_card(code) for code in observation.get("hand") or []]
    embed = Panel(title=ngettext("Your hand: {n} card", "Your hand: {n} cards", len(cards)), colour=COLOUR)
    by_suit = []
    for suit in SUIT_ORDER:
        mine = [c for c in cards if c.suit is suit]
        if mine:
            # One row per suit, its cards only (a bare suit sign first read as a card).
            by_suit.append(" ".join(card_text(str(c)) for c in mine))
    lines = [*by_suit] or [_("(no cards)")]
    lines += ["", _top_line(observation)]
    if observation.get("pickup"):
        lines.append(_("**Pickup waiting:** {n} cards", n=observation["pickup"]))
    lines += ["", f"**{_your_task(observation)}**"]
    viewer = observation.get("viewer")
    seat = next((s for s in observation.get("seats", []) if s["player"] == viewer), None)
    if seat and seat.get("debt"):
        lines.append(ngettext("You owe {n} card: you draw them as they become available.",
                              "You owe {n} cards: you draw them as they become available.", seat["debt"]))
    embed.description = clip("\n".join(lines), DESCRIPTION_LIMIT)
    return fit_embed(embed)


def _card_effect(card: Card, observation: Mapping[str, Any]) -> str:
    rank = card.rank
    if rank is Rank.ACE:
        if observation.get("pickup") and observation.get("phase") == "start":
            return _("Ace: then you name a suit (cancels the pickup)")
        return _("Ace: then you name a suit")
    if rank is Rank.TWO:
        return _("Pickup +{n} for the next player", n=2)
    if rank is Rank.JACK:
        return _("Pickup +{n} for the next player", n=3 if card.is_red else 5)
    if rank is Rank.THREE:
        return _("You must then play another card")
    if rank is Rank.EIGHT:
        return _("Skips a player")
    if rank is Rank.QUEEN:
        return _("Then play any card")
    if rank is Rank.KING:
        return _("Reverses direction")
    if observation.get("phase") == "chain":
        return _("Another {rank}", rank=rank.label)
    return _("Plain card")


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
                out.append(Control(action, label=clip(_("Pick up {n} cards", n=pickup), BUTTON_LABEL_LIMIT), style="danger"))
            elif not drawable(observation):
                out.append(Control(action, label=clip(_("Pass (nothing to draw)"), BUTTON_LABEL_LIMIT), style="primary"))
            else:
                out.append(Control(action, label=clip(_("Draw 1 card"), BUTTON_LABEL_LIMIT), style="primary"))
        elif action.kind == "end":
            out.append(Control(action, label=clip(_("End turn"), BUTTON_LABEL_LIMIT), style="success"))
        elif action.kind == "suit":
            suit = Suit(action.arg)
            out.append(Control(action, label=clip(f"{suit.symbol} {suit_name(suit, capital=True)}", BUTTON_LABEL_LIMIT), style="primary"))
        else:
            out.append(Control(action, label=clip(action.code(), BUTTON_LABEL_LIMIT)))
    return out


def event_lines(events: Sequence[Event], names: Mapping[int, str]) -> list[str]:
    """Public one-liners; consecutive plays by one player share a line."""
    lines: list[str] = []
    run_player: int | None = None
    run_cards: list[str] = []
    # (kind, words) of what the run's cards did; "pickup" notes replace each other.
    run_notes: list[tuple[str, str]] = []

    def flush() -> None:
        nonlocal run_player, run_cards, run_notes
        if run_cards:
            who, cards = name_of(names, run_player), " ".join(run_cards)
            if run_notes:
                # Translators: the notes are a list of what the cards did ("pickup now 4, skips a player").
                lines.append(_("{player} played {cards} ({notes})", player=who, cards=cards,
                               notes=", ".join(words for _kind, words in run_notes)))
            else:
                lines.append(_("{player} played {cards}", player=who, cards=cards))
        run_player, run_cards, run_notes = None, [], []

    for event in events:
        data = event.visible_to(None)
        kind = event.kind
        if kind == "play":
            if run_player != event.player:
                flush()
                run_player = event.player
            run_cards.append(card_text(data.get("card")))
            if data.get("cancelled"):
                run_notes.append(("cancelled", _("pickup of {n} cancelled", n=data["cancelled"])))
            if data.get("card", "")[:1] in ("2", "J"):
                run_notes = [n for n in run_notes if n[0] != "pickup"]
                run_notes.append(("pickup", _("pickup now {n}", n=data.get("pickup"))))
            continue
        if kind == "suit" and run_cards and event.player == run_player:
            run_notes.append(("suit", _("named {suit}", suit=_suit_word(data.get("suit")))))
            continue
        if kind in ("skip", "reverse") and run_cards and event.player == run_player:
            run_notes.append((kind, _("skips a player") if kind == "skip" else _("reverses the direction")))
            continue
        flush()
        who = name_of(names, event.player)
        if kind == "suit":
            lines.append(_("{player} named {suit}", player=who, suit=_suit_word(data.get("suit"))))
        elif kind == "draw":
            reason = data.get("reason")
            count = data.get("count", 0)
            short = data.get("short", 0)
            if reason == "pickup":
                continue  # the pickup_taken line says it
            if reason == "debt":
                lines.append(ngettext("{player} drew {n} owed card", "{player} drew {n} owed cards", count, player=who))
            else:
                texts = DRAW_REASONS.get(str(reason))
                if texts is None:
                    lines.append(_("{player} drew a card", player=who))
                else:
                    lines.append(_(texts[1] if short and not count else texts[0], player=who))
        elif kind == "pickup_taken":
            count, drawn = data.get("count", 0), data.get("drawn", 0)
            if drawn < count:
                lines.append(ngettext("{player} picked up {n} card ({count} were due, only {n} could be drawn)",
                                      "{player} picked up {n} cards ({count} were due, only {n} could be drawn)",
                                      drawn, player=who, count=count))
            else:
                lines.append(ngettext("{player} picked up {n} card", "{player} picked up {n} cards", drawn, player=who))
        elif kind == "skip":
            lines.append(ngettext("Skip: play moves {n} seat on", "Skip: play moves {n} seats on", abs(int(data.get("offset") or 2))))
        elif kind == "reverse":
            lines.append(_("Direction reversed"))
        elif kind == "reshuffle":
            lines.append(ngettext("🔀 The discard pile was shuffled into a new draw pile ({n} card)",
                                  "🔀 The discard pile was shuffled into a new draw pile ({n} cards)", data.get("cards", 0)))
        elif kind == "turn":
            continue  # the board shows whose turn it is; the log carries plays
        elif kind == "won":
            lines.append(_("🥇 {player} is out of cards and wins!", player=who))
        elif kind == "player_removed":
            cards = data.get("cards", 0)
            if cards:
                lines.append(ngettext("{player} left the game; their {n} card went under the draw pile",
                                      "{player} left the game; their {n} cards went under the draw pile", cards, player=who))
            else:
                lines.append(_("{player} left the game", player=who))
        elif kind == "game_over":
            if not any(e.kind == "won" for e in events):
                lines.append(_("Game over."))
    flush()
    return lines


# --------------------------------------------------------------------------- pictures
# Spoken texts keep "{cards}" for bot/pictures/cardart.py to fill: it is passed through as a field.


def table_cards(observation: Mapping[str, Any], names: Mapping[int, str] | None = None) -> list[CardRow]:
    """The public picture, from the spectator observation only: the cards played this
    turn (or the top card), the draw pile and each seat's hand as card backs.

    ``names`` (optional) maps player id to a plain-text display name for the row
    labels ("Seat 2 · Ann"); without it, or for a mention, rows say "Seat 2"."""
    rows: list[CardRow] = []
    top = observation.get("top")
    turn_cards = tuple(observation.get("turn_cards") or ())
    discard = observation.get("discard_size", 0)
    if len(turn_cards) > 1:
        rows.append(CardRow(_("Played this turn (top card last) · discard pile {n}", n=discard), turn_cards,
                            spoken=ngettext("Played this turn, top card last: {cards}. The discard pile has {n} card",
                                            "Played this turn, top card last: {cards}. The discard pile has {n} cards",
                                            discard, cards="{cards}")))
    elif top:
        if observation.get("chosen_suit"):
            suit = suit_name(Suit(observation["chosen_suit"]))
            label = _("Top card · discard pile {n} · {suit} named", n=discard, suit=suit)
            spoken = ngettext("The top card is {cards}, and {suit} are named. The discard pile has {n} card",
                              "The top card is {cards}, and {suit} are named. The discard pile has {n} cards",
                              discard, cards="{cards}", suit=suit)
        else:
            label = _("Top card · discard pile {n}", n=discard)
            spoken = ngettext("The top card is {cards}. The discard pile has {n} card",
                              "The top card is {cards}. The discard pile has {n} cards", discard, cards="{cards}")
        rows.append(CardRow(label, (top,), spoken=spoken))
    else:
        rows.append(CardRow(_("Discard pile: empty"), spoken=_("The discard pile is empty")))
    if observation.get("pickup"):
        waiting = observation["pickup"]
        rows[-1] = CardRow(_("{label} · pickup {n} waiting", label=rows[-1].label, n=waiting), rows[-1].cards,
                           spoken=ngettext("{spoken}. A pickup of {n} card is waiting", "{spoken}. A pickup of {n} cards is waiting",
                                           waiting, spoken=rows[-1].spoken))
    deck = observation.get("deck_size", 0)
    rows.append(CardRow(ngettext("Draw pile · {n} card", "Draw pile · {n} cards", deck), face_down=deck,
                        spoken=ngettext("The draw pile has {n} card", "The draw pile has {n} cards", deck) if deck
                        else _("The draw pile is empty")))
    players = observation.get("players") or [s["player"] for s in observation.get("seats", [])]
    current = set(observation.get("current") or [])
    for seat in observation.get("seats", []):
        count = seat["cards"]
        label = ngettext("{seat} · {n} card", "{seat} · {n} cards", count, seat=seat_label(players, seat["player"], names))
        spoken = ngettext("{seat} has {n} card", "{seat} has {n} cards", count, seat=seat_spoken(players, seat["player"], names))
        if seat.get("debt"):
            label = _("{label} · owes {n}", label=label, n=seat["debt"])
            spoken = ngettext("{spoken} and owes {n} card", "{spoken} and owes {n} cards", seat["debt"], spoken=spoken)
        if seat["player"] in current:
            label = _("{label} · to play", label=label)
            spoken = _("{spoken}, and it is their turn", spoken=spoken)
        rows.append(CardRow(label, face_down=count, spoken=spoken))
    return rows


def hand_cards(observation: Mapping[str, Any]) -> list[CardRow]:
    """A player's own picture, from their observation: the top card to match, then
    their hand, one row per suit."""
    top = observation.get("top")
    if top and observation.get("chosen_suit"):  # what the next card must follow, as the text says it
        suit = suit_name(Suit(observation["chosen_suit"]))
        rows = [CardRow(_("Top card · {suit} named", suit=suit), (top,),
                        spoken=_("The top card is {cards}, and {suit} are named", cards="{cards}", suit=suit))]
    elif top:
        rows = [CardRow(_("Top card"), (top,), spoken=_("The top card is {cards}", cards="{cards}"))]
    else:
        rows = [CardRow(_("Top card: none yet, play any card"), spoken=_("There is no top card yet: you may play any card"))]
    cards = [parse_card(code) for code in observation.get("hand") or []]
    for suit in SUIT_ORDER:
        mine = tuple(str(c) for c in cards if c.suit is suit)
        if mine:
            rows.append(CardRow(_("Your {suit}", suit=suit_name(suit)), mine))
    if len(rows) == 1:
        rows.append(CardRow(_("Your hand: no cards"), spoken=_("You have no cards left")))
    return rows
