"""Train a small policy for Romanian Rummy (remi_ro) against three random bots.

Optional dependencies (not part of rummykit's default install):

    pip install 'rummykit[rl]'        # PettingZoo, Gymnasium and NumPy; nothing else

No PyTorch: the policy is a linear softmax over hand-made features of each legal
action, trained with REINFORCE (Williams, 1992) in NumPy on the deal score.

    python examples/train_remi_vs_random.py                  # about 4 minutes on one core
    python examples/train_remi_vs_random.py --minutes 1 --eval-deals 50

It evaluates a uniformly random learner and the trained policy on the same 200
evaluation deals (same seeds, same bots), before and after training, and prints
the mean deal score of each.  The learner plays seat 0 of four through
:class:`rummykit.rl.RummyGymEnv`; it sees only its observation and action mask.

What the features can express (the weights are learnt from the score alone):
the kind of each action (draw, take the last column tile, meld, attach,
discard, reset, announce, ...), before and after the learner's opening; for a
formation, its opening points and whether it completes the 45-point opening
with what was laid this turn; for a discard or attachment, the piece's value and
how many rack pieces could form a run or set with it.

Training detail (an example's choice, not the environment's reward): an episode
truncated by the step limit (a policy looping on ``reset``) is counted as a
-300 deal for the update, so stalling never looks better than the -100 of not
opening.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from rummykit.engine.actions import (
    AnnounceAtu,
    AnnounceDoubles,
    AnnounceThree,
    Attach,
    CloseBoard,
    DeclareBoard,
    Discard,
    Draw,
    ExchangeJoker,
    Meld,
    ProposeSwap,
    Ready,
    ResetTurn,
    Reshuffle,
    TakeColumn,
)
from rummykit.model.melds import best_reading, read_meld
from rummykit.model.pieces import JOKER_KIND
from rummykit.rl import RummyGymEnv
from rummykit.rules import find_variant

VARIANT = "remi_ro"
PLAYERS = 4
OPENING_POINTS = 45
TRUNCATED_SCORE = -300.0
TYPES = (
    "draw",
    "take_last",
    "take_middle",
    "meld",
    "attach",
    "exchange",
    "discard",
    "close",
    "three",
    "board",
    "reset",
    "atu",
    "doubles",
    "swap",
    "answer",
    "reshuffle",
    "ready",
)
TYPE_INDEX = {name: i for i, name in enumerate(TYPES)}
DETAILS = (
    "meld points",
    "completes opening",
    "meld length",
    "piece value",
    "piece partners",
    "top tile partners",
    "laid this turn",
    "joker",
)
# Per action: its type one-hot, the same one-hot once opened, then the details.
FEATURE_NAMES = (*TYPES, *(f"{t}|opened" for t in TYPES), *DETAILS)
FEATURES = len(FEATURE_NAMES)

Observation = dict[str, npt.NDArray[np.generic]]
Trace = list[npt.NDArray[np.float64]]
Chooser = Callable[[Observation, Trace | None], int]


class ActionFeatures:
    """Static facts about every action number, and the per-step feature matrix."""

    def __init__(self, env: RummyGymEnv) -> None:
        codec = env.table.codec
        variant = find_variant(VARIANT)
        encoder = env.table.encoder
        size = codec.size
        self.kind = np.zeros(size, dtype=np.int64)  # type index (take: last/middle later)
        self.points = np.zeros(size)  # opening points of a formation
        self.length = np.zeros(size)  # pieces in a formation
        self.face = np.full(size, -1, dtype=np.int64)  # face kind of a discard/attach
        self.take_index = np.full(size, -1, dtype=np.int64)
        for i, action in enumerate(codec.table):
            name = _type_name(action)
            self.kind[i] = TYPE_INDEX[name]
            if isinstance(action, Meld):
                reading = best_reading(
                    action.faces,
                    read_meld(action.faces, variant.meld_rules, action.declared),
                    variant.opening_value,
                )
                self.points[i] = sum(
                    variant.opening_value(reading.kind, p) for p in reading.positions
                )
                self.length[i] = len(action.faces)
            elif isinstance(action, Discard | Attach):
                self.face[i] = action.face.kind
            elif isinstance(action, TakeColumn):
                self.take_index[i] = action.index
        # Scoring value of each face kind; index -1 (no face) reads the trailing 0.
        self.value = np.array([*(variant.score_value(f) for f in env.game.kind_faces), 0.0])
        self.rack = encoder.block("rack")
        self.column = encoder.block("column")
        self.column_top = encoder.block("column_top")
        self.scalars = encoder.block("scalars").start
        self.opened = encoder.block("seats").start + 2 * encoder.max_players  # own slot
        self.pieces = env.table.codec.piece_count

    def matrix(self, obs: Observation, legal: npt.NDArray[np.intp]) -> npt.NDArray[np.float64]:
        """One feature row per legal action number."""
        o = obs["observation"].astype(np.float64)
        rack = np.rint(o[self.rack.start : self.rack.stop] * 2)  # copies: 2 per face, 2 jokers
        opened = o[self.opened] > 0.5
        laid = o[self.scalars + 8] * 100
        column_length = round(float(o[self.scalars + 2]) * self.pieces)
        kinds = self.kind[legal].copy()
        takes = self.take_index[legal]
        kinds[(takes >= 0) & (takes != column_length - 1)] = TYPE_INDEX["take_middle"]
        rows = np.zeros((len(legal), FEATURES))
        rows[np.arange(len(legal)), kinds] = 1.0
        if opened:
            rows[np.arange(len(legal)), len(TYPES) + kinds] = 1.0
        d = 2 * len(TYPES)
        points = self.points[legal]
        rows[:, d] = points / OPENING_POINTS
        rows[:, d + 1] = (points > 0) & (laid + points >= OPENING_POINTS) & (not opened)
        rows[:, d + 2] = self.length[legal] / 14
        faces = self.face[legal]
        rows[:, d + 3] = self.value[faces] / 50
        rows[:, d + 4] = _partners(rack, faces) / 4
        top = np.flatnonzero(o[self.column_top.start : self.column_top.stop])
        if len(top):
            rows[:, d + 5] = (kinds == TYPE_INDEX["take_last"]) * _partners(rack, top)[0] / 4
        rows[:, d + 6] = laid / OPENING_POINTS
        rows[:, d + 7] = faces == JOKER_KIND
        return rows


def _partners(
    rack: npt.NDArray[np.float64], faces: npt.NDArray[np.int64]
) -> npt.NDArray[np.float64]:
    """How many rack pieces sit next to (same suit, 1-2 apart) or beside (same rank)
    each face kind; -1 (no face) counts 0."""
    out = np.zeros(len(faces))
    for j, kind in enumerate(faces):
        if kind < 0 or kind >= JOKER_KIND:
            continue
        suit, rank = divmod(int(kind), 13)
        near = sum(rack[suit * 13 + (rank + d) % 13] > 0 for d in (-2, -1, 1, 2))
        same = sum(rack[s * 13 + rank] > 0 for s in range(4) if s != suit)
        out[j] = near + same
    return out


def _type_name(action: object) -> str:
    if isinstance(action, Draw):
        return "draw"
    if isinstance(action, TakeColumn):
        return "take_last"
    if isinstance(action, Meld):
        return "meld"
    if isinstance(action, Attach):
        return "attach"
    if isinstance(action, ExchangeJoker):
        return "exchange"
    if isinstance(action, Discard):
        return "discard"
    if isinstance(action, CloseBoard):
        return "close"
    if isinstance(action, AnnounceThree):
        return "three"
    if isinstance(action, DeclareBoard):
        return "board"
    if isinstance(action, ResetTurn):
        return "reset"
    if isinstance(action, AnnounceAtu):
        return "atu"
    if isinstance(action, AnnounceDoubles):
        return "doubles"
    if isinstance(action, ProposeSwap):
        return "swap"
    if isinstance(action, Reshuffle):
        return "reshuffle"
    if isinstance(action, Ready):
        return "ready"
    return "answer"  # accept or decline a swap


class LinearPolicy:
    """Softmax over legal actions of ``features @ weights``."""

    def __init__(self, features: ActionFeatures, rng: np.random.Generator) -> None:
        self.features = features
        self.weights = np.zeros(FEATURES)
        self.rng = rng

    def act(self, obs: Observation, trace: Trace | None) -> int:
        """Sample an action; with ``trace``, record the score-function gradient."""
        legal = np.flatnonzero(obs["action_mask"].view(np.bool_))
        rows = self.features.matrix(obs, legal)
        logits = rows @ self.weights
        probs = np.exp(logits - logits.max())
        probs /= probs.sum()
        choice = int(self.rng.choice(len(legal), p=probs))
        if trace is not None:
            trace.append(rows[choice] - probs @ rows)
        return int(legal[choice])


def play_deal(
    env: RummyGymEnv, seed: int, choose: Chooser, trace: Trace | None = None
) -> tuple[float, bool]:
    """One deal for the learner; returns (deal score, truncated)."""
    obs, _ = env.reset(seed=seed)
    total = 0.0
    while True:
        action = choose(obs, trace)
        obs, reward, terminated, truncated, _ = env.step(action)
        total += reward
        if terminated or truncated:
            return total, truncated


def evaluate(env: RummyGymEnv, choose: Chooser, seeds: range) -> tuple[float, float, int]:
    """(mean deal score, its standard error, truncated deals) over ``seeds``."""
    results = [play_deal(env, seed, choose) for seed in seeds]
    scores = np.array([score for score, _ in results])
    error = scores.std(ddof=1) / np.sqrt(len(scores)) if len(scores) > 1 else 0.0
    return float(scores.mean()), float(error), sum(t for _, t in results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=4.0, help="training time (CPU)")
    parser.add_argument("--eval-deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=16, help="deals per update")
    parser.add_argument("--lr", type=float, default=0.05)
    args = parser.parse_args()

    env = RummyGymEnv(VARIANT, PLAYERS, opponents="random", max_steps_per_deal=1_500)
    features = ActionFeatures(env)
    rng = np.random.default_rng(args.seed)
    policy = LinearPolicy(features, rng)
    uniform_rng = np.random.default_rng(args.seed + 1)

    def uniform(obs: Observation, trace: Trace | None) -> int:
        legal = np.flatnonzero(obs["action_mask"].view(np.bool_))
        return int(legal[uniform_rng.integers(len(legal))])

    # Evaluation deals use seeds the training never sees.
    eval_seeds = range(1_000_000, 1_000_000 + args.eval_deals)
    mean, err, _ = evaluate(env, uniform, eval_seeds)
    print(f"random learner : mean deal score {mean:8.1f} ± {err:.1f} over {args.eval_deals} deals")

    start = time.process_time()
    deals = updates = 0
    baseline = -100.0
    recent: list[float] = []
    while time.process_time() - start < args.minutes * 60:
        gradient = np.zeros(FEATURES)
        for _ in range(args.batch):
            trace: Trace = []
            score, truncated = play_deal(env, args.seed * 10_000_000 + deals, policy.act, trace)
            target = TRUNCATED_SCORE if truncated else score
            advantage = (target - baseline) / 100
            baseline += 0.02 * (target - baseline)
            if trace:
                gradient += advantage * np.sum(trace, axis=0)
            recent.append(score)
            deals += 1
        norm = np.linalg.norm(gradient)
        step = gradient / args.batch
        if norm > 50 * args.batch:  # clip rare huge updates from long looping deals
            step *= 50 * args.batch / norm
        policy.weights += args.lr * step
        updates += 1
        if updates % 20 == 0:
            print(
                f"  {time.process_time() - start:6.0f}s  {deals:5d} deals  "
                f"mean score of the last {len(recent[-320:])}: {np.mean(recent[-320:]):7.1f}",
                flush=True,
            )

    mean, err, cut = evaluate(env, policy.act, eval_seeds)
    print(
        f"trained policy : mean deal score {mean:8.1f} ± {err:.1f} over {args.eval_deals} deals "
        f"({deals} training deals, {cut} evaluation deals truncated)"
    )
    top = np.argsort(-np.abs(policy.weights))[:8]
    print(
        "largest weights: " + ", ".join(f"{FEATURE_NAMES[i]} {policy.weights[i]:+.2f}" for i in top)
    )


if __name__ == "__main__":
    main()
