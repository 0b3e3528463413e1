"""Idiot observations -> Discord embeds, controls and log lines.

Implements the ``GameRender`` protocol of ``bot/games.py`` as module functions. Inputs
are observations (or events read through ``visible_to(None)``), never the full state,
so no hand card or face-down card can reach a public message.

- ``table_embed`` puts the game's own hint (the house rules in words) in the embed's
  footer; ``footer_hint`` returns the same text. The platform keeps it and adds its own
  note after it rather than replacing it.
- ``table_cards`` / ``hand_cards`` describe the card pictures (``bot/pictures/cardart.py`` rows):
  the public table from the spectator observation, a hand from its player's observation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.pictures.cardart import CardRow
from bot.rules.cards import Rank, parse_card, rank_name, rank_with_article
from bot.rules.engine import Action, Control, Event
from bot.words.i18n import N_, _, ngettext
from bot.words.panel import Panel
from bot.words.render_util import (
    BUTTON_LABEL_LIMIT,
    DESCRIPTION_LIMIT,
    FIELD_VALUE_LIMIT,
    OPTION_TEXT_LIMIT,
    and_list,
    card_text,
    cards_text,
    clip,
    clip_lines_from_end,
    fit_embed,
    name_of,
    ordinal,
    recent_beside_picture,
    seat_label,
    seat_spoken,
)

COLOUR = 0x992D22  # Discord's dark red

# Translators: how many cards of one value are played together ("Play two Kings").
COUNT_WORDS = {2: N_("two"), 3: N_("three"), 4: N_("four"), 5: N_("five"), 6: N_("six"), 7: N_("seven"), 8: N_("eight")}
STAGE_WORDS = {
    "hand": N_("from your hand"),
    "face_up": N_("from your face-up cards"),
    "face_down": N_("blind, from your face-down cards"),
}
#: The board's turn line: where the player to move plays from (the ping line above it
#: already names them; this says what the table can expect).
BOARD_STAGE_WORDS = {
    "hand": N_("plays from their hand"),
    "face_up": N_("plays from their face-up cards"),
    "face_down": N_("turns over a face-down card"),
}
#: What the platform's first line ("👉 <@1>: ...") asks of the player to move, by
#: where they play from (see :func:`turn_task`).
TASK_WORDS = {
    "hand": N_("play from your hand"),
    "face_up": N_("play from your face-up cards"),
    "face_down": N_("turn over a face-down card"),
}
FINISH_WORDS = {
    "first_out": N_("The first player out wins"),
    "last_idiot": N_("Play goes on until one player is left holding cards: the Idiot"),
}


def _show_all(codes: Sequence[str]) -> str:
    return cards_text(codes)


def turn_task(observation: Mapping[str, Any]) -> str | None:
    """What everyone named on the board's first line must do now (the platform's
    "👉 <@1> and <@2>: ..."): the swap phase's choice, or where the mover plays from.
    (Not ``ping_task``: a move, so the hand's own status still says "Your move".)"""
    if observation["phase"] == "swap":
        return _("swap cards if you like, then press Ready")
    if observation["phase"] != "play" or not observation["current"]:
        return None
    stage = next((seat["stage"] for seat in observation["seats"] if seat["id"] == observation["current"][0]), None)
    return _(TASK_WORDS[stage]) if stage in TASK_WORDS else None


def _stalemated(observation: Mapping[str, Any]) -> bool:
    return observation["phase"] == "over" and observation["idle_turns"] >= observation["stalemate_turns"]


def _rank_plural(rank: Rank, count: int) -> str:
    """'an Ace', 'two Kings', '9 7s'."""
    if count == 1:
        return rank_with_article(rank)
    words = COUNT_WORDS.get(count)
    # Translators: {count} is a number in words ("two") or figures, {ranks} a plural rank ("Kings", "7s").
    return _("{count} {ranks}", count=_(words) if words else str(count), ranks=rank_name(rank, plural=True))


def _places(placements: Sequence[Sequence[int]], names: Mapping[int, str]) -> str:
    lines = []
    place = 1
    for group in placements:
        lines.append(f"{place}. " + ", ".join(name_of(names, p) for p in group))
        place += len(group)
    return "\n".join(lines)


def _cards_left(counts: Mapping[str, int], names: Mapping[int, str]) -> str:
    """"Ana 2, Bob 3": cards each player still held at a stalemate, fewest first."""
    ordered = sorted(((int(p), n) for p, n in counts.items()), key=lambda item: (item[1], item[0]))
    return ", ".join(f"{name_of(names, p)} {n}" for p, n in ordered)


def _game_over(observation: Mapping[str, Any], names: Mapping[int, str]) -> str:
    places = _places(observation["placements"] or [], names)
    if _stalemated(observation):
        # Nobody won it: the players still holding cards share a place (rated as a tie).
        return _(
            "**Game over: a stalemate** ({n} turns without progress): nobody wins it, the players still holding cards tie.\n"
            "{places}\nCards left: {cards}",
            n=observation["stalemate_turns"], places=places, cards=_cards_left(observation.get("cards_left") or {}, names),
        )
    return _("**Game over.**\n{places}", places=places)


# --------------------------------------------------------------------------- table


def _pile_line(observation: Mapping[str, Any]) -> str:
    size = observation["pile_size"]
    if not size:
        return _("**Pile:** empty: any card starts a new one.")
    top = observation["pile_top"]
    shown = " ".join(card_text(c) for c in top[:-1])
    shown = (shown + " " if shown else "") + f"**{card_text(top[-1])}**"
    hidden_below = size - len(top)
    if hidden_below:
        line = ngettext("**Pile ({n} card):** ({below} more below) {cards}", "**Pile ({n} cards):** ({below} more below) {cards}",
                        size, below=hidden_below, cards=shown)
    else:
        line = ngettext("**Pile ({n} card):** {cards}", "**Pile ({n} cards):** {cards}", size, cards=shown)
    if observation["phase"] == "over":
        return line
    return _("{line} · next: {next}", line=line, next=_next_play(observation["to_beat"]))


def _next_play(to_beat: str | None) -> str:
    """What may go on the pile, in words (twos and tens go on anything)."""
    if not to_beat:
        return _("any card")
    rank = parse_card(to_beat).rank
    if rank is Rank.TWO:
        return _("any card (a 2 is on top)")
    if rank is Rank.TEN:
        return _("any card (a 10 on top burns the pile)")
    if rank is Rank.ACE:
        return _("an Ace, or a 2 or 10")
    return _("{rank} or higher, or a 2 or 10", rank=rank_with_article(rank))


def _seat_line(seat: Mapping[str, Any], observation: Mapping[str, Any], names: Mapping[int, str]) -> str:
    player = seat["id"]
    name = name_of(names, player)
    if seat["removed"]:
        return _("{player}: left the game", player=name)
    if seat["finished"]:
        return _("{player}: out of cards ({place})", player=name, place=ordinal(seat["finished"]))
    line = _(
        "{player}: hand {hand} · face up {up} · face down {down}",
        player=name, hand=seat["hand_count"], up=_show_all(seat["face_up"]), down=len(seat["face_down"]),
    )
    if observation["phase"] == "swap":
        return _("{line} ✅ ready", line=line) if seat["ready"] else _("{line} ⏳ swapping", line=line)
    return line


def _status_line(observation: Mapping[str, Any], names: Mapping[int, str]) -> str:
    phase = observation["phase"]
    if phase == "swap":
        # Who is still swapping is on each seat's line (⏳ / ✅) and in the board's turn line.
        return _("**Swap phase:** each player may swap face-up cards with their hand, then presses Ready. Play starts when everyone is ready.")
    if phase == "play":
        player = observation["current"][0] if observation["current"] else None
        stage = next((seat["stage"] for seat in observation["seats"] if seat["id"] == player), None)
        if stage in BOARD_STAGE_WORDS:
            return _("**Turn:** {player} {doing}", player=name_of(names, player), doing=_(BOARD_STAGE_WORDS[stage]))
        return _("**Turn:** {player}", player=name_of(names, player))
    return _game_over(observation, names)


def table_embed(observation: Mapping[str, Any], names: Mapping[int, str], recent: Sequence[str], *, pictures: bool = False) -> Panel:
    """The public table, from the spectator observation. ``pictures``: the board message
    carries the card picture (the text then leaves out what the picture shows)."""
    if pictures:
        return _picture_board(observation, recent)
    lines = [_status_line(observation, names)]
    if observation["phase"] != "over" or observation["pile_size"]:
        lines.append(_pile_line(observation))
    lines.append(_("**Draw pile:** {draw} · **Burned:** {burned}", draw=observation["draw_size"], burned=observation["burned_count"]))
    lines += _stalemate_warning(observation)
    lines.append("")
    lines.extend(_seat_line(seat, observation, names) for seat in observation["seats"])
    embed = Panel(title="Idiot", colour=COLOUR, description=clip("\n".join(lines), DESCRIPTION_LIMIT))
    if recent:
        embed.add_field(name=_("Recent"), value=clip_lines_from_end(recent, FIELD_VALUE_LIMIT, empty="—"), inline=False)
    embed.footer = footer_hint(observation)
    return fit_embed(embed)


def _stalemate_warning(observation: Mapping[str, Any]) -> list[str]:
    if observation["phase"] == "play" and observation["idle_turns"] >= observation["stalemate_turns"] - 20:
        left = observation["stalemate_turns"] - observation["idle_turns"]
        return [ngettext("⚠️ Stalemate in {n} turn unless a card is drawn, burned or played from the table.",
                         "⚠️ Stalemate in {n} turns unless a card is drawn, burned or played from the table.", left)]
    return []


def _picture_board(observation: Mapping[str, Any], recent: Sequence[str]) -> Panel:
    """The board beside the card picture: only what the picture cannot show. Who must
    act and what they do is the platform's first line; the piles, the seats and their
    cards are in the picture. Left: what the next play must beat, a stalemate warning,
    the last few events (none on a finished board, whose result line says how it ended)."""
    lines: list[str] = []
    if observation["phase"] == "play":
        lines.append(_("**Next play:** {next}", next=_next_play(observation["to_beat"])))
    lines += _stalemate_warning(observation)
    embed = Panel(title="Idiot", colour=COLOUR, description="\n".join(lines) or None)
    if recent and observation["phase"] != "over":
        embed.add_field(name=_("Recent"), value=recent_beside_picture(recent), inline=False)
    embed.footer = footer_hint(observation)
    return fit_embed(embed)


def footer_hint(observation: Mapping[str, Any]) -> str:
    """The game's own footer: the house rules in words, and where the rules are."""
    options = observation["options"]
    parts = [_(FINISH_WORDS.get(options["finish"], FINISH_WORDS["first_out"]))]
    if options["voluntary_pickup"] == "on":
        parts.append(_("You may pick up the pile by choice"))
    parts.append(_("The rules: /rules idiot"))
    return " · ".join(parts)


# --------------------------------------------------------------------------- hand


def hand_embed(observation: Mapping[str, Any], names: Mapping[int, str]) -> Panel:
    """One player's private view, from that player's observation."""
    me = observation["viewer"]
    seat = next(s for s in observation["seats"] if s["id"] == me)
    hand = observation.get("hand", [])
    lines = [_("**Your hand ({n}):** {cards}", n=len(hand), cards=_show_all(hand))]
    lines.append(_("**Face up:** {cards}", cards=_show_all(seat["face_up"])))
    positions = seat["face_down"]
    if positions:
        lines.append(_("**Face down:** numbered {positions} (unseen, even by you)", positions=", ".join(str(p) for p in positions)))
    else:
        lines.append(_("**Face down:** {cards}", cards="—"))
    phase = observation["phase"]
    if phase == "swap":
        lines.append("")
        if seat["ready"]:
            lines.append(_("You are ready. Play starts when everyone is ready."))
        else:
            lines.append(
                _("Swap face-up cards with hand cards if you like (tens, twos, high cards and pairs are good face up), "
                  "then press **Ready**.")
            )
    elif phase == "play":
        lines.append(_pile_line(observation))
        stage = observation["stage"]
        # Who is being waited for is the hand message's status line (the platform's,
        # above this text): saying it here too made it read twice.
        if stage == "out":
            lines.append(_("You are out of cards: nothing more to play."))
        elif me in observation["current"]:
            lines.append(_("**Your turn:** you play {where}.", where=_(STAGE_WORDS[stage])))
        else:
            lines.append(_("On your turn you will play {where}.", where=_(STAGE_WORDS[stage])))
    else:
        lines.append(_game_over(observation, names))
    embed = Panel(title=_("Your cards · Idiot"), colour=COLOUR, description=clip("\n".join(lines), DESCRIPTION_LIMIT))
    return fit_embed(embed)


# --------------------------------------------------------------------------- controls


def _play_description(observation: Mapping[str, Any], action: Action) -> str:
    rank = action.cards[0].rank
    count = len(action.cards)
    cards = _rank_plural(rank, count)
    if rank is Rank.TEN:
        return _("Play {cards}: burns the pile, then you play again", cards=cards)
    on_top = observation["pile_top"]
    same_on_top = 0
    for code in reversed(on_top):
        if parse_card(code).rank is not rank:
            break
        same_on_top += 1
    if same_on_top + count >= 4:
        return _("Play {cards}: four of a kind burns the pile, then you play again", cards=cards)
    if rank is Rank.TWO:
        return _("Play {cards}: goes on anything", cards=cards)
    return _("Play {cards}", cards=cards)


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
                    clip(_("Swap {up} ↔ {held}", up=up.display(), held=held.display()), OPTION_TEXT_LIMIT),
                    place="select",
                    description=clip(_("Put {held} face up and take {up} into your hand", held=held.display(), up=up.display()),
                                     OPTION_TEXT_LIMIT),
                )
            )
        elif action.kind == "ready":
            out.append(Control(action, clip(_("Ready"), BUTTON_LABEL_LIMIT), style="success", emoji="✅"))
        elif action.kind == "pickup":
            size = observation["pile_size"]
            out.append(Control(action, clip(_("Pick up the pile ({n})", n=size), BUTTON_LABEL_LIMIT), style="danger"))
        elif action.kind == "blind":
            # No emoji: 🂠 (U+1F0A0) is not a Unicode emoji, and Discord refuses a
            # component carrying it (BUTTON_COMPONENT_INVALID_EMOJI), so the hand would not show.
            out.append(Control(action, clip(_("Turn face-down card {n}", n=action.arg), BUTTON_LABEL_LIMIT), style="primary"))
        else:  # a future action kind still gets a usable button
            out.append(Control(action, clip(action.code(), BUTTON_LABEL_LIMIT)))
    # Ready, the move that moves the swap phase on, first: a menu that numbers the
    # controls (the terminal's) offers it as move 1, not after every possible swap (a
    # newcomer taking the first move would swap back and forth). Discord's hand puts
    # buttons in rows of their own, whatever their order here.
    out.sort(key=lambda control: control.action.kind != "ready")
    return out


