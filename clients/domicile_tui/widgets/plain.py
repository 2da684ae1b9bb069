"""The client's text widgets, which never read markup.

Everything this client shows is either its own words, styled with ``Content``, or
data from outside: a name, a chat line, a table name, a card's words, a host's
refusal.  Textual's ``Static`` and ``Label`` read a ``str`` as markup, where ``[/]``
raises ``MarkupError`` and ``[@click=app.quit]`` is an action; these show a ``str``
as it is written.  ``tests/tui/test_tui_inert.py`` holds every module of the client
to them (``test_no_module_of_the_client_reads_markup``).

Textual's ``Content.assemble`` removes a part's control codes (a backspace, a bell)
after it has measured the part, so every style after one slides off its letters and
drawing the line raises.  :func:`assemble` keeps them, to be taken out on the way to
the terminal with every other unsafe character (``domicile_tui.inert.InertOutput``);
the client assembles through it alone (``test_no_module_of_the_client_assembles_unmeasured``).
"""

from __future__ import annotations

from textual.content import Content
from textual.style import Style
from textual.visual import VisualType
from textual.widgets import Label as MarkupLabel
from textual.widgets import Static as MarkupStatic
from textual.widgets._label import LabelVariant


class Static(MarkupStatic):
    """Textual's ``Static``, showing a ``str`` as plain text."""

    def __init__(
        self,
        content: VisualType = "",
        *,
        expand: bool = False,
        shrink: bool = False,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            content,
            expand=expand,
            shrink=shrink,
            markup=False,
            name=name,
            id=id,
            classes=classes,
            disabled=disabled,
        )


class Label(MarkupLabel):
    """Textual's ``Label``, showing a ``str`` as plain text."""

    def __init__(
        self,
        content: VisualType = "",
        *,
        variant: LabelVariant | None = None,
        expand: bool = False,
        shrink: bool = False,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            content,
            variant=variant,
            expand=expand,
            shrink=shrink,
            markup=False,
            name=name,
            id=id,
            classes=classes,
            disabled=disabled,
        )


def assemble(*parts: str | Content | tuple[str, str | Style]) -> Content:
    """``Content.assemble`` with every part's text as it came, control codes and all."""
    return Content.assemble(*parts, strip_control_codes=False)
