"""OpenSpiel games for every registered variant: ``import rummykit.rl.openspiel``.

Importing this module registers each variant with ``pyspiel`` as
``rummykit_<variant>`` (``pyspiel.load_game("rummykit_remi_ro(players=2)")``).  It
needs the ``openspiel`` extra (``pip install 'rummykit[openspiel]'``).

One OpenSpiel episode is **one deal**.  The deal is dealt by **explicit chance
nodes**: the first draws the maker (``players`` equally likely outcomes), then one
chance node per piece draws the face kind of the next piece of the wall (outcome
= kind ``0..52``, probability = copies of that kind not yet drawn / pieces not yet
drawn).  Copies of a face are interchangeable under every rule (RULES §0.1), so
each outcome takes the lowest unused piece id of its kind; the finished wall is
handed to the engine (``Game(walls=[wall], maker=maker)``), which deals from it
exactly as from a shuffle.  A Remi reshuffle (§9.4) is followed by a new wall of
chance nodes.  No game randomness is left outside the chance nodes, which is why
``recycle_shuffle=True`` (a shuffle mid-deal by the engine's own RNG) is refused.

Game parameters are ``players``, the variant's options, ``reward`` (``"score"`` or
``"relative"``, as in :mod:`rummykit.rl.core`), ``reward_scale`` and
``max_steps_per_deal``.  An option whose default is ``None`` takes ``-1`` for
``None``; one whose default depends on the player count (Continental's
``packs``) takes ``-1`` for that default.  ``max_stock_recycles`` defaults to
:data:`~rummykit.rl.core.EPISODE_RECYCLE_LIMIT` as in the environments.  Options
that set a match's length are not parameters: an episode is one deal.

Actions are the variant's flat codec (:func:`~rummykit.rl.action_codec`).
Observations come from one seat's view (``rummykit.engine.view``) and the deal's
:class:`~rummykit.rl.PublicMemory`: the tensors are the observation vector of
:class:`~rummykit.rl.ObservationEncoder` (the information-state tensor is the same
vector, a summary of the public record rather than a perfect-recall encoding); the
information-state string holds the whole view *with* the deal's public history
(perfect recall), the observation string the view without it.
:meth:`RummyState.resample_from_infostate` draws a world consistent with a seat's
view with :func:`rummykit.bots.resample`, for ISMCTS.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError(
        "rummykit.rl.openspiel needs the 'openspiel' extra: pip install 'rummykit[openspiel]'"
    ) from exc

from rummykit.bots.resample import ResampleError, resample
from rummykit.engine import Game, IllegalActionError, SeatView, seat_legal_actions, view
from rummykit.engine.actions import Action, Reshuffle
from rummykit.model.pieces import JOKER_KIND, Face, PieceSet
from rummykit.rl.actions import ActionCodec, action_codec
from rummykit.rl.core import (
    DEFAULT_MAX_STEPS_PER_DEAL,
    EPISODE_RECYCLE_LIMIT,
    REWARD_MODES,
    is_match_option,
    observation_encoder,
)
from rummykit.rl.memory import PublicMemory
from rummykit.rl.observation import ObservationEncoder, seat_view
from rummykit.rules.options import OptionError, OptionSpec
from rummykit.rules.variant import Variant, all_variants, find_variant

__all__ = [
    "GAME_PREFIX",
    "UNSET",
    "RummyGame",
    "RummyState",
    "game_name",
    "load",
    "register_openspiel_games",
]

GAME_PREFIX = "rummykit_"
UNSET = -1
"""The parameter value of an option left at ``None`` or at its player-count default."""
KINDS = JOKER_KIND + 1


def game_name(variant: Variant | str) -> str:
    """The OpenSpiel short name of a variant: ``rummykit_<variant>``."""
    name = variant if isinstance(variant, str) else variant.name
    return f"{GAME_PREFIX}{find_variant(name).name}"


def _option_parameters(variant: Variant) -> dict[str, Any]:
    """The OpenSpiel parameter of each option with its default (see the module doc)."""
    params: dict[str, Any] = {}
    for spec in variant.options:
        if is_match_option(spec.name):
            continue  # an episode is one deal
        if spec.name == "max_stock_recycles":
            params[spec.name] = EPISODE_RECYCLE_LIMIT
        elif callable(spec.default) or spec.default is None:
            params[spec.name] = UNSET
        else:
            params[spec.name] = spec.default
    return params


def _parameter_specification(variant: Variant) -> dict[str, Any]:
    return {
        "players": variant.default_players,
        **_option_parameters(variant),
        "reward": "score",
        "reward_scale": 1.0,
        "max_steps_per_deal": DEFAULT_MAX_STEPS_PER_DEAL,
    }


def _options_from(variant: Variant, params: Mapping[str, Any]) -> dict[str, Any]:
    """The engine options that OpenSpiel parameters stand for."""
    specs: dict[str, OptionSpec] = {s.name: s for s in variant.options}
    options: dict[str, Any] = {}
    for name, value in params.items():
        spec = specs.get(name)
        if spec is None or is_match_option(name):
            continue
        if value == UNSET and not isinstance(value, bool) and spec.value_type is int:
            if spec.nullable:
                options[name] = None
            continue  # the default of the player count
        options[name] = value
    players = int(params.get("players", variant.default_players))
    if variant.play_rules(variant.resolve(players, options)).recycle_shuffle:
        raise OptionError(
            "recycle_shuffle = True is not available in the OpenSpiel game: the engine "
            "would shuffle the recycled pile with its own RNG, outside the chance nodes"
        )
    return options


def _utility_bound(variant: Variant, players: int, options: Mapping[str, Any]) -> float:
    """A bound on the absolute deal score of any seat (loose, never exceeded).

    Each seat's score is made of piece values, fixed bonuses and penalties from the
    options, and multipliers from the options (a double game, a hand bonus), paid by
    or to every other seat: players × product of the multipliers × (every piece's
    value + every integer option).
    """
    resolved = variant.resolve(players, options)
    value = variant.score_values(resolved)
    pieces = variant.pieces(resolved)
    total = sum(abs(value(f)) for f in pieces.faces)
    multiplier = 1
    for name, option in resolved.items():
        if isinstance(option, bool) or not isinstance(option, int):
            continue
        if "multiplier" in name:
            multiplier *= max(1, abs(option))
        else:
            total += abs(option)
    return float(players * multiplier * total)


class _Spec:
    """The fixed part of a game: variant, players, options and the tables built once."""

    def __init__(self, variant: Variant, players: int, params: Mapping[str, Any]) -> None:
        self.variant = variant
        self.players = players
        self.params = dict(params)
        self.options = _options_from(variant, params)
        resolved = variant.resolve(players, self.options)  # raises OptionError
        reward = str(params.get("reward", "score"))
        if reward not in REWARD_MODES:
            raise OptionError(f"reward = {reward!r} is not allowed; use 'score' | 'relative'")
        self.reward = reward
        self.reward_scale = float(params.get("reward_scale", 1.0))
        self.max_steps = int(params.get("max_steps_per_deal", DEFAULT_MAX_STEPS_PER_DEAL))
        if self.max_steps < 1:
            raise OptionError(f"max_steps_per_deal = {self.max_steps} must be >= 1")
        self.pieces: PieceSet = variant.pieces(resolved)
        self.codec: ActionCodec = action_codec(variant, self.pieces)
        self.encoder: ObservationEncoder = observation_encoder(variant, self.pieces)
        material = self.pieces.material
        self.kind_faces = tuple(Face.from_kind(material, k) for k in range(KINDS))
        ids: list[list[int]] = [[] for _ in range(KINDS)]
        for piece, face in enumerate(self.pieces.faces):
            ids[face.kind].append(piece)
        self.ids_by_kind = tuple(tuple(i) for i in ids)
        probe = Game(variant, players, self.options, seed=0)
        self.reward_sign = -1.0 if probe.play.match_winner == "lowest" else 1.0

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Spec, (self.variant, self.players, self.params))

    def __deepcopy__(self, memo: dict[int, Any]) -> _Spec:
        return self  # immutable: states of one game share it

    def rewards(self, scores: tuple[int, ...] | list[int]) -> list[float]:
        """Each seat's return for a deal's scores (see :data:`~rummykit.rl.REWARD_MODES`)."""
        scale = self.reward_scale * self.reward_sign
        if self.reward == "score":
            return [s * scale for s in scores]
        total = sum(scores)
        others = max(1, len(scores) - 1)
        return [(s - (total - s) / others) * scale for s in scores]


class _Deal:
    """Everything a state holds, in one object so that a copy stays coherent (the
    memory follows the very game it sits beside)."""

    def __init__(self, spec: _Spec) -> None:
        self.spec = spec
        self.maker: int | None = None
        self.wall: list[int] = []
        """Piece ids of the wall being dealt, in order."""
        self.drawn = [0] * KINDS
        """Pieces of each kind already in ``wall``."""
        self.pending: Action | None = None
        """A reshuffle chosen by a seat, applied once its new wall is dealt."""
        self.game: Game | None = None
        self.memory: PublicMemory | None = None
        self.steps = 0
        self.truncated = False
        self.legal_key = -1
        self.legal: dict[int, Action] = {}
        self.seen_key: tuple[int, bool] = (-1, False)
        self.seen: dict[tuple[str, int], Any] = {}
        """Observations of this moment by (kind, seat): OpenSpiel asks for each often."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Deal:
        new = object.__new__(_Deal)
        new.__dict__.update(self.__dict__)
        new.wall = self.wall[:]
        new.drawn = self.drawn[:]
        if self.game is not None and self.memory is not None:
            new.game = self.game.copy()
            new.memory = self.memory.copy(new.game)
        new.legal_key = -1
        new.legal = {}
        new.seen_key = (-1, False)
        new.seen = {}
        return new

    def observed(self, kind: str, seat: int) -> Any:
        """The cached observation ``kind`` of ``seat`` now, or None."""
        assert self.game is not None
        key = (len(self.game.log), self.pending is None)
        if key != self.seen_key:
            self.seen_key = key
            self.seen = {}
        return self.seen.get((kind, seat))

    @property
    def dealing(self) -> bool:
        return self.game is None or self.pending is not None

    @property
    def finished(self) -> bool:
        return self.game is not None and bool(self.game.results)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        spec = self.spec
        if self.maker is None:
            return [(seat, 1.0 / spec.players) for seat in range(spec.players)]
        left = len(spec.pieces) - len(self.wall)
        return [
            (kind, (len(ids) - self.drawn[kind]) / left)
            for kind, ids in enumerate(spec.ids_by_kind)
            if len(ids) > self.drawn[kind]
        ]

    def apply_chance(self, outcome: int) -> None:
        spec = self.spec
        if self.maker is None:
            if not 0 <= outcome < spec.players:
                raise ValueError(f"chance outcome {outcome} is not a seat 0..{spec.players - 1}")
            self.maker = outcome
            return
        ids = spec.ids_by_kind[outcome] if 0 <= outcome < KINDS else ()
        if self.drawn[outcome] >= len(ids):
            raise ValueError(f"chance outcome {outcome}: no piece of that kind is left")
        self.wall.append(ids[self.drawn[outcome]])
        self.drawn[outcome] += 1
        if len(self.wall) < len(spec.pieces):
            return
        wall = tuple(self.wall)
        self.wall = []
        self.drawn = [0] * KINDS
        if self.game is None:
            self.game = Game(
                spec.variant, spec.players, spec.options, seed=0, walls=[wall], maker=self.maker
            )
            self.memory = PublicMemory(self.game)
            return
        # §9.4(2): the reshuffle rebuilds the wall; the engine reads the next explicit one.
        assert self.pending is not None and self.memory is not None
        self.game.explicit_walls = [*self.game.walls_used, wall]
        self.game.apply(self.pending)
        self.pending = None
        self.memory.sync(self.game)

    def legal_actions(self) -> dict[int, Action]:
        game = self.game
        if game is None or self.dealing or self.finished or self.truncated:
            return {}
        if self.legal_key != len(game.log):
            encode = self.spec.codec.encode
            self.legal = {encode(a): a for a in seat_legal_actions(game, game.to_move)}
            self.legal_key = len(game.log)
        return self.legal

    def apply(self, number: int) -> None:
        chosen = self.legal_actions().get(number)
        game = self.game
        if chosen is None or game is None:
            action = self.spec.codec.decode(number)
            if game is not None and not self.finished:
                game.verify(action)  # names the rule it breaks
            raise IllegalActionError(str(action), "§2.3", "not among the legal actions", "")
        self.steps += 1
        if isinstance(chosen, Reshuffle):
            self.pending = chosen  # the new wall comes from chance nodes first
        else:
            game.apply(chosen)
            assert self.memory is not None
            self.memory.sync(game)
        if not game.results and self.steps >= self.spec.max_steps:
            self.truncated = True


