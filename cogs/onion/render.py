"""Cripple Mr Onion observations -> Discord embeds, controls and log lines.

Implements the ``GameRender`` protocol of ``bot/games.py`` as module functions. Every
input is an observation (or events read through ``visible_to(None)``), never the full
state, so face-down cards cannot reach a public message. Special cards (the marked
copies) carry a ✦ wherever they are shown.

- ``table_embed`` puts the game's own hint in the footer; ``footer_hint`` returns it.
- ``table_option_lines`` says the table's own options for the lobby (the platform adds the
  house rules).
- ``table_cards`` / ``hand_cards`` describe the card pictures (``bot/cardart.py`` rows,
  ``deck="onion"``; a special card's marked copy carries ``*`` so it shows the badge):
  the public table from the spectator observation, a hand from its player's observation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.core import computer
from bot.cardart import CardRow
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
)
from cogs.onion.rules import DEFAULTS, MODIFIERS, PLAIN_VARIANT
from cogs.onion.scoring import parse_card

COLOUR = discord.Colour.dark_gold()
#: A table plays one round of the channel's session (the end says "won the ... round").
TABLE_UNIT = "round"
#: The board's Turn line says who must act (and what to do): the platform's "👉 ...: your
#: move" line is added only to a board posted anew to notify, and seats carry no ▶.
TURN_ON_BOARD = True

POWER_LABELS = {
    "lady": "Declare the Lady: replace her",
    "fate": "Declare Fate: replace it, zero the Lady user's aces",
    "unwild": "Declare Fate: stop wild eights",
    "atuin": "Declare Great A'Tuin: shift 8 points",
    "elephants": "Declare the Elephants: a Double Onion",
    "sender": "Declare the Sender of Eight",
    "death": "Declare Death: one picture out of every Double Onion",
    "archchancellor": "Declare the Archchancellor",
    "fool": "Declare the Fool: bagels and Onions swap",
}

#: What the player to act does, read after "Your turn" or a name ("Ann as the Dealer to ...").
STEP_HINTS = {
    ("exchange", ""): "to discard up to four cards (or fold)",
    ("bet", "name"): "as the Dealer to name the amount",
    ("bet", "respond"): "to match the Dealer's amount, raise, or fold",
    ("bet", "dealer"): "as the Dealer to match the collective raise or fold",
    ("auction", ""): "to bid for the dealership or decline (if nobody bids, everyone folds)",
    ("buy", "buy"): "to buy face-down cards (one Stake each; the rest of the five are dealt face up)",
    ("buy", "extra"): "to make an extra bet (the Dealer must match the total or pass the dealership)",
    ("offer", ""): "to match the extra bets and take the passed dealership, or pass it on",
    ("declare", ""): "to declare special cards or say done",
    ("duel", ""): "to answer the hand laid: show yours if it equals or beats it, lay it otherwise, play a modifier, or concede",
}

OUTCOMES = {"showdown": "wins the showdown", "seniority": "wins a complete tie by seniority",
            "last": "is the last player in"}


def step_hint(obs: Mapping[str, Any], default: str = "") -> str:
    """What the player to act does now (the third part of a round of betting has no raising)."""
    key = (obs.get("phase"), obs.get("step", ""))
    if key == ("bet", "respond") and not obs.get("raising"):
        return "to match the Dealer's amount or fold (no raising in this part)"
    duel = obs.get("duel") or {}
    if key == ("duel", "") and duel.get("step") == "answer":
        return "to answer a beaten hand with a modifier (or re-form it, once), or concede"
    if key == ("offer", "") and obs.get("dealer") in (obs.get("current") or []):
        return "as the Dealer to match the extra bets, pass the dealership to the Elder, or fold"
    return STEP_HINTS.get(key, default)


def show(code: str | None) -> str:
    """A card as players read it; a special card (the marked copy) gets a ✦."""
    if not code:
        return "—"
    card = parse_card(code)
    return card.display() + ("✦" if card.special else "")


def show_all(codes: Sequence[str]) -> str:
    return " ".join(show(c) for c in codes) or "—"


def _part_line(obs: Mapping[str, Any]) -> str:
    phase = obs.get("phase")
    if phase == "bet":
        round_name = "first" if obs.get("part", 0) <= 3 else "second"
        part = obs["part"] if obs["part"] <= 3 else obs["part"] - 3
        raising = "raising allowed" if obs.get("raising") else "no raising"
        amount = f" · Dealer's amount {obs.get('amount', 0)}" if obs.get("step") != "name" else ""
        return f"**Betting:** {round_name} round, part {part} ({raising}){amount}"
    return {"exchange": "**The exchange**", "auction": "**Auction for the dealership**",
            "buy": "**The second deal:** buying cards and extra bets",
            "offer": "**Extra bets:** the Dealer matches them or passes the dealership",
            "declare": "**Declarations** before the showdown", "over": "**Round over**",
            "duel": "**The showdown**, hand against hand (Millard's duel)"}.get(str(phase), "")


def _status_lines(obs: Mapping[str, Any], names: Mapping[int, str]) -> list[str]:
    gambling = obs.get("variant") == "gambling"
    lines = [f"Round {obs.get('round', 1)} · Dealer {name_of(names, obs.get('dealer'))} · "
             f"Elder {name_of(names, obs.get('elder'))} · Younger {name_of(names, obs.get('younger'))}"]
    if gambling:
        lines.append(f"**Pot:** {obs.get('pot', 0)} · Stake {obs.get('stake')} · raise cap {obs.get('cap')}")
    if obs.get("eights_wild"):
        lines.append("**Eights are wild** this round" + (" (stopped by Fate)" if obs.get("fate_unwild") is not None else ""))
    if obs.get("fool"):
        lines.append("**The Fool** was declared: bagels and Onions have changed places")
    lines.append(_part_line(obs))
    if obs.get("over"):
        winner = obs.get("winner")
        if winner is None:
            lines.append("Everybody folded: the Pot carries to the next round as its ante.")
        else:
            lines.append(f"🏆 **{name_of(names, winner)} {OUTCOMES.get(obs.get('outcome', ''), 'wins')}** and deals next.")
        return lines
    tasks = obs.get("tasks") or []
    if tasks:
        lines.append("**Waiting for:** " + ", ".join(
            f"{name_of(names, t['player'])} ({'choose a replacement' if t['kind'] == 'pick' else 'disclose a card'})"
            for t in tasks))
    else:
        for p in obs.get("current") or []:
            hint = step_hint(obs)
            owed = (obs.get("owed") or {}).get(str(p))
            owes = f" (owes {plural(owed, 'chip')})" if owed else ""
            thinking = " (a computer player: it moves in a moment)" if computer.is_computer(p) else ""
            lines.append(f"**Turn:** {name_of(names, p)} {hint}".rstrip() + owes + thinking)
    duel = obs.get("duel")
    if duel:
        line = f"**Holds the better cards:** {name_of(names, duel['champion'])}"
        if duel.get("challenger") is not None:
            line += f" · **brought in:** {name_of(names, duel['challenger'])}"
        if duel.get("to_come"):
            line += " · then " + ", ".join(name_of(names, p) for p in duel["to_come"])
        lines.append(line)
    auction = obs.get("auction")
    if auction:
        bids = ", ".join(f"{name_of(names, int(p))} {b}" for p, b in auction["bids"].items()) or "no bids yet"
        lines.append(f"**Bids:** {bids} · next bid at least {auction['minimum']}")
    return lines


def _seat_lines(obs: Mapping[str, Any], names: Mapping[int, str]) -> list[str]:
    gambling = obs.get("variant") == "gambling"
    lines = []
    for seat in obs.get("seats", []):
        p = seat["player"]
        who = name_of(names, p)
        if seat.get("role"):
            who += f" ({seat['role']})"
        if seat.get("out"):
            lines.append(f"{who}: sitting out (no chips for the Stake)")
            continue
        parts = []
        if gambling:
            parts.append(plural(seat["chips"], "chip"))
            if seat.get("pending"):
                parts.append(f"{plural(seat['pending'], 'chip')} near the Pot")
        if seat.get("left"):
            parts.append("left")
        elif seat.get("folded"):
            parts.append("folded")
        else:
            parts.append(f"{seat['down']} face down")
            if seat.get("up"):
                parts.append("face up " + show_all(seat["up"]))
        if seat.get("aside"):
            parts.append("set aside " + show_all(seat["aside"]))
        if seat.get("exchanged") is not None and obs.get("phase") in ("exchange", "bet"):
            parts.append(f"exchanged {seat['exchanged']}")
        if seat.get("bought"):
            parts.append(f"bought {seat['bought']}")
        lines.append(f"{who}: " + " · ".join(parts))
    return lines


def table_embed(observation: Mapping[str, Any], names: Mapping[int, str], recent: Sequence[str]) -> discord.Embed:
    """The public table, from the spectator observation."""
    obs = observation
    embed = discord.Embed(title="Cripple Mr Onion", colour=COLOUR)
    embed.description = clip("\n".join(_status_lines(obs, names)), DESCRIPTION_LIMIT)
    embed.add_field(name="Players", value=clip_lines_from_end(_seat_lines(obs, names), FIELD_VALUE_LIMIT) or "—",
                    inline=False)
    specials = obs.get("specials") or {}
    if specials:
        embed.add_field(name="Special cards on the table",
                        value=clip(", ".join(f"{show(c)} {n}" for c, n in specials.items()), FIELD_VALUE_LIMIT),
                        inline=False)
    if obs.get("showdown"):
        lines = [f"{'🏆 ' if s['player'] == obs.get('winner') else ''}{name_of(names, s['player'])}: {s['explanation']}"
                 for s in obs["showdown"]]
        embed.add_field(name="Showdown", value=clip("\n".join(lines), FIELD_VALUE_LIMIT), inline=False)
    if recent:
        embed.add_field(name="Recent", value=clip_lines_from_end(list(recent), FIELD_VALUE_LIMIT) or "—", inline=False)
    embed.set_footer(text=footer_hint(obs))
    return fit_embed(embed)


def footer_hint(observation: Mapping[str, Any]) -> str:
    """The game's own footer: variant, piles, the ✦ legend, where the rules are."""
    obs = observation
    variant = "Gambling" if obs.get("variant", "gambling") == "gambling" else "Plain (no chips)"
    off = [f"#{n}" for n, _ in MODIFIERS if (obs.get("rules") or {}).get(f"mod{n}", "on") == "off"]
    return (f"{variant} · pack {obs.get('deck_size', 0)} · discards {obs.get('discard_size', 0)}"
            + (f" · modifiers off: {' '.join(off)}" if off else "")
            + " · ✦ marks a special card · The rules: /rules onion")


