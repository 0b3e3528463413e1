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
from bot.ballots import Ballot, Choice
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
from storage.repos import FORMER_PLAYERS

COLOUR = discord.Colour.dark_teal()
#: The finished board's button (``bot/sessions.py``): the same players' next game, in the same session.
NEXT_LABEL = "Next game"
#: The board names who must act once: the Turn line, the vote line (who still votes) and
#: the ⏳ ritual lines; the platform's "👉 ...: your move" line is added only to a board
#: posted anew to notify, and seats carry no ▶.
TURN_ON_BOARD = True
SUIT_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)


def table_option_lines(options: Mapping[str, Any]) -> list[str]:
    """The table's mode as a sentence for the lobby (the platform adds the house rules)."""
    if options.get("mode", "enid") == "plain":
        return ["Plain mode: Mike Taylor's Blackjack with its magic cards; the one thing to type is “Last card”."]
    return ["Enid mode: name every card you lay and say the rituals (the note below says where)."]


#: House rules only Enid mode's names, limericks and votes use: a plain table has none of them.
ENID_MODE_RULES = frozenset({"beginner_names", "limerick_seconds", "vote_seconds", "builtin_names"})


def house_rule_line(key: str, value: str, options: Mapping[str, Any]) -> str | None:
    """A house rule's lobby sentence at this table (``bot/tables/lobby.py``): a plain
    table leaves out Enid mode's rules, and its one ritual is “Last card”."""
    if options.get("mode", "enid") != "plain":
        return None
    if key in ENID_MODE_RULES:
        return ""
    if key == "ritual_seconds":
        return f"“Last card” must be typed within {value} seconds of laying your last-but-one card, or you pick up 7."
    return None


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
    "misnamed": "drew {n} for a wrong or missing name",
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