# --------------------------------------------------------------------------- log


def _event_line(event: Event, names: Mapping[int, str]) -> str | None:
    data = event.visible_to(None)
    who = name_of(names, event.player)
    kind = event.kind
    if kind == "swap":
        return _("{player} swapped: {up} face up, {held} into the hand.", player=who, up=card_text(data["to_table"]),
                 held=card_text(data["to_hand"]))
    if kind == "ready":
        return _("{player} is ready.", player=who)
    if kind == "play_begins":
        return _("Play begins: {player} starts.", player=name_of(names, data["first"]))
    if kind == "play":
        if data["from"] == "face_up":
            return _("{player} played {cards} from the table.", player=who, cards=_show_all(data["cards"]))
        return _("{player} played {cards}.", player=who, cards=_show_all(data["cards"]))
    if kind == "draw":
        return ngettext("{player} drew {n} card.", "{player} drew {n} cards.", data["count"], player=who)
    if kind == "pickup":
        return ngettext("{player} picked up the pile ({n} card).", "{player} picked up the pile ({n} cards).", data["count"], player=who)
    if kind == "blind":
        card = card_text(data["card"])
        if data["played"]:
            return _("{player} turned over face-down card {position}, {card}, and played it.", player=who,
                     position=data["position"], card=card)
        return ngettext(
            "{player} turned over face-down card {position}, {card}, which cannot be played: "
            "they picked it up with the pile ({n} card).",
            "{player} turned over face-down card {position}, {card}, which cannot be played: "
            "they picked it up with the pile ({n} cards).",
            data["picked_up"], player=who, position=data["position"], card=card,
        )
    if kind == "burn":
        count = data["count"]
        if data["reason"] == "starter":
            return ngettext("🔥 The starting card burns ({n} card).", "🔥 The starting card burns ({n} cards).", count)
        if data["reason"] == "ten":
            return ngettext("🔥 {player} burns the pile with a 10 ({n} card).", "🔥 {player} burns the pile with a 10 ({n} cards).",
                            count, player=who)
        return ngettext("🔥 {player} burns the pile with four of a kind ({n} card).",
                        "🔥 {player} burns the pile with four of a kind ({n} cards).", count, player=who)
    if kind == "turn":
        return _("{player} plays again.", player=who) if data.get("again") else None
    if kind == "out":
        return _("🏁 {player} has played out all their cards ({place} place).", player=who, place=ordinal(data["place"]))
    if kind == "stalemate":
        return _("Stalemate: {n} turns without progress.", n=data["turns"])
    if kind == "game_over":
        placements = data.get("placements") or []
        if not placements:
            return _("Game over.")
        if data.get("reason") == "stalemate":
            # Nobody won it: the players still holding cards tie (and rate as a tie); never call it a win.
            standings = "; ".join(
                f"{ordinal(sum(len(g) for g in placements[:i]) + 1)} " + ", ".join(name_of(names, p) for p in group)
                for i, group in enumerate(placements)
            )
            return _("Game over: a stalemate, nobody wins it: the players still holding cards tie. Standings: {standings}. "
                     "Cards left: {cards}.", standings=standings, cards=_cards_left(data.get("cards_left") or {}, names))
        winners = ", ".join(name_of(names, p) for p in placements[0])
        if data.get("idiot") is not None:
            return _("Game over. Winner: {winners}. The Idiot: {idiot}.", winners=winners, idiot=name_of(names, data["idiot"]))
        return _("Game over. Winner: {winners}.", winners=winners)
    if kind == "player_removed":
        return _("{player} left the game; their cards are out of play.", player=who)
    return None