#: At most this many bankrolls are listed in a lobby (richest first).
LOBBY_BANKROLLS = 10


def table_option_lines(options: Mapping[str, Any], carry: Mapping[str, Any] | None = None) -> list[str]:
    """The table's own options (variant, chips, Stake, raise cap) as a sentence for the
    lobby; the platform adds the house rules. ``carry``: the channel's session, when one
    goes on (a Next round lobby): its bankrolls are what the players bring, not the
    starting chips."""
    get = lambda key: options.get(key, DEFAULTS[key])  # noqa: E731
    carry = carry or {}
    rounds = int(carry.get("round", 0))
    if str(get("variant")) == "plain":
        lead = f"Plain variant, round {rounds + 1} of the session" if rounds else "Plain variant"
        return [f"{lead}: no chips, no betting; the round's winner scores a win and deals next."]
    stake, chips = int(get("stake")), plural(int(get("chips")), "chip")
    rules = f"the Stake is {plural(stake, 'chip')} and a raise is at most {plural(int(get('raise_cap')) * stake, 'chip')}."
    banks = {int(p): int(v) for p, v in (carry.get("bankrolls") or {}).items()}
    if not banks:
        return [f"Gambling: everyone starts with {chips}; {rules}"]
    richest = sorted(banks, key=lambda p: (-banks[p], p))
    listed = ", ".join(f"{computer.name(p)} {banks[p]}" for p in richest[:LOBBY_BANKROLLS])
    more = f" and {len(richest) - LOBBY_BANKROLLS} more" if len(richest) > LOBBY_BANKROLLS else ""
    lines = [f"Gambling, round {rounds + 1} of the session: bankrolls carry over ({listed}{more}); "
             f"a newcomer starts with {chips}; {rules}"]
    if int(carry.get("pot", 0)):
        lines.append(f"The Pot of {plural(int(carry['pot']), 'chip')} from the last round, which everybody folded, "
                     "is this round's ante: nobody antes.")
    return lines