#: Which part of a name was wrong (a misnamed event's ``why``, ``cogs/enid/names.py``);
#: a middle name's problem is already a sentence and is shown as it is.
MISNAMED = {
    "wrong name": "the name was wrong",
    "wrong suit": "the name was right, the fish (the suit) was wrong",
    "no suit": "the name was right, but “of” and the fish (the suit) were missing",
    "no middle name": "it needs a made-up middle name (Dennis M… Richie, Brian W… Kernighan)",
    "wrong chain": "“Enid … Blyton” was right, the middle names were not (the whole chain in order, then one new one)",
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
        voted = vote.get("voted", [])
        waiting_for = [v for v in vote.get("voters", []) if v not in voted]
        still = f", waiting for {', '.join(name_of(names, v) for v in waiting_for)}" if waiting_for else ""
        lines.append(f"**Vote on {about}:** {len(voted)}/{len(vote.get('voters', []))} voted{still}{_closes(observation, vote.get('id'), 'closes')}")
    turn = observation.get("turn")
    if turn is not None:
        waiting = " (after the vote)" if vote else ("" if observation.get("current") else " (waiting for a ritual)")
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
    lines = []
    for seat in observation.get("seats", []):
        count = seat["cards"]
        lines.append(f"{name_of(names, seat['player'])}: {count} card{'s' if count != 1 else ''}")
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


def _naming_hint(observation: Mapping[str, Any]) -> str:
    """How to say the name of the card the viewer just laid, without giving it away."""
    top = parse_card(str(observation["top"])) if observation.get("top") else None
    if top is not None and observation.get("enid_suit") == top.suit.value and top.rank is Rank.NINE:
        return ("name your Enid Blyton in the game's thread: “Enid”, every middle name of the chain so far in order, "
                "one new middle name of your own, then “Blyton”")
    if top is not None and top.rank in (Rank.THREE, Rank.FOUR):
        initial = "M" if top.rank is Rank.THREE else "W"
        return (f"type the card's Enid name in the game's thread, with a made-up middle name starting with {initial} "
                "never used before this session (the names are in /rules game:enid)")
    return "type the card's Enid name in the game's thread: its computer scientist, “of”, its fish, e.g. “Tarski of Carp” (the names are in /rules game:enid)"


def _you_owe(ritual: str, observation: Mapping[str, Any]) -> str:
    """What the viewer must type now, in the second person."""
    enid = _is_enid(observation)
    if ritual == "name":
        return _naming_hint(observation)
    if ritual == "last":
        call = "Last St. Francis of Assisi" if enid else "Last card"
        return f"type “{call}” in the game's thread before the next player moves, or pick up 7"
    if ritual == "church":
        return ("shout “Haaargh! Be Alonzo Churched! (a bit)” in the game's thread at the player who would have played next: "
                "@mention them or reply to one of their messages")
    if ritual == "cry":
        return "type “My John Buckle casts your Mark Rafter to type void!” in the game's thread"
    if ritual == "first_line":
        return "type the first line of a limerick in the game's thread: the next player must finish it"
    if ritual == "limerick":
        reciting = observation.get("reciting") or {}
        first = clip(str(reciting.get("first_line", "")), 150)
        return f"type the rest of the limerick (lines 2 to 5, in one message or several) in the game's thread; its first line is “{first}”"
    return RITUALS.get(ritual, ritual)


def _your_task(observation: Mapping[str, Any], names: Mapping[int, str] | None = None) -> str:
    viewer = observation.get("viewer")
    if observation.get("over"):
        return "The game is over."
    owed = [o["ritual"] for o in observation.get("obligations", []) if o.get("player") == viewer and o.get("ritual") != "vote"]
    if owed:
        words = "Now " + "; and ".join(_you_owe(r, observation) for r in owed) + "."
        if viewer in (observation.get("current") or []):
            # "Last card", a shout or a cry does not hold the turn: say what the turn wants too
            # (the Ace's suit, the Eight's follow-up), in the order the player does them.
            then = _turn_task(observation).removeprefix("Your turn: ")
            words += " Then " + then[:1].lower() + then[1:]
        return words
    vote = observation.get("vote")
    if vote and viewer in vote.get("voters", []) and viewer not in vote.get("voted", []):
        return f"Vote on {_vote_subject(vote)}: use the Yes / No buttons on the vote message in the game's thread."
    if vote:
        return "A vote is open; play goes on when it closes."
    holding = [o for o in observation.get("obligations", []) if o.get("ritual") in ("name", "first_line", "limerick")]
    if holding:
        o = holding[0]
        return f"Waiting: {name_of(names or {}, o.get('player'))} must {RITUALS.get(o.get('ritual', ''), 'finish a ritual')} in the thread."
    if viewer not in (observation.get("current") or []):
        return "Waiting for your turn."
    return _turn_task(observation)


def _turn_task(observation: Mapping[str, Any]) -> str:
    """What the viewer's turn asks of them (they are current)."""
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
        return "A limerick for you: lay a Six to pass it on or cancel it, press Recite and type it, or draw one to refuse."
    if (observation.get("rules") or {}).get("voluntary_draw") == "yes":
        return "Your turn: lay a card of the same suit or rank, or draw."
    return "Your turn: lay a card of the same suit or rank; draw only if you cannot."


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
    lines += ["", f"**Face up:** {show_card(observation.get('top'))}", "", f"**{_your_task(observation, names)}**"]
    viewer = observation.get("viewer")
    others = [e for e in observation.get("challengeable", []) if e.get("player") != viewer]
    if others and not observation.get("vote"):
        entry = others[-1]
        lines += ["", f"You may **Challenge** {name_of(names, entry.get('player'))}'s middle name “{clip(str(entry.get('name', '')), 60)}” "
                      "if you think it is a proper noun, and not a really good one: the other players then vote on it."]
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
            continue  # votes are cast on the vote message of their own (ballots below)
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
            if data.get("middle"):
                middle = " ".join(w.capitalize() for w in str(data["middle"]).split())
                extra = f", middle name “{clip(middle, 60)}” (others may challenge it from their hands until their next move)"
            lines.append(f"✅ {who} named {show_card(data.get('card'))} right{extra}")
        elif kind == "misnamed":
            if data.get("why") == "time ran out":
                lines.append(f"❌ {who} did not name {show_card(data.get('card'))} in time: its magic is void")
            else:
                why = str(data.get("why", "wrong name"))
                lines.append(f"❌ {who} misnamed {show_card(data.get('card'))}: {MISNAMED.get(why, why)}; its magic is void")
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
            verdict = "voted down" if data.get("against") else "it stands"
            lines.append(f"🗳️ Vote closed: {data.get('yes', 0)} yes, {data.get('no', 0)} no: {verdict}")
        elif kind == "ritual_met":
            done = {"last": "made the last-card call", "church": "shouted the Church at the right player", "cry": "cried John Buckle's cry"}
            lines.append(f"✅ {who} {done.get(data.get('ritual', ''), 'did the ritual')}")
        elif kind in ("ritual_failed", "ritual_timeout"):
            lines.append(f"⏰ {who} did not {RITUALS.get(data.get('ritual', ''), 'finish the ritual')}")
        elif kind == "water_buffalo":
            lines.append(f"🐃 {who} said Water-buffalo!")
        elif kind == "reshuffle":
            lines.append(f"🔀 The face-up stock was shuffled into a new deck ({data.get('cards')} cards)")
        elif kind == "turn":
            continue  # the board shows whose turn it is; the log carries plays
        elif kind == "won":
            lines.append(f"🏆 {who} is out of cards and wins!")
        elif kind == "player_removed":
            lines.append(f"{who} left the game; their {data.get('cards', 0)} cards went under the deck")
    return lines


def _person(player: Any) -> str:
    """A mention, or "a former player" for someone forgotten (bot/privacy.py): a chain
    name without its author, or a reserved id that no one may be @mentioned as."""
    if not isinstance(player, int) or isinstance(player, bool) or player in FORMER_PLAYERS:
        return "a former player"
    return f"<@{player}>"


def session_summary(carry: Mapping[str, Any]) -> str:
    """A session's whole story (``/enid session end``, ``bot/sessions.py``): the Enid
    chain in order with each name's author, and each game's result."""
    chain = carry.get("chain") or []
    results = carry.get("results") or []
    lines = [f"**The Enid chain** ({len(chain)} middle name{'s' if len(chain) != 1 else ''}):"]
    if chain:
        lines += [f"{n}. {' '.join(str(w).capitalize() for w in entry.get('words', []))} — by {_person(entry.get('author'))}" for n, entry in enumerate(chain, 1)]
        lines.append("In full: Enid " + " ".join(" ".join(str(w).capitalize() for w in e.get("words", [])) for e in chain) + " Blyton.")
    else:
        lines.append("Nobody named the Enid Blyton this session.")
    middle = carry.get("middle_names") or []
    if middle:
        lines.append(f"Middle names used: {len(middle)}.")
    lines.append(f"**Results** ({len(results)} game{'s' if len(results) != 1 else ''}):")
    for n, result in enumerate(results, 1):
        placements = result.get("placements") or []
        order = ", then ".join(" and ".join(_person(p) for p in place) for place in placements)
        winner = result.get("winner")
        lines.append(f"Game {n}: " + (f"{_person(winner)} won" if winner is not None else "no winner") + (f" ({order})" if order else "") + ".")
    lines.append("The next Enid game here starts a new chain.")
    return "\n".join(lines)


# ----------------------------------------------------------------------- votes


def _vote_subject(vote: Mapping[str, Any]) -> str:
    if vote.get("about") == "limerick":
        return "the limerick"
    return f"the middle name “{clip(str(vote.get('name', '')), 100)}”"


def ping_task(observation: Mapping[str, Any]) -> str | None:
    """What the ping asks of the players it names (``bot/publish.py``)."""
    vote = observation.get("vote")
    if vote:
        return f"vote on {_vote_subject(vote)} with the buttons on its vote message"
    return None


def _mark(value: Any) -> str:
    return {True: "yes", False: "no"}.get(value, "unsure (a word the dictionary lacks)")


def _limerick_body(vote: Mapping[str, Any], names: Mapping[int, str]) -> str:
    lines = [str(x) for x in vote.get("lines") or []]
    hint = vote.get("hint") or {}
    counts = list(hint.get("syllables") or [])
    poem = [f"> {clip(line, 200)}" + (f"  ({counts[i]} syllables)" if i < len(counts) else "") for i, line in enumerate(lines)]
    return "\n".join([
        f"{name_of(names, vote.get('subject'))} recited:",
        *poem,
        "",
        f"Hint from a pronouncing dictionary (a hint, not the verdict): lines 1, 2 and 5 rhyme: **{_mark(hint.get('rhyme_125'))}**; "
        f"lines 3 and 4 rhyme: **{_mark(hint.get('rhyme_34'))}**. A limerick usually has 8-9 syllables in lines 1, 2 and 5 and 5-6 in lines 3 and 4.",
        "",
        "Vote **Yes** if it scans and rhymes well enough, **No** if not. More No than Yes and the poet draws a card; a tie lets it stand.",
    ])


def _middle_body(vote: Mapping[str, Any], names: Mapping[int, str]) -> str:
    subject = name_of(names, vote.get("subject"))
    return "\n".join([
        f"{name_of(names, vote.get('challenger'))} challenged {subject}'s made-up middle name “{clip(str(vote.get('name', '')), 100)}”.",
        "Middle names may not be proper nouns unless they are really good ones.",
        f"Vote **Yes** if it stands, **No** if not. More No than Yes and {subject} draws a card; a tie lets it stand.",
    ])


def ballots(observation: Mapping[str, Any], names: Mapping[int, str]) -> list[Ballot]:
    """The open vote (``bot/votes.py``), from the spectator observation."""
    vote = observation.get("vote")
    if not vote:
        return []
    if vote.get("about") == "limerick":
        question = "does the limerick scan and rhyme?"  # no mention: titles do not render them
        body = _limerick_body(vote, names)
    else:
        question = f"does the middle name “{clip(str(vote.get('name', '')), 60)}” stand?"
        body = _middle_body(vote, names)
    choices = (Choice("vote::yes", "Yes, it stands", "success"), Choice("vote::no", "No", "danger"))
    return [Ballot(id=str(vote["id"]), question=question, body=body, voters=tuple(vote.get("voters", [])),
                   voted=tuple(vote.get("voted", [])), choices=choices)]


def ballot_verdict(events: Sequence[Event], vote_id: str, names: Mapping[int, str]) -> str | None:
    """The result of the vote ``vote_id`` from the move that closed it, if it did."""
    for event in events:
        data = event.visible_to(None)
        if event.kind == "vote_closed" and data.get("id") == vote_id:
            tally = f"{data.get('yes', 0)} yes, {data.get('no', 0)} no"
            who = name_of(names, event.player)
            what = "the limerick" if data.get("about") == "limerick" else "the middle name"
            if data.get("against"):
                return f"**Voted down** ({tally}): {who} draws a card."
            return f"{what.capitalize()} **stands** ({tally}): {who} draws nothing."
    return None