def event_lines(events: Sequence[Event], names: Mapping[int, str]) -> list[str]:
    """Public one-liners (private events through ``visible_to(None)``); an ordinary
    turn change is left out, since the table shows whose turn it is."""
    lines: list[str] = []
    previous: Event | None = None
    for event in events:
        if event.kind == "draw" and previous is not None and previous.kind in ("play", "blind") and previous.player == event.player and lines:
            # Fold the refill into the play line: "X played 7♥ and drew 1 card."
            lines[-1] = ngettext("{line} and drew {n} card.", "{line} and drew {n} cards.", event.visible_to(None)["count"],
                                 line=lines[-1].rstrip("."))
            previous = event
            continue
        if event.kind == "turn" and event.data.get("again") and previous is not None and previous.kind == "burn" and lines:
            # "X burns the pile with a 10 (5 cards) and plays again."
            lines[-1] = _("{line} and plays again.", line=lines[-1].rstrip("."))
            previous = event
            continue
        previous = event
        line = _event_line(event, names)
        if line:
            lines.append(line)
    return lines


# --------------------------------------------------------------------------- pictures
# Spoken texts keep "{cards}" for bot/pictures/cardart.py to fill: it is passed through as a field.


def table_cards(observation: Mapping[str, Any], names: Mapping[int, str] | None = None) -> list[CardRow]:
    """The public picture, from the spectator observation only: the top of the pile,
    the draw pile as card backs, then each seat's face-up cards and face-down backs
    (hand sizes are in the labels: a hand is never drawn on the table).

    ``names`` (optional) maps player id to a plain-text display name for the row
    labels ("Seat 2 · Ann"); without it, or for a mention, rows say "Seat 2"."""
    size = observation["pile_size"]
    top = tuple(observation["pile_top"])
    if size:
        if size > len(top):
            label = ngettext("Pile · {n} card (top {shown} shown)", "Pile · {n} cards (top {shown} shown)", size, shown=len(top))
        else:
            label = ngettext("Pile · {n} card", "Pile · {n} cards", size)
        if observation["phase"] != "over":
            label = _("{label} · next: {next}", label=label, next=_next_play(observation["to_beat"]))
        rows = [CardRow(label, top, spoken=_pile_spoken(observation))]
    else:
        rows = [CardRow(_("Pile: empty, any card starts it"), spoken=_("The pile is empty: any card starts it"))]
    draw, burned = observation["draw_size"], observation["burned_count"]
    spoken = ngettext("The draw pile has {n} card", "The draw pile has {n} cards", draw) if draw else _("The draw pile is empty")
    if burned:
        spoken = ngettext("{spoken}, and {n} card was burned", "{spoken}, and {n} cards were burned", burned, spoken=spoken)
    rows.append(
        CardRow(
            ngettext("Draw pile · {n} card · burned {burned}", "Draw pile · {n} cards · burned {burned}", draw, burned=burned),
            face_down=draw,
            spoken=spoken,
        )
    )
    players = observation["players"]
    playing = observation["phase"] == "play"
    for seat in observation["seats"]:
        label = seat_label(players, seat["id"], names)
        who = seat_spoken(players, seat["id"], names)
        if seat["removed"]:
            rows.append(CardRow(_("{seat} · left the game", seat=label), spoken=_("{seat} left the game", seat=who)))
            continue
        if seat["finished"]:
            place = ordinal(seat["finished"])
            rows.append(CardRow(_("{seat} · out of cards ({place})", seat=label, place=place),
                                spoken=_("{seat} is out of cards, finishing {place}", seat=who, place=place)))
            continue
        label = _("{seat} · {n} in hand", seat=label, n=seat["hand_count"])
        spoken = _seat_spoken_cards(who, seat)
        if playing and seat["id"] in observation["current"]:
            label = _("{label} · to play", label=label)
            spoken = _("{spoken}. It is their turn", spoken=spoken)
        elif observation["phase"] == "swap":
            label = _("{label} · ready", label=label) if seat["ready"] else _("{label} · swapping", label=label)
            spoken = _("{spoken}. They are ready", spoken=spoken) if seat["ready"] else _("{spoken}. They are still swapping", spoken=spoken)
        rows.append(CardRow(label, tuple(seat["face_up"]), face_down=len(seat["face_down"]), spoken=spoken))
    return rows


