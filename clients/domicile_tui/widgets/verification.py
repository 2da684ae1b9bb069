"""The end-of-game verification report: each check with ✓ or ✗ and what it found."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.reactive import reactive

from domicile_tui.news import Check, Verification
from domicile_tui.theme import NO, YES
from domicile_tui.widgets.plain import Static

NOT_RUN = "–"


def verdict_line(verification: Verification | None) -> Content:
    if verification is None:
        return Content.styled("Checking the whole game…", "italic $text-muted")
    if verification.ok:
        return Content.styled(f"{YES} Every check passed: this game was fair.", "bold $success")
    failed = [c for c in verification.checks if c.ok is False]
    if not failed:
        return Content.styled(f"{NO} The game could not be checked to the end.", "bold $error")
    plural = "s" if len(failed) != 1 else ""
    return Content.styled(
        f"{NO} {len(failed)} check{plural} failed: do not trust this game.", "bold $error"
    )


def check_mark(check: Check) -> Content:
    if check.ok is None:
        return Content.styled(NOT_RUN, "$text-muted")
    return Content.styled(YES, "bold $success") if check.ok else Content.styled(NO, "bold $error")


def check_text(check: Check) -> Content:
    name = check.name[0].upper() + check.name[1:]
    style = "bold $error" if check.ok is False else "bold" if check.ok else "$text-muted"
    text = Content.styled(name, style)
    if check.detail:
        detail_style = "$error" if check.ok is False else "$text-muted"
        text += Content.styled(f"  {check.detail}", detail_style)
    return text


class VerificationReport(Vertical):
    """The verdict, then one row per check (the mark in its own column, the text wrapping)."""

    verification: reactive[Verification | None] = reactive(None, recompose=True)

    def compose(self) -> ComposeResult:
        verification = self.verification
        if verification is None:
            yield Static(verdict_line(verification), classes="verdict")
            return
        for check in verification.checks:
            with Horizontal(classes="check"):
                yield Static(check_mark(check), classes="check-mark")
                yield Static(check_text(check), classes="check-text")
