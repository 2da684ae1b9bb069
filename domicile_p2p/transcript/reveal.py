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

Replaying once (``verify``)
---------------------------
A live peer learns the seed at the end and must replay the game a second
time.  ``verify`` holds the whole transcript, so it can read the seed ahead
(:class:`Foresight`) and play every move on the state with the secrets as
the public fold goes: the public state after a move is then ``public()`` of
the secret one, the rules engine's projection, which equals what the public
replay gives (the engine runs the same checks on both, and the secret state
only adds checks and moves hidden cards: ``tests/test_rules_properties.py``
plays random games both ways field by field).  A move the secrets refuse is
played on the public state, which names any public fault exactly as before;
if the public state accepts it, it is the Ghost's first cheat, kept for the
reveal, and the fold goes on publicly.  At the reveal :func:`replay` checks
the seed and the slot commitments as always and then takes the foreseen
outcome instead of replaying: the same state, or the same first refusal.
The seed read ahead is trusted for nothing: it is used only when it opens
the Ghost's commitment at the deal and is the seed the reveal brings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domicile_p2p.fairness.commit import ghost_commitment, ghost_key, same_digest, slot_openings
from domicile_p2p.fairness.deal import deal_secrets
from domicile_p2p.rules import (
    GHOST,
    Action,
    CulpritSeance,
    FalseVerdict,
    GameState,
    RuleError,
    SecretSetup,
    Tableau,
    TableConfig,
    apply,
    new_game,
    public,
)
from domicile_p2p.transcript.errors import Check, Fault, party

if TYPE_CHECKING:
    from domicile_p2p.transcript.ledger import Ledger


class Foresight:
    """The game played with the Ghost's secrets alongside the public fold (see above).

    A value, like the ledger that holds it: every step returns a new one.
    ``state`` is the secret state after the moves so far (``None`` before the
    deal, and after the first move the secrets refused, which ``refusal``
    keeps with its event's ``seq``).
    """

    __slots__ = ("key", "refusal", "secret", "seed", "state")

    def __init__(
        self,
        seed: bytes,
        key: bytes | None = None,
        secret: SecretSetup | None = None,
        state: GameState | None = None,
        refusal: tuple[int, Action, RuleError] | None = None,
    ) -> None:
        self.seed = seed
        self.key = key
        self.secret = secret
        self.state = state
        self.refusal = refusal

    def dealt(
        self, ghost_commit: bytes, joint: bytes, config: TableConfig, tableau: Tableau
    ) -> Foresight | None:
        """At the deal: the secrets the seed derives, or ``None`` if it is not the Ghost's."""
        if not same_digest(ghost_commitment(self.seed), ghost_commit):
            return None  # the reveal will refuse this seed; nothing to foresee
        key = ghost_key(self.seed, joint)
        secret = deal_secrets(key, config, tableau)
        try:
            state = new_game(config, tableau, secret)
        except RuleError:
            return None  # the reveal's own replay will say what is wrong
        return Foresight(self.seed, key, secret, state)


def play(
    foresight: Foresight | None, state: GameState, action: Action, seq: int
) -> tuple[GameState, Foresight | None]:
    """``apply(state, action)`` on the public state, and the foresight after it.

    Raises the public replay's :class:`~domicile_p2p.rules.RuleError` when the
    public state refuses the move, exactly as ``apply`` on it would.
    """
    if foresight is None or foresight.state is None:
        return apply(state, action), foresight
    try:
        secret_after = apply(foresight.state, action)
    except RuleError as refusal:
        # The public state decides whether this is a public fault (raised here) or the
        # Ghost's first cheat, which only the secrets show (kept for the reveal).
        after = apply(state, action)
        return after, Foresight(
            foresight.seed,
            foresight.key,
            foresight.secret,
            None,
            (
                seq,
                action,
                refusal,
            ),
        )
    return public(secret_after), Foresight(
        foresight.seed, foresight.key, foresight.secret, secret_after
    )


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
    table_setup = ledger.table_setup
    if ledger.joint_seed is None or ledger.tableau is None:
        return None
    foreseen = ledger.foresight
    if foreseen is not None and (foreseen.seed != seed or foreseen.secret is None):
        foreseen = None
    if foreseen is not None:
        assert foreseen.key is not None and foreseen.secret is not None
        key, setup = foreseen.key, foreseen.secret
    else:
        key = ghost_key(seed, ledger.joint_seed)
        setup = deal_secrets(key, table_setup.config, ledger.tableau)
    if ledger.slot_commits is None:
        return None
    for slot, opening in slot_openings(key, setup).items():
        if not opening.opens(table_setup.game_id, ledger.slot_commits[slot]):
            raise Fault(
                Check.SLOT_COMMITMENTS,
                ghost,
                f"the commitment to {slot} is not the one the Ghost's seed derives "
                f"(proven by the seed revealed at event {seq})",
                seq=ledger.slot_commits_seq,
            )
    if foreseen is not None:  # the game was replayed with these secrets during the fold
        if foreseen.refusal is not None:
            raise _cheat(*foreseen.refusal, seq)
        return foreseen.state
    state = new_game(table_setup.config, ledger.tableau, setup)
    for move_seq, action in ledger.moves:
        try:
            state = apply(state, action)
        except RuleError as exc:
            raise _cheat(move_seq, action, exc, seq) from None
    return state


def _cheat(move_seq: int, action: Action, refusal: RuleError, seq: int) -> Fault:
    """The Ghost's cheat at event ``move_seq``, proven by the seed revealed at event ``seq``."""
    return Fault(
        _check_of(refusal, action),
        party(GHOST),
        f"{refusal} (proven by the seed revealed at event {seq})",
        seq=move_seq,
    )


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
