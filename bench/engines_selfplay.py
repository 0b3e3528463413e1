"""Random self-play steps/s of Deckhand Engines next to RLCard's Uno, measured in one run.

    python bench/engines_selfplay.py [--seconds 5] [--players 2|4] [--seed 1] [--uno-api env|game|both]

Without --players it measures a 4-player and a 2-player table, interleaved, both labelled.

All the work is in bench/selfplay.py (see its docstring for what a step is).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/, for selfplay
sys.path.insert(1, str(Path(__file__).resolve().parent.parent))  # the repo root

from selfplay import entry_point  # noqa: E402

if __name__ == "__main__":
    entry_point("engines")()
