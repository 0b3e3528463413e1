"""Cripple Mr Onion's showdown in words: what the board, the log and the hand say about it.

The showdown is where a round is won, so it is told as a story a spectator can follow
(issue 36): who lays down what, who is brought in against whom, who holds the better
cards now and why, each modifier played and what it did to the hands, who concedes or
has no answer left. ``cogs/onion/render.py`` puts these lines on the board and in the
hand; everything here reads observations or events' public data only.

- :func:`story_line` says one showdown event (the log's line, and a line of the story).
- :func:`story_fields` is the board's summary of the whole showdown, in order, from the
  observation's ``story`` (it survives the Recent window); :func:`notation_line` explains
  the marks in the hands shown ("A♥=1", "8♠=0", "8🏆=K", "2♣→10"), each told on a card the board shows.
- :func:`duel_lines` says where the duel stands (who holds the better cards, and why).
- :func:`facing_lines` is the hand's view for the one answering: the hand they face,
  their own, and what each answer would do to both.
- :func:`special_name` / :func:`special_text` name a special card in the current language.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.rules.engine import Action
from bot.words.i18n import N_, _, ngettext
from bot.words.render_util import FIELD_VALUE_LIMIT, clip, name_of, ordinal, suit_text, text_cards, unbroken
from cogs.onion.rules import OnionGame
from cogs.onion.scoring import explanation_text as _explanation_text, grouping_text, parse_card

#: The special cards' names, by card code (docs/rules/onion.md; the Spanish page says
#: which names it uses).
SPECIAL_NAMES = {"Qs": N_("the Lady"), "Ku": N_("Fate"), "Qo": N_("Great A'Tuin"), "Jd": N_("the Sender of Eight"),
                 "Kw": N_("Death"), "Jt": N_("the Archchancellor"), "Jc": N_("the Fool")}

#: What playing a special card does, said after its name in the story.
POWER_EFFECTS = {
    "lady": N_("she is replaced by one of the next two cards"),
    "fate": N_("replaced by one of the next two cards; the aces of the Lady's user count 0"),
    "unwild": N_("eights stop being wild"),
    "atuin": N_("8 points shift from one of their cards to another"),
    "elephants": N_("four nines or tens make a Double Onion"),
    "sender": N_("a hand that uses an eight has its aces zeroed"),
    "death": N_("a hand with two pictures keeps one out of Double Onions"),
    "archchancellor": N_("no eight of theirs counts 8, and Death must come out"),
    "fool": N_("bagels and Onions change places"),
}

#: What an answer whose effect cannot be told beforehand does (the replacement card is
#: unknown; whether Death comes out would say who holds it).
UNTOLD_EFFECTS = {
    "lady": N_("one of the next two cards takes her place: you choose it once you see them"),
    "fate": N_("one of the next two cards takes its place, and the aces of whoever used the Lady count 0"),
    "archchancellor": N_("a player still in who holds Death must declare it, and it acts on every hand; if nobody "
                         "does, J🪄 turns wild for you. Either way no eight of yours counts 8"),
}


def show(code: str | None) -> str:
    """A card as players read it; a special card (the marked copy) gets a ✦. The French
    suits as the white signs (readable on both themes), rank and suit on one line
    (``bot/words/render_util.py``'s ``card_text``, with this pack's own display)."""
    if not code:
        return "—"
    card = parse_card(code)
    return unbroken(suit_text(card.display())) + ("✦" if card.special else "")


#: The French suits' signs, which controls show as the other games' do.
FRENCH_SIGNS = frozenset("♣♠♥♦")


def label_card(code: str) -> str:
    """A card on a control (a button, a select's option), a ✦ on a special card. A Latin
    suit as the text prints it (⚔︎ swords, ♆ staves, ⚱︎ cups, ◉ coins, which the hand's
    legend explains; the 🪄 🏆 🪙 emoji were named nowhere, and faint on the light theme);
    a French suit as every game's controls show it."""
    card = parse_card(code)
    sign = card.suit.symbol
    return card.rank.label + (sign if sign in FRENCH_SIGNS else suit_text(sign)) + ("✦" if card.special else "")


def explanation_text(english: str) -> str:
    """A hand's explanation in the current language (``scoring.explanation_text``), its
    cards as the text prints them (``bot/words/render_util.py``'s ``text_cards``)."""
    return text_cards(_explanation_text(english))


def special_name(code: str) -> str:
    """A special card's name in the current language ("the Lady"), or the card itself."""
    name = SPECIAL_NAMES.get(str(parse_card(code)))
    return _(name) if name else show(code)


def special_text(code: str) -> str:
    """A special card with its name, as the board says it: "K⚔✦ Death"."""
    return f"{show(code)} {special_name(code)}"


def groupings_text(groupings: Sequence[str]) -> str:
    """A hand's groupings by name, highest first: "Double Onion, flush"."""
    return ", ".join(grouping_text(g) for g in groupings) or _("no grouping")


def _hand(data: Mapping[str, Any], detail: bool) -> str:
    """A laid hand: every grouping with its cards, or (``detail`` off) the names only."""
    if detail and data.get("explanation"):
        return explanation_text(str(data["explanation"]))
    return groupings_text(data.get("groupings") or [])


def _why(lead: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """Why the leader's hand holds against the other: the grouping that decides, a cripple,
    the place of an Onion crippled before, or seniority."""
    how = lead.get("how")
    if how == "seniority":
        return _("a complete tie, settled by seniority")
    if how == "cripple":
        return _("their {run} cripples the {grouping}", run=_run_text(str(lead.get("run", ""))),
                 grouping=grouping_text(str(lead.get("grouping", ""))))
    if how == "crippled_place":
        return _("in the place of {victim}'s crippled {grouping}", victim=name_of(names, lead.get("victim")),
                 grouping=grouping_text(str(lead.get("grouping", ""))))
    a = grouping_text(str(lead.get("a") or "")) or _("nothing")
    b = grouping_text(str(lead.get("b") or "")) or _("nothing")
    at = int(lead.get("at") or 0)
    if not at:
        return _("{a} against {b}", a=a, b=b)
    # Translators: {ordinal} is "2nd" (in Spanish "2.º"); {a} and {b} are groupings.
    return ngettext("the top grouping is equal; the {ordinal} decides: {a} against {b}",
                    "the top {n} groupings are equal; the {ordinal} decides: {a} against {b}", at,
                    ordinal=ordinal(at + 1), a=a, b=b)


_RUN = re.compile(r"^(nine|ten)-card running flush")


def _run_text(run: str) -> str:
    """A running flush's description ("ten-card running flush 3♣ 4♣ ...") in the current
    language."""
    match = _RUN.match(run)
    return text_cards(grouping_text(match.group(0)) + run[match.end():] if match else run)


def _cause(cause: Mapping[str, Any] | None, names: Mapping[int, str]) -> str:
    """What made a hand re-form: a card played, or a K⚔/J♦ laid face up in a hand."""
    if not cause:
        return _("a modifier")
    cards = " ".join(special_text(c) for c in cause.get("cards") or [])
    owner = name_of(names, cause.get("player"))
    if cause.get("power") == "laid":
        return _("{cards}, face up in {owner}'s laid hand", cards=cards, owner=owner)
    if cause.get("power") == "rewild":
        return _("{owner}'s eights made wild again", owner=owner)
    if cause.get("forced"):
        return _("{cards}, declared by {owner} (the Archchancellor forced it)", cards=cards, owner=owner)
    return _("{cards}, played by {owner}", cards=cards, owner=owner)


#: The events :func:`story_line` says (the log's lines for them, too).
TOLD_KINDS = frozenset({"showdown", "duel", "duel_lead", "concede", "declared", "reformed", "rearranged", "picked",
                        "disclosed", "rewild", "archchancellor_wild", "crippled", "won"})


def story_line(kind: str, data: Mapping[str, Any], names: Mapping[int, str], detail: bool = True) -> str | None:
    """One event of the showdown, as the log and the story say it (None: nothing to say).
    ``data`` is the event's public data; ``detail`` off names groupings without cards."""
    who = name_of(names, data.get("player"))
    if kind == "showdown":
        hand = _hand(data, detail)
        lines = {"elder": N_("{who} lays their hand first, as the Elder: {hand}"),
                 "shown": N_("{who} shows their hand: {hand}"),
                 "otherwise": N_("{who} lays their hand otherwise, to escape the cripple: {hand}"),
                 "cannot": N_("{who}'s hand cannot equal or beat it, so it is out: {hand}"),
                 "conceded": N_("{who} concedes without showing, and lays down: {hand}"),
                 "held": N_("{who} holds on, the other player having left: {hand}")}
        line = lines.get(str(data.get("how")))
        return _(line, who=who, hand=hand) if line else f"{who}: {hand}"
    if kind == "duel":
        return _("{challenger} is brought in against {champion}", challenger=name_of(names, data.get("challenger")),
                 champion=name_of(names, data.get("champion")))
    if kind == "duel_lead":
        winner, loser = name_of(names, data.get("winner")), name_of(names, data.get("loser"))
        if data.get("how") == "crippled_place":
            return _("{winner} holds the place of {victim}'s crippled {grouping}, which {loser}'s hand does not beat",
                     winner=winner, loser=loser, victim=name_of(names, data.get("victim")),
                     grouping=grouping_text(str(data.get("grouping", ""))))
        if data.get("how") == "cripple":
            return _("🧅 {winner}'s {run} cripples {loser}'s {grouping}", winner=winner, loser=loser,
                     run=_run_text(str(data.get("run", ""))), grouping=grouping_text(str(data.get("grouping", ""))))
        return _("{winner}'s hand beats {loser}'s: {why}", winner=winner, loser=loser, why=_why(data, names))
    if kind == "concede":
        winner = name_of(names, data.get("winner"))
        if not data.get("forced"):
            return _("{who} concedes to {winner}", who=who, winner=winner)
        if data.get("step") == "answer":
            if data.get("crippled"):
                return _("{who}'s crippled Onion may not be retracted: {winner} holds the better cards", who=who,
                         winner=winner)
            return _("{who} has no answer left: {winner} holds the better cards", who=who, winner=winner)
        return None  # the laid hand's line said it cannot equal or beat
    if kind == "declared":
        card = str(data.get("card"))
        if data.get("forced") and data.get("power") == "death":
            return _("{who}'s {card} is declared, forced by the Archchancellor: {effect}", who=who,
                     card=special_text(card), effect=_(POWER_EFFECTS["death"]))
        if data.get("forced"):
            return _("{who}'s {card} is declared as soon as it is dealt (eights are wild)", who=who,
                     card=special_text(card))
        effect = POWER_EFFECTS.get(str(data.get("power")))
        if effect:
            return _("{who} declares {card}: {effect}", who=who, card=special_text(card), effect=_(effect))
        return _("{who} declares {card}", who=who, card=special_text(card))
    if kind == "reformed":
        return _("{who}'s hand re-forms under {cause}: {was} → {hand}", who=who, cause=_cause(data.get("cause"), names),
                 was=groupings_text(data.get("was") or []), hand=_hand(data, detail))
    if kind == "rearranged":
        return _("{who} re-forms their hand at its best (once): {was} → {hand}", who=who,
                 was=groupings_text(data.get("was") or []), hand=_hand(data, detail))
    if kind == "picked":
        card = f" {show(data['card'])}" if data.get("card") else ""
        return (_("{who} took a replacement{card} (time ran out)", who=who, card=card) if data.get("timeout")
                else _("{who} took a replacement{card}", who=who, card=card))
    if kind == "disclosed":
        return (_("{who} discloses {card} (time ran out)", who=who, card=show(data.get("card"))) if data.get("timeout")
                else _("{who} discloses {card}", who=who, card=show(data.get("card"))))
    if kind == "rewild":
        return _("{who} makes their own eights wild again with the Lady", who=who)
    if kind == "archchancellor_wild":
        return _("Nobody holds Death: the Archchancellor is wild this round") if data.get("wild") else None
    if kind == "crippled":
        return _("🧅 {who} cripples {victim} with a {run}", who=who, victim=name_of(names, data.get("victim")),
                 run=_run_text(str(data.get("run", ""))))
    if kind == "won":
        if data.get("pot"):
            # (No 🏆 mark: 🏆 is the cups suit in this game.)
            return _("💰 {who} takes the Pot of {pot}", who=who, pot=data.get("pot"))
        return _("{who} wins the round", who=who)
    if kind == "fold" and data.get("reason") == "left":
        return _("{who} left and folded", who=who)
    return None


def _story(entries: Sequence[Mapping[str, Any]], names: Mapping[int, str], detail: bool) -> list[str]:
    # A duel's cripple is said where it happens; the round's closing "crippled" repeats it.
    told_cripple = any(e.get("kind") == "duel_lead" and e.get("how") == "cripple" for e in entries)
    lines = []
    for entry in entries:
        if entry.get("kind") == "crippled" and told_cripple:
            continue
        line = story_line(str(entry.get("kind")), entry, names, detail)
        if line:
            lines.append(line)
    return lines


#: The marks a shown hand may carry, each with the sentence that explains it, told with
#: the first card on the board that carries the mark (a card already shown, never an
#: invented one a reader could take for a card in play). Patterns read the English
#: explanation (the state's), before it is translated.
NOTATIONS = (
    (re.compile(r"A\S*=(?:1|11)\b"), N_("{card}: an ace counts 1 or 11")),
    (re.compile(r"(?<!\S)8\S*=0\b"), N_("{card}: a null eight, counted 0 to make an onion longer (of two onions as "
                                       "long, the one with fewer null eights wins)")),
    (re.compile(r"(?<!\S)(?:8|J🪄)\S*=(?!0\b|1\b|11\b)\S+"),
     N_("{card}: a wild card, played as the card after the =")),
    (re.compile(r"\S+→\S+"), N_("{card}: a card whose value a modifier shifted (Great A'Tuin, the Elephants)")),
)


def notation_line(explanations: Iterable[str]) -> str:
    """How to read the marks in ``explanations`` (English, as the state keeps them), only
    those that occur, each shown on a card that carries it; "" when none does."""
    text = "\n".join(explanations)
    found = [_(sentence, card=text_cards(match.group(0))) for pattern, sentence in NOTATIONS if (match := pattern.search(text))]
    return _("How to read the hands: {marks}.", marks="; ".join(found)) if found else ""


def _explanations(entries: Sequence[Mapping[str, Any]]) -> list[str]:
    return [str(e["explanation"]) for e in entries if e.get("explanation")]


#: The story is told with every card while it fits this; longer, by grouping names.
STORY_DETAIL_LIMIT = 2 * FIELD_VALUE_LIMIT


def story_fields(obs: Mapping[str, Any], names: Mapping[int, str]) -> list[tuple[str, str]]:
    """The board's summary of the showdown, in order (laid, brought in, answered, re-formed,
    crippled, conceded, won), as (name, value) fields of at most 1,024 characters each:
    with every card while it is short enough, else by grouping names; then how to read the
    marks in the cards it shows ("A♥=1", "8♠=0"; none by grouping names). [] before the
    showdown."""
    entries = obs.get("story") or []
    if not entries:
        return []
    detailed = True
    lines = _story(entries, names, detail=True)
    if sum(len(line) + 1 for line in lines) > STORY_DETAIL_LIMIT:
        detailed, lines = False, _story(entries, names, detail=False)
    # How to read the marks, only when the cards (and their marks) are shown.
    legend = notation_line(_explanations(entries)) if detailed else ""
    if legend:
        lines.append(f"*{legend}*")
    values: list[str] = []
    chunk: list[str] = []
    for line in lines:
        line = clip(line, FIELD_VALUE_LIMIT)
        if chunk and len("\n".join([*chunk, line])) > FIELD_VALUE_LIMIT:
            values.append("\n".join(chunk))
            chunk = []
        chunk.append(line)
    if chunk:
        values.append("\n".join(chunk))
    return [(_("Showdown, as it happened") if i == 0 else _("Showdown, continued"), value)
            for i, value in enumerate(values)]


def story_lines(obs: Mapping[str, Any], names: Mapping[int, str], *, detail: bool = True) -> list[str]:
    """The showdown's story as lines, in order ([] before the showdown); ``detail`` off:
    by grouping names, without cards."""
    return _story(obs.get("story") or [], names, detail=detail)


def duel_lines(obs: Mapping[str, Any], names: Mapping[int, str], *, why: bool = True) -> list[str]:
    """Where the duel stands, for the board: who holds the better cards now and why (or
    who is brought in against which hand), and who is still to come. ``why`` off (the
    board above the card picture, whose last event is the comparison that put them ahead,
    "A's hand beats B's: … against …"): not why, so it is not said twice."""
    duel = obs.get("duel")
    if not duel:
        return []
    laid = {s["player"]: s for s in obs.get("showdown") or []}
    lead = duel.get("lead")
    champion, challenger = duel.get("champion"), duel.get("challenger")
    if lead and not why:
        line = _("**{winner} holds the better cards** now; {loser} answers", winner=name_of(names, lead["winner"]),
                 loser=name_of(names, lead["loser"]))
    elif lead:
        line = _("**{winner} holds the better cards** now ({why}); {loser} answers", winner=name_of(names, lead["winner"]),
                 why=_why(lead, names), loser=name_of(names, lead["loser"]))
    elif challenger is not None:
        line = _("**{challenger} is brought in** against {champion}'s hand: {groupings}",
                 challenger=name_of(names, challenger), champion=name_of(names, champion),
                 groupings=groupings_text((laid.get(champion) or {}).get("groupings") or []))
    else:
        line = _("**Holds the better cards:** {name}", name=name_of(names, champion))
    if duel.get("to_come"):
        line += " · " + _("still to come: {names}", names=", ".join(name_of(names, p) for p in duel["to_come"]))
    return [line]


def _change(before: Sequence[str], after: Sequence[str]) -> str:
    if list(before) == list(after):
        return _("unchanged ({groupings})", groupings=groupings_text(after))
    return f"{groupings_text(before)} → {groupings_text(after)}"


def facing_lines(obs: Mapping[str, Any], names: Mapping[int, str], label: Any) -> list[str]:
    """The hand's view for the player answering in the duel (``obs["duel_view"]``): the hand
    they face, theirs as it would be laid, who would hold the better cards, and for each
    answer that changes a hand what it would do to both. ``label(action)`` names an answer
    as its button does."""
    view = obs.get("duel_view")
    if not view:
        return []
    me, other = obs.get("viewer"), view["opponent"]
    them = name_of(names, other)
    laid = me in ((obs.get("duel") or {}).get("laid") or [])

    def verdict(leader: int | None) -> str:
        return _("you would hold the better cards") if leader == me else _("{name} would hold the better cards",
                                                                           name=them)

    lines = [_("**You face {name}'s hand:** {hand}", name=them, hand=explanation_text(view["theirs"])),
             (_("**Yours, as laid:** {hand}", hand=explanation_text(view["mine"])) if laid
              else _("**Yours, as it would be laid:** {hand}", hand=explanation_text(view["mine"])))]
    if view.get("revealed"):
        lines.append(_("Laid face up, your {cards} would act on every hand: {name}'s {change}.",
                       cards=" ".join(special_text(c) for c in view["revealed"]), name=them,
                       change=_change(view["theirs_groupings"], view["theirs_after"])))
    if laid:
        lines.append(_("Now {name} holds the better cards.", name=them) if view.get("leader") != me
                     else _("Now you hold the better cards."))
    else:
        lines.append(_("Shown as it is, your hand would hold the better cards.") if view.get("leader") == me
                     else _("Shown as it is, your hand would lose to {name}'s.", name=them))
    answers = view.get("answers") or []
    if answers:
        lines.append(_("**What each answer would do:**"))
    for answer in answers:
        action: Action = OnionGame.parse_action(answer["code"])  # (the codes carry the onion suits)
        name = label(action)
        if answer.get("untold"):
            effect = UNTOLD_EFFECTS.get(action.arg, "")
            lines.append(f"• **{name}**: {_(effect)}" if effect else f"• **{name}**")
            continue
        lines.append("• " + _("**{answer}**: {name}'s hand {theirs}; yours {mine}; {verdict}", answer=name, name=them,
                              theirs=_change(view["theirs_groupings"], answer["theirs_after"]),
                              mine=_change(view["mine_groupings"], answer["mine_groupings"]),
                              verdict=verdict(answer.get("leader"))))
    legend = notation_line([view["theirs"], view["mine"]])
    if legend:
        lines.append(f"*{legend}*")
    return lines
