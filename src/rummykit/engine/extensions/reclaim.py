"""Taking one's own end tiles back (Remmi, A-75 option): a player may take an end tile of
a run, or any tile of a set, that he laid in an earlier turn, if the formation stays
valid; the tile must go into a new formation in the same turn.

The tiles taken back this turn are this extension's state of the turn
(``game.turn.extensions["reclaim"]``, a tuple of piece ids): a reset puts them back on the
table and the next turn starts without them.

Remmi names it ``"reclaim"`` in ``PlayRules.extensions``; its option
``allow_reclaim_own_end_tiles`` turns it on.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from rummykit.engine.actions import Action, Reclaim
from rummykit.engine.extension import Extension, register_extension
from rummykit.engine.table import Formation
from rummykit.model.melds import MeldKind
from rummykit.model.pieces import JOKER_KIND

if TYPE_CHECKING:
    from rummykit.engine.game import Game

__all__ = ["TakeBack"]

NAME = "reclaim"


@register_extension
class TakeBack(Extension[Any]):
    """A-75: own end tiles come back to the rack for a new formation."""

    name = NAME
    handlers: ClassVar[Mapping[type[Action], tuple[str, str]]] = {
        Reclaim: ("_verify_reclaim", "_apply_reclaim"),
    }

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.enabled = game.play.reclaim_own_end_tiles

    def _piece(self, game: Game, action: Reclaim) -> tuple[Formation, int]:
        """(formation, piece) a reclaim takes, or raise."""
        seat = game.to_move
        if not self.enabled:
            raise game.fail(action, "A-75", "tiles are never taken back from the table")
        formation = game.formation(action, action.target)
        if formation.owner != seat or formation.id in game.turn.new_formations:
            raise game.fail(
                action, "A-75", "only your own formations from an earlier turn give tiles back"
            )
        rules = game.rules
        kinds = list(formation.kinds)
        # A run gives up only an end tile; a set any of its tiles.
        is_run = formation.kind is MeldKind.RUN
        for i in [0, len(kinds) - 1] if is_run else range(len(kinds)):
            p = formation.pieces[i]
            if kinds[i] != action.face.kind or game.credit[p] != seat:
                continue
            rest = kinds[:i] + kinds[i + 1 :]
            wild = rest.count(JOKER_KIND)
            natural = len(rest) - wild
            if (
                len(rest) >= rules.min_size
                and natural >= max(rules.min_natural, 1)
                and not (rules.max_wild is not None and wild > rules.max_wild)
                and not (rules.wild_le_natural and wild > natural)
            ):
                return formation, p
        raise game.fail(
            action,
            "A-75",
            f"{action.face} is no end tile of yours that m{action.target} can spare",
        )

    def _verify_reclaim(self, game: Game, action: Reclaim) -> None:
        game.verify_table_action(action)
        if action.face.is_joker:
            raise game.fail(action, "A-75", "a joker leaves the table only by an exchange")
        self._piece(game, action)

    def _apply_reclaim(self, game: Game, action: Reclaim) -> None:
        game.before_change()
        seat = game.to_move
        formation, piece = self._piece(game, action)
        game.table[formation.id - 1] = formation.without_piece(piece)
        game.credit[piece] = -1
        game.racks[seat].append(piece)
        game.racks[seat].sort()
        turn = game.turn
        turn.extensions[NAME] = (*turn.extensions.get(NAME, ()), piece)
        turn.dirty = True

    def formation_pieces(self, game: Game, seat: int) -> Collection[int]:
        reclaimed: tuple[int, ...] = game.turn.extensions.get(NAME, ())
        return reclaimed

    def turn_commit_problem(self, game: Game, seat: int) -> tuple[str, str] | None:
        reclaimed: tuple[int, ...] = game.turn.extensions.get(NAME, ())
        if reclaimed and not game.new_formation_pieces().issuperset(reclaimed):
            return "A-75", "a reclaimed tile must be laid in a new formation this turn"
        return None

    def table_actions(self, game: Game, seat: int, out: list[Action]) -> None:
        if not self.enabled:
            return
        new = game.turn.new_formations
        for formation in game.table:
            if formation.owner != seat or formation.id in new:
                continue
            indices = (
                (0, len(formation.pieces) - 1)
                if formation.kind is MeldKind.RUN
                else range(len(formation.pieces))
            )
            seen: set[int] = set()
            for i in indices:
                kind = formation.kinds[i]
                if kind == JOKER_KIND or kind in seen:
                    continue
                seen.add(kind)
                action = Reclaim(game.kind_faces[kind], formation.id)
                if game.can(action):
                    out.append(action)