def _view_text(seen: SeatView, history: bool) -> str:
    """A seat's view as canonical text (JSON with sorted keys); with ``history`` the
    deal's public log too."""
    data = seen.to_json()
    if not history:
        del data["history"]
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


class RummyObserver:
    """OpenSpiel's Python observer for a rummykit state: the observation vector as
    the tensor; the view as text, with the deal's history for perfect recall."""

    def __init__(self, spec: _Spec, perfect_recall: bool) -> None:
        self.spec = spec
        self.perfect_recall = perfect_recall
        self.tensor: npt.NDArray[np.float32] = np.zeros(spec.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: RummyState, player: int) -> None:
        deal = state.deal
        if deal.game is None or deal.memory is None:
            self.tensor.fill(0)  # nothing is dealt yet: nothing to see
            return
        vector = deal.observed("tensor", player)
        if vector is None:
            deal.memory.sync(deal.game)
            vector = self.spec.encoder.encode(seat_view(deal.game, player), deal.memory)
            deal.seen["tensor", player] = vector
        self.tensor[:] = vector

    def string_from(self, state: RummyState, player: int) -> str:
        deal = state.deal
        if deal.game is None:
            return f"P{player + 1}: the deal is being dealt"
        kind = "recall" if self.perfect_recall else "text"
        text = deal.observed(kind, player)
        if text is None:
            game = deal.game
            seen = view(game, player) if self.perfect_recall else seat_view(game, player)
            text = _view_text(seen, self.perfect_recall)
            if deal.pending is not None:
                text += f" [{deal.pending}: the new wall is being dealt]"
            deal.seen[kind, player] = text
        return str(text)


