"""Names a package exports, each imported from its module when first asked for (PEP 562).

A program that needs one layer of a package (``domicile verify`` reads events and
replays them; it checks the built-in pack through ``packs.record``) should not pay for
the others at start-up.  A package's ``__init__`` lists what it exports and from which
of its modules, and takes its module-level ``__getattr__`` and ``__dir__`` from here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(
    package: str, exports: Mapping[str, str], namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``, whose ``exports`` map a name to
    the submodule that defines it; ``namespace`` is the package's ``globals()``."""

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        namespace[name] = value  # asked once: the next lookup finds it without us
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *exports})

    return __getattr__, __dir__