def _your_task(obs: Mapping[str, Any]) -> str:
    viewer = obs.get("viewer")
    if obs.get("over"):
        return "The round is over."
    if obs.get("offered"):
        return "Choose the card that takes the special card's place."
    if any(t["player"] == viewer and t["kind"] == "disclose" for t in obs.get("tasks") or []):
        return "The Archchancellor makes you disclose one face-down card: choose it."
    if viewer not in (obs.get("current") or []):
        return "Waiting for your turn."
    duel = obs.get("duel") or {}
    if obs.get("phase") == "duel" and duel.get("step") == "challenge":
        if obs.get("may_show"):
            return "Your turn: your hand equals or beats the hand laid. Show it (or lay it otherwise), or play a modifier first."
        return ("Your turn: your hand cannot equal or beat the hand laid as it is. Lay it otherwise or play a "
                "modifier that changes that (if offered), or concede.")
    owed = (obs.get("owed") or {}).get(str(viewer))
    hint = step_hint(obs, "to act")
    if owed:
        return f"Your turn {hint}. You owe {plural(owed, 'chip')}."
    if obs.get("phase") == "bet" and obs.get("step") == "respond":
        return f"Your turn {hint}. The Dealer named nothing: matching costs nothing."
    return f"Your turn {hint}."


def hand_embed(observation: Mapping[str, Any], names: Mapping[int, str]) -> discord.Embed:
    """One player's private view, from that player's observation."""
    obs = observation
    down, up = obs.get("hand") or [], obs.get("face_up") or []
    embed = discord.Embed(title=f"Your cards: {len(down) + len(up)}", colour=COLOUR)
    lines = [f"**Face down:** {show_all(down)}", f"**Face up:** {show_all(up)}"]
    mine = obs.get("hand_specials") or {}
    if mine:
        lines.append("**Special:** " + ", ".join(f"{show(c)} {n}" for c, n in mine.items()))
    if obs.get("offered"):
        lines.append("**Offered:** " + show_all(obs["offered"]))
    seat = next((s for s in obs.get("seats", []) if s["player"] == obs.get("viewer")), None)
    if seat and obs.get("variant") == "gambling":
        lines.append(f"**Your chips:** {seat['chips']} · Pot {obs.get('pot', 0)}")
    if seat and seat.get("eights_wild"):
        lines.append("Your eights are wild.")
    lines += ["", f"**{_your_task(obs)}**"]
    embed.description = clip("\n".join(lines), DESCRIPTION_LIMIT)
    return fit_embed(embed)


