"""The end of the game: the Ghost's seed is revealed and everything is checked with it.

With ``g`` every peer recomputes, in this order:

1. ``H("domicile-p2p/v1/ghost-commit", g)`` equals the Ghost's commitment
   (the ghost seed check);
2. ``K`` from ``g`` and the joint seed, the secrets ``deal_secrets(K, ...)``
   and every slot's salt and commitment, which must equal the commitments
   the Ghost published before play (the slot commitments check);
3. the whole game again, through the rules engine *with* the secrets: every
   verdict must match the columns (séance verdicts, culprit) and every dream
   card given must have been in the Ghost's hand at that moment, with the
   deck, the refreshes and every reshuffle replayed (dream cards).

A seed that does not open the commitment is refused like any bad action.
A seed that does open it is accepted even when it proves the Ghost cheated
(steps 2 and 3): the proof belongs in the transcript.  The failure is
blamed on the Ghost at the event where the cheat happened (the slot
commitments, or the move), not at the reveal that proved it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domicile_p2p.fairness.commit import ghost_commitment, ghost_key, same_digest, slot_openings
from domicile_p2p.fairness.deal import deal_secrets
from domicile_p2p.rules import (
    GHOST,
    CulpritSeance,
    FalseVerdict,
    GameState,
    RuleError,
    apply,
    new_game,
)
from domicile_p2p.transcript.errors import Check, Fault, party

if TYPE_CHECKING:
    from domicile_p2p.transcript.ledger import Ledger


def check_seed(ledger: Ledger, seed: bytes) -> None:
    """The seed must open the Ghost's commitment (else the reveal itself is refused)."""
    assert ledger.ghost_commit is not None
    if not same_digest(ghost_commitment(seed), ledger.ghost_commit):
        raise Fault(
            Check.GHOST_SEED, party(GHOST), "the seed revealed does not open the Ghost's commitment"
        )


def replay(ledger: Ledger, seq: int, seed: bytes) -> GameState | None:
    """Check everything the seed (revealed at event ``seq``) proves; the game with its secrets.

    ``None`` when the setup never got as far as the deal (nothing was secret
    yet).  A :class:`Fault` names the Ghost's cheat at the event where it
    happened.
    """
    ghost = party(GHOST)
    table = ledger.table
    if ledger.joint_seed is None or ledger.tableau is None:
        return None
    key = ghost_key(seed, ledger.joint_seed)
    setup = deal_secrets(key, table.config, ledger.tableau)
    if ledger.slot_commits is None:
        return None
    for slot, opening in slot_openings(key, setup).items():
        if not opening.opens(table.game_id, ledger.slot_commits[slot]):
            raise Fault(
                Check.SLOT_COMMITMENTS,
                ghost,
                f"the commitment to {slot} is not the one the Ghost's seed derives "
                f"(proven by the seed revealed at event {seq})",
                seq=ledger.slot_commits_seq,
            )
    state = new_game(table.config, ledger.tableau, setup)
    for move_seq, action in ledger.moves:
        try:
            state = apply(state, action)
        except RuleError as exc:
            raise Fault(
                _check_of(exc, action),
                ghost,
                f"{exc} (proven by the seed revealed at event {seq})",
                seq=move_seq,
            ) from None
    return state


def _check_of(error: RuleError, action: object) -> Check:
    """The check a refusal of the replay with the secrets fails.

    With the secrets the engine checks only what the public replay could not:
    the truth of the verdicts and the Ghost's hand.  So a false verdict fails
    the verdicts (or the culprit), and every other refusal is about the hand:
    a card not in it (``NotInHand``), or a give or a reshuffle it could not cover.
    """
    if isinstance(error, FalseVerdict):
        return Check.CULPRIT if isinstance(action, CulpritSeance) else Check.VERDICTS
    return Check.DREAM_CARDS
