"""Joining a table: its code (read out loud by the host), and where it is when not on the LAN."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.widgets import Button, Footer, Input, RadioButton, RadioSet

from domicile_p2p.client_api import (
    Address,
    BadAddress,
    BadJoinCode,
    DiscoveredTable,
    JoinCode,
    parse_code,
)
from domicile_tui.keys import HelpKeys
from domicile_tui.pages import JoinPage, StartPage
from domicile_tui.screens.base import TableScreen
from domicile_tui.session import MAX_NAME_LENGTH, Role, SettingsError, clean_name
from domicile_tui.theme import FLOURISH, LATER_STYLES
from domicile_tui.ticket import JoinTicket
from domicile_tui.widgets.field import Field
from domicile_tui.widgets.plain import Label, Static, assemble
from domicile_tui.widgets.teardown import children_gone
from domicile_tui.widgets.toggles import MarkedRadioButton

LOOK_FOR_TABLE = 10.0
"""Seconds joining by code waits for the table to answer on the LAN (a host that has just
started takes a moment to be heard)."""


class JoinError(ValueError):
    """What the player typed does not say how to reach a table (the player's to fix)."""


class NotHeardYet(JoinError):
    """No table with the code's number has answered on the LAN so far: look a while longer."""

    def __init__(self, nameplate: int) -> None:
        super().__init__(
            f"no table {nameplate} answers on the LAN yet: wait a moment, or join by address"
        )
        self.nameplate = nameplate


def fingerprint_of(text: str) -> bytes | None:
    cleaned = "".join(text.split()).replace(":", "").lower()
    if not cleaned:
        return None
    try:
        value = bytes.fromhex(cleaned)
    except ValueError:
        raise JoinError("the fingerprint is 64 hexadecimal digits") from None
    if len(value) != 32:
        raise JoinError("the fingerprint is 64 hexadecimal digits")
    return value


def ticket_for(
    code_text: str,
    *,
    found: DiscoveredTable | None,
    address_text: str,
    fingerprint_text: str,
    lan: Sequence[DiscoveredTable],
) -> JoinTicket:
    """The ticket the form describes, or :class:`JoinError` saying what is missing."""
    try:
        code = parse_code(code_text)
    except BadJoinCode as error:
        raise JoinError(str(error)) from None
    if found is not None:
        if found.advert.nameplate != code.nameplate:
            raise JoinError(
                f"that code is for table {code.nameplate}; this is table {found.advert.nameplate}"
            )
        return JoinTicket(
            code, Address(found.address, found.port), bytes.fromhex(found.advert.fingerprint)
        )
    if address_text.strip():
        try:
            address = Address.parse(address_text)
        except BadAddress as error:
            raise JoinError(str(error)) from None
        return JoinTicket(code, address, fingerprint_of(fingerprint_text))
    matches = [table for table in lan if table.advert.nameplate == code.nameplate]
    if not matches:
        raise NotHeardYet(code.nameplate)
    return ticket_from_lan(code, matches)


def ticket_from_lan(code: JoinCode, matches: Sequence[DiscoveredTable]) -> JoinTicket:
    """The ticket to the one table of ``matches`` (every one numbered like ``code``)."""
    if len(matches) > 1:
        raise JoinError(
            f"several tables {code.nameplate} answer on the LAN: choose yours from the list"
        )
    table = matches[0]
    return JoinTicket(
        code, Address(table.address, table.port), bytes.fromhex(table.advert.fingerprint)
    )


class JoinScreen(TableScreen):
    CSS_PATH = LATER_STYLES
    HELP_TITLE = "Joining (or watching) a table"
    HELP_KEYS: ClassVar[tuple[HelpKeys, ...]] = (
        HelpKeys(("tab", "shift+tab"), "move between the fields"),
        HelpKeys(("enter", "ctrl+s"), "join (on the form to watch: watch)"),
        HelpKeys(("ctrl+o",), "watch the table without a seat"),
        HelpKeys(("escape",), "back to the front door"),
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "primary", "Join"),
        Binding("ctrl+o", "watch", "Watch"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, page: JoinPage) -> None:
        super().__init__()
        self.page = page
        self.found = page.found
        self.by_address = page.by_address and page.found is None
        self.lan = page.lan
        self.watching = page.watch
        if self.watching:
            # The form to watch: its Ctrl+S watches, and the footer says so (not "Join").
            self._bindings.key_to_bindings["ctrl+s"] = [Binding("ctrl+s", "primary", "Watch")]
            self._bindings.key_to_bindings["ctrl+o"] = [
                Binding("ctrl+o", "watch", "Watch", show=False)
            ]

    def compose(self) -> ComposeResult:
        defaults = self.client.defaults
        doing = "Watch" if self.watching else "Join"
        if self.found is not None:
            title = f"{doing} {self.found.advert.name}"
        else:
            where = " by its address" if self.by_address else ""
            title = f"{doing} a table{where}"
        with VerticalScroll(id="setup"):
            yield Static(Content.styled(title, "bold $primary"), classes="setup-title")
            yield Static(Content.styled(FLOURISH, "$secondary"), classes="flourish")
            if self.found is not None:
                yield Static(self._found_note(self.found), classes="setup-subtitle")
            with Horizontal(classes="field"):
                yield Label("Table code", classes="field-label")
                placeholder = (
                    f"{self.found.advert.nameplate}-word-word" if self.found else "7-raven-lantern"
                )
                yield Field(placeholder=placeholder, id="code")
            if self.by_address:
                with Horizontal(classes="field"):
                    yield Label("Address", classes="field-label")
                    yield Field(placeholder="wss://192.168.1.20:47470", id="address")
                with Horizontal(classes="field"):
                    yield Label("Fingerprint", classes="field-label")
                    yield Field(placeholder="optional: the host's 64 hex digits", id="fingerprint")
            with Horizontal(classes="field"):
                yield Label("Your name", classes="field-label")
                yield Field(defaults.player_name, id="player-name", max_length=MAX_NAME_LENGTH)
            if not self.watching:
                with Horizontal(classes="field"):
                    yield Label("Play as", classes="field-label")
                    with RadioSet(id="role"):
                        yield MarkedRadioButton("any seat", value=True, id="role-any")
                        yield MarkedRadioButton("an Investigator", id="role-investigator")
                        yield MarkedRadioButton("the Ghost", id="role-ghost")
            yield Static(
                Content.styled(
                    "The code is the password: the host's screen shows it, and only someone "
                    "who knows it can sit down or watch.",
                    "italic $text-muted",
                ),
                classes="setup-subtitle",
            )
            if self.watching:
                yield Static(
                    Content.styled(
                        "A spectator sees what every investigator sees (never a secret) "
                        "and cannot play or talk.",
                        "italic $text-muted",
                    ),
                    classes="setup-subtitle",
                )
            yield Static("", id="join-progress", classes="setup-subtitle")
            with Horizontal(classes="buttons"):
                if self.watching:
                    yield Button("Watch", id="watch", variant="primary")
                else:
                    yield Button("Join", id="join", variant="primary")
                    yield Button("Watch", id="watch")
                yield Button("Back", id="back")
        yield Footer()

    def on_mount(self) -> None:
        if children_gone(self):
            return
        for field, text in self.page.typed:
            for typed_in in self.query(f"#{field}").results(Input):
                typed_in.value = text
        self.query_one("#code", Input).focus()

    def _typed(self) -> tuple[tuple[str, str], ...]:
        fields = ("code", "address", "fingerprint", "player-name")
        return tuple(
            (field, typed_in.value)
            for field in fields
            for typed_in in self.query(f"#{field}").results(Input)
        )

    @staticmethod
    def _found_note(found: DiscoveredTable) -> Content:
        return assemble(
            ("At ", "$text-muted"),
            found.url,
            ("  ·  host fingerprint ", "$text-muted"),
            (found.advert.fingerprint[:16] + "…", "$secondary"),
        )

    def _role(self) -> Role | None:
        if self.watching:
            return None
        if self.query_one("#role-ghost", RadioButton).value:
            return Role.GHOST
        if self.query_one("#role-investigator", RadioButton).value:
            return Role.INVESTIGATOR
        return None

    def _value(self, selector: str) -> str:
        found = self.query(selector)
        return found.first(Input).value if found else ""

    def action_primary(self) -> None:
        """Ctrl+S: what this form is for (join, or on the form to watch, watch)."""
        self._go(watch=self.watching)

    @on(Button.Pressed, "#join")
    def action_join(self) -> None:
        self._go(watch=False)

    @on(Button.Pressed, "#watch")
    def action_watch(self) -> None:
        self._go(watch=True)

    def _go(self, *, watch: bool) -> None:
        """Sit down at (or ``watch``) the table the form describes."""
        try:
            name = clean_name(self._value("#player-name"), "player name")
            ticket = ticket_for(
                self._value("#code"),
                found=self.found,
                address_text=self._value("#address"),
                fingerprint_text=self._value("#fingerprint"),
                lan=self.lan,
            )
        except NotHeardYet as error:
            code = parse_code(self._value("#code"))
            self._find_and_join(code, error.nameplate, name, watch=watch)
            return
        except (SettingsError, JoinError) as error:
            self.notify(str(error), title="Cannot join", severity="error")
            return
        self._sit_down(ticket, name, watch=watch)

    def _sit_down(self, ticket: JoinTicket, name: str, *, watch: bool) -> None:
        # A refused code or an unreachable host brings the player back here, as typed.
        again = replace(self.page, typed=self._typed())
        if watch:
            self.client.spectate(ticket, name, again=again)
        else:
            self.client.join(ticket, name, self._role(), again=again)

    @work(exclusive=True, group="discovery", exit_on_error=False)
    async def _find_and_join(
        self, code: JoinCode, nameplate: int, name: str, *, watch: bool
    ) -> None:
        """Wait (up to :data:`LOOK_FOR_TABLE` seconds) for table ``nameplate`` to answer on
        the LAN, saying so, then sit down at it."""
        progress = self.query_one("#join-progress", Static)
        progress.update(Content.styled(f"Looking for table {nameplate} on the LAN…", "$accent"))
        try:
            door = await self.client.open_door()
            matches = await door.find(nameplate, LOOK_FOR_TABLE)
        except Exception:  # mDNS may be blocked on this network: joining by address still works
            matches = []
        progress.update("")
        if not matches:
            self.notify(
                f"no table {nameplate} answered on the LAN within {LOOK_FOR_TABLE:g} s: "
                "check the number, or join by address",
                title="Cannot join",
                severity="error",
            )
            return
        self.lan = tuple(matches)
        try:
            ticket = ticket_from_lan(code, matches)
        except JoinError as error:
            self.notify(str(error), title="Cannot join", severity="error")
            return
        self._sit_down(ticket, name, watch=watch)

    @on(Input.Submitted)
    def _submitted(self) -> None:
        """Enter in any field does what Ctrl+S does (the code is often all there is to type)."""
        self.action_primary()

    @on(Button.Pressed, "#back")
    def action_back(self) -> None:
        self.client.go(StartPage())