def _label(action: Action) -> tuple[str, str, str]:
    """(label, place, style) for one action."""
    kind, arg = action.kind, action.arg
    if kind == "discard":
        if not action.cards:
            return "Keep all five", "button", "primary"
        return "Discard " + " ".join(show(str(c)) for c in action.cards), "select", "secondary"
    if kind == "fold":
        return "Fold", "button", "danger"
    if kind == "bet":
        return (f"Bet {arg}" if arg != "0" else "Bet nothing"), "button", "primary"
    if kind == "match":
        return "Match", "button", "success"
    if kind == "raise":
        return f"Match and raise {arg}", "button", "primary"
    if kind == "bid":
        return f"Bid {arg}", "button", "primary"
    if kind == "decline":
        return "Decline", "button", "secondary"
    if kind == "buy":
        return (f"Buy {plural(int(arg), 'card')} face down" if arg != "0" else "Buy none"), "button", "primary"
    if kind == "extra":
        return (f"Extra bet {arg}" if arg != "0" else "No extra bet"), "button", "primary"
    if kind == "pass":
        return "Pass the dealership", "button", "danger"
    if kind == "declare":
        return POWER_LABELS.get(arg, "Declare " + show(str(action.cards[0]))), "button", "primary"
    if kind == "rewild":
        return "Make my eights wild again (the Lady)", "button", "primary"
    if kind == "done":
        return "Done declaring", "button", "success"
    if kind == "show":
        return "Show my hand (it equals or beats)", "button", "success"
    if kind == "rearrange":
        if arg == "best":
            return "Re-form my hand at its best (once)", "button", "primary"
        return f"Lay a {arg.replace('-', ' ')} first (escapes the cripple)", "button", "primary"
    if kind == "concede":
        return "Concede", "button", "danger"
    if kind in ("pick", "disclose"):
        verb = "Take" if kind == "pick" else "Disclose"
        return f"{verb} {show(str(action.cards[0]))}", "select", "primary"
    return action.code(), "button", "secondary"


#: Verbs of the "any amount" form, for the amounts the rules accept in a range.
AMOUNT_VERBS = {"bet": "Bet", "raise": "Match and raise", "bid": "Bid", "extra": "Extra bet"}
MAX_DISCARD = 4


