"""Every way an action can break the rules, as a typed exception.

Each message names the rule in plain words and, where there is one, the
player who broke it ("Jordan must find a Location before an Item"), so a
client can show it as it is and a log line explains itself.
"""

from __future__ import annotations


class RuleError(Exception):
    """An action that the rules do not allow in this state.  The state is unchanged."""


class SetupError(RuleError):
    """The setup values do not describe a game the rules allow."""


class GameOver(RuleError):
    """The game has ended; only chat is still possible."""


class WrongPhase(RuleError):
    """The action belongs to another phase or stage of the round."""


class UnknownSeat(RuleError):
    """The action names a seat that is not at this table."""


class GhostOnly(RuleError):
    """Only the Ghost may give dream cards, refresh or announce a séance."""


class InvestigatorOnly(RuleError):
    """Only investigators have markers."""


class GhostMayNotSpeak(RuleError):
    """The Ghost never speaks: no chat, no free text."""


class BadChat(RuleError):
    """A chat message that is empty or too long."""


class NotActive(RuleError):
    """An investigator who holds all three cards takes no part in the rest of Stage One."""


class AlreadyServed(RuleError):
    """The Ghost serves each active investigator exactly once a round."""


class NotServedYet(RuleError):
    """An investigator may place a marker only after this round's dreams arrived."""


class BadGive(RuleError):
    """A give with no cards, repeated cards, or the wrong number of cards."""


class NotInHand(RuleError):
    """A dream card that is not in the Ghost's hand."""


class RefreshLimit(RuleError):
    """The difficulty allows no more hand refreshes now."""


class NothingToDraw(RuleError):
    """A refresh needs a whole new hand to draw from the deck and the discard pile (protocol 2:
    a single card)."""


class NotOnTableau(RuleError):
    """A marker must go on a card of the Clue Tableau."""


class WrongCategory(RuleError):
    """Markers follow the order Character, then Location, then Item."""


class MarkerLocked(RuleError):
    """A locked marker stays where it is until it is unlocked."""


class MarkerNotPlaced(RuleError):
    """A marker must be on a card before it can be locked."""


class MarkerNotLocked(RuleError):
    """Only a locked marker can be unlocked."""


class NoSandGlass(RuleError):
    """Time cannot run out at a table that plays without a sand-glass."""


class BadTimeUp(RuleError):
    """A time-up that does not lock exactly the placed, unlocked markers, or does not
    name exactly the investigators without a marker."""


class BadVerdict(RuleError):
    """A séance announcement that does not name exactly the investigators it judges."""


class FalseVerdict(RuleError):
    """A séance verdict that contradicts the Ghost's own columns (the Ghost cheated)."""
