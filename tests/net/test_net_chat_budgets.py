"""The host's chat budgets on their own (``sessions/chat.py``)."""

from __future__ import annotations

from domicile_p2p.net.sessions.chat import ChatBudgets, chat_text
from domicile_p2p.net.sessions.limits import HostLimits


def test_only_a_chat_with_text_is_a_chat() -> None:
    assert chat_text({"kind": "chat", "body": {"text": "boo"}}) == "boo"
    assert chat_text({"kind": "chat", "body": {"text": 3}}) is None
    assert chat_text({"kind": "chat", "body": "boo"}) is None
    assert chat_text({"kind": "lock", "body": {"text": "boo"}}) is None


def test_a_seat_chats_at_its_rate_and_within_its_characters_per_game() -> None:
    chats = ChatBudgets(HostLimits(chat_rate=1.0, chat_burst=2.0, chat_characters=10))
    assert chats.refusal(7, 1, "g1", "hello", 0.0) is None
    chats.spend(7, 1, "g1", "hello")
    assert chats.refusal(7, 1, "g1", "hello", 0.0) is None
    chats.spend(7, 1, "g1", "hello")
    over = chats.refusal(7, 1, "g1", "!", 5.0)
    assert over is not None and "10 of its 10 characters" in over
    assert chats.refusal(7, 2, "g1", "hi", 0.0) is None, "another seat has its own budget"
    assert chats.refusal(7, 1, "g2", "hello", 5.0) is None, "a new game, a new budget"


def test_a_burst_over_the_rate_is_refused_until_it_refills() -> None:
    chats = ChatBudgets(HostLimits(chat_rate=0.5, chat_burst=2.0))
    assert chats.refusal(1, 0, "g", "a", 0.0) is None
    assert chats.refusal(1, 0, "g", "b", 0.0) is None
    over = chats.refusal(1, 0, "g", "c", 0.0)
    assert over == "too much chat: at most 2 messages at once and 0.5 a second"
    assert chats.refusal(1, 0, "g", "c", 2.0) is None
