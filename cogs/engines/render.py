"""Engines of Discrimination observations -> Discord embeds, controls and log lines.

Implements the ``GameRender`` protocol of ``bot/games.py`` as module functions. Every
input is an observation (or events read through ``visible_to(None)``), never the full
state, so a hidden hand or an unrevealed pick cannot reach a public message.

- ``table_embed`` puts the game's own hint ("Closest card wins ...") in the embed's
  footer; ``footer_hint`` returns the same text. The platform keeps it and adds its own
  note after it rather than replacing it.
- ``table_cards`` / ``hand_cards`` describe the card pictures (``bot/pictures/cardart.py`` rows):
  the public table from the spectator observation, a hand from its player's observation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.pictures.cardart import CardRow
from bot.rules.cards import card_name, parse_card
from bot.rules.engine import Action, Control, Event
from bot.words.i18n import N_, _, ngettext
from bot.words.panel import Panel
from bot.words.render_util import (
    BUTTON_LABEL_LIMIT,
    DESCRIPTION_LIMIT,
    EMBED_TOTAL_LIMIT,
    FIELD_VALUE_LIMIT,
    OPTION_TEXT_LIMIT,
    and_list,
    clip,
    clip_lines_from_end,
    name_of,
    seat_label,
    card_text,
    seat_spoken,
    show_card,
)

GOOGLE_COLOUR = 0x3498DB  # Discord's blue
YAHOO_COLOUR = 0x9B59B6  # Discord's purple
TABLE_COLOUR = 0x11806A  # Discord's dark teal

RECENT_LINES = 8
#: With the card picture on the board (it shows the last search), only the last few events.
PICTURE_RECENT = 3

# The sides' names are the game's: they stay English in every language.
SIDE_TITLE = {"google": "Google", "yahoo": "Yahoo"}
SIDE_ICON = {"google": "🔵", "yahoo": "🟣"}

WIN_REASONS = {
    "closest": N_("closest card"),
    "match": N_("exact match"),
    "tie_last_winner": N_("tie, won by the side that won the last search"),
    "yahoo_special": N_("tie, won by Yahoo's tie-breaker"),
}
END_REASONS = {
    "deck_used_up": N_("a deck ran out"),
    "sets": N_("best two sets out of three"),
    "forfeit": N_("a player left"),
    "no_cards": N_("nobody had a card left"),
}


def _reason(words: Mapping[str, str], key: Any) -> str:
    """A reason key in words (the key itself when it has none)."""
    text = words.get(key)
    return _(text) if text else str(key or "")


# --------------------------------------------------------------------------- helpers


def _names(names: Mapping[int, str], players: Sequence[int]) -> str:
    """"Ann and Cy", as every list of people is said ("Bob & Dee", two players of
    opposite teams refilling, read as partners)."""
    return and_list([name_of(names, p) for p in players])


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
    shown = card_text(request)
    if gap == 0:
        return _("matches the {request} request", request=shown)
    if gap is None:
        if parse_card(request).rank.is_picture:
            return _("cannot win the {request} request (only the same image can)", request=shown)
        return _("an image: no value against the {request} request", request=shown)
    return ngettext("{n} point away from the {request} request", "{n} points away from the {request} request", gap, request=shown)


def _shared(won: Mapping[str, Any]) -> bool:
    """Whether both teams' cards were put aside for this search (four players, both matched)."""
    return len({w.get("side") for w in won.get("winners") or []}) > 1


def _search_side(won: Mapping[str, Any]) -> str:
    """Whom a won search went to: its side, or both teams when both matched (each scores
    its own cards; ``side`` is then only the team that counts as winning it for the next tie)."""
    return _("both teams") if _shared(won) else SIDE_TITLE.get(won.get("side"), "")