def _seat_spoken_cards(who: str, seat: Mapping[str, Any]) -> str:
    """A seat's cards as said aloud: in hand, face up (``{cards}``), face down."""
    spoken = ngettext("{seat} has {n} card in hand", "{seat} has {n} cards in hand", seat["hand_count"], seat=who)
    if seat["face_up"]:
        spoken = _("{spoken}; face up: {cards}", spoken=spoken, cards="{cards}")
    else:
        spoken = _("{spoken}; no cards face up", spoken=spoken)
    if seat["face_down"]:
        return _("{spoken}; and {n} face down", spoken=spoken, n=len(seat["face_down"]))
    return _("{spoken}; and none face down", spoken=spoken)


def _pile_spoken(observation: Mapping[str, Any]) -> str:
    """The pile as said aloud: its size, its top cards (the top one last), what may come next."""
    size, top = observation["pile_size"], observation["pile_top"]
    if not top:
        said = _("The pile is empty")
    elif size == 1:
        said = _("The pile has 1 card: {cards}", cards="{cards}")
    elif size > len(top):
        said = _("The pile has {n} cards; the top {shown}, top card last, are {cards}", n=size, shown=len(top), cards="{cards}")
    else:
        said = _("The pile has {n} cards, top card last: {cards}", n=size, cards="{cards}")
    if observation["phase"] != "over":
        said = _("{said}. Next to play: {next}", said=said, next=_next_play(observation["to_beat"]))
    return said