def controls(observation: Mapping[str, Any], legal: Sequence[Action]) -> list[Control]:
    """Quick-amount buttons plus one "other amount" form per amount verb (the rules take
    any amount in range); the exchange's discards as one multi-card select (31 subsets
    of five cards would not fit one 25-option page), with Keep all five and Fold buttons;
    a select for card choices."""
    out: list[Control] = []
    discards = [a for a in legal if a.kind == "discard" and a.cards]
    if discards:
        hand = [str(a.cards[0]) for a in discards if len(a.cards) == 1]  # the hand, in its order
        out.append(Control(Action("discard"), label=f"Discard 1 to {MAX_DISCARD} cards…", place="multi",
                           choices=tuple((code, show(code)) for code in hand), max_values=MAX_DISCARD))
    amounts: dict[str, list[int]] = {}
    owed = (observation.get("owed") or {}).get(str(observation.get("viewer")), 0)
    for action in legal:
        if action.kind == "discard" and action.cards:
            continue
        if action.kind == "match":  # the price on the button: what matching costs now
            label = f"Match {plural(owed, 'chip')}" if owed else "Match (nothing to pay)"
            out.append(Control(action, label=clip(label, BUTTON_LABEL_LIMIT), place="button", style="success"))
            continue
        if action.kind in AMOUNT_VERBS and action.arg.isdigit():
            amounts.setdefault(action.kind, []).append(int(action.arg))
        label, place, style = _label(action)
        limit = OPTION_TEXT_LIMIT if place == "select" else BUTTON_LABEL_LIMIT
        out.append(Control(action, label=clip(label, limit), place=place, style=style))
    for kind, values in amounts.items():
        low, high = min(values), max(values)
        if high > low:  # quick amounts list the range's ends: a form is worth it only for a range
            label = f"{AMOUNT_VERBS[kind]} another amount ({low}–{high})…"
            out.append(Control(Action(kind), label=clip(label, BUTTON_LABEL_LIMIT), place="amount", style="secondary"))
    return out


