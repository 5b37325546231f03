"""Variant extensions: rules that only some variants play, as plug-ins of the engine.

A variant names the extensions it plays in its :class:`~rummykit.rules.variant.PlayRules`
(``extensions``, plain names: the rules layer never imports the engine).  Each name
resolves here to an :class:`Extension` subclass, which owns everything of its rule:

* its per-deal state, an :class:`ExtensionState` that :class:`~rummykit.engine.game.Game`
  keeps in ``Game.ext_states`` under the extension's name, made fresh at every deal
  start and copied generically (a new field cannot be forgotten by a copy);
* its actions: for each action type it handles, a verify and an apply function;
* the phase it holds the game in, if any, and the candidate actions listed there;
* the fields it contributes to each seat's view and to each seat's deal outcome.

The core game only calls these hooks; it holds no field or switch of any one variant.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, cast

from rummykit.engine.actions import Action, Attach
from rummykit.rules.variant import ShownHand

if TYPE_CHECKING:
    from rummykit.engine.game import Game
    from rummykit.engine.table import Formation

__all__ = [
    "Extension",
    "ExtensionState",
    "Handler",
    "extension_class",
    "make_extensions",
    "phase_owners",
    "register_extension",
    "state_of",
]

Handler = Callable[["Game", Action], None]
"""A verify or apply function: called with the game and the action."""


@dataclass(slots=True)
class ExtensionState:
    """An extension's per-deal state.

    Fields hold immutable values (ints, bools, strings, faces, tuples, enums) or lists,
    sets and dicts of them, nested as deep as needed: :meth:`copy` copies every
    container it finds, so a subclass declares its fields and nothing more.
    """

    def copy(self) -> ExtensionState:
        """An independent copy: every list, set and dict copied, at every depth."""
        new = object.__new__(type(self))
        for f in fields(self):
            object.__setattr__(new, f.name, _clone(getattr(self, f.name)))
        return new


def _clone(value: Any) -> Any:
    if isinstance(value, list):
        return [_clone(v) for v in value]
    if isinstance(value, set):
        return {_clone(v) for v in value}
    if isinstance(value, dict):
        return {k: _clone(v) for k, v in value.items()}
    if isinstance(value, tuple) and any(isinstance(v, list | set | dict) for v in value):
        return tuple(_clone(v) for v in value)
    return value


S = TypeVar("S", bound=ExtensionState)


class Extension(Generic[S]):
    """One rule some variants play.  Subclasses set :attr:`name`, :attr:`handlers` and
    override the hooks they need; an instance is built once per game from its options
    and holds no state of a deal (that is :meth:`new_state`'s), so copies of a game
    share it."""

    name: ClassVar[str]
    """The name variants use for it in ``PlayRules.extensions``."""
    handlers: ClassVar[Mapping[type[Action], tuple[str, str]]] = {}
    """Per action type it adds: the names of its verify and apply methods, each
    ``(self, game, action) -> None``."""
    phases: ClassVar[tuple[str, ...]] = ()
    """The game phases this extension holds the game in (it lists their candidates)."""
    phase_handlers: ClassVar[Mapping[str, tuple[str, str]]] = {}
    """Per phase it holds where every action is its own (whatever the action's type):
    the names of the verify and apply methods that take them all."""

    def __init__(self, game: Game) -> None:
        """Read what the extension needs from ``game``'s options (keep no reference to
        the game: an extension is shared by the game's copies and pickled with it)."""

    # ------------------------------------------------------------------ state

    def new_state(self, game: Game) -> S | None:
        """The extension's state at the start of a deal (None: it keeps none)."""
        return None

    def state(self, game: Game) -> S:
        """This deal's state, to read."""
        return cast(S, game.ext_states[self.name])

    def writable(self, game: Game) -> S:
        """This deal's state, to change (a copy of the game never sees the change)."""
        return cast(S, game.writable_state(self.name))

    # ------------------------------------------------------------------ hooks

    def begin_deal(self, game: Game) -> bool:
        """Called once the deal is dealt: True if the extension holds the game in a
        phase of its own before play starts (the core then does not start play)."""
        return False

    def candidates(self, game: Game) -> Iterator[Action]:
        """Candidate actions in this extension's phase (the game keeps those that verify)."""
        return iter(())

    def legal(self, game: Game) -> list[Action] | None:
        """The legal actions in this extension's phase, where the extension lists exactly
        them (the game then verifies none of the list); None, the default: the game keeps
        the :meth:`candidates` that verify."""
        return None

    def actions_before_discards(self, game: Game, seat: int, out: list[Action]) -> None:
        """Add this extension's actions to a turn's legal list, after the draw, takes and
        table plays and before the discards (the list's order is part of the game: keep
        it stable)."""

    def actions_after_discards(self, game: Game, seat: int, out: list[Action]) -> None:
        """Add this extension's actions to a turn's legal list after the discards, once
        the seat has drawn or taken."""

    def table_actions(self, game: Game, seat: int, out: list[Action]) -> None:
        """Add this extension's table plays after the shared ones (melds, lay-offs,
        exchanges), where the seat may play on the table."""

    def closing_discards(
        self, game: Game, seat: int, kinds: Sequence[int], out: list[Action]
    ) -> None:
        """Add the actions that end the deal with a discard of one of ``kinds`` (the kinds
        the seat may discard now), right after the plain discards."""

    def discarded(self, game: Game, seat: int) -> None:
        """Called after ``seat`` discarded without ending the deal, before the turn passes."""

    # An obligation of the turn: the hooks down to attached() are asked only while the
    # turn holds a state of some extension (``game.turn.extensions`` is not empty), so
    # they cost nothing otherwise.

    def verify_turn_action(self, game: Game, action: Action) -> None:
        """Called before the core checks any action of a turn's handlers (not those of a
        phase an extension holds whole): raise ``game.fail`` to refuse it, e.g. while an
        obligation of this extension must be met first."""

    def turn_actions(self, game: Game, seat: int) -> list[Action] | None:
        """The turn's whole legal list while this extension's obligation must be met
        first (None, the default: the usual list)."""
        return None

    def turn_commit_problem(self, game: Game, seat: int) -> tuple[str, str] | None:
        """(rule, reason) if the turn may not be committed (by a discard or by going out)
        because of this extension's obligation; asked right after the draw check."""
        return None

    def obliged_pieces(self, game: Game, seat: int) -> Collection[int]:
        """Pieces on ``seat``'s rack this turn obliges it to lay on the table: a placement
        picks them before identical copies, and the seat's view counts them as pending."""
        return ()

    def formation_pieces(self, game: Game, seat: int) -> Collection[int]:
        """Pieces on ``seat``'s rack this turn obliges it to lay in a new formation (e.g.
        a tile taken back from the table, Remmi A-75): a meld picks them before identical
        copies, a lay-off, an exchange or a discard after them."""
        return ()

    def verify_misfit_attach(
        self, game: Game, action: Attach, piece: int, formation: Formation
    ) -> bool:
        """A lay-off of ``piece`` that does not fit ``formation``: True if this extension's
        rule plays it anyway (then verified: raise ``game.fail`` if the rule refuses it;
        the core checks no more), False to leave it to the others."""
        return False

    def apply_misfit_attach(
        self, game: Game, action: Attach, piece: int, formation: Formation
    ) -> bool:
        """Play the lay-off :meth:`verify_misfit_attach` accepted (the core has taken the
        snapshot and marked the turn as having laid off); True if this extension did."""
        return False

    def attached(self, game: Game, seat: int, action: Attach) -> None:
        """Called after a lay-off that fit its formation was played, before the core
        checks whether the rack is empty (while the turn holds an extension state)."""

    def formation_data(self, game: Game, formation: Formation) -> Any:
        """What this extension may lay off onto ``formation`` for any rack, worked out
        once per formation and shared by every game of the variant, its meld rules and
        its extensions (so it depends on nothing else); falsy: nothing, and
        :meth:`formation_attaches` is not asked for it."""
        return None

    def formation_attaches(
        self,
        game: Game,
        seat: int,
        formation: Formation,
        data: Any,
        counts: tuple[int, ...],
        out: list[Action],
    ) -> None:
        """Add this extension's lay-offs onto ``formation`` (``data``: its
        :meth:`formation_data`; ``counts``: the rack's count of each kind) to a turn's
        legal list, right after the natural lay-offs that fit it; asked where the seat
        may lay off."""

    def table_play_problem(self, game: Game, seat: int) -> tuple[str, str] | None:
        """(rule, reason) if ``seat`` may not lay out, attach or exchange at all now."""
        return None

    def column_take_problem(self, game: Game, seat: int) -> tuple[str, str] | None:
        """(rule, reason) if ``seat`` may not take from below the top of the discard pile."""
        return None

    def take_use_waived(self, game: Game, seat: int) -> bool:
        """Whether ``seat`` is free this turn of the obligation a taken discard brings."""
        return False

    def take_use_alternative(self, game: Game) -> str:
        """Words added to the "the taken piece must be used" error: another way out."""
        return ""

    def shown_hands(self, game: Game, rack_values: list[int]) -> list[ShownHand] | None:
        """How each seat's hand is shown at the end of a deal that did not end void, if
        this extension decides it (None: the variant's ``arrange_hand`` hook, if any)."""
        return None

    def hidden_discard(self, game: Game) -> tuple[int | None, int]:
        """(piece, seat): a piece on the discard pile that lies face down and the one
        seat that saw it, or (None, -1)."""
        return None, -1

    def view_fields(self, game: Game, seat: int) -> Mapping[str, Any]:
        """Fields of ``seat``'s :class:`~rummykit.engine.view.SeatView` this extension fills."""
        return {}

    def outcome_fields(self, game: Game, seat: int) -> Mapping[str, Any]:
        """Fields of ``seat``'s :class:`~rummykit.rules.variant.SeatOutcome` it fills."""
        return {}

    def bound_handlers(self) -> dict[type[Action], tuple[Handler, Handler]]:
        """(verify, apply) per action type, each called as ``handler(game, action)``."""
        out: dict[type[Action], tuple[Handler, Handler]] = {}
        for action_type, (verify, apply) in self.handlers.items():
            out[action_type] = (getattr(self, verify), getattr(self, apply))
        return out

    def bound_phase_handlers(self) -> dict[str, tuple[Handler, Handler]]:
        """(verify, apply) per phase of :attr:`phase_handlers`."""
        return {
            phase: (getattr(self, verify), getattr(self, apply))
            for phase, (verify, apply) in self.phase_handlers.items()
        }


def state_of(game: Game, name: str, kind: type[S], *, writable: bool = False) -> S | None:
    """Extension ``name``'s state of ``game``'s deal (None: the variant does not play
    it); ``writable``: to change it (see ``Game.writable_state``)."""
    if name not in game.ext_states:
        return None
    state = game.writable_state(name) if writable else game.ext_states[name]
    assert isinstance(state, kind)
    return state


_REGISTRY: dict[str, type[Extension[Any]]] = {}


def register_extension(cls: type[Extension[Any]]) -> type[Extension[Any]]:
    """Class decorator: make ``cls`` available under ``cls.name``."""
    if cls.name in _REGISTRY and _REGISTRY[cls.name] is not cls:
        raise ValueError(f"an extension named {cls.name!r} is already registered")
    _REGISTRY[cls.name] = cls
    return cls


def extension_class(name: str) -> type[Extension[Any]]:
    """The extension registered as ``name``."""
    # The built-in extensions register on import.
    import rummykit.engine.extensions  # noqa: F401

    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise ValueError(f"unknown extension {name!r} (known: {known})") from None


def make_extensions(game: Game, names: tuple[str, ...]) -> tuple[Extension[Any], ...]:
    """The extensions ``names`` built for ``game``."""
    return tuple(extension_class(n)(game) for n in names)


def phase_owners(extensions: tuple[Extension[Any], ...]) -> dict[str, Extension[Any]]:
    """Which extension lists the candidates of each phase it holds (a phase is a
    string enum, so it looks itself up by its value)."""
    out: dict[str, Extension[Any]] = {}
    for ext in extensions:
        for phase in ext.phases:
            if phase in out:
                raise ValueError(f"phase {phase!r} is held by {out[phase].name} and {ext.name}")
            out[phase] = ext
    return out
