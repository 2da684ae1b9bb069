"""Who may reach a browser seat: the decisions of the seat server, apart from its I/O.

A browser seat is a ``domicile play`` process the host runs for a friend without a
terminal, reached at ``https://ADDRESS:PORT/s/TOKEN``.  Whoever reaches it gets a client
running as the host's user, so the server (``net.adapters.browser_seats``) asks these
functions before it answers anything: is this the token of a seat (else 404), does the
page's websocket come from the seat's own page (else a web page elsewhere, or a DNS
rebinding, could drive it), and may a process start for it now (one per token, at most
the seats served).  Pure: no socket, clock or randomness (the tokens are minted by the
adapter and handed in).
"""

from __future__ import annotations

import hmac
from collections.abc import Collection
from dataclasses import dataclass
from enum import Enum
from typing import Final

TOKEN_BYTES: Final = 16
"""Random bytes in a seat's token (128 bits: not guessable over a LAN in a lifetime)."""
TOKEN_LENGTH: Final = 22
"""Characters of a token as URL-safe base64 without padding (16 bytes)."""
TOKEN_ALPHABET: Final = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
)


def seat_of(candidate: str, tokens: Collection[str]) -> str | None:
    """The seat token ``candidate`` names, or ``None`` (the server answers 404).

    Every token is compared in constant time, and all of them, so that neither the
    answer's timing nor an early exit says how much of a token was right."""
    if len(candidate) != TOKEN_LENGTH or not set(candidate) <= TOKEN_ALPHABET:
        return None
    found: str | None = None
    for token in tokens:
        if hmac.compare_digest(candidate.encode("ascii"), token.encode("ascii")):
            found = token
    return found


def authority(host: str, port: int) -> str:
    """``HOST:PORT`` as a browser writes it in ``Host`` and ``Origin`` (IPv6 in brackets;
    no port for HTTPS's own, 443, which browsers leave out)."""
    bracketed = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return bracketed.lower() if port == 443 else f"{bracketed.lower()}:{port}"


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a request to a seat is refused (said in the host's log, never to the browser)."""

    reason: str


def same_origin(origin: str | None, host_header: str | None, served: str) -> Refusal | None:
    """``None`` when a websocket to a seat comes from the seat's own page, else why not.

    ``served`` is the authority the seats are served at (:func:`authority`).  The ``Host``
    header must name it (a DNS rebinding names another host), and the ``Origin`` must be
    ``https://`` and it exactly (a page from anywhere else, or none: browsers always send
    one with a websocket, so a missing one is not a browser's seat page)."""
    if host_header is None or host_header.strip().lower() != served:
        return Refusal(f"Host {host_header!r} is not {served}")
    if origin is None:
        return Refusal("no Origin")
    if origin.strip().lower() != f"https://{served}":
        return Refusal(f"Origin {origin!r} is not https://{served}")
    return None


class Admission(Enum):
    START = "start"
    """No process runs for this seat: start one."""
    REPLACE = "replace"
    """This seat's process runs for an older page (a phone that locked its screen, say):
    stop it, then start one for this page (the seat's own data dir brings its game back)."""
    REFUSE = "refuse"
    """As many processes run as seats are served: no more."""


def admit(token: str, live: Collection[str], limit: int) -> Admission:
    """Whether a process may start for seat ``token`` while seats ``live`` have one each
    (``limit``: the seats served, the most processes at once)."""
    if token in live:
        return Admission.REPLACE
    if len(live) >= limit:
        return Admission.REFUSE
    return Admission.START