class RummyState(pyspiel.State):  # type: ignore[misc]
    """One deal of a rummykit variant as an OpenSpiel state."""

    def __init__(self, game: RummyGame) -> None:
        super().__init__(game)
        self.deal = _Deal(game.spec)

    def current_player(self) -> int:
        """The seat to move, ``CHANCE`` while dealing, ``TERMINAL`` at the end."""
        deal = self.deal
        if deal.dealing:
            return int(pyspiel.PlayerId.CHANCE)
        if deal.finished or deal.truncated:
            return int(pyspiel.PlayerId.TERMINAL)
        assert deal.game is not None
        return deal.game.to_move

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        return sorted(self.deal.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The maker's seat, then the next piece's face kind, with their probabilities."""
        return self.deal.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        if self.deal.dealing:
            self.deal.apply_chance(int(action))
        else:
            self.deal.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        deal = self.deal
        if player == pyspiel.PlayerId.CHANCE:
            if deal.maker is None:
                return f"maker P{action + 1}"
            return f"wall {deal.spec.kind_faces[action]}"
        return str(deal.spec.codec.decode(int(action)))

    def is_terminal(self) -> bool:
        """The deal has been scored, or truncated after ``max_steps_per_deal`` actions."""
        return self.deal.finished or self.deal.truncated

    def returns(self) -> list[float]:
        """Each seat's deal reward once the deal is scored (0 before, and if truncated)."""
        deal = self.deal
        if deal.game is None or not deal.game.results:
            return [0.0] * deal.spec.players
        return deal.spec.rewards(deal.game.results[0].scores)

    def rewards(self) -> list[float]:
        """Rewards of the last action: the deal's returns on reaching the end, else 0."""
        if self.is_terminal():
            return self.returns()
        return [0.0] * self.deal.spec.players

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RummyState:
        """A state the seat ``player_id`` cannot tell from this one, drawn at random:
        :func:`rummykit.bots.resample` over the seat's view, with the same public memory
        (the memory is public, so it is the same in every consistent world)."""
        seed = int(float(probability_sampler()) * 2**53)
        deal = self.deal
        new = RummyState(self.get_game())
        if deal.game is None or deal.dealing or deal.memory is None:
            # Nothing dealt is seen yet: the maker is public, the wall so far is not.
            rng = random.Random(seed)
            new.deal.maker = deal.maker
            for _ in range(len(deal.wall)):
                kinds, weights = zip(*new.deal.chance_outcomes(), strict=True)
                new.deal.apply_chance(rng.choices(kinds, weights)[0])
            if deal.pending is not None:
                raise pyspiel.SpielError("resample_from_infostate during a reshuffle's deal")
            return new
        try:
            world = resample(view(deal.game, player_id), random.Random(seed))
        except ResampleError:
            # bots.resample can exhaust its retries on rare views (four seats with
            # announced and swapped doubles).  This state itself is consistent with
            # the information state, so it is the fallback sample.
            return self.clone()  # type: ignore[no-any-return]
        new.deal.maker = deal.maker
        new.deal.game = world
        new.deal.memory = deal.memory.copy(world)
        new.deal.steps = deal.steps
        new.deal.truncated = deal.truncated
        return new

    def __str__(self) -> str:
        deal = self.deal
        if deal.game is None:
            return f"dealing: maker {deal.maker}, {len(deal.wall)} pieces of the wall drawn"
        return deal.game.describe()


class RummyGame(pyspiel.Game):  # type: ignore[misc]
    """A rummykit variant as an OpenSpiel game (one deal per episode)."""

    def __init__(self, variant: Variant, params: Mapping[str, Any] | None = None) -> None:
        given = dict(_parameter_specification(variant))
        given.update(params or {})
        players = int(given["players"])
        self.spec = _Spec(variant, players, given)
        bound = _utility_bound(variant, players, self.spec.options) * abs(self.spec.reward_scale)
        relative = self.spec.reward == "relative"
        pieces = len(self.spec.pieces)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.spec.codec.size,
            max_chance_outcomes=max(KINDS, players),
            num_players=players,
            min_utility=-2 * bound if relative else -bound,
            max_utility=2 * bound if relative else bound,
            utility_sum=0.0 if relative else None,
            # Every agent action may be a reshuffle followed by a new wall.
            max_game_length=(1 + pieces) + self.spec.max_steps * (1 + pieces),
        )
        super().__init__(_game_type(variant, relative), info, given)

    def new_initial_state(self) -> RummyState:
        """The state before the deal: the maker's chance node."""
        return RummyState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> RummyObserver:
        """The observer of ``iig_obs_type``: perfect recall adds the deal's history to
        the string; other types are refused (only single-seat views exist)."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError("only a seat's own view can be observed (private and public info)")
        recall = iig_obs_type is not None and bool(iig_obs_type.perfect_recall)
        return RummyObserver(self.spec, recall)


def _game_type(variant: Variant, zero_sum: bool = False) -> Any:
    return pyspiel.GameType(
        short_name=game_name(variant),
        long_name=f"rummykit {variant.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=variant.max_players,
        min_num_players=variant.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=_parameter_specification(variant),
    )


def _game_class(variant: Variant) -> type[RummyGame]:
    """The class OpenSpiel calls with a game's parameters: one subclass per variant.

    A class rather than a closure or a callable object: OpenSpiel's registry releases
    its creators after the interpreter has shut down, which only a class survives.
    """

    def init(self: RummyGame, params: Mapping[str, Any] | None = None) -> None:
        RummyGame.__init__(self, find_variant(variant.name), params)

    name = "".join(part.title() for part in variant.name.split("_"))
    return type(f"Rummy{name}Game", (RummyGame,), {"__init__": init})


_GAME_CLASSES: dict[str, type[RummyGame]] = {}


def register_openspiel_games() -> list[str]:
    """Register every variant not yet registered; returns the names registered now."""
    known = set(pyspiel.registered_names())
    names = []
    for variant in all_variants():
        name = game_name(variant)
        if name not in known:
            cls = _GAME_CLASSES[name] = _game_class(variant)
            pyspiel.register_game(_game_type(variant), cls)
            names.append(name)
    return names


def load(variant: Variant | str, **params: Any) -> Any:
    """``pyspiel.load_game(rummykit_<variant>, params)``."""
    return pyspiel.load_game(game_name(variant), params)


register_openspiel_games()