def hand_cards(observation: Mapping[str, Any]) -> list[CardRow]:
    """A player's own picture, from their observation: the top of the pile, then their
    hand, their face-up cards and their face-down cards (backs: unseen even by them)."""
    me = observation["viewer"]
    seat = next(s for s in observation["seats"] if s["id"] == me)
    top = tuple(observation["pile_top"])
    if observation["phase"] == "over":
        rows = [CardRow(_("Pile"), top, spoken=_pile_spoken(observation)) if top
                else CardRow(_("Pile: empty"), spoken=_("The pile is empty"))]
    else:
        rows = [CardRow(_("Pile · next: {next}", next=_next_play(observation["to_beat"])), top, spoken=_pile_spoken(observation)) if top
                else CardRow(_("Pile: empty, any card starts it"), spoken=_("The pile is empty: any card starts it"))]
    hand = tuple(observation.get("hand", ()))
    rows.append(CardRow(ngettext("Your hand · {n} card", "Your hand · {n} cards", len(hand)), hand,
                        spoken=ngettext("Your hand has {n} card: {cards}", "Your hand has {n} cards: {cards}", len(hand), cards="{cards}")
                        if hand else _("Your hand is empty")))
    rows.append(CardRow(_("Your face-up cards"), tuple(seat["face_up"]),
                        spoken=_("Your face-up cards: {cards}", cards="{cards}") if seat["face_up"] else _("You have no face-up cards")))
    positions = seat["face_down"]
    if positions:
        label = _("Your face-down cards: {positions}", positions=", ".join(str(p) for p in positions))
    else:
        label = _("Your face-down cards: none")
    # The numbers are the Turn face-down card buttons'; not even their owner sees these cards.
    spoken = (ngettext("You have {n} face-down card, unseen even by you, numbered {positions}",
                       "You have {n} face-down cards, unseen even by you, numbered {positions}",
                       len(positions), positions=and_list([str(p) for p in positions]))
              if positions else _("You have no face-down cards"))
    rows.append(CardRow(label, face_down=len(positions), spoken=spoken))
    return rows
