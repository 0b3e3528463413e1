"""A tiny game used to test the platform on its own: each player holds a few
cards and, in turn, discards one; the first with no cards wins. It also opens a
timed obligation (say "done" in chat within 20 s after discarding your last-but-one
card, or draw a card back), to exercise obligations and typed chat."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.rules.cards import Card, parse_card, shuffled, standard_deck
from bot.rules.engine import Action, Control, Event, Game, HouseRule, IllegalAction
from bot.core.games import GameSpec
from bot.words.panel import Panel


class ToyGame(Game):
    key = "toy"
    title = "Toy"
    min_players = 2
    max_players = 4

    def __init__(self, players: list[int], hands: dict[int, list[Card]], turn: int = 0, winner: int | None = None, pending: dict[str, int] | None = None, spare: list[Card] | None = None) -> None:
        self.players = players
        self.hands = hands
        self.turn = turn
        self.winner = winner
        self.pending = pending or {}  # obligation id -> player
        self.spare = spare or []

    @classmethod
    def new(cls, players: Sequence[int], options: Mapping[str, Any] | None = None, *, seed: int | str | None = None, deal: Mapping[str, Any] | None = None) -> ToyGame:
        cls.check_player_count(players)
        size = int((options or {}).get("hand", 3))
        if deal is not None:
            hands = {int(p): [parse_card(c) for c in cards] for p, cards in deal["hands"].items()}
            spare = [parse_card(c) for c in deal.get("spare", [])]
        else:
            cards = shuffled(standard_deck(), seed if seed is not None else 0, "deal")
            hands = {p: sorted(cards[i * size:(i + 1) * size]) for i, p in enumerate(players)}
            spare = cards[len(players) * size:]
        return cls(list(players), hands, spare=spare)

    def current_players(self) -> frozenset[int]:
        if self.winner is not None:
            return frozenset()
        return frozenset({self.players[self.turn]})

    def legal_actions(self, player: int) -> list[Action]:
        actions: list[Action] = []
        if self.winner is None and player == self.players[self.turn]:
            actions = [Action.play(c) for c in sorted(set(self.hands[player]))]
        for oid, who in self.pending.items():
            if who == player:
                actions.append(Action("timeout", arg=oid))
        return actions

    def validate(self, player: int, action: Action) -> None:
        if action.kind == "say":
            if not any(who == player for who in self.pending.values()) or "done" not in action.arg.lower():
                raise IllegalAction("Nothing to say now.")
            return
        super().validate(player, action)

    def is_over(self) -> bool:
        return self.winner is not None

    def placements(self) -> list[list[int]]:
        if self.winner is None:
            return []
        rest = sorted((p for p in self.players if p != self.winner), key=lambda p: len(self.hands[p]))
        return [[self.winner]] + [[p] for p in rest]

    def observation(self, player: int | None) -> dict[str, Any]:
        obs: dict[str, Any] = {"counts": {str(p): len(h) for p, h in self.hands.items()}, "current": sorted(self.current_players()), "winner": self.winner}
        if player is not None:
            obs["hand"] = [str(c) for c in self.hands[player]]
        return obs

    def timeout_action(self, player: int) -> Action:
        return Action.play(self.hands[player][0])

    def remove_player(self, player: int) -> list[Event]:
        was_turn = self.players[self.turn] == player
        index = self.players.index(player)
        self.spare.extend(self.hands.pop(player))
        self.players.remove(player)
        if index < self.turn or (was_turn and self.turn >= len(self.players)):
            self.turn = self.turn - 1 if index < self.turn else 0
        events = [Event("player_removed", player)]
        if len(self.players) == 1:
            self.winner = self.players[0]
            events.append(Event("game_over", self.winner))
        return events

    def _apply(self, player: int, action: Action) -> list[Event]:
        if action.kind == "say":
            oid = next(o for o, who in self.pending.items() if who == player)
            del self.pending[oid]
            return [Event("obligation_closed", player, {"id": oid}), Event("said", player, {"text": action.arg})]
        if action.kind == "timeout":
            del self.pending[action.arg]
            card = self.spare.pop()
            self.hands[player].append(card)
            return [Event("obligation_closed", player, {"id": action.arg}), Event("penalty", player, {"card": str(card)}, private=True, public_data={"count": 1})]
        card = action.cards[0]
        self.hands[player].remove(card)
        events = [Event("play", player, {"card": str(card)})]
        if not self.hands[player]:
            self.winner = player
            return [*events, Event("game_over", player)]
        if len(self.hands[player]) == 1:
            oid = f"last-{player}-{len(self.spare)}"
            self.pending[oid] = player
            events.append(Event("obligation", player, {"id": oid, "seconds": 20}))
        self.turn = (self.turn + 1) % len(self.players)
        return events

    def to_dict(self) -> dict[str, Any]:
        return {"players": self.players, "hands": {str(p): [str(c) for c in h] for p, h in self.hands.items()}, "turn": self.turn, "winner": self.winner, "pending": self.pending, "spare": [str(c) for c in self.spare]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ToyGame:
        return cls(list(data["players"]), {int(p): [parse_card(c) for c in h] for p, h in data["hands"].items()}, data["turn"], data["winner"], dict(data["pending"]), [parse_card(c) for c in data["spare"]])


class ToyRender:
    @staticmethod
    def table_embed(observation, names, recent):
        embed = Panel(title="Toy", description="\n".join(recent) or "—")
        for p, n in observation["counts"].items():
            embed.add_field(name=names.get(int(p), p), value=f"{n} cards")
        return embed

    @staticmethod
    def hand_embed(observation, names):
        return Panel(title="Your hand", description=" ".join(observation["hand"]) or "empty")

    @staticmethod
    def controls(observation, legal):
        return [Control(a, a.cards[0].display(), place="select") for a in legal if a.kind == "play"]

    @staticmethod
    def event_lines(events, names):
        lines = []
        for e in events:
            if e.kind == "play":
                lines.append(f"{names.get(e.player)} played {e.data['card']}")
            elif e.kind == "penalty":
                lines.append(f"{names.get(e.player)} forgot to say done and drew {e.visible_to(None)['count']} card")
            elif e.kind == "said":
                lines.append(f"{names.get(e.player)} said done")
        return lines


TOY_SPEC = GameSpec(game=ToyGame, render=ToyRender(), house_rules=(HouseRule("hand", "Cards per hand", ("3", "5"), "3"),), accepts_chat=True)


async def setup(bot) -> None:
    from bot.discord_front.gamecog import GameCog

    class ToyCog(GameCog, group_name="toy", group_description="A test game."):
        spec = TOY_SPEC

    await bot.add_cog(ToyCog(bot))
