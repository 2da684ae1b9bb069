"""The browser seat server's decisions: a seat's token, the page's origin, the process cap."""

from __future__ import annotations

import base64
import secrets

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domicile_p2p.net.browser_gate import (
    TOKEN_BYTES,
    TOKEN_LENGTH,
    Admission,
    admit,
    authority,
    same_origin,
    seat_of,
)

TOKENS = ("A" * TOKEN_LENGTH, "b-_" + "9" * (TOKEN_LENGTH - 3))


def test_a_minted_token_has_the_length_and_alphabet_the_gate_expects() -> None:
    token = secrets.token_urlsafe(TOKEN_BYTES)
    assert len(token) == TOKEN_LENGTH
    assert base64.urlsafe_b64decode(token + "==") and seat_of(token, [token]) == token


def test_only_a_seat_s_own_token_names_it() -> None:
    assert seat_of(TOKENS[0], TOKENS) == TOKENS[0]
    assert seat_of(TOKENS[1], TOKENS) == TOKENS[1]
    assert seat_of("A" * (TOKEN_LENGTH - 1) + "B", TOKENS) is None
    assert seat_of("", TOKENS) is None
    assert seat_of("A" * (TOKEN_LENGTH + 1), TOKENS) is None
    assert seat_of(TOKENS[0], ()) is None


@given(st.text(max_size=64))
def test_no_other_text_names_a_seat(text: str) -> None:
    assert seat_of(text, TOKENS) == (text if text in TOKENS else None)


@pytest.mark.parametrize(
    ("host", "port", "written"),
    [
        ("192.168.1.20", 8443, "192.168.1.20:8443"),
        ("::1", 9, "[::1]:9"),
        ("Box.Local", 1, "box.local:1"),
        ("10.0.0.1", 443, "10.0.0.1"),
    ],
)
def test_an_authority_is_written_as_browsers_write_it(host: str, port: int, written: str) -> None:
    assert authority(host, port) == written


SERVED = authority("192.168.1.20", 8443)


def test_the_seat_s_own_page_may_open_its_websocket() -> None:
    assert same_origin("https://192.168.1.20:8443", "192.168.1.20:8443", SERVED) is None
    assert same_origin("HTTPS://192.168.1.20:8443", "192.168.1.20:8443", SERVED) is None


@pytest.mark.parametrize(
    ("origin", "host", "why"),
    [
        ("https://evil.example", "192.168.1.20:8443", "Origin"),  # a page elsewhere
        ("http://192.168.1.20:8443", "192.168.1.20:8443", "Origin"),  # not over TLS
        ("https://192.168.1.20:8444", "192.168.1.20:8443", "Origin"),  # another port
        ("null", "192.168.1.20:8443", "Origin"),  # a sandboxed frame, a file
        (None, "192.168.1.20:8443", "no Origin"),  # not a browser's page
        ("https://rebound.example:8443", "rebound.example:8443", "Host"),  # DNS rebinding
        ("https://192.168.1.20:8443", None, "Host"),
        ("https://192.168.1.20:8443", "192.168.1.20", "Host"),
    ],
)
def test_a_websocket_from_anywhere_else_is_refused(
    origin: str | None, host: str | None, why: str
) -> None:
    refusal = same_origin(origin, host, SERVED)
    assert refusal is not None and why in refusal.reason


def test_one_process_per_seat_and_no_more_than_the_seats() -> None:
    assert admit("a", set(), 2) is Admission.START
    assert admit("b", {"a"}, 2) is Admission.START
    assert admit("a", {"a"}, 2) is Admission.REPLACE  # the same seat again: its page came back
    assert admit("c", {"a", "b"}, 2) is Admission.REFUSE
    assert admit("a", {"a", "b"}, 2) is Admission.REPLACE
    assert admit("a", set(), 0) is Admission.REFUSE