def event_lines(events: Sequence[Event], names: Mapping[int, str]) -> list[str]:
    """Public one-liners (events read as a spectator sees them)."""
    lines: list[str] = []
    for event in events:
        d = event.visible_to(None)
        who = name_of(names, event.player)
        kind = event.kind
        if kind == "ante":
            lines.append(f"Round opens: the Pot holds {d.get('pot')}"
                         + (" (carried over, no ante)" if d.get("carried") else f" (everyone antes {d.get('stake')})"))
        elif kind == "exchange":
            n = d.get("count", 0)
            lines.append(f"{who} folded by discarding all five" if n == 5 else f"{who} exchanged {n} card{'s' * (n != 1)}")
        elif kind == "bet":
            lines.append(f"{who} (Dealer) names {plural(int(d.get('amount') or 0), 'chip')}")
        elif kind == "match":
            raise_by = d.get("raise")
            lines.append(f"{who} matched {d.get('amount')}" + (f" and raised {raise_by}" if raise_by else ""))
        elif kind == "collective_raise":
            lines.append(f"The Dealer must match the collective raise of {plural(int(d.get('total') or 0), 'chip')} or fold")
        elif kind == "fold":
            lines.append(f"{who} {'left and folded' if d.get('reason') == 'left' else 'folded'}")
        elif kind == "auction":
            lines.append("The Dealer folded: the dealership is up for auction")
        elif kind == "bid":
            lines.append(f"{who} bids {d.get('bid')} for the dealership")
        elif kind == "decline":
            lines.append(f"{who} declines" + (f" (their bid of {d['bid']} goes into the Pot)" if d.get("bid") else ""))
        elif kind == "new_dealer":
            how = "takes the passed dealership" if d.get("passed") else f"is the new Dealer for a bid of {plural(int(d.get('bid') or 0), 'chip')}"
            lines.append(f"{who} {how}")
        elif kind == "bought":
            n, up = d.get("count", 0), d.get("face_up") or []
            got = [f"bought {plural(n, 'card')} face down"] if n else []
            got += [f"gets {show_all(up)} face up"] if up else []
            lines.append(f"{who} {' and '.join(got) or 'gets no cards'}")
        elif kind == "extra":
            amount = int(d.get("amount") or 0)
            lines.append(f"{who} makes an extra bet of {plural(amount, 'chip')}" if amount
                         else f"{who} makes no extra bet")
        elif kind == "extra_total":
            total = plural(int(d.get("total") or 0), "chip")
            lines.append(f"Extra bets total {total}: the Dealer matches or passes the dealership")
        elif kind == "pass":
            lines.append(f"{who} passes the dealership on")
        elif kind == "declared":
            forced = " (forced)" if d.get("forced") else ""
            lines.append(f"{who} declares {show(d.get('card'))} {d.get('name')}{forced}")
        elif kind == "picked":
            card = f" {show(d['card'])}" if d.get("card") else ""
            lines.append(f"{who} took a replacement{card}" + (" (time ran out)" if d.get("timeout") else ""))
        elif kind == "disclosed":
            lines.append(f"{who} discloses {show(d.get('card'))}" + (" (time ran out)" if d.get("timeout") else ""))
        elif kind == "archchancellor_wild":
            if d.get("wild"):
                lines.append("Nobody holds Death: the Archchancellor is wild this round")
        elif kind == "rewild":
            lines.append(f"{who} makes their own eights wild again with the Lady")
        elif kind == "showdown":
            lines.append(f"{who}: {d.get('explanation')}")
        elif kind == "duel_start":
            lines.append("The showdown, hand against hand: the Elder lays their hand first")
        elif kind == "duel":
            lines.append(f"{name_of(names, d.get('challenger'))} is brought in against {name_of(names, d.get('champion'))}")
        elif kind == "duel_lead":
            how = " (a complete tie: seniority)" if d.get("tie") else ""
            lines.append(f"{name_of(names, d.get('winner'))}'s hand beats {name_of(names, d.get('loser'))}'s{how}")
        elif kind == "concede":
            why = " (no answer left)" if d.get("forced") else ""
            lines.append(f"{who} concedes to {name_of(names, d.get('winner'))}{why}")
        elif kind == "reformed":
            lines.append(f"{who} re-forms: {d.get('explanation')}")
        elif kind == "rearranged":
            lines.append(f"{who} re-forms their hand: {d.get('explanation')}")
        elif kind == "crippled":
            lines.append(f"🧅 {who} cripples {name_of(names, d.get('victim'))} with a {d.get('run')}")
        elif kind == "won":
            lines.append(f"🏆 {who} takes the Pot of {d.get('pot')}")
        elif kind == "all_fold":
            lines.append(f"Everybody folds: the Pot of {d.get('pot')} carries to the next round")
        elif kind == "rebuy":
            lines.append(f"{who} buys back in with {d.get('chips')} chips")
        elif kind == "player_removed":
            lines.append(f"{who} left the table")
    return lines


# --------------------------------------------------------------------------- pictures


def art_code(code: str) -> str:
    """A card code for ``bot/cardart.py``: the marked copy of a special card gets ``*``
    (the picture's badge, the ✦ of the text)."""
    return code + "*" if parse_card(code).special else code


def _art(codes: Sequence[str]) -> tuple[str, ...]:
    return tuple(art_code(c) for c in codes)


def table_cards(observation: Mapping[str, Any], names: Mapping[int, str] | None = None) -> list[CardRow]:
    """The public picture, from the spectator observation only: one row per seat with its
    face-up cards (the second deal, declared and disclosed cards) and its face-down cards
    as backs; at the showdown every revealed hand instead. A declared Lady or Fate set
    aside is a row of its own under the seat (it is no longer in the hand).

    ``names`` (optional) maps player id to a plain-text display name for the row
    labels ("Seat 2 · Ann"); without it, or for a mention, rows say "Seat 2"."""
    obs = observation
    players = obs.get("players") or [s["player"] for s in obs.get("seats", [])]
    current = set(obs.get("current") or [])
    shown = {s["player"]: s for s in obs.get("showdown") or []}
    rows: list[CardRow] = []
    for seat in obs.get("seats", []):
        p = seat["player"]
        label = seat_label(players, p, names)
        who = seat_spoken(players, p, names, role=seat.get("role") or "")
        if seat.get("role"):
            label += f" · {seat['role']}"
        if seat.get("out"):
            rows.append(CardRow(f"{label} · sitting out", deck="onion", spoken=f"{who} sits out, with no chips for the Stake"))
            continue
        if seat.get("left"):
            rows.append(CardRow(f"{label} · left the table", deck="onion", spoken=f"{who} left the game"))
            continue
        if seat.get("folded"):
            rows.append(CardRow(f"{label} · folded", deck="onion", spoken=f"{who} folded"))
            continue
        status = ""
        if p == obs.get("winner"):
            label += " · wins"
            status = ". They win the round"
        elif p in current and not obs.get("over"):
            label += " · to act"
            status = ". It is their turn"
        if p in shown:  # the revealed hand, grouping by grouping as the label names them
            entry = shown[p]
            groupings = ", ".join(entry.get("groupings") or []) or "no grouping"
            label += " · " + groupings
            rows.append(CardRow(label, _art(entry.get("grouped") or entry["cards"]), deck="onion",
                                spoken=f"{who} shows {{cards}}: {groupings}" + status))
        else:
            up = seat.get("up") or []
            label += f" · {seat['down']} face down" + (f", {len(up)} face up" if up else "")
            spoken = f"{who} has {seat['down']} {'card' if seat['down'] == 1 else 'cards'} face down" + ("; face up: {cards}" if up else "")
            rows.append(CardRow(label, _art(up), face_down=seat["down"], deck="onion", spoken=spoken + status))
        if seat.get("aside"):
            rows.append(CardRow(f"{seat_label(players, p, names)} · set aside, no longer in the hand",
                                _art(seat["aside"]), deck="onion",
                                spoken=f"{seat_spoken(players, p, names)} set aside {{cards}}, no longer in the hand"))
    return rows