def _winning_cards(won: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """The cards put aside, by whom (and for which team, when both teams scored)."""
    shared = _shared(won)
    return ", ".join(f"{name_of(names, w['player'])} {card_text(w['card'])}"
                     + (f" ({SIDE_TITLE.get(w.get('side'), '')})" if shared else "") for w in won["winners"])


def _next_tie(won: Mapping[str, Any]) -> str:
    """For a search both teams scored: which of them counts as its winner at the next tie
    (docs/rules/engines.md, rule 7); nothing otherwise."""
    if not _shared(won):
        return ""
    return "; " + _("for the next tie, {side} counts as its winner", side=SIDE_TITLE.get(won.get("side"), ""))


def _outcome_text(reveal: Mapping[str, Any], names: Mapping[int, str]) -> str:
    outcome = reveal.get("outcome") or {}
    kind = outcome.get("kind")
    if kind == "won":
        cards = _winning_cards(outcome, names)
        side = _search_side(outcome)
        reason = _reason(WIN_REASONS, outcome["reason"])
        shown = outcome.get("shown")
        # (A search, not the game: "the search goes to", never "wins", which the game's
        # result says just above it on the final board.)
        if shown:
            return _("the search goes to {side} ({reason}): {cards} put aside; {player} showed {card}", side=side,
                     reason=reason, cards=cards, player=name_of(names, shown["player"]),
                     card=card_text(shown["card"])) + _next_tie(outcome)
        return _("the search goes to {side} ({reason}): {cards} put aside", side=side, reason=reason,
                 cards=cards) + _next_tie(outcome)
    if kind == "discarded":
        return _("nobody answered it: request discarded")
    if kind == "tie_returned":
        return _("tie on the first search: cards go back, new request")
    if kind == "tie_pending":
        return _("tie! Yahoo may show a tie-breaker")
    return ""


def _reveal_text(reveal: Mapping[str, Any], names: Mapping[int, str]) -> str:
    plays = " · ".join(f"{name_of(names, p['player'])} {card_text(p['card'])}" for p in reveal["plays"])
    outcome = _outcome_text(reveal, names)
    request = card_text(reveal["request"])
    if outcome:
        return _("Request {request}: {plays}\n→ {outcome}", request=request, plays=plays, outcome=outcome)
    return _("Request {request}: {plays}", request=request, plays=plays)


#: What the platform's first line ("👉 @Ann, @Bob: ...") asks of the players to act, by phase.
TASKS = {
    "choose": N_("pick a card for this search (hidden until everyone has picked)"),
    "tiebreak": N_("show a tie-breaker for Yahoo, or decline"),
    "refill": N_("refill your hand: from your team deck or your partner's hand"),
}


def turn_task(observation: Mapping[str, Any]) -> str | None:
    """What everyone named on the board's first line must do now (second person); the
    board's own status line (who picked, the tie, the refill) then names nobody."""
    if observation["phase"] == "over" or not observation.get("current"):
        return None
    task = TASKS.get(observation["phase"])
    return _(task) if task else None


def _status_line(observation: Mapping[str, Any], names: Mapping[int, str], first_line: bool = False) -> str:
    """What the search waits for. ``first_line``: the platform's first line names who must
    act and what they do, so this says only what it does not: who has picked, the tie."""
    phase = observation["phase"]
    if first_line:  # (the tie is told by the search's own line: "→ tie! Yahoo may show a tie-breaker")
        picked = [name_of(names, seat["player"]) for seat in observation["seats"] if seat["chosen"]]
        return _("✅ Picked: {names}", names=", ".join(picked)) if phase == "choose" and picked else ""
    if phase == "choose":
        seats = observation["seats"]
        marks = [
            f"{'✅' if seat['chosen'] else '⏳'} {name_of(names, seat['player'])}"
            for seat in seats
            if seat["chosen"] or seat["player"] in observation["current"]
        ]
        return _("Picks (hidden until everyone has picked): {marks}", marks=", ".join(marks))
    if phase == "tiebreak":
        tie = observation.get("tiebreak") or {}
        return _("⚖️ Tie! Waiting for {players} (Yahoo) to show a tie-breaker or decline.", players=_names(names, tie.get("players", [])))
    if phase == "refill":
        return _("🔄 Waiting for {players} to refill: team deck or partner's hand.", players=_names(names, observation["refill_pending"]))
    return ""


def _result_text(observation: Mapping[str, Any], names: Mapping[int, str]) -> str:
    result = observation.get("result") or {}
    placements = result.get("placements") or []
    scores = result.get("scores") or {}
    score = f"Google {scores.get('google', 0)} – Yahoo {scores.get('yahoo', 0)}"
    if observation["players"] == 4 and result.get("set_wins"):
        sets = result["set_wins"]
        score = _("sets: Google {google} – Yahoo {yahoo}", google=sets["google"], yahoo=sets["yahoo"])
    reason = _reason(END_REASONS, result.get("reason", ""))
    if len(placements) == 1:
        return _("🏁 **Game over: a draw** ({score}; {reason}).", score=score, reason=reason)
    winners = placements[0] if placements else []
    side = SIDE_TITLE.get(_side_of(observation, winners[0]) if winners else "", "")
    return _("🏁 **Game over: {side} wins!** {players} ({score}; {reason}).", side=side, players=_names(names, winners),
             score=score, reason=reason)


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
        if seats[p]["chosen"]:
            lines.append(ngettext("{player}: {n} card in hand + 1 picked", "{player}: {n} cards in hand + 1 picked", size,
                                  player=name_of(names, p)))
        else:
            lines.append(ngettext("{player}: {n} card in hand", "{player}: {n} cards in hand", size, player=name_of(names, p)))
    lines.append(_("Put aside: **{n}**", n=observation["scores"][side]))
    lines.append(_("Player deck: {n}", n=observation["decks"][side]))
    if side == "google":
        lines.append(_("IPOs left: {n}", n=observation["ipos_left"]))
    if observation.get("last_winner") == side:
        lines.append(_("Won the last search"))
    title = f"{SIDE_ICON[side]} {SIDE_TITLE[side]}"
    if observation["players"] == 4:
        title = _("{side} — sets won: {n}", side=title, n=observation["set_wins"][side])
    return title, clip("\n".join(lines), FIELD_VALUE_LIMIT)


# --------------------------------------------------------------------------- the protocol


def _search_heading(observation: Mapping[str, Any], reveal: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """The reveal, headed as this search (decided, its winners refilling), or as the last
    one, numbered; at the end "the game's last search", so it is not read as the result."""
    text = _reveal_text(reveal, names)
    if observation["phase"] == "over":
        return _("**The game's last search, #{n}** — {reveal}", n=reveal["search"], reveal=text)
    if reveal["search"] == observation["search_number"] and observation["phase"] != "choose":
        return _("**This search** — {reveal}", reveal=text)
    return _("**Last search** — {reveal}", reveal=text)


def table_embed(observation: Mapping[str, Any], names: Mapping[int, str], recent: Sequence[str], *,
                pictures: bool = False, first_line: bool = False) -> Panel:
    """The public table, from the spectator observation. ``pictures``: the board carries
    the card picture (:func:`table_cards`: the request, the last search, every hand's
    size, the search deck), so the text says only what it cannot (:func:`_picture_embed`);
    without it the text is the whole table. ``first_line``: the platform's first line
    says who must act (:func:`turn_task`)."""
    if pictures:
        return _picture_embed(observation, names, recent, first_line)
    title = "Engines of Discrimination"
    if observation["players"] == 4:
        title = _("{title} — set {n} (best of three)", title=title, n=observation["set_number"])
    lines: list[str] = []
    if observation["phase"] == "over":
        lines.append(_result_text(observation, names))
    else:
        if observation["request"]:
            lines.append(
                _("🔎 Search Request **{card}** (#{n}, turned by {player})", card=card_text(observation["request"]),
                  n=observation["search_number"], player=name_of(names, observation["turn"]))
            )
        # (No request while a search winner chooses how to refill: the search is
        # decided and shown below as "This search".)
        lines.append(_status_line(observation, names, first_line))
    reveal = observation.get("reveal")
    if not reveal and observation.get("cut"):
        cuts = ", ".join(f"{name_of(names, c['player'])} {card_text(c['card'])}" for c in observation["cut"])
        lines.append(_("✂️ Yahoo cut for low card: {cuts}", cuts=cuts))
    if reveal:
        lines.append(_search_heading(observation, reveal, names))
    embed = Panel(title=title, description=clip("\n".join(lines), DESCRIPTION_LIMIT), colour=TABLE_COLOUR)
    for side in ("google", "yahoo"):
        name, value = _side_field(observation, names, side)
        embed.add_field(name=name, value=value, inline=True)
    decks = observation["decks"]
    embed.add_field(
        name=_("🗂️ Search deck"),
        value=_("{n} cards left, {discarded} discarded", n=decks["search"], discarded=observation["search_discard"]),
        inline=True,
    )
    if recent:
        room = EMBED_TOTAL_LIMIT - len(embed) - 50
        text = clip_lines_from_end(list(recent)[-RECENT_LINES:], max(0, min(FIELD_VALUE_LIMIT, room)))
        if text:
            embed.add_field(name=_("Recent"), value=text, inline=False)
    embed.footer = footer_hint(observation)
    return embed


def _title(observation: Mapping[str, Any]) -> str:
    title = "Engines of Discrimination"
    if observation["players"] == 4:
        title = _("{title} — set {n} (best of three)", title=title, n=observation["set_number"])
    return title


def _score_lines(observation: Mapping[str, Any]) -> list[str]:
    """Both sides' put-aside cards (and sets won), then their decks, the IPOs left and who
    took the last search: what the picture cannot show, in two lines."""
    scores, decks = observation["scores"], observation["decks"]
    score = _("**Put aside:** 🔵 Google {google} · 🟣 Yahoo {yahoo}", google=scores["google"], yahoo=scores["yahoo"])
    if observation["players"] == 4:
        sets = observation["set_wins"]
        score = _("{score} (sets won: Google {google} – Yahoo {yahoo})", score=score, google=sets["google"],
                  yahoo=sets["yahoo"])
    extra = [_("**Player decks:** Google {google} · Yahoo {yahoo}", google=decks["google"], yahoo=decks["yahoo"])]
    if observation.get("ipos_left") and observation["phase"] != "over":
        extra.append(ngettext("Google has {n} IPO left", "Google has {n} IPOs left", observation["ipos_left"]))
    if observation.get("last_winner") in SIDE_TITLE and observation["phase"] != "over":
        extra.append(_("{side} took the last search", side=SIDE_TITLE[observation["last_winner"]]))
    return [score, " · ".join(extra)]


def _picture_embed(observation: Mapping[str, Any], names: Mapping[int, str], recent: Sequence[str],
                   first_line: bool = False) -> Panel:
    """The board above the card picture: the request (and what the search waits for, a
    tie-breaker or a refill), the put-aside cards and the decks, the last few events. The
    hands' sizes, who has picked, the last search's cards and the search deck are the
    picture's; who is still to pick is the platform's first line. At the
    end: the score and why it ended, not the winners (the result line names them)."""
    lines: list[str] = []
    if observation["phase"] == "over":
        result = observation.get("result") or {}
        lines.append(_("🏁 **Game over** ({reason}).", reason=_reason(END_REASONS, result.get("reason", ""))))
    else:
        if observation["request"]:
            lines.append(_("🔎 Search Request **{card}** (#{n}, turned by {player})", card=card_text(observation["request"]),
                           n=observation["search_number"], player=name_of(names, observation["turn"])))
        # Who is still to pick is the platform's first line ("👉 @Ann, @Bob: your picks"),
        # and who has picked is on the picture: only a tie-breaker or a refill is said here.
        if observation["phase"] != "choose":
            lines.append(_status_line(observation, names, first_line))
    lines += _score_lines(observation)
    if recent and observation["phase"] != "over":
        lines += list(recent)[-PICTURE_RECENT:]
    embed = Panel(title=_title(observation), description=clip("\n".join(line for line in lines if line),
                                                              DESCRIPTION_LIMIT), colour=TABLE_COLOUR)
    embed.footer = _("Closest card wins · an image (J, Q, K) only matches the same image · /rules engines")
    return embed


def footer_hint(observation: Mapping[str, Any]) -> str:
    """The game's own footer: the rules of a search in one line."""
    parts = [
        _("Closest card wins"),
        _("an image (J, Q, K) only matches the same image"),
        _("Yahoo can win a tie with a card one point further away (shown for them)")
        if observation.get("yahoo_tiebreak") == "auto" else _("Yahoo can win a tie with a card one point further away"),
    ]
    if observation.get("ipos_left"):
        parts.append(_("Google may declare an IPO for 4 extra cards"))
    return " · ".join(parts)


def hand_embed(observation: Mapping[str, Any], names: Mapping[int, str]) -> Panel:
    """One player's private view: their cards and how close each is."""
    side = observation.get("side") or "google"
    request = observation.get("request")
    embed = Panel(
        title=_("Your hand — {side}", side=SIDE_TITLE.get(side, "?")),
        colour=GOOGLE_COLOUR if side == "google" else YAHOO_COLOUR,
    )
    lines: list[str] = []
    reveal = observation.get("reveal")
    if reveal and observation["phase"] != "over":
        # A hand that updated itself for the next search says how the last one went
        # (the same public words as the board), so its player need not look up.
        lines.append(_search_heading(observation, reveal, names))
    if observation["phase"] != "over" and request:  # (none while a decided search's refills wait: it heads the hand)
        lines.append(_("🔎 Search Request: **{card}**", card=card_text(request)))
    mine = observation.get("my_choice")
    if mine:
        lines.append(_("Your pick: **{card}** (hidden until everyone has picked)", card=card_text(mine)))
    hand = observation.get("hand") or []
    card_lines = [f"{card_text(code)} — {_how_close(request, code)}" if request else card_text(code) for code in hand]
    lines.append(_("**Your cards**"))
    lines.extend(card_lines or [_("(no cards)")])
    target = observation["hand_target"][side]
    if len(hand) > target:
        lines.append(_("You hold more than {n} cards after your IPO: you draw again once you hold fewer than {n}.", n=target))
    partner = observation.get("partner")
    if partner is not None:
        lines.append(_("Partner: {player}", player=name_of(names, partner)))
    if observation.get("ipo_allowed"):
        lines.append(_("📈 You may declare your IPO now (4 extra cards), before you pick."))
    if observation["phase"] == "tiebreak" and observation.get("viewer") in (observation.get("tiebreak") or {}).get("players", []):
        lines.append(_("⚖️ You can win this tie by showing a card one point further from the request."))
    if observation.get("viewer") in observation.get("refill_pending", []):
        lines.append(_("🔄 You won: refill from the team deck, or blindly from your partner's hand."))
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
            out.append(Control(action, label=clip(_("Declare IPO (+4 cards)"), BUTTON_LABEL_LIMIT), style="success", emoji="📈"))
        elif action.kind == "tiebreak" and action.cards:
            label = _("Show {card} and win the tie", card=action.cards[0].display())
            out.append(Control(action, label=clip(label, BUTTON_LABEL_LIMIT), style="success", emoji="⚖️"))
        elif action.kind == "decline":
            out.append(Control(action, label=clip(_("Don't show a tie-breaker"), BUTTON_LABEL_LIMIT), style="secondary"))
        elif action.kind == "refill" and action.arg == "deck":
            out.append(Control(action, label=clip(_("Refill from the team deck"), BUTTON_LABEL_LIMIT), style="primary"))
        elif action.kind == "refill" and action.arg == "partner":
            out.append(Control(action, label=clip(_("Take blindly from your partner"), BUTTON_LABEL_LIMIT), style="secondary"))
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
            cuts = ", ".join(f"{name_of(names, c['player'])} {card_text(c['card'])}" for c in cut)
            return _("✂️ Yahoo cut for low card ({cuts}): {player} goes first.", cuts=cuts, player=who)
        return _("{player} goes first.", player=who)
    if kind == "search_request":
        return _("🔎 {player} turns Search Request #{n}: **{card}**", player=who, n=data["search"], card=card_text(data["card"]))
    if kind == "chosen":
        return _("✅ {player} has picked a card.", player=who)
    if kind == "reveal":
        plays = " · ".join(f"{name_of(names, p['player'])} {card_text(p['card'])}" for p in data["plays"])
        return _("🃏 Reveal on {request}: {plays}", request=card_text(data["request"]), plays=plays)
    if kind == "search_won":
        cards, side, reason = _winning_cards(data, names), _search_side(data), _reason(WIN_REASONS, data["reason"])
        shown = data.get("shown")
        if shown:
            return _("🎯 The search goes to {side} ({reason}): {cards} — {player} shows {card}", side=side, reason=reason,
                     cards=cards, player=name_of(names, shown["player"]), card=card_text(shown["card"])) + _next_tie(data)
        return _("🎯 The search goes to {side} ({reason}): {cards}", side=side, reason=reason, cards=cards) + _next_tie(data)
    if kind == "search_discarded":
        if data.get("reason") == "no_match":
            return _("🗑️ Nobody matched the {request}: request discarded.", request=card_text(data["request"]))
        return _("🗑️ Only images were played on the {request}: request discarded.", request=card_text(data["request"]))
    if kind == "tie_returned":
        return _("🔁 Tie on the {request} before any search was won: cards go back, new request.", request=card_text(data["request"]))
    if kind == "tiebreak_offered":
        return _("⚖️ Tie! {players} may show a card one point further away for Yahoo.", players=_names(names, data["players"]))
    if kind == "tiebreak_declined":
        return _("{player} does not show a tie-breaker.", player=who)
    if kind == "ipo":
        return ngettext("📈 {player} declares an IPO and takes {n} card!", "📈 {player} declares an IPO and takes {n} cards!",
                        data["count"], player=who)
    if kind == "refill_offered":
        return _("🔄 {players} may refill from the team deck or blindly from their partner.", players=_names(names, data["players"]))
    if kind == "refill":
        if data.get("source") == "partner":
            return ngettext("🔄 {player} takes {n} card blindly from {partner}.", "🔄 {player} takes {n} cards blindly from {partner}.",
                            data.get("count", 0), player=who, partner=name_of(names, data.get("partner")))
        return _("🔄 {player} refills from the team deck.", player=who)
    if kind == "search_reshuffled":
        return ngettext("♻️ The search deck is reshuffled ({n} card).", "♻️ The search deck is reshuffled ({n} cards).", data["count"])
    if kind == "set_over":
        scores, sets = data["scores"], data["set_wins"]
        return _(
            "🏁 Set {n} goes to {side} ({google_score}–{yahoo_score}). Sets: Google {google}, Yahoo {yahoo}.",
            n=data["set"], side=SIDE_TITLE[data["winner"]], google_score=scores["google"], yahoo_score=scores["yahoo"],
            google=sets["google"], yahoo=sets["yahoo"],
        )
    if kind == "new_set":
        return _("🆕 Set {n} begins with three fresh decks.", n=data["set"])
    if kind == "game_over":
        scores = data.get("scores", {})
        placements = data.get("placements") or []
        if len(placements) == 1:
            return _("🏁 Game over: a draw ({google}–{yahoo}).", google=scores.get("google", 0), yahoo=scores.get("yahoo", 0))
        return ngettext("🏁 Game over: {players} wins!", "🏁 Game over: {players} win!", len(placements[0]),
                        players=_names(names, placements[0]))
    if kind == "player_removed":
        return _("🚪 {player} left the table; their side forfeits.", player=who)
    # "drew", "given" and "turn" are visible on the table itself (hand sizes, turn).
    return None


# --------------------------------------------------------------------------- pictures
# Spoken texts keep "{cards}" for bot/pictures/cardart.py to fill: it is passed through as a field.


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
        rows.append(CardRow(_("Search Request #{n}", n=observation["search_number"]), (observation["request"],),
                            spoken=_("Search number {n} requests {cards}", n=observation["search_number"], cards="{cards}")))
    reveal = observation.get("reveal")
    if reveal:
        this = reveal["search"] == observation["search_number"] and observation["phase"] not in ("choose", "over")
        who = ", ".join(seat_label(order, play["player"], names, short=True) for play in reveal["plays"])
        outcome = reveal.get("outcome") or {}
        winner = _search_side(outcome) if outcome.get("kind") == "won" and outcome.get("side") in SIDE_TITLE else ""
        plays = and_list([_("{seat} played {card}", seat=seat_label(order, play["player"], names, short=True),
                            card=card_name(parse_card(play["card"]))) for play in reveal["plays"]])
        n = reveal["search"]
        if winner:
            # (The search's side, apart from who played: "won by Google: Ada, Bob" read as
            # if both had won, and on the final board as the game's result.)
            label = (_("This search #{n}, to {side} · played by {seats}", n=n, side=winner, seats=who) if this
                     else _("Last search #{n}, to {side} · played by {seats}", n=n, side=winner, seats=who))
            spoken = (_("In this search, number {n}, {plays}; the search went to {side}", n=n, plays=plays, side=winner)
                      if this else _("In the last search, number {n}, {plays}; the search went to {side}", n=n,
                                     plays=plays, side=winner))
        else:
            label = (_("This search #{n} · played by {seats}", n=n, seats=who) if this
                     else _("Last search #{n} · played by {seats}", n=n, seats=who))
            spoken = (_("In this search, number {n}, {plays}", n=n, plays=plays) if this
                      else _("In the last search, number {n}, {plays}", n=n, plays=plays))
        rows.append(CardRow(label, tuple(play["card"] for play in reveal["plays"]), spoken=spoken))
    for seat in seats:
        side = SIDE_TITLE.get(seat["side"], "")
        # (No count in the label: the picture shows the backs, a stack with its count on it.)
        label = _("{seat} · {side}", seat=seat_label(order, seat["player"], names), side=side)
        spoken = ngettext("{seat} plays for {side} and has {n} card in hand", "{seat} plays for {side} and has {n} cards in hand",
                          seat["hand_size"], seat=seat_spoken(order, seat["player"], names), side=side or _("no side"))
        if seat["chosen"]:
            label = _("{label} · has picked", label=label)
            spoken = _("{spoken}, and has picked", spoken=spoken)
        rows.append(CardRow(label, face_down=seat["hand_size"], spoken=spoken))
    search = observation["decks"]["search"]
    discarded = observation["search_discard"]
    rows.append(
        CardRow(_("Search deck · {discarded} discarded", discarded=discarded), face_down=search,
                spoken=ngettext("{cards_left}, and {n} is discarded", "{cards_left}, and {n} are discarded", discarded,
                                cards_left=ngettext("The search deck has {n} card left", "The search deck has {n} cards left", search)))
    )
    return rows


def hand_cards(observation: Mapping[str, Any]) -> list[CardRow]:
    """A player's own picture, from their observation: the Search Request, their
    hidden pick (theirs to see) and their hand."""
    rows: list[CardRow] = []
    if observation.get("request"):
        rows.append(CardRow(_("Search Request"), (observation["request"],), spoken=_("The Search Request is {cards}", cards="{cards}")))
    if observation.get("my_choice"):
        rows.append(CardRow(_("Your pick (hidden from the others until everyone has picked)"), (observation["my_choice"],),
                            spoken=_("Your pick is {cards}; the others see it when everyone has picked", cards="{cards}")))
    hand = tuple(observation.get("hand") or ())
    rows.append(CardRow(ngettext("Your hand · {n} card", "Your hand · {n} cards", len(hand)), hand,
                        spoken=ngettext("Your hand has {n} card: {cards}", "Your hand has {n} cards: {cards}", len(hand), cards="{cards}")
                        if hand else _("Your hand is empty")))
    return rows
