"""Enid's computer player (pure): it lays cards, names them, shouts, remembers the
chain like a person, writes limericks and votes, from its :class:`~bot.ai.PlayerView`
only (observation, legal actions), never the game.

Turn moves (``easy``; ``hard`` starts from the same rules with a sharper eye and
searches its card choice, see :func:`hard`):

- facing a pickup it passes it on (a Two on Twos, a black Jack on Jacks), else cancels
  it (a red Jack, or the Enid Blyton when it can name it and the pickup is worth it),
  else takes it; facing a limerick it passes it on (black Turing), cancels it (red
  Turing), else recites one (a vote may let it off; a refusal always costs a card);
- otherwise it scores each card it may lay: it keeps its answers to attacks (Twos,
  Jacks, a black Turing, the Enid) unless the next player is close to going out, sheds
  Eights (an extra card goes with them) and Tens with partners of their suit, likes
  Queens and Kings (skips), keeps the suit it holds most, never lays an Eight last,
  and lays the Enid as a weapon when someone is down to one or two cards and it knows
  the whole chain;
- after a Ten it lays the rest of that suit except its answers to attacks (no magic
  under a Ten), all of them if that empties its hand; an Ace names the suit it holds
  most; it never challenges a middle name.

Words (``speak``, asked before any turn move): every ritual it owes is answered in one
message, as a person would type it: the card's name ("Alonzo Church of Carp"), a fresh
middle name for a Richie or Kernighan (from its word lists, never one it heard used
this session), "Haaargh! Be Alonzo Churched! (a bit) @target", John Buckle's cry, "Last
St. Francis of Assisi" (plain: "Last card"); then a limerick's first line or the
limerick itself (:func:`compose`). With a small chance per level (:data:`SLIP`) it
names a card wrong, as a person slips.

Memory: the Enid chain is whatever its observation says it *heard* this session
(``observation["heard"]``: the chain's names said while it was seated, None where it was
not there). hard remembers all it heard; easy forgets each name with
:data:`FORGET`'s chance when it says the Enid (and then says a made-up one and draws).
A name it never heard it cannot say: it avoids laying the Enid then unless that saves
it more cards than the chain's length.

Votes: a limerick stands if the hint says lines 1, 2, 5 and lines 3, 4 do not fail to
rhyme and the syllables are near 8-9 / 5-6; a challenged middle name stands unless it
has digits or more than three words.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.ai import Budget, GameAI, PlayerView
from bot.rules.cards import Card, Rank, Suit, parse_card, standard_deck
from bot.rules.engine import Action
from cogs.enid import limerick as hint_of
from cogs.enid.names import SUIT_NAMES, WATER_BUFFALO, Names, name_key, words
from cogs.enid.rules import EnidGame

#: Chance of naming a card wrong (a slip of the tongue), per level.
SLIP = {"random": 0.3, "easy": 0.06, "hard": 0.01}
#: Chance of forgetting each name of the Enid chain it heard, per level.
FORGET = {"random": 0.5, "easy": 0.15, "hard": 0.0}
#: Rituals said in words (votes are buttons; timeouts are the platform's).
SPOKEN = ("name", "last", "church", "cry", "first_line", "limerick")

M_WORDS = (
    "marmalade mongoose muffin mildew macaroni mangle marzipan meringue mistletoe moccasin mollusc monsoon "
    "mothball mudlark mustard mackerel magnolia mayonnaise meerkat minnow mincemeat molasses mushroom muesli "
    "mulberry mandolin marigold marshmallow mayfly moonbeam mangrove manatee muskrat mitten mopstick meatball "
    "mudpie mackintosh maelstrom mermaid millipede mongrel moped mousetrap mumble mungbean mustachio"
).split()
W_WORDS = (
    "wombat waffle walrus wardrobe wasabi watercress weasel whelk whippet whisker widget wigwam willow windmill "
    "winkle wishbone wobble woodlouse wok wallaby walnut warthog waistcoat wasp weevil wheelbarrow whirligig "
    "whistle wicket wildebeest wingnut wisteria wizard woodpecker wristwatch wurzel wagtail wafer wagon "
    "waterlily weathervane wellyboot whatnot whiffle whirlpool wigglesworth windsock wimple"
).split()
ENID_WORDS = (
    "noodle pumpernickel gazebo kumquat periwinkle bumblebee teacup snorkel tortoise haddock crumpet fidget "
    "parsnip doodah gherkin lollipop porridge spatula toffee nutmeg pickle biscuit goblin hedgehog kipper "
    "dumpling trombone custard pudding tadpole thimble turnip sprocket zeppelin zucchini"
).split()

# A small common vocabulary the limerick maker prefers for its rhymes.
VOCAB = frozenset(
    """
    bent cent dent lent meant rent scent sent spent tent went tent content event intent
    brain chain drain gain grain lane main plain rain stain train vain again explain remain
    bone cone home dome foam gnome phone stone tone zone alone
    bath path math wrath
    blue clue crew due few flew glue grew knew new shoe stew threw true two view who zoo
    beads deeds feeds needs reads seeds weeds
    dull gull hull skull
    cork fork pork stork
    all ball call fall hall small tall wall
    chance dance glance lance prance trance advance
    ceiling dealing feeling healing kneeling peeling reeling stealing
    bluff cuff fluff gruff puff rough stuff tough enough
    cat hat mat rat sat bat flat hat that
    day way hay play stay grey tray pray say
    night light bright kite fright sight white bite
    tea sea free tree key knee bee flea three
    code road load toad rode mode node
    bed head red bread said shed thread
    bug mug hug rug jug plug slug
    cake lake make rake snake wake bake
    fish dish wish swish
    dog fog log frog bog clog
    moon spoon tune june soon balloon
    cheese breeze sneeze keys peas trees freeze
    song long wrong along strong
    bear chair hair pair stare square there where
    cheer beer deer ear fear near year clear
    goat boat coat float note throat wrote
    pie sky fly tie try why high dry
    hill pill still will bill chill thrill
    car far jar star bar guitar
    door floor more four roar snore shore store
    """.split()
)
#: Rhyming pairs for lines 3 and 4 (each checked by the tests against the dictionary).
PAIRS = (("cat", "hat"), ("day", "way"), ("night", "light"), ("tea", "sea"), ("code", "road"), ("bed", "head"),
         ("bug", "mug"), ("cake", "lake"), ("fish", "dish"), ("hill", "pill"), ("moon", "spoon"), ("goat", "boat"))
FIRST_LINES = (
    "There once was a coder from Kent", "A hacker who lived in a dome", "There once was a fish from the Hull",
    "A programmer, quiet and plain", "A student who studied the path", "There once was a prof from Peru",
)
_LINE2 = ("Who was terribly fond of the {w}", "Who would dream every night of a {w}", "Whose favourite thing was the {w}")
_LINE3 = ("One day with a {w}", "He set off with a {w}", "She went out with a {w}")
_LINE4 = ("And a very small {w}", "And a borrowed old {w}", "And a runaway {w}")
_LINE5 = ("And that was the end of the {w}", "So they laughed and went off with the {w}", "Which is all that I know of the {w}")

_ENID_CARD_RANK = Rank.NINE
#: Moves each side plays in an imagined deal before :func:`evaluate` scores it.
PLAYOUT_MOVES = 12
_ANSWERS = (Rank.TWO, Rank.JACK)


# --------------------------------------------------------------------------- reading the view


def _me(view: PlayerView) -> int:
    return view.player


def _hand(obs: Mapping[str, Any]) -> list[Card]:
    return [parse_card(c) for c in obs.get("hand", [])]


def _enid(obs: Mapping[str, Any]) -> Card | None:
    suit = obs.get("enid_suit")
    return Card(_ENID_CARD_RANK, Suit(suit)) if suit else None


def _seat_after(obs: Mapping[str, Any], player: int, direction: int, steps: int = 1) -> int:
    players = obs["players"]
    index = players.index(player)
    return players[(index + direction * steps) % len(players)]


def _counts(obs: Mapping[str, Any]) -> dict[int, int]:
    return {s["player"]: s["cards"] for s in obs["seats"]}


def _names(obs: Mapping[str, Any]) -> Names:
    return Names.of_observation(obs)


def _owed(obs: Mapping[str, Any], player: int) -> list[str]:
    return [o["ritual"] for o in obs.get("obligations", ()) if o["player"] == player and o["ritual"] in SPOKEN]


def owes(observation: Mapping[str, Any], player: int) -> bool:
    """Whether the seat owes words now (the platform asks this of every computer seat)."""
    return bool(_owed(observation, player))


def knows_chain(obs: Mapping[str, Any]) -> bool:
    """Whether it heard every name of the chain (so it could name the Enid)."""
    heard = (obs.get("heard") or {}).get("chain", [])
    return len(heard) == obs.get("chain_length", 0) and all(entry is not None for entry in heard)


# --------------------------------------------------------------------------- words


def _pick(rng: random.Random, pool: Sequence[str], avoid: set[str]) -> str:
    fresh = [w for w in pool if w not in avoid]
    if fresh:
        return rng.choice(fresh)
    # Every word used: run two together ("Marmalade-Mongoose" is one name).
    while True:
        word = f"{rng.choice(pool)}-{rng.choice(pool)}"
        if name_key(words(word)) not in avoid:
            return word


def middle_name(rank: Rank, used: Sequence[str], rng: random.Random) -> str:
    """A made-up middle name for a Richie (M) or Kernighan (W) not in ``used`` (keys)."""
    pool = M_WORDS if rank is Rank.THREE else W_WORDS
    avoid = {*used, WATER_BUFFALO}
    return _pick(rng, pool, avoid).capitalize()


def enid_name(chain: Sequence[Sequence[str] | None], level: str, rng: random.Random) -> tuple[str, bool]:
    """What it says for the Enid Blyton and whether it remembered the chain right."""
    said: list[str] = []
    right = True
    heard_words = {w for entry in chain if entry for w in entry}
    for entry in chain:
        if entry is None or rng.random() < FORGET.get(level, 0.0):
            right = False
            said.append(_pick(rng, ENID_WORDS, heard_words).capitalize())  # a guess
        else:
            said.append(" ".join(w.capitalize() for w in entry))
    new = _pick(rng, ENID_WORDS, heard_words).capitalize()
    return " ".join(["Enid", *said, new, "Blyton"]), right


def card_name(card: Card, obs: Mapping[str, Any], level: str, rng: random.Random) -> str:
    """How it names ``card`` now (right, or with :data:`SLIP`'s chance, a slip)."""
    if card == _enid(obs):
        return enid_name((obs.get("heard") or {}).get("chain", []), level, rng)[0]
    names = _names(obs)
    suit = SUIT_NAMES[card.suit][0]
    if rng.random() < SLIP.get(level, 0.0):
        wrong = Card(Rank.FIVE if card.rank is not Rank.FIVE else Rank.KING, card.suit)
        return names.display(wrong)  # the neighbouring scientist: a slip
    if card.rank is Rank.THREE:
        return f"Dennis {middle_name(Rank.THREE, _used(obs), rng)} Richie of {suit}"
    if card.rank is Rank.FOUR:
        return f"Brian {middle_name(Rank.FOUR, _used(obs), rng)} Kernighan of {suit}"
    return names.display(card)


def _used(obs: Mapping[str, Any]) -> list[str]:
    return list((obs.get("heard") or {}).get("middle_names", []))


def first_line(rng: random.Random) -> str:
    return rng.choice(FIRST_LINES)


def _rhymes_with(word: str | None, rng: random.Random, count: int) -> list[str]:
    if not word:
        return []
    common = sorted(w for w in VOCAB if hint_of.rhyme(word, w))
    rng.shuffle(common)
    if len(common) >= count:
        return common[:count]
    import pronouncing

    rare = sorted({w for w in pronouncing.rhymes(word) if w.isalpha() and len(w) <= 8 and hint_of.rhyme(word, w)} - set(common) - {word})
    rng.shuffle(rare)
    return (common + rare)[:count]


def compose(first: str, rng: random.Random, have: int = 1) -> list[str]:
    """Lines ``have + 1`` .. 5 of a limerick starting with ``first``: 1, 2, 5 rhyme with
    the first line's last word (the pronouncing dictionary's rhymes, common words
    first) and 3, 4 with each other."""
    ends = _rhymes_with(hint_of.last_word(first), rng, 2)
    if len(ends) < 2:  # no rhyme known for the first line: keep the pattern at least
        ends = [*ends, "blue", "shoe"][:2]
    b1, b2 = rng.choice(PAIRS)
    lines = [
        rng.choice(_LINE2).format(w=ends[0]),
        rng.choice(_LINE3).format(w=b1),
        rng.choice(_LINE4).format(w=b2),
        rng.choice(_LINE5).format(w=ends[1]),
    ]
    return lines[max(0, have - 1) :]


def speak(view: PlayerView, level: str, rng: random.Random) -> Action | None:
    """The words it owes now, in one message, or None."""
    obs = view.observation
    me = _me(view)
    owed = _owed(obs, me)
    if not owed:
        return None
    enid_mode = obs.get("mode") == "enid"
    parts: list[str] = []
    if "name" in owed:
        card = parse_card(obs["top"])  # the card waiting for its name is the one on top
        parts.append(card_name(card, obs, level, rng))
        # The card's own ritual goes in the same breath (void if the name was a slip).
        if card.rank is Rank.SEVEN:
            parts.append(f"Haaargh! Be Alonzo Churched! (a bit) <@{_seat_after(obs, me, obs['direction'])}>")
        elif card.rank is Rank.JACK and card.is_red and obs.get("pickup") and obs.get("pickup_kind") == "jack":
            parts.append("My John Buckle casts your Mark Rafter to type void!")
    if "church" in owed:  # the Church already reversed play: its target is behind us now
        parts.append(f"Haaargh! Be Alonzo Churched! (a bit) <@{_seat_after(obs, me, -obs['direction'])}>")
    if "cry" in owed:
        parts.append("My John Buckle casts your Mark Rafter to type void!")
    if "last" in owed:
        parts.append("Last St. Francis of Assisi!" if enid_mode else "Last card!")
    if parts:
        # Short rituals first: a message that answers one of them is not also heard as
        # a first line or a limerick, and "Last St. Francis" must not wait for a poem.
        return Action("say", arg=" ".join(dict.fromkeys(parts)))
    if "limerick" in owed and obs.get("reciting"):
        reciting = obs["reciting"]
        return Action("say", arg="\n".join(compose(reciting["first_line"], rng, reciting["lines"])))
    if "first_line" in owed:
        return Action("say", arg=first_line(rng))
    return None


# --------------------------------------------------------------------------- votes


def limerick_stands(hint: Mapping[str, Any]) -> bool:
    """From the rhyme and syllable hint only."""
    if hint.get("rhyme_125") is False or hint.get("rhyme_34") is False:
        return False
    syllables = list(hint.get("syllables", []))
    if len(syllables) != 5:
        return False
    long_ok = all(6 <= syllables[i] <= 12 for i in (0, 1, 4))
    short_ok = all(3 <= syllables[i] <= 9 for i in (2, 3))
    return long_ok and short_ok


def middle_name_stands(name: str) -> bool:
    said = words(name)
    return bool(said) and len(said) <= 3 and not any(ch.isdigit() for ch in name)


def _vote(obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
    vote = obs.get("vote") or {}
    if vote.get("about") == "limerick":
        yes = limerick_stands(vote.get("hint") or {})
    else:
        yes = middle_name_stands(str(vote.get("name", "")))
    wanted = "yes" if yes else "no"
    return next((a for a in legal if a.kind == "vote" and a.arg == wanted), legal[0])


# --------------------------------------------------------------------------- turn moves


def _answer_value(card: Card, enid: Card | None) -> float:
    """How much a card is worth keeping as an answer to an attack."""
    if card == enid:
        return 6.0
    if card.rank is Rank.TWO:
        return 3.0
    if card.rank is Rank.JACK:
        return 4.0 if card.is_red else 3.5
    if card.rank is Rank.SIX and not card.is_red:
        return 2.0
    return 0.0


def choose(view: PlayerView, rng: random.Random, sharp: bool = False) -> Action:
    """A turn move (or a vote) from the view; ``sharp`` is hard's extra care."""
    obs = view.observation
    me = _me(view)
    legal = [a for a in view.legal if a.kind != "challenge"] or list(view.legal)
    if any(a.kind == "vote" for a in legal):
        return _vote(obs, legal)
    if any(a.kind == "suit" for a in legal):
        counts = Counter(c.suit for c in _hand(obs) if c.rank is not Rank.ACE)
        return max(legal, key=lambda a: (counts[Suit(a.arg)], a.arg == obs.get("suit")))
    plays = [a for a in legal if a.kind == "play"]
    other = {a.kind: a for a in legal if a.kind != "play"}
    hand = _hand(obs)
    enid = _enid(obs)
    enid_mode = obs.get("mode") == "enid"
    can_name_enid = knows_chain(obs)
    counts = _counts(obs)
    direction = obs.get("direction", 1)
    nxt = _seat_after(obs, me, direction)
    others = [p for p in obs["players"] if p != me]
    threat = counts.get(nxt, 7) <= 2
    danger = min((counts[p] for p in others), default=7) <= (2 if sharp else 1)
    if not plays:
        for kind in ("recite", "end", "draw"):
            if kind in other:
                return other[kind]
        return legal[0]
    phase = obs.get("phase")
    pickup = obs.get("pickup", 0)
    if phase == "play" and pickup:
        cards = [a.cards[0] for a in plays]
        passes = [c for c in cards if c != enid and (c.rank is Rank.TWO or (c.rank is Rank.JACK and not c.is_red))]
        if passes:
            return Action("play", (passes[0],))
        cancels = [c for c in cards if c.rank is Rank.JACK and c.is_red]
        if cancels:
            return Action("play", (cancels[0],))
        if enid in cards and (can_name_enid or pickup > obs.get("chain_length", 0) + 1):
            return Action("play", (enid,))
        return other.get("draw", plays[0])
    if phase == "play" and obs.get("limerick"):
        cards = [a.cards[0] for a in plays]
        sixes = sorted((c for c in cards if c.rank is Rank.SIX), key=lambda c: c.is_red)  # black (pass) first
        if sixes:
            return Action("play", (sixes[0],))
        return other.get("recite") or other.get("draw") or plays[0]
    if phase == "ten":
        ten_suit = obs.get("ten_suit")
        rest = [c for c in hand if c.suit.value == ten_suit]
        if len(rest) == len(hand):
            return plays[0]  # all of the hand goes: out
        spare = [a for a in plays if _answer_value(a.cards[0], enid) == 0]
        return spare[0] if spare else other.get("end", plays[0])
    if len(hand) == 1 and len(plays) == 1:
        return plays[0]

    suits = Counter(c.suit for c in hand)
    ranks = Counter(c.rank for c in hand)

    def score(action: Action) -> float:
        card = action.cards[0]
        left = len(hand) - 1
        value = 0.4 * (suits[card.suit] - 1) + 0.6 * (ranks[card.rank] - 1)
        keep = _answer_value(card, enid)
        if card == enid:
            if enid_mode and can_name_enid and danger:
                value += 8.0  # everyone else draws: the smart bomb
            elif not enid_mode:
                value -= 0.5
            else:
                value -= keep + (2.0 * obs.get("chain_length", 0) if not can_name_enid else 0.0)
        elif threat and card.rank is Rank.TWO or threat and card.rank is Rank.JACK and not card.is_red:
            value += 6.0
        else:
            value -= keep
        if card.rank is Rank.EIGHT:
            value += 2.0 if left >= 2 else -6.0
        elif card.rank is Rank.TEN:
            value += 1.0 + (suits[card.suit] - 1)
        elif card.rank in (Rank.QUEEN, Rank.KING):
            value += 1.5 + (2.0 if threat else 0.0)
        elif card.rank is Rank.ACE:
            value -= 1.0
        elif card.rank is Rank.SIX and not card.is_red and enid_mode:
            value += 1.0 if threat else 0.0
        if sharp and left == 1:
            # The card kept last should be easy to lay: not an Eight, not a lone answer.
            last = [c for c in hand if c != card]
            if last and last[0].rank is Rank.EIGHT:
                value -= 4.0
            if last and last[0].suit is card.suit:
                value += 1.0
        if sharp and card.rank in (Rank.QUEEN, Rank.KING) and left:
            steps = 1 + (1 if card.rank is Rank.QUEEN else 2)
            if _seat_after(obs, me, direction, steps) == me:
                follow = [c for c in hand if c != card and (c.suit is card.suit or c.rank is card.rank)]
                # The skip comes round to it: another turn at once, good only if it can
                # lay something then (else it draws).
                value += 3.0 if follow else -3.0
        return value

    return max(plays, key=lambda a: (score(a), -plays.index(a)))


def easy(view: PlayerView, rng: random.Random) -> Action:
    return choose(view, rng)


def sharp(view: PlayerView, rng: random.Random) -> Action:
    """hard's rule of thumb (the search's fallback and its baseline)."""
    return choose(view, rng, sharp=True)


def _searchable(view: PlayerView) -> bool:
    """A card choice the search can imagine: a turn move with a choice, no limerick,
    vote or Ace's suit in the way."""
    obs = view.observation
    if obs.get("vote") or obs.get("limerick") or obs.get("phase") not in ("play", "eight", "ten"):
        return False
    return sum(1 for a in view.legal if a.kind != "challenge") > 1


def hard(view: PlayerView, rng: random.Random, budget: Budget) -> Action:
    """hard: perfect memory and fewer slips (in :func:`speak`), the sharper rule of
    thumb (:func:`sharp`) for an Ace's suit, votes and limericks, and for its card
    choice (a pickup to pass, cancel or take included) the shared search
    (:func:`bot.ai.search.hard`): imagined deals of the cards it cannot see
    (:func:`determinize`), each legal move tried and played on by both sides with
    :func:`playout_move` for :data:`PLAYOUT_MOVES` moves, scored by :func:`evaluate`;
    the searched move replaces the rule of thumb's only when clearly better (the
    search's margin and two standard errors). Imagined deals are in plain mode: nobody
    slips there, and a black Turing forces no limerick (a computer's limericks pass)."""
    if not _searchable(view):
        return sharp(view, rng)
    from bot.ai.search import hard as search

    legal = tuple(a for a in view.legal if a.kind != "challenge")
    return search(replace(view, legal=legal), SEARCH, rng, budget)


class Imagined(EnidGame):
    """An imagined deal for hard's search: a plain-mode game (nothing is said: every
    card is named right and "Last card" always said, as computer seats do) that keeps
    the Enid's powers, with a cheap :meth:`clone` (containers copied, no JSON)."""

    def clone(self) -> Imagined:
        copy = object.__new__(Imagined)
        fields = dict(self.__dict__)
        fields["hands"] = {p: list(h) for p, h in self.hands.items()}
        fields["deck"] = list(self.deck)
        fields["discard"] = list(self.discard)
        fields["obligations"] = [dict(o) for o in self.obligations]
        fields["_legal_cache"] = None
        copy.__dict__.update(fields)
        for name in EnidGame.__slots__:  # the session and name caches: never changed in a search
            setattr(copy, name, getattr(self, name))
        return copy


_DECK = tuple(standard_deck())
_OPTIONS: dict[str, dict[str, Any]] = {}


def determinize(observation: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> EnidGame:
    """A whole game consistent with the observation: the cards it cannot see (all but
    its hand and the top card) dealt at random to the other hands (their counts), under
    the top card (the discard's count) and to the deck."""
    obs = observation
    me = obs["viewer"]
    hand = _hand(obs)
    top = parse_card(obs["top"])
    seen = {*hand, top}
    unseen = [c for c in _DECK if c not in seen]
    rng.shuffle(unseen)
    counts = _counts(obs)
    game = Imagined()
    game.players = list(obs["players"])
    game.hands = {me: hand}
    for p in game.players:
        if p != me:
            game.hands[p] = unseen[: counts[p]]
            del unseen[: counts[p]]
    below = min(len(unseen), max(0, obs.get("discard_size", 1) - 1))
    game.discard = [*unseen[:below], top]
    game.deck = unseen[below:]
    draw_rule = str(obs.get("rules", {}).get("voluntary_draw", "no"))
    if draw_rule not in _OPTIONS:
        _OPTIONS[draw_rule] = EnidGame._read_options({"mode": "plain", "voluntary_draw": draw_rule})
    game.options = _OPTIONS[draw_rule]
    game.seed = rng.getrandbits(32)
    game.enid = _enid(obs)
    game.chosen_suit = Suit(obs["chosen_suit"]) if obs.get("chosen_suit") else None
    game.current = me
    game.direction = obs.get("direction", 1)
    game.phase = obs["phase"]
    game.ten_suit = Suit(obs["ten_suit"]) if obs.get("ten_suit") else None
    game.pickup = obs.get("pickup", 0)
    game.pickup_kind = obs.get("pickup_kind")
    game.turn_number = obs.get("turn_number", 1)
    return game


def playout_move(game: EnidGame, player: int) -> Action:
    """easy's rule of thumb on a whole (imagined) game, fast: it passes or cancels a
    pickup, sheds Tens' suits and Eights, keeps its answers, follows its longest suit.
    Whoever owes "Last card" has said it (computer seats always do)."""
    if game.obligations:
        game.obligations = [o for o in game.obligations if o["kind"] != "last"]
    actions = game._turn_actions()
    hand = game.hands[player]
    phase = game.phase
    if phase == "suit":
        held = dict.fromkeys(Suit, 0)
        for c in hand:
            held[c.suit] += 1
        return max(actions, key=lambda a: held[Suit(a.arg)])
    first = actions[0]
    if first.kind != "play":
        return first  # draw (or end): nothing to lay
    enid = game.enid
    if game.pickup:
        passes = [a for a in actions if a.kind == "play" and a.cards[0] != enid and (a.cards[0].rank is _TWO or not a.cards[0].is_red)]
        return passes[0] if passes else first  # pass it on, else cancel (red Jack or the Enid)
    if phase == "ten":
        plays = [a for a in actions if a.kind == "play"]
        for a in plays:
            c = a.cards[0]
            if c.rank not in _KEEP_RANKS and c != enid:
                return a
        return plays[0] if len(plays) == len(hand) else actions[-1]  # out, or end the turn
    suits: dict[Suit, int] = {}
    for c in hand:
        suits[c.suit] = suits.get(c.suit, 0) + 1
    left = len(hand) - 1
    best_value, best_action = -99.0, first
    for a in actions:
        if a.kind != "play":
            continue
        c = a.cards[0]
        rank = c.rank
        value = suits[c.suit]
        if rank in _KEEP_RANKS or rank is _ENID_CARD_RANK and c == enid:
            value -= 3.0
        elif rank is Rank.EIGHT:
            value += 2.0 if left >= 2 else -6.0
        elif rank is Rank.TEN:
            value += suits[c.suit]
        elif rank is Rank.QUEEN:
            value += 1.5
        if value > best_value:
            best_value, best_action = value, a
    return best_action


_TWO = Rank.TWO
_KEEP_RANKS = frozenset((Rank.TWO, Rank.JACK))


def evaluate(game: EnidGame, player: int) -> float:
    """How well ``player`` stands in [0, 1]: its cards against the shortest other
    hand's, on a logistic scale (a card fewer is worth about 0.1 near even), with its
    answers to attacks (Twos, Jacks, the Enid) counted as half a card each."""
    hands = game.hands
    if player not in hands:
        return 0.0
    others = [len(h) for p, h in hands.items() if p != player]
    if not others:
        return 1.0
    enid = game.enid
    mine = len(hands[player]) - 0.5 * sum(1 for c in hands[player] if c == enid or c.rank in _ANSWERS)
    return 1.0 / (1.0 + math.exp((mine - min(others)) / EVAL_SCALE))


#: Cards of difference that move :func:`evaluate` by a factor e.
EVAL_SCALE = 2.5


def warm_up() -> None:
    """Load the pronouncing dictionary (about a second, once per process) before the
    first limerick, so composing one stays inside a decision's budget."""
    import pronouncing

    pronouncing.init_cmu()


AI = GameAI(EnidGame, easy, determinize, evaluate, owes=owes, speak=speak, hard=hard, warm_up=warm_up)
#: What hard's card choice searches with: its own rule of thumb as the baseline, the
#: fast playout policy with no random moves (a random move could leave "Last card" unsaid).
SEARCH = replace(AI, easy=sharp, playout=playout_move, playout_random=0.0, playout_moves=PLAYOUT_MOVES)