def hand_cards(observation: Mapping[str, Any]) -> list[CardRow]:
    """A player's own picture, from their observation: the face-down cards only they
    see, their face-up cards, a Lady or Fate they set aside, and the cards offered to
    them in a special card's place."""
    obs = observation
    down, up = obs.get("hand") or [], obs.get("face_up") or []
    seat = next((s for s in obs.get("seats", []) if s["player"] == obs.get("viewer")), None)
    rows: list[CardRow] = []
    if down or up:
        rows.append(CardRow(f"Your face-down cards · {len(down)} (only you see them)", _art(down), deck="onion",
                            spoken=f"Your {plural(len(down), 'face-down card')}, which only you see: {{cards}}" if down
                            else "You have no face-down cards"))
        if up:
            rows.append(CardRow(f"Your face-up cards · {len(up)}", _art(up), deck="onion",
                                spoken=f"Your {plural(len(up), 'face-up card')}: {{cards}}"))
    else:
        folded = bool(seat and seat.get("folded"))
        rows.append(CardRow(f"Your cards: none{' (folded)' if folded else ''}", deck="onion",
                            spoken="You folded, so you have no cards" if folded else "You have no cards"))
    if seat and seat.get("aside"):
        rows.append(CardRow("Set aside, no longer in your hand", _art(seat["aside"]), deck="onion",
                            spoken="You set aside {cards}; it is no longer in your hand"))
    if obs.get("offered"):
        rows.append(CardRow("Offered: take one in the special card's place", _art(obs["offered"]), deck="onion",
                            spoken="Offered to you in the special card's place, take one: {cards}"))
    return rows


def _people(players: Sequence[int]) -> str:
    names = [computer.name(p) for p in players]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _lost_on(mine: Sequence[str], theirs: Sequence[str]) -> str:
    """Why a hand with groupings ``mine`` lost to the winner's ``theirs`` (highest first)."""
    top = mine[0] if mine else "no grouping"
    for i in range(max(len(mine), len(theirs))):
        a = mine[i] if i < len(mine) else "nothing"
        b = theirs[i] if i < len(theirs) else "nothing"
        if a != b:
            return top if i == 0 else f"{top} too, lost on the {ordinal(i + 1)} grouping: {a} against {b}"
    return f"{top}, the same groupings: the tie goes to seniority"


