"""Frozen records written out as plain classes, and the one way to copy or list them.

The game's values (``rules.model``, ``rules.actions``, the transcript's ledger, events
and reports) used to be ``@dataclass(frozen=True, slots=True)`` classes.  A dataclass
writes the source of its ``__init__``, ``__repr__``, ``__eq__``, ``__hash__`` and
``__setattr__`` and compiles it when its module is imported: for the 33 classes that
``domicile verify`` imports that was ~110 million instructions of every process's
start (benchmarks/README.md, "Issue 24, classes without generated code").  They are
now written out: each class derives from :class:`Record` and spells those methods in
its body, exactly as ``dataclasses`` would have generated them (same signature,
equality and hash over the same fields, same repr, same ``__match_args__``, assigning
or deleting a field raises ``dataclasses.FrozenInstanceError``).
``tests/test_records.py`` holds every one of them to a real dataclass twin.

Callers copy and list records only through :func:`replace`, :func:`field_names`,
:func:`init_field_names` and :func:`is_record` (``domicile_p2p.rules`` exports them), so
that how the records are represented can change here alone.  ``dataclasses.replace``,
``fields`` and ``is_dataclass`` still accept a record (its ``__dataclass_fields__`` is
built on first use, importing ``dataclasses`` only then), for the tests and any other
code that already calls them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

if TYPE_CHECKING:
    from dataclasses import Field

R = TypeVar("R")


class _Factory:
    def __repr__(self) -> str:
        return "<factory>"


FACTORY: Any = _Factory()
"""A field's default in ``__init__`` when a new object is made for each record (a
dataclass's ``default_factory``): the record's ``__record_factories__`` makes it."""


class _DataclassFields:
    """``Record.__dataclass_fields__``: the fields as ``dataclasses`` describes them.

    Built per class on first access, so ``dataclasses`` is imported only by code that
    asks for it.  It uses the module's field marker (``_FIELD``): that is the only way a
    class that ``dataclasses`` did not make can answer its ``fields``/``replace``.
    """

    def __init__(self) -> None:
        self._made: dict[type, dict[str, Any]] = {}

    def __get__(self, instance: object, owner: type) -> dict[str, Any]:
        made = self._made.get(owner)
        if made is None:
            made = self._made[owner] = _dataclass_fields(owner)
        return made


def _dataclass_fields(owner: type) -> dict[str, Any]:
    import dataclasses
    import inspect

    init = owner.__dict__["__init__"]
    init_names = owner.__match_args__  # type: ignore[attr-defined]
    defaults = dict(zip(reversed(init_names), reversed(init.__defaults__ or ()), strict=False))
    hidden = owner.__record_hidden__  # type: ignore[attr-defined]
    uncompared = owner.__record_uncompared__  # type: ignore[attr-defined]
    factories = owner.__record_factories__  # type: ignore[attr-defined]
    annotations = inspect.get_annotations(owner)
    made: dict[str, Any] = {}
    for name in owner.__record_fields__:  # type: ignore[attr-defined]
        shown = name not in hidden
        default = defaults.get(name, dataclasses.MISSING)
        spec: Any = dataclasses.field(
            init=name in init_names,
            repr=shown,
            compare=shown and name not in uncompared,
            **({"default_factory": factories[name]} if name in factories else {"default": default}),
        )
        spec.name = name
        spec.type = annotations.get(name, Any)
        spec.kw_only = False
        spec._field_type = dataclasses._FIELD  # type: ignore[attr-defined]
        made[name] = spec
    return made


class Record:
    """The base of every written-out frozen record: what all of them share.

    A subclass declares ``__slots__`` (its fields, in order), ``__match_args__`` (the
    fields ``__init__`` takes, in order), ``__record_fields__`` (every field),
    ``__record_hidden__`` (fields left out of ``repr``, equality and hashing),
    ``__record_uncompared__`` (left out of equality and hashing only),
    ``__record_factories__`` (what makes a field's default when ``__init__`` is given
    :data:`FACTORY`) and writes ``__init__``, ``__repr__``, ``__eq__`` and ``__hash__``.
    """

    __slots__ = ()
    __record_fields__: ClassVar[tuple[str, ...]] = ()
    __record_hidden__: ClassVar[frozenset[str]] = frozenset()
    __record_uncompared__: ClassVar[frozenset[str]] = frozenset()
    __record_factories__: ClassVar[dict[str, Callable[[], Any]]] = {}
    if TYPE_CHECKING:
        __dataclass_fields__: ClassVar[dict[str, Field[Any]]]
    else:
        __dataclass_fields__ = _DataclassFields()

    def __setattr__(self, name: str, value: object) -> None:
        from dataclasses import FrozenInstanceError

        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        from dataclasses import FrozenInstanceError

        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __getstate__(self) -> list[object]:
        return [getattr(self, name) for name in self.__record_fields__]

    def __setstate__(self, state: list[object]) -> None:
        for name, value in zip(self.__record_fields__, state, strict=False):
            object.__setattr__(self, name, value)


def is_record(value: object) -> bool:
    """Whether ``value`` (an instance or a class) is a record or a dataclass."""
    cls = value if isinstance(value, type) else type(value)
    if issubclass(cls, Record):
        return True
    return hasattr(cls, "__dataclass_fields__")


def field_names(record: object) -> tuple[str, ...]:
    """The fields of a record (instance or class) in order, as ``dataclasses.fields``
    lists them (a dataclass's too)."""
    cls = record if isinstance(record, type) else type(record)
    if issubclass(cls, Record):
        return cls.__record_fields__
    import dataclasses

    return tuple(field.name for field in dataclasses.fields(cls))  # type: ignore[arg-type]


def init_field_names(record: object) -> tuple[str, ...]:
    """The fields a record's (or a dataclass's) constructor takes, in order."""
    cls = record if isinstance(record, type) else type(record)
    if issubclass(cls, Record):
        return cls.__match_args__  # type: ignore[attr-defined,no-any-return]
    import dataclasses

    return tuple(field.name for field in dataclasses.fields(cls) if field.init)  # type: ignore[arg-type]


def replace(record: R, /, **changes: Any) -> R:
    """``record`` with ``changes`` (field name -> value): ``dataclasses.replace``, for a
    record or a dataclass alike."""
    cls = type(record)
    if not issubclass(cls, Record):
        import dataclasses

        return dataclasses.replace(record, **changes)  # type: ignore[type-var]
    init_names = cls.__match_args__  # type: ignore[attr-defined]
    for name in changes:
        if name not in init_names:
            if name in cls.__record_fields__:
                raise ValueError(
                    f"field {name} is declared with init=False, "
                    "it cannot be specified with replace()"
                )
            raise TypeError(
                f"{cls.__qualname__}.__init__() got an unexpected keyword argument {name!r}"
            )
    for name in init_names:
        if name not in changes:
            changes[name] = getattr(record, name)
    return cls(**changes)


set_field = object.__setattr__
"""What a record's ``__init__`` sets its fields with (its own ``__setattr__`` refuses)."""
