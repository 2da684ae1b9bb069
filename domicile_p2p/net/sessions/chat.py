"""What each seat may still chat in its table's game: the host's chat budgets, sans I/O.

A seat may send ``chat_rate`` chats a second on average, ``chat_burst`` at once,
and ``chat_characters`` code points in one game; a new game (a rematch) starts a
new budget.  The host asks :meth:`ChatBudgets.refusal` before it hands a chat to
the table (a chat over the bound gets ``chat-limit`` and changes nothing), and
:meth:`ChatBudgets.spend` once the table took it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domicile_p2p.net.sessions.limits import HostLimits, TokenBucket


def chat_text(action: Mapping[str, Any]) -> str | None:
    """The text of an action that says it is a chat (checked for real by the table after)."""
    body = action.get("body")
    if action.get("kind") != "chat" or not isinstance(body, dict):
        return None
    text = body.get("text")
    return text if isinstance(text, str) else None


@dataclass(slots=True)
class _Budget:
    """What one seat may still chat in one game: a rate, and characters in total."""

    game_id: str
    bucket: TokenBucket
    characters: int = 0


class ChatBudgets:
    """Every seat's chat budget, by (table, seat), for the table's current game."""

    def __init__(self, limits: HostLimits) -> None:
        self.limits = limits
        self._budgets: dict[tuple[int, int], _Budget] = {}

    def _budget(self, nameplate: int, seat: int, game_id: str) -> _Budget:
        budget = self._budgets.get((nameplate, seat))
        if budget is None or budget.game_id != game_id:
            budget = _Budget(game_id, TokenBucket(self.limits.chat_rate, self.limits.chat_burst))
            self._budgets[nameplate, seat] = budget
        return budget

    def refusal(self, nameplate: int, seat: int, game_id: str, text: str, now: float) -> str | None:
        """Why a chat of ``text`` from ``seat`` is over its bound now, or ``None`` (then one
        message of the rate is spent, whatever the table says of it)."""
        budget = self._budget(nameplate, seat, game_id)
        limit = self.limits.chat_characters
        if budget.characters + len(text) > limit:
            return (
                f"this seat has sent {budget.characters} of its {limit} characters of chat "
                "this game; this message does not fit"
            )
        if not budget.bucket.allow(now):
            return (
                f"too much chat: at most {self.limits.chat_burst:g} messages at once and "
                f"{self.limits.chat_rate:g} a second"
            )
        return None

    def spend(self, nameplate: int, seat: int, game_id: str, text: str) -> None:
        """The table took a chat of ``text`` from ``seat``: its characters are spent."""
        self._budget(nameplate, seat, game_id).characters += len(text)