def final_text(obs: Mapping[str, Any]) -> str:
    """How a round ends, in full: who won and how, who was beaten at the showdown by
    what, who folded (the platform's standings would lump them together); a round
    everybody folded is nobody's, not a draw."""
    seats = obs.get("seats") or []
    folded = [s["player"] for s in seats if s.get("folded") and not s.get("left")]
    left = [s["player"] for s in seats if s.get("left")]
    out = [s["player"] for s in seats if s.get("out")]
    tail = []
    if folded:
        tail.append(f"Folded: {_people(folded)}.")
    if left:
        tail.append(f"Left: {_people(left)}.")
    if out:
        tail.append(f"Sat out: {_people(out)}.")
    winner = obs.get("winner")
    if obs.get("outcome") in ("all_fold", "abandoned") or winner is None:
        text = "🤝 Everybody folded: nobody won the Cripple Mr Onion round."
        if obs.get("outcome") == "abandoned":
            text = "🤝 The Dealer left: the Cripple Mr Onion round was abandoned and nobody won it."
        if obs.get("pot"):
            text += f" The Pot of {plural(int(obs['pot']), 'chip')} carries to the next round."
        return text
    who = computer.name(winner)
    if obs.get("outcome") == "last":
        return " ".join([f"🏆 {who} won the Cripple Mr Onion round as the last player in.", *tail])
    shown = {s["player"]: s for s in obs.get("showdown") or []}
    mine = shown.get(winner, {})
    groupings = list(mine.get("groupings") or [])
    victim = mine.get("cripples")
    if victim is not None:
        beaten_top = (shown.get(victim, {}).get("groupings") or ["Onion"])[0]
        how = f"by crippling {computer.name(victim)}'s {beaten_top} with a running flush"
    elif obs.get("outcome") == "seniority":
        how = f"on a complete tie, by seniority ({', '.join(groupings) or 'no grouping'})"
    else:
        how = f"at the showdown ({', '.join(groupings[:2]) or 'no grouping'}{', ...' if len(groupings) > 2 else ''})"
    beaten = []
    for p, entry in shown.items():
        if p == winner:
            continue
        theirs = list(entry.get("groupings") or [])
        if entry.get("conceded"):
            why = f"conceded with {theirs[0] if theirs else 'no grouping'}"
        elif p == victim:
            why = "crippled"
        else:
            why = (theirs[0] if theirs else "no grouping") if victim is not None else _lost_on(theirs, groupings)
        beaten.append(f"{computer.name(p)} ({why})")
    lines = [f"🏆 {who} won the Cripple Mr Onion round {how}."]
    if beaten:
        lines.append(f"Beaten: {'; '.join(beaten)}.")
    return " ".join(lines + tail)


def session_placements(carry: Mapping[str, Any]) -> list[list[int]]:
    """The session's final standings as a ranking, the one rated game of a session
    (bot/ratings.py): by chips won, i.e. bankroll less chips rebought (a rebuy is a
    loan, not a win), equal amounts sharing a place; the plain variant by rounds won."""
    banks = {int(p): int(v) for p, v in (carry.get("bankrolls") or {}).items()}
    wins = {int(p): int(v) for p, v in (carry.get("wins") or {}).items()}
    rebuys = {int(p): int(v) for p, v in (carry.get("rebuys") or {}).items()}
    if carry.get("variant") == PLAIN_VARIANT:
        score = {p: wins.get(p, 0) for p in set(banks) | set(wins)}
    else:
        score = {p: banks[p] - rebuys.get(p, 0) for p in banks}
    return [sorted(p for p in score if score[p] == value) for value in sorted(set(score.values()), reverse=True)]


def session_summary(carry: Mapping[str, Any]) -> str:
    """The final standings of a session (``/onion session end``), from the carryover:
    bankrolls richest first, with rounds won and chips rebought; the plain variant has no
    chips, so its standings are rounds won, most first."""
    banks = {int(p): int(v) for p, v in (carry.get("bankrolls") or {}).items()}
    wins = {int(p): int(v) for p, v in (carry.get("wins") or {}).items()}
    rebuys = {int(p): int(v) for p, v in (carry.get("rebuys") or {}).items()}
    rounds = int(carry.get("round", 0))
    lines = [f"{plural(rounds, 'round')} played."]
    if carry.get("variant") == PLAIN_VARIANT:
        for p in sorted(set(banks) | set(wins), key=lambda p: (-wins.get(p, 0), p)):
            lines.append(f"{computer.name(p)}: {plural(wins.get(p, 0), 'round')} won")
        return "\n".join(lines)
    for p in sorted(banks, key=lambda p: (-banks[p], p)):
        extra = f", rebought {rebuys[p]}" if rebuys.get(p) else ""
        lines.append(f"{computer.name(p)}: {plural(banks[p], 'chip')} ({plural(wins.get(p, 0), 'round')} won{extra})")
    if int(carry.get("pot", 0)):
        lines.append(f"{plural(int(carry['pot']), 'chip')} were left in the pot by the last round, which everyone folded; they go to nobody.")
    return "\n".join(lines)

