"""Cripple Mr Onion observations -> Discord embeds, controls and log lines.

Implements the ``GameRender`` protocol of ``bot/games.py`` as module functions. Every
input is an observation (or events read through ``visible_to(None)``), never the full
state, so face-down cards cannot reach a public message. Special cards (the marked
copies) carry a ✦ wherever they are shown.

- ``table_embed`` puts the game's own hint in the footer; ``footer_hint`` returns it.
- ``table_option_lines`` says the table's own options for the lobby (the platform adds the
  house rules).
- ``table_cards`` / ``hand_cards`` describe the card pictures (``bot/pictures/cardart.py`` rows,
  ``deck="onion"``; a special card's marked copy carries ``*`` so it shows the badge):
  the public table from the spectator observation, a hand from its player's observation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.core import computer
from bot.pictures.cardart import CardRow, card_name, spoken_list
from bot.rules.engine import Action, Control, Event
from bot.words.i18n import N_, _, ngettext, pgettext
from bot.words.panel import Panel
from bot.words.render_util import (
    BUTTON_LABEL_LIMIT,
    DESCRIPTION_LIMIT,
    FIELD_VALUE_LIMIT,
    OPTION_TEXT_LIMIT,
    clip,
    clip_lines_from_end,
    fit_embed,
    name_of,
    ordinal,
    seat_label,
    seat_spoken,
    suit_text,
)
from cogs.onion.rules import DEFAULTS, MODIFIERS, PLAIN_VARIANT
from cogs.onion.scoring import grouping_text, parse_card
from cogs.onion.showdown import (
    TOLD_KINDS,
    duel_lines,
    explanation_text,
    facing_lines,
    label_card,
    show,
    special_text,
    story_fields,
    story_line,
    story_lines,
)

COLOUR = 0xC27C0E  # Discord's dark gold
#: A table plays one round of the channel's session (the end says "won the ... round").
TABLE_UNIT = "round"
POWER_LABELS = {
    "lady": N_("Declare the Lady: replace her"),
    "fate": N_("Declare Fate: replace it, zero the Lady user's aces"),
    "unwild": N_("Declare Fate: stop wild eights"),
    "atuin": N_("Declare Great A'Tuin: shift 8 points"),
    "elephants": N_("Declare the Elephants: a Double Onion"),
    "sender": N_("Declare the Sender of Eight"),
    "death": N_("Declare Death: one picture out of every Double Onion"),
    "archchancellor": N_("Declare the Archchancellor"),
    "fool": N_("Declare the Fool: bagels and Onions swap"),
}

#: What the player to act does, read after "Your turn" or a name ("Ann as the Dealer to ...").
# Translators: each hint follows "Your turn" or a player's name ("Ann as the Dealer to ...").
STEP_HINTS = {
    ("exchange", ""): N_("to discard up to four cards (or fold)"),
    ("bet", "name"): N_("as the Dealer to name the amount"),
    ("bet", "respond"): N_("to match the Dealer's amount, raise, or fold"),
    ("bet", "dealer"): N_("as the Dealer to match the collective raise or fold"),
    ("auction", ""): N_("to bid for the dealership or decline (if nobody bids, everyone folds)"),
    ("buy", "buy"): N_("to buy face-down cards (one Stake each; the rest of the five are dealt face up)"),
    ("buy", "extra"): N_("to make an extra bet (the Dealer must match the total or pass the dealership)"),
    ("offer", ""): N_("to match the extra bets and take the passed dealership, or pass it on"),
    ("declare", ""): N_("to declare special cards or say done"),
    ("duel", ""): N_("to answer the hand laid: show yours if it equals or beats it, lay it otherwise, play a modifier, or concede"),
}

#: What the platform's first line ("👉 @Ann: ...") asks of the player to act (see :func:`turn_task`).
TASKS = {
    ("exchange", ""): N_("discard up to four cards (or fold)"),
    ("bet", "name"): N_("name the Dealer's amount"),
    ("bet", "respond"): N_("match the Dealer's amount, raise, or fold"),
    ("bet", "dealer"): N_("match the collective raise as the Dealer, or fold"),
    ("auction", ""): N_("bid for the dealership or decline (if nobody bids, everyone folds)"),
    ("buy", "buy"): N_("buy face-down cards (one Stake each; the rest of the five are dealt face up)"),
    ("buy", "extra"): N_("make an extra bet (the Dealer must match the total or pass the dealership)"),
    ("offer", ""): N_("match the extra bets and take the passed dealership, or pass it on"),
    ("declare", ""): N_("declare special cards or say done"),
    ("duel", ""): N_("answer the hand laid: show yours if it equals or beats it, lay it otherwise, play a modifier, or concede"),
}
TASK_KINDS = {"pick": N_("choose the card that takes the special card's place"),
              "disclose": N_("disclose a face-down card (the Archchancellor's order)")}


def turn_task(observation: Mapping[str, Any]) -> str | None:
    """What everyone named on the board's first line ("👉 @Ann: ...") must do now, in the
    second person (the board's own Turn line, then left out, said it in the third)."""
    obs = observation
    if obs.get("over") or obs.get("phase") == "over":
        return None
    tasks = obs.get("tasks") or []
    if tasks:
        kinds = {t.get("kind") for t in tasks}
        return _(TASK_KINDS["pick" if kinds == {"pick"} else "disclose"]) if len(kinds) == 1 else None
    key = (obs.get("phase"), obs.get("step", ""))
    if key == ("bet", "respond") and not obs.get("raising"):
        return _("match the Dealer's amount or fold (no raising in this part)")
    duel = obs.get("duel") or {}
    if key == ("duel", "") and duel.get("step") == "answer":
        return _("answer the better hand: play a modifier, re-form the hand laid (once, when offered), or concede")
    if key == ("offer", "") and obs.get("dealer") in (obs.get("current") or []):
        return _("match the extra bets as the Dealer, pass the dealership to the Elder, or fold")
    task = TASKS.get(key)
    return _(task) if task else None


#: The board's line for a finished round, by how it was won.
#: (No 🏆 mark: 🏆 is the cups suit in this game.)
OUTCOMES = {"showdown": N_("**{name} wins the showdown** and deals next."),
            "seniority": N_("**{name} wins a complete tie by seniority** and deals next."),
            "last": N_("**{name} is the last player in** and deals next.")}
OUTCOME_DEFAULT = N_("**{name} wins** and deals next.")

#: The winner's mark on the round's result (the platform's; 🏆 is the cups suit here).
WINNER_MARK = "🥇"

#: With the card picture on the board, Recent keeps only this many of the last events.
PICTURE_RECENT = 3


def chips(count: int) -> str:
    """'1 chip', '5 chips' in the current language."""
    return ngettext("{n} chip", "{n} chips", count)


def role_text(role: str) -> str:
    """A seat's role (the observation says Dealer, Elder or Younger) as players read it."""
    roles = {"Dealer": pgettext("onion role", "Dealer"), "Elder": pgettext("onion role", "Elder"),
             "Younger": pgettext("onion role", "Younger")}
    return roles.get(role, role)


def step_hint(obs: Mapping[str, Any], default: str = "") -> str:
    """What the player to act does now (the third part of a round of betting has no raising)."""
    key = (obs.get("phase"), obs.get("step", ""))
    if key == ("bet", "respond") and not obs.get("raising"):
        return _("to match the Dealer's amount or fold (no raising in this part)")
    duel = obs.get("duel") or {}
    if key == ("duel", "") and duel.get("step") == "answer":
        return _("to answer the better hand: play a modifier, re-form the hand laid (once, when offered), or concede")
    if key == ("offer", "") and obs.get("dealer") in (obs.get("current") or []):
        return _("as the Dealer to match the extra bets, pass the dealership to the Elder, or fold")
    hint = STEP_HINTS.get(key)
    return _(hint) if hint else default


def show_all(codes: Sequence[str]) -> str:
    return " ".join(show(c) for c in codes) or "—"


def _part_of_round(part: int) -> int:
    """A betting part's number within its round: parts 4 to 6 are the second round's 1 to 3."""
    return part if part <= 3 else part - 3


def _part_line(obs: Mapping[str, Any]) -> str:
    phase = obs.get("phase")
    if phase == "bet":
        part = _part_of_round(obs["part"])
        raising = _("raising allowed") if obs.get("raising") else _("no raising")
        if obs.get("part", 0) <= 3:
            line = _("**Betting:** first round, part {part} ({raising})", part=part, raising=raising)
        else:
            line = _("**Betting:** second round, part {part} ({raising})", part=part, raising=raising)
        if obs.get("step") != "name":
            line += " · " + _("Dealer's amount {amount}", amount=obs.get("amount", 0))
        return line
    line = {"exchange": N_("**The exchange**"), "auction": N_("**Auction for the dealership**"),
            "buy": N_("**The second deal:** buying cards and extra bets"),
            "offer": N_("**Extra bets:** the Dealer matches them or passes the dealership"),
            "declare": N_("**Declarations** before the showdown"), "over": N_("**Round over**"),
            "duel": N_("**The showdown**, hand against hand (Millard's duel)")}.get(str(phase), "")
    return _(line) if line else ""


def _status_lines(obs: Mapping[str, Any], names: Mapping[int, str], pictures: bool = False,
                  first_line: bool = False) -> list[str]:
    """The board's head. ``pictures``: the card picture shows the roles, every seat's cards
    and who folded, so the head says only what it cannot: the part of the round, the Pot
    and the chips. ``first_line``: the platform's first line says whose move it is and
    what to do (:func:`turn_task`), so no Turn line says it again."""
    gambling = obs.get("variant") == "gambling"
    if pictures:  # (the round, the Stake and the raise cap are in the footer)
        # (In the duel its own line says where it stands: no part line.)
        part = _part_line(obs) if not obs.get("over") and obs.get("phase") != "duel" else ""
        part = " · ".join([part, *_auction_lines(obs, names)]) if part else part
        lines = [*_turn_lines(obs, names, first_line, why=False), part]
        if gambling:
            chips_line = _chips_line(obs, names)
            near = sum(int(seat.get("pending") or 0) for seat in obs.get("seats", []))
            # (Raises, bids and extra bets lie "near the Pot" until matched: the text's words
            # meant nothing to a newcomer.)
            pot = _("{pot} (+{n} bet, not yet in it)", pot=obs.get("pot", 0), n=near) if near else str(obs.get("pot", 0))
            lines.append(_("**Pot:** {pot} · {chips}", pot=pot, chips=chips_line) if not obs.get("over") else chips_line)
        specials = [_("**Special cards:** {cards}", cards=", ".join(special_text(c) for c in obs["specials"]))
                    ] if obs.get("specials") else []
        lines += _packed(_rule_lines(obs) + specials)
        if obs.get("over") and obs.get("winner") is None:
            lines.append(_("Everybody folded: the Pot carries to the next round as its ante."))
        return [line for line in lines if line]
    lines = [_("Round {round} · Dealer {dealer} · Elder {elder} · Younger {younger}", round=obs.get("round", 1),
               dealer=name_of(names, obs.get("dealer")), elder=name_of(names, obs.get("elder")),
               younger=name_of(names, obs.get("younger")))]
    if gambling:
        lines.append(_("**Pot:** {pot} · Stake {stake} · raise cap {cap}", pot=obs.get("pot", 0), stake=obs.get("stake"),
                       cap=obs.get("cap")))
    lines += _rule_lines(obs)
    lines.append(_part_line(obs))
    if obs.get("over"):
        winner = obs.get("winner")
        if winner is None:
            lines.append(_("Everybody folded: the Pot carries to the next round as its ante."))
        else:
            lines.append(_(OUTCOMES.get(obs.get("outcome", ""), OUTCOME_DEFAULT), name=name_of(names, winner)))
        return lines
    lines += _turn_lines(obs, names, first_line)
    lines += _auction_lines(obs, names)
    return lines


#: About how many characters a line of Discord's 960 px message area holds.
LINE_CHARACTERS = 85


def _packed(pieces: Sequence[str]) -> list[str]:
    """Short pieces joined with " · " into as few lines as fit one line of the message
    each (the marks of bold take no room), in order."""
    lines: list[str] = []
    for piece in pieces:
        joined = f"{lines[-1]} · {piece}" if lines else piece
        if lines and len(joined.replace("**", "")) <= LINE_CHARACTERS:
            lines[-1] = joined
        else:
            lines.append(piece)
    return lines


def _rule_lines(obs: Mapping[str, Any]) -> list[str]:
    """This round's changed rules: wild eights, the Fool."""
    lines = []
    if obs.get("eights_wild"):
        lines.append(_("**Eights are wild** this round (stopped by Fate)") if obs.get("fate_unwild") is not None
                     else _("**Eights are wild** this round"))
    if obs.get("fool"):
        lines.append(_("**The Fool** was declared: bagels and Onions have changed places"))
    return lines


def _turn_lines(obs: Mapping[str, Any], names: Mapping[int, str], first_line: bool = False, why: bool = True) -> list[str]:
    """Who must act and what they do (or whose task is awaited), then where the duel stands.
    ``first_line``: the platform's first line names them and says what to do: only the
    chips a player owes are said here (and a task the first line could not word).
    ``why`` off: the duel's line leaves out why its hand is better (see :func:`duel_lines`)."""
    if obs.get("over"):
        return []
    lines = []
    tasks = obs.get("tasks") or []
    if first_line and (not tasks or turn_task(obs)):
        owes = [f"{name_of(names, p)} {chips(int((obs.get('owed') or {}).get(str(p)) or 0))}"
                for p in obs.get("current") or [] if (obs.get("owed") or {}).get(str(p))]
        if owes:
            lines.append(_("**Owes:** {owes}", owes=", ".join(owes)))
    elif tasks:
        # (Each said apart: a sentence inside another's arguments escapes the catalog's extraction.)
        waiting = [_("{name} (choose a replacement)", name=name_of(names, t["player"])) if t["kind"] == "pick"
                   else _("{name} (disclose a card)", name=name_of(names, t["player"])) for t in tasks]
        lines.append(_("**Waiting for:** {tasks}", tasks=", ".join(waiting)))
    else:
        for p in obs.get("current") or []:
            hint = step_hint(obs)
            owed = (obs.get("owed") or {}).get(str(p))
            owes = " " + _("(owes {chips})", chips=chips(owed)) if owed else ""
            thinking = " " + _("(a computer player: it moves in a moment)") if computer.is_computer(p) else ""
            lines.append(_("**Turn:** {name} {hint}", name=name_of(names, p), hint=hint).rstrip() + owes + thinking)
    return lines + duel_lines(obs, names, why=why)


def _auction_lines(obs: Mapping[str, Any], names: Mapping[int, str]) -> list[str]:
    auction = obs.get("auction")
    if not auction:
        return []
    bids = ", ".join(f"{name_of(names, int(p))} {b}" for p, b in auction["bids"].items()) or _("no bids yet")
    return [_("**Bids:** {bids} · next bid at least {minimum}", bids=bids, minimum=auction["minimum"])]


def _chips_line(obs: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """Every seat's chips on one line (what the picture cannot show): "@Ann 89 · @Bob 82"
    (the chips bet near the Pot are counted on the Pot's line)."""
    parts = [f"{name_of(names, seat['player'])} {seat.get('chips', 0)}" for seat in obs.get("seats", [])]
    return _("**Chips:** {seats}", seats=" · ".join(parts))


def _seat_lines(obs: Mapping[str, Any], names: Mapping[int, str]) -> list[str]:
    gambling = obs.get("variant") == "gambling"
    lines = []
    for seat in obs.get("seats", []):
        p = seat["player"]
        who = name_of(names, p)
        if seat.get("role"):
            who += f" ({role_text(seat['role'])})"
        if seat.get("out"):
            lines.append(_("{who}: sitting out (no chips for the Stake)", who=who))
            continue
        parts = []
        if gambling:
            parts.append(chips(seat["chips"]))
            if seat.get("pending"):
                parts.append(_("{chips} near the Pot", chips=chips(seat["pending"])))
        if seat.get("left"):
            parts.append(pgettext("onion seat", "left"))
        elif seat.get("folded"):
            parts.append(pgettext("onion seat", "folded"))
        else:
            parts.append(_("{n} face down", n=seat["down"]))
            if seat.get("up"):
                parts.append(_("face up {cards}", cards=show_all(seat["up"])))
        if seat.get("aside"):
            parts.append(_("set aside {cards}", cards=show_all(seat["aside"])))
        if seat.get("exchanged") is not None and obs.get("phase") in ("exchange", "bet"):
            parts.append(_("exchanged {n}", n=seat["exchanged"]))
        if seat.get("bought"):
            parts.append(_("bought {n}", n=seat["bought"]))
        lines.append(f"{who}: " + " · ".join(parts))
    return lines


def table_embed(observation: Mapping[str, Any], names: Mapping[int, str], recent: Sequence[str], *,
                pictures: bool = False, first_line: bool = False) -> Panel:
    """The public table, from the spectator observation. ``pictures``: the board carries
    the card picture (:func:`table_cards`), so the text says only what it cannot (see
    :func:`_picture_embed`); without it the text is the whole table (screen readers and
    the terminal read it). ``first_line``: the platform's first line says who acts."""
    obs = observation
    if pictures:
        return _picture_embed(obs, names, recent, first_line)
    embed = Panel(title="Cripple Mr Onion", colour=COLOUR)
    embed.description = clip("\n".join(_status_lines(obs, names, first_line=first_line)), DESCRIPTION_LIMIT)
    embed.add_field(name=_("Players"), value=clip_lines_from_end(_seat_lines(obs, names), FIELD_VALUE_LIMIT) or "—",
                    inline=False)
    specials = obs.get("specials") or {}
    if specials:
        embed.add_field(name=_("Special cards on the table"),
                        value=clip(", ".join(special_text(c) for c in specials), FIELD_VALUE_LIMIT), inline=False)
    story = story_fields(obs, names)
    for name, value in story:  # the showdown in order: it tells what Recent would, and all of it
        embed.add_field(name=name, value=value, inline=False)
    if obs.get("showdown") and not story:  # a round saved before the story was kept
        lines = [f"{'🥇 ' if s['player'] == obs.get('winner') else ''}{name_of(names, s['player'])}: "
                 f"{explanation_text(s['explanation'])}" for s in obs["showdown"]]
        embed.add_field(name=_("Showdown"), value=clip("\n".join(lines), FIELD_VALUE_LIMIT), inline=False)
    if recent and not story:
        embed.add_field(name=_("Recent"), value=clip_lines_from_end(list(recent), FIELD_VALUE_LIMIT) or "—", inline=False)
    embed.footer = footer_hint(obs)
    return fit_embed(embed)


def _picture_embed(obs: Mapping[str, Any], names: Mapping[int, str], recent: Sequence[str],
                   first_line: bool = False) -> Panel:
    """The board above the card picture: whose move and what to do, the part of the
    round, the Pot and every seat's chips, the special cards by name (the picture shows
    the cards, not what they are), and the last few events; at the showdown its story by
    grouping names (the picture shows the hands card by card). Nothing the picture shows
    (roles, cards, who folded) and, at the end, not the winner: the result line says it."""
    embed = Panel(title="Cripple Mr Onion", colour=COLOUR)
    # The last events, under the head without a heading of their own (as Engines' and
    # Enid's): at the showdown, the last of its story by grouping names (the picture shows
    # the hands card by card). At the end none: the result line tells the showdown (who
    # beat whom, with what), and the story would name the winner again.
    head = "\n".join(_status_lines(obs, names, pictures=True, first_line=first_line))
    story = story_lines(obs, names, detail=False)
    last = [] if obs.get("over") else (story or list(recent))[-PICTURE_RECENT:]
    events = clip_lines_from_end(last, max(0, DESCRIPTION_LIMIT - len(head) - 1)) if last else ""
    embed.description = clip(f"{head}\n{events}" if events else head, DESCRIPTION_LIMIT)
    embed.footer = footer_hint(obs, pictures=True)
    return fit_embed(embed)


def footer_hint(observation: Mapping[str, Any], *, pictures: bool = False) -> str:
    """The game's own footer: variant, piles, the ✦ legend, where the rules are.
    ``pictures`` (the board above the card picture): the round, the Stake and the raise
    cap first (the board's head leaves them here), no variant (the chips say it)."""
    obs = observation
    if pictures:
        off = [f"#{n}" for n, *_texts in MODIFIERS if (obs.get("rules") or {}).get(f"mod{n}", "on") == "off"]
        head = (_("Round {round} · Stake {stake} · raise cap {cap}", round=obs.get("round", 1), stake=obs.get("stake"),
                  cap=obs.get("cap")) if obs.get("variant", "gambling") == "gambling"
                else _("Round {round} · Plain (no chips)", round=obs.get("round", 1)))
        return (head + " · " + _("pack {pack} · discards {discards}", pack=obs.get("deck_size", 0),
                                 discards=obs.get("discard_size", 0))
                + (" · " + _("modifiers off: {numbers}", numbers=" ".join(off)) if off else "")
                + " · " + _("✦ special card · /rules onion"))
    variant = _("Gambling") if obs.get("variant", "gambling") == "gambling" else _("Plain (no chips)")
    off = [f"#{n}" for n, *_texts in MODIFIERS if (obs.get("rules") or {}).get(f"mod{n}", "on") == "off"]
    return (_("{variant} · pack {pack} · discards {discards}", variant=variant, pack=obs.get("deck_size", 0),
              discards=obs.get("discard_size", 0))
            + (" · " + _("modifiers off: {numbers}", numbers=" ".join(off)) if off else "")
            + " · " + _("✦ marks a special card · The rules: /rules onion"))


def suits_legend() -> str:
    """The Latin suits' signs as the text prints them (the picture draws each card's pip):
    said in the hand that holds one, in the text's own colour (in a footer's muted small
    print ⚔︎ measured 3.2:1 on the light theme)."""
    return _("{swords} swords, {staves} staves, {cups} cups, {coins} coins", swords=suit_text("⚔"),
             staves=suit_text("🪄"), cups=suit_text("🏆"), coins=suit_text("🪙"))


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
        if rounds:
            return [_("Plain variant, round {round} of the session: no chips, no betting; the round's winner scores a "
                      "win and deals next.", round=rounds + 1)]
        return [_("Plain variant: no chips, no betting; the round's winner scores a win and deals next.")]
    stake, starting = int(get("stake")), chips(int(get("chips")))
    rules = _("the Stake is {stake} and a raise is at most {cap}.", stake=chips(stake),
              cap=chips(int(get("raise_cap")) * stake))
    banks = {int(p): int(v) for p, v in (carry.get("bankrolls") or {}).items()}
    if not banks:
        return [_("Gambling: everyone starts with {chips}; {rules}", chips=starting, rules=rules)]
    richest = sorted(banks, key=lambda p: (-banks[p], p))
    listed = ", ".join(f"{computer.name(p)} {banks[p]}" for p in richest[:LOBBY_BANKROLLS])
    if len(richest) > LOBBY_BANKROLLS:
        listed = _("{listed} and {count} more", listed=listed, count=len(richest) - LOBBY_BANKROLLS)
    lines = [_("Gambling, round {round} of the session: bankrolls carry over ({listed}); a newcomer starts with "
               "{chips}; {rules}", round=rounds + 1, listed=listed, chips=starting, rules=rules)]
    if int(carry.get("pot", 0)):
        lines.append(_("The Pot of {chips} from the last round, which everybody folded, is this round's ante: "
                       "nobody antes.", chips=chips(int(carry["pot"]))))
    return lines


def _your_task(obs: Mapping[str, Any]) -> str:
    viewer = obs.get("viewer")
    if obs.get("over"):
        return _("The round is over.")
    if obs.get("offered"):
        return _("Choose the card that takes the special card's place.")
    if any(t["player"] == viewer and t["kind"] == "disclose" for t in obs.get("tasks") or []):
        return _("The Archchancellor makes you disclose one face-down card: choose it.")
    if viewer not in (obs.get("current") or []):
        return _("Waiting for your turn.")
    duel = obs.get("duel") or {}
    if obs.get("phase") == "duel" and duel.get("step") == "challenge":
        view = obs.get("duel_view") or {}
        if obs.get("may_show") and view and view.get("leader") != viewer:
            return _("Your turn: your hand equals the top grouping of the hand laid, but shown as it is it would "
                     "lose (see above). Lay it otherwise or play a modifier (if offered), show it anyway, or concede.")
        if obs.get("may_show"):
            return _("Your turn: your hand equals or beats the hand laid. Show it (or lay it otherwise), or play a modifier first.")
        return _("Your turn: your hand cannot equal or beat the hand laid as it is. Lay it otherwise or play a "
                 "modifier that changes that (if offered), or concede.")
    owed = (obs.get("owed") or {}).get(str(viewer))
    hint = step_hint(obs, _("to act"))
    if owed:
        return _("Your turn {hint}. You owe {chips}.", hint=hint, chips=chips(owed))
    if obs.get("phase") == "bet" and obs.get("step") == "respond":
        return _("Your turn {hint}. The Dealer named nothing: matching costs nothing.", hint=hint)
    return _("Your turn {hint}.", hint=hint)


def hand_embed(observation: Mapping[str, Any], names: Mapping[int, str]) -> Panel:
    """One player's private view, from that player's observation."""
    obs = observation
    down, up = obs.get("hand") or [], obs.get("face_up") or []
    embed = Panel(title=_("Your cards: {n}", n=len(down) + len(up)), colour=COLOUR)
    laid = laid_entry(obs)
    facing = facing_lines(obs, names, lambda action: _label(action)[0])
    if laid is None:
        lines = [_("**Face down:** {cards}", cards=show_all(down))]
        if up:  # (none before the second deal: a line saying "—" would tell nothing)
            lines.append(_("**Face up:** {cards}", cards=show_all(up)))
    elif facing:
        lines = []  # (the duel's lines below list the hand as laid, grouping by grouping)
    else:
        hand = explanation_text(laid["explanation"]) if laid.get("explanation") else show_all(laid["cards"])
        lines = [_("**Laid face up for everyone:** {cards}", cards=hand)]
    if any(code[-1].lower() in "wtuo" for code in [*down, *up, *(obs.get("offered") or [])]):
        lines.append(suits_legend())  # a Latin suit in the hand: its sign, told
    mine = obs.get("hand_specials") or {}
    if mine:
        lines.append(_("**Special:** {cards}", cards=", ".join(special_text(c) for c in mine)))
    if obs.get("offered"):
        lines.append(_("**Offered:** {cards}", cards=show_all(obs["offered"])))
    seat = next((s for s in obs.get("seats", []) if s["player"] == obs.get("viewer")), None)
    if seat and obs.get("variant") == "gambling":
        lines.append(_("**Your chips:** {chips} · Pot {pot}", chips=seat["chips"], pot=obs.get("pot", 0)))
    if seat and seat.get("eights_wild"):
        lines.append(_("Your eights are wild."))
    if facing:
        lines += ["", *facing] if lines else facing
    lines += ["", f"**{_your_task(obs)}**"]
    embed.description = clip("\n".join(lines), DESCRIPTION_LIMIT)
    return fit_embed(embed)


def _label(action: Action) -> tuple[str, str, str]:
    """(label, place, style) for one action."""
    kind, arg = action.kind, action.arg
    if kind == "discard":
        if not action.cards:
            return _("Keep all five"), "button", "primary"
        return _("Discard {cards}", cards=" ".join(label_card(str(c)) for c in action.cards)), "select", "secondary"
    if kind == "fold":
        return pgettext("onion button", "Fold"), "button", "danger"
    if kind == "bet":
        return (_("Bet {amount}", amount=arg) if arg != "0" else _("Bet nothing")), "button", "primary"
    if kind == "match":
        return pgettext("onion button", "Match"), "button", "success"
    if kind == "raise":
        return _("Match and raise {amount}", amount=arg), "button", "primary"
    if kind == "bid":
        return _("Bid {amount}", amount=arg), "button", "primary"
    if kind == "decline":
        return pgettext("onion button", "Decline"), "button", "secondary"
    if kind == "buy":
        return (ngettext("Buy {n} card face down", "Buy {n} cards face down", int(arg)) if arg != "0"
                else _("Buy none")), "button", "primary"
    if kind == "extra":
        return (_("Extra bet {amount}", amount=arg) if arg != "0" else _("No extra bet")), "button", "primary"
    if kind == "pass":
        return _("Pass the dealership"), "button", "danger"
    if kind == "declare":
        power = POWER_LABELS.get(arg)
        return (_(power) if power else _("Declare {card}", card=label_card(str(action.cards[0])))), "button", "primary"
    if kind == "rewild":
        return _("Make my eights wild again (the Lady)"), "button", "primary"
    if kind == "done":
        return _("Done declaring"), "button", "success"
    if kind == "show":
        return _("Show my hand"), "button", "success"
    if kind == "rearrange":
        if arg == "best":
            return _("Re-form my hand at its best (once)"), "button", "primary"
        return _("Lay a {grouping} first (escapes the cripple)", grouping=arg.replace("-", " ")), "button", "primary"
    if kind == "concede":
        return pgettext("onion button", "Concede"), "button", "danger"
    if kind == "pick":
        return _("Take {card}", card=show(str(action.cards[0]))), "select", "primary"
    if kind == "disclose":
        return _("Disclose {card}", card=show(str(action.cards[0]))), "select", "primary"
    return action.code(), "button", "secondary"


#: The "any amount" form's button, for the amounts the rules accept in a range.
AMOUNT_VERBS = {"bet": N_("Bet another amount ({low}–{high})…"),
                "raise": N_("Match and raise another amount ({low}–{high})…"),
                "bid": N_("Bid another amount ({low}–{high})…"),
                "extra": N_("Extra bet another amount ({low}–{high})…")}
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
        out.append(Control(Action("discard"), label=_("Discard 1 to {most} cards…", most=MAX_DISCARD), place="multi",
                           choices=tuple((code, label_card(code)) for code in hand), max_values=MAX_DISCARD))
    amounts: dict[str, list[int]] = {}
    owed = (observation.get("owed") or {}).get(str(observation.get("viewer")), 0)
    for action in legal:
        if action.kind == "discard" and action.cards:
            continue
        if action.kind == "match":  # the price on the button: what matching costs now
            label = _("Match {chips}", chips=chips(owed)) if owed else _("Match (nothing to pay)")
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
            label = _(AMOUNT_VERBS[kind], low=low, high=high)
            out.append(Control(Action(kind), label=clip(label, BUTTON_LABEL_LIMIT), place="amount", style="secondary"))
    return out


def quiet_line(event: Event, obs: Mapping[str, Any], names: Mapping[int, str]) -> str | None:
    """A replay's line for a public event the table's log leaves out (the board shows
    it): a player done with the declarations, after declaring something or nothing
    (``obs``: the spectator observation after it). None for any other event."""
    if event.kind != "declare_done":
        return None
    who = name_of(names, event.player)
    if any(d.get("player") == event.player for d in obs.get("declared") or ()):
        return _("{who} has nothing more to declare", who=who)
    return _("{who} declares nothing", who=who)


def event_lines(events: Sequence[Event], names: Mapping[int, str]) -> list[str]:
    """Public one-liners (events read as a spectator sees them)."""
    lines: list[str] = []
    for event in events:
        d = event.visible_to(None)
        who = name_of(names, event.player)
        kind = event.kind
        if kind == "ante":
            if d.get("carried"):
                lines.append(_("Round opens: the Pot holds {pot} (carried over, no ante)", pot=d.get("pot")))
            else:
                lines.append(_("Round opens: the Pot holds {pot} (everyone antes {stake})", pot=d.get("pot"),
                               stake=d.get("stake")))
        elif kind == "exchange":
            n = d.get("count", 0)
            if n == 5:
                lines.append(_("{who} folded by discarding all five", who=who))
            elif n:
                lines.append(ngettext("{who} exchanged {n} card", "{who} exchanged {n} cards", n, who=who))
            else:
                lines.append(_("{who} keeps all five cards", who=who))
        elif kind == "bet":
            # With its part: two parts in a row named alike read as one line said twice.
            amount, part = int(d.get("amount") or 0), _part_of_round(int(d.get("part") or 1))
            lines.append(_("{who} (Dealer) names {chips} for part {part} of the betting", who=who, chips=chips(amount),
                           part=part) if amount
                         else _("{who} (Dealer) names nothing for part {part} of the betting: staying in costs nothing",
                                who=who, part=part))
        elif kind == "match":
            raise_by = d.get("raise")
            if raise_by:
                lines.append(_("{who} matched {amount} and raised {raise_by}", who=who, amount=d.get("amount"),
                               raise_by=raise_by))
            elif d.get("amount"):  # matching nothing (the Dealer named 0) goes without saying
                lines.append(_("{who} matched {amount}", who=who, amount=d.get("amount")))
        elif kind == "collective_raise":
            lines.append(_("The Dealer must match the collective raise of {chips} or fold",
                           chips=chips(int(d.get("total") or 0))))
        elif kind == "fold":
            lines.append(_("{who} left and folded", who=who) if d.get("reason") == "left" else _("{who} folded", who=who))
        elif kind == "auction":
            lines.append(_("The Dealer folded: the dealership is up for auction"))
        elif kind == "bets_returned":
            back = ", ".join(f"{name_of(names, r['player'])} {r['amount']}" for r in d.get("returned") or [])
            lines.append(_("The bets not yet in the Pot go back to whoever made them: {back}", back=back))
        elif kind == "bid":
            lines.append(_("{who} bids {bid} for the dealership", who=who, bid=d.get("bid")))
        elif kind == "decline":
            lines.append(_("{who} declines (their bid of {bid} goes into the Pot)", who=who, bid=d["bid"]) if d.get("bid")
                         else _("{who} declines", who=who))
        elif kind == "new_dealer":
            if d.get("passed"):
                lines.append(_("{who} takes the passed dealership", who=who))
            else:
                lines.append(_("{who} is the new Dealer for a bid of {chips}", who=who, chips=chips(int(d.get("bid") or 0))))
        elif kind == "bought":
            n, up = d.get("count", 0), d.get("face_up") or []
            if n and up:
                lines.append(ngettext("{who} bought {n} card face down; the rest are dealt face up: {cards}",
                                      "{who} bought {n} cards face down; the rest are dealt face up: {cards}", n,
                                      who=who, cards=show_all(up)))
            elif n:
                lines.append(ngettext("{who} bought {n} card face down", "{who} bought {n} cards face down", n, who=who))
            elif up:
                lines.append(_("{who} bought no cards, so all five are dealt face up: {cards}", who=who,
                               cards=show_all(up)))
            else:
                lines.append(_("{who} gets no cards", who=who))
        elif kind == "extra":
            amount = int(d.get("amount") or 0)
            lines.append(_("{who} makes an extra bet of {chips}", who=who, chips=chips(amount)) if amount
                         else _("{who} makes no extra bet", who=who))
        elif kind == "extra_total":
            lines.append(_("Extra bets total {chips}: the Dealer matches or passes the dealership",
                           chips=chips(int(d.get("total") or 0))))
        elif kind == "pass":
            lines.append(_("{who} passes the dealership on", who=who))
        elif kind == "duel_start":
            lines.append(_("The showdown, hand against hand: the Elder lays their hand first"))
        elif kind in TOLD_KINDS:  # the showdown's events, and the declarations it shares
            line = story_line(kind, d, names)
            if line:
                lines.append(line)
        elif kind == "all_fold":
            lines.append(_("Everybody folds: the Pot of {pot} carries to the next round", pot=d.get("pot")))
        elif kind == "rebuy":
            lines.append(_("{who} buys back in with {chips} chips", who=who, chips=d.get("chips")))
        elif kind == "player_removed":
            lines.append(_("{who} left the table", who=who))
    return lines


# --------------------------------------------------------------------------- pictures


def art_code(code: str) -> str:
    """A card code for ``bot/pictures/cardart.py``: the marked copy of a special card gets ``*``
    (the picture's badge, the ✦ of the text)."""
    return code + "*" if parse_card(code).special else code


def _art(codes: Sequence[str]) -> tuple[str, ...]:
    return tuple(art_code(c) for c in codes)


def table_cards(observation: Mapping[str, Any], names: Mapping[int, str] | None = None) -> list[CardRow]:
    """The public picture, from the spectator observation only: one row per seat with its
    face-up cards (the second deal, declared and disclosed cards) and its face-down cards
    as backs; at the showdown every revealed hand instead. A declared Lady or Fate set
    aside (no longer in the hand) ends its seat's row after a gap, or, while the seat
    holds cards face down, is a row of its own under it.

    ``names`` (optional) maps player id to a plain-text display name for the row
    labels ("Seat 2 · Ann"); without it, or for a mention, rows say "Seat 2"."""
    obs = observation
    players = obs.get("players") or [s["player"] for s in obs.get("seats", [])]
    current = set(obs.get("current") or [])
    shown = {s["player"]: s for s in obs.get("showdown") or []}
    rows: list[CardRow] = []
    folded: list[int] = []
    for seat in obs.get("seats", []):
        p = seat["player"]
        label = seat_label(players, p, names)
        who = seat_spoken(players, p, names, role=role_text(seat.get("role") or ""))
        if seat.get("role"):
            label += f" · {role_text(seat['role'])}"
        if seat.get("out"):
            rows.append(CardRow(label + " · " + _("sitting out"), deck="onion",
                                spoken=_("{who} sits out, with no chips for the Stake", who=who)))
            continue
        if seat.get("left"):
            rows.append(CardRow(label + " · " + _("left the table"), deck="onion", spoken=_("{who} left the game", who=who)))
            continue
        if seat.get("folded"):
            folded.append(p)
            continue
        status = ""
        if p == obs.get("winner"):
            label += " · " + pgettext("onion seat", "wins")
            status = ". " + _("They win the round")
        elif p in current and not obs.get("over"):
            label += " · " + pgettext("onion seat", "to act")
            status = ". " + _("It is their turn")
        if p in shown:  # the revealed hand, grouping by grouping as the label names them
            entry = shown[p]
            groupings = ", ".join(grouping_text(g) for g in entry.get("groupings") or []) or _("no grouping")
            label += " · " + groupings
            # {cards} is left for the picture to fill with the cards it shows.
            rows.append(CardRow(label, _art(entry.get("grouped") or entry["cards"]), deck="onion",
                                spoken=_("{who} shows {cards}: {groupings}", who=who, groupings=groupings,
                                         cards="{cards}") + status))
        else:
            up = seat.get("up") or []
            # (No count in the label: the picture shows the face-up cards, and the backs
            # as so many cards or a stack with its count on it.)
            if up:
                spoken = ngettext("{who} has {n} card face down; face up: {cards}",
                                  "{who} has {n} cards face down; face up: {cards}", seat["down"], who=who, cards="{cards}")
            else:
                spoken = ngettext("{who} has {n} card face down", "{who} has {n} cards face down", seat["down"], who=who)
            rows.append(CardRow(label, _art(up), face_down=seat["down"], deck="onion", spoken=spoken + status))
        if seat.get("aside") and not rows[-1].face_down:
            rows[-1] = _with_aside(rows[-1], _art(seat["aside"]), seat_spoken(players, p, names))
        elif seat.get("aside"):  # (after the backs it would read as one more card face down)
            rows.append(CardRow(seat_label(players, p, names) + " · " + _("set aside, no longer in the hand"),
                                _art(seat["aside"]), deck="onion",
                                spoken=_("{who} set aside {cards}, no longer in the hand",
                                         who=seat_spoken(players, p, names), cards="{cards}")))
    if folded:  # the seats without cards share one row, last: a row of its own each is a card's height of felt
        rows.append(_folded_row(obs, players, folded, names))
    return rows


def _with_aside(row: CardRow, aside: tuple[str, ...], who: str) -> CardRow:
    """A seat's row with the cards it set aside (a declared Lady or Fate, no longer in
    the hand) at its end, after a gap: a row of their own cost the picture a card's height."""
    hand = spoken_list([card_name(code, "onion") for code in row.cards])
    spoken = (row.spoken or row.label).replace("{cards}", hand)
    said = _("{who} set aside {cards}, no longer in the hand", who=who,
             cards=spoken_list([card_name(code, "onion") for code in aside]))
    label = row.label + " · " + ngettext("the last card set aside", "the last {n} cards set aside", len(aside))
    return CardRow(label, row.cards + aside, row.face_down, deck="onion", spoken=f"{spoken}. {said}", apart=len(aside))


def _folded_row(obs: Mapping[str, Any], players: Sequence[int], folded: Sequence[int],
                names: Mapping[int, str] | None) -> CardRow:
    """The seats that folded, in one row: "Folded · Seat 1 · Ann, Seat 4 · Dee"; said
    seat by seat ("Ann, in seat 1, the Dealer, folded. Dee, in seat 4, folded")."""
    roles = {seat["player"]: role_text(seat.get("role") or "") for seat in obs.get("seats", [])}
    seats = ", ".join(seat_label(players, p, names) for p in folded)
    said = ". ".join(_("{who} folded", who=seat_spoken(players, p, names, role=roles.get(p, ""))) for p in folded)
    return CardRow(_("Folded · {seats}", seats=seats), deck="onion", spoken=said)


def laid_entry(obs: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The viewer's hand as laid face up at the showdown (in the duel, once laid), which
    everyone now sees; None while it is still theirs alone."""
    viewer = obs.get("viewer")
    return next((s for s in obs.get("showdown") or [] if s.get("player") == viewer and s.get("cards")), None)


def hand_cards(observation: Mapping[str, Any]) -> list[CardRow]:
    """A player's own picture, from their observation: the face-down cards only they
    see, their face-up cards (once laid at the showdown, the whole hand face up, as the
    board shows it), a Lady or Fate they set aside, and the cards offered to them in a
    special card's place."""
    obs = observation
    down, up = obs.get("hand") or [], obs.get("face_up") or []
    seat = next((s for s in obs.get("seats", []) if s["player"] == obs.get("viewer")), None)
    rows: list[CardRow] = []
    laid = laid_entry(obs)
    # {cards} in a spoken text is left for the picture to fill with the cards it shows.
    if laid is not None and (down or up):  # no longer private: as the board shows it
        cards = laid.get("grouped") or laid["cards"]
        rows.append(CardRow(_("Your hand, laid face up for everyone · {n}", n=len(cards)), _art(cards), deck="onion",
                            spoken=ngettext("Your hand of {n} card, laid face up for everyone: {cards}",
                                            "Your hand of {n} cards, laid face up for everyone: {cards}", len(cards),
                                            cards="{cards}")))
    elif down or up:
        rows.append(CardRow(_("Your face-down cards · {n} (only you see them)", n=len(down)), _art(down), deck="onion",
                            spoken=ngettext("Your {n} face-down card, which only you see: {cards}",
                                            "Your {n} face-down cards, which only you see: {cards}", len(down),
                                            cards="{cards}") if down
                            else _("You have no face-down cards")))
        if up:
            rows.append(CardRow(_("Your face-up cards · {n}", n=len(up)), _art(up), deck="onion",
                                spoken=ngettext("Your {n} face-up card: {cards}", "Your {n} face-up cards: {cards}",
                                                len(up), cards="{cards}")))
    else:
        folded = bool(seat and seat.get("folded"))
        rows.append(CardRow(_("Your cards: none (folded)") if folded else _("Your cards: none"), deck="onion",
                            spoken=_("You folded, so you have no cards") if folded else _("You have no cards")))
    if seat and seat.get("aside"):
        rows.append(CardRow(_("Set aside, no longer in your hand"), _art(seat["aside"]), deck="onion",
                            spoken=_("You set aside {cards}; it is no longer in your hand", cards="{cards}")))
    if obs.get("offered"):
        rows.append(CardRow(_("Offered: take one in the special card's place"), _art(obs["offered"]), deck="onion",
                            spoken=_("Offered to you in the special card's place, take one: {cards}", cards="{cards}")))
    return rows


def _people(players: Sequence[int]) -> str:
    names = [computer.name(p) for p in players]
    return names[0] if len(names) == 1 else _("{names} and {last}", names=", ".join(names[:-1]), last=names[-1])


def _lost_on(mine: Sequence[str], theirs: Sequence[str]) -> str:
    """Why a hand with groupings ``mine`` lost to the winner's ``theirs`` (highest first)."""
    top = grouping_text(mine[0]) if mine else _("no grouping")
    for i in range(max(len(mine), len(theirs))):
        a = grouping_text(mine[i]) if i < len(mine) else _("nothing")
        b = grouping_text(theirs[i]) if i < len(theirs) else _("nothing")
        if a != b:
            # Translators: {ordinal} is English ("2nd"); {n} is the plain number (2).
            return top if i == 0 else _("{top} too, lost on the {ordinal} grouping: {a} against {b}", top=top,
                                        ordinal=ordinal(i + 1), n=i + 1, a=a, b=b)
    return _("{top}, the same groupings: the tie goes to seniority", top=top)


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
        tail.append(_("Folded: {names}.", names=_people(folded)))
    if left:
        tail.append(_("Left: {names}.", names=_people(left)))
    if out:
        tail.append(_("Sat out: {names}.", names=_people(out)))
    winner = obs.get("winner")
    if obs.get("outcome") in ("all_fold", "abandoned") or winner is None:
        text = _("🤝 Everybody folded: nobody won the Cripple Mr Onion round.")
        if obs.get("outcome") == "abandoned":
            text = _("🤝 The Dealer left: the Cripple Mr Onion round was abandoned and nobody won it.")
        if obs.get("pot"):
            text += " " + _("The Pot of {chips} carries to the next round.", chips=chips(int(obs["pot"])))
        return text
    who = computer.name(winner)
    pot = next((int(e.get("pot") or 0) for e in obs.get("story") or [] if e.get("kind") == "won"), 0)
    won = [_("Pot won: {chips}.", chips=chips(pot))] if pot else []
    # (The winner's mark is the platform's 🥇, never 🏆: that is the cups suit in this
    # game. No brackets inside brackets: a grouping's name may carry its own, "six-card
    # onion (1 null eight)".)
    if obs.get("outcome") == "last":
        return " ".join([WINNER_MARK + " " + _("{who} won the Cripple Mr Onion round as the last player in.", who=who),
                         *won, *tail])
    shown = {s["player"]: s for s in obs.get("showdown") or []}
    mine = shown.get(winner, {})
    groupings = list(mine.get("groupings") or [])
    named = [grouping_text(g) for g in groupings]
    victim = mine.get("cripples")
    if victim is not None:
        beaten_top = (shown.get(victim, {}).get("groupings") or ["Onion"])[0]
        line = _("{who} won the Cripple Mr Onion round by crippling {victim}'s {grouping} with a running flush.",
                 who=who, victim=computer.name(victim), grouping=grouping_text(beaten_top))
    elif obs.get("outcome") == "seniority":
        line = _("{who} won the Cripple Mr Onion round on a complete tie, by seniority, with {groupings}.", who=who,
                 groupings=", ".join(named) or _("no grouping"))
    else:
        shortlist = (_("{groupings} and more", groupings=", ".join(named[:2])) if len(named) > 2
                     else ", ".join(named) or _("no grouping"))
        line = _("{who} won the Cripple Mr Onion round at the showdown with {groupings}.", who=who, groupings=shortlist)
    beaten = []
    for p, entry in shown.items():
        if p == winner:
            continue
        theirs = list(entry.get("groupings") or [])
        top = grouping_text(theirs[0]) if theirs else _("no grouping")
        if entry.get("conceded"):
            why = _("conceded with {grouping}", grouping=top)
        elif p == victim:
            why = _("crippled")
        else:
            why = top if victim is not None else _lost_on(theirs, groupings)
        beaten.append(_("{name} — {why}", name=computer.name(p), why=why))
    lines = [WINNER_MARK + " " + line, *won]
    if beaten:
        lines.append(_("Beaten: {hands}.", hands="; ".join(beaten)))
    return " ".join(lines + tail)


def session_placements(carry: Mapping[str, Any]) -> list[list[int]]:
    """The session's final standings as a ranking, the one rated game of a session
    (bot/players/ratings.py): by chips won, i.e. bankroll less chips rebought (a rebuy is a
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
    lines = [ngettext("{n} round played.", "{n} rounds played.", rounds)]
    if carry.get("variant") == PLAIN_VARIANT:
        for p in sorted(set(banks) | set(wins), key=lambda p: (-wins.get(p, 0), p)):
            lines.append(ngettext("{name}: {n} round won", "{name}: {n} rounds won", wins.get(p, 0), name=computer.name(p)))
        return "\n".join(lines)
    for p in sorted(banks, key=lambda p: (-banks[p], p)):
        won = ngettext("{n} round won", "{n} rounds won", wins.get(p, 0))
        if rebuys.get(p):
            won = _("{won}, rebought {rebought}", won=won, rebought=rebuys[p])
        lines.append(f"{computer.name(p)}: {chips(banks[p])} ({won})")
    if int(carry.get("pot", 0)):
        # Translators: the English singular is as the game has always said it.
        lines.append(ngettext("{n} chip were left in the pot by the last round, which everyone folded; they go to nobody.",
                              "{n} chips were left in the pot by the last round, which everyone folded; they go to nobody.",
                              int(carry["pot"])))
    return "\n".join(lines)

