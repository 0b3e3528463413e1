"""What the table shows (spectator observation) and the purity of Enid's helper modules."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from enid_helpers import act, say, stacked

ROOT = Path(__file__).resolve().parents[2]
CHAIN = {"chain": [{"words": ["marmalade"], "author": 2}, {"words": ["quux"], "author": 3}]}


def test_names_and_limerick_modules_are_pure_too():
    spec = importlib.util.spec_from_file_location("platform_purity", ROOT / "tests" / "platform" / "test_purity.py")
    purity = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(purity)
    for module in ("names.py", "limerick.py", "__init__.py", "rules.py"):
        assert purity.imported_roots(ROOT / "cogs" / "enid" / module) & purity.FORBIDDEN == set(), module


def test_the_spectator_sees_the_table_but_not_the_chain_or_any_hand():
    game = stacked({1: ["6s", "5c", "5s"], 2: ["Kc", "Kd", "Ks"], 3: ["Qc", "Qd", "Qs"]}, discard=["4s"], deck=["3c", "3d"], carry=CHAIN)
    act(game, 1, "6s")
    obs = game.observation(None)
    assert obs["obligations"] == [{"id": obs["obligations"][0]["id"], "player": 1, "ritual": "name"}]
    assert obs["current"] == [] and obs["turn"] == 1 and obs["chain_length"] == 2 and obs["enid_suit"] == "s"
    say(game, 1, "Alan Turing of Sturgeon")
    say(game, 1, "There once was a coder from Warwick")
    obs = game.observation(None)
    assert obs["limerick"] == {"first_line": "There once was a coder from Warwick", "by": 1}
    assert obs["current"] == [2] and obs["top"] == "6s" and obs["direction"] == 1
    assert [s["cards"] for s in obs["seats"]] == [2, 3, 3]
    text = json.dumps(obs).lower()
    assert "marmalade" not in text and "quux" not in text and "hand" not in obs
    act(game, 2, "recite")
    say(game, 2, "one line\ntwo line\nthree\nfour")
    obs = game.observation(None)
    assert obs["vote"]["about"] == "limerick" and obs["vote"]["voters"] == [1, 3] and obs["vote"]["voted"] == []
    assert len(obs["vote"]["lines"]) == 5 and set(obs["vote"]["hint"]) == {"syllables", "ends", "rhyme_125", "rhyme_34"}
    act(game, 1, "vote::yes")
    obs = game.observation(None)
    assert obs["vote"]["voted"] == [1] and "yes" not in json.dumps(obs["vote"])  # who voted, not how
    assert game.observation(2)["hand"] == ["Kc", "Kd", "Ks"]
