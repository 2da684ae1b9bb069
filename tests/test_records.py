"""Every written-out record (``domicile_p2p/rules/records.py``) behaves as its old dataclass.

``SPEC`` is each class's fields as ``@dataclass(frozen=True, slots=True)`` declared them
before (printed from that code): ``name=repr(default)``, ``~`` not taken by ``__init__``,
``-`` left out of equality and hashing, ``!`` left out of ``repr``.  Each record is held
to a real dataclass built from that line: the same constructor (names, order,
defaults), ``__match_args__``, ``repr``, equality, hash, the frozen error, pickling,
and ``dataclasses.fields`` / ``replace`` / ``is_dataclass`` on it.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import inspect
import pickle
import subprocess
import sys
from typing import Any

import pytest

from domicile_p2p.rules import records

SPEC: dict[tuple[str, str], tuple[str, ...]] = {
    ("domicile_p2p.rules.model", "DifficultyRules"): (
        "extra_tableau_cards",
        "refreshes_per_round",
        "refreshes_per_game",
    ),
    ("domicile_p2p.rules.model", "TableConfig"): (
        "difficulty",
        "investigator_names",
        "dream_cards",
        "ghost_name='The Ghost'",
        "timer=None",
        "protocol=3",
        "!-~dream_card_set",
    ),
    ("domicile_p2p.rules.model", "Tableau"): ("character", "location", "item"),
    ("domicile_p2p.rules.model", "Column"): ("character", "location", "item"),
    ("domicile_p2p.rules.model", "SecretSetup"): ("columns", "culprit", "deck", "reshuffle"),
    ("domicile_p2p.rules.model", "Secrets"): (
        "columns",
        "culprit",
        "hand",
        "deck",
        "discard",
        "!-reshuffle",
    ),
    ("domicile_p2p.rules.model", "Investigator"): (
        "found=()",
        "dreams=()",
        "marker=None",
        "locked=False",
        "served=False",
    ),
    ("domicile_p2p.rules.model", "Verdict"): ("seat", "correct"),
    ("domicile_p2p.rules.model", "GameState"): (
        "config",
        "tableau",
        "investigators",
        "day=1",
        "stage=<Stage.PLOT: 1>",
        "phase=<Phase.DREAMS: 'dreams'>",
        "group_dreams=()",
        "refreshes_this_round=0",
        "refreshes_used=0",
        "hand_size=0",
        "deck_size=0",
        "discard_size=0",
        "reshuffles=0",
        "last_seance=()",
        "outcome=None",
        "secrets=None",
        "no_guess=()",
    ),
    ("domicile_p2p.transcript.packref", "PackIdentity"): (
        "id",
        "hash",
        "cards",
        "-character_names=dict()",
    ),
    ("domicile_p2p.fairness.commit", "SlotOpening"): ("slot", "salt", "card"),
    ("domicile_p2p.transcript.codec", "SignedAction"): (
        "game",
        "seat",
        "counter",
        "kind",
        "body",
        "sig",
        "!-value",
    ),
    ("domicile_p2p.transcript.codec", "Event"): (
        "seq",
        "prev",
        "kind",
        "body",
        "seat",
        "counter",
        "sig",
        "host_sig",
        "!-line",
        "!-value",
        "!-~_link=list()",
    ),
    ("domicile_p2p.rules.actions", "Give"): ("to", "cards", "by=0"),
    ("domicile_p2p.rules.actions", "GroupGive"): ("cards", "by=0"),
    ("domicile_p2p.rules.actions", "Refresh"): ("by=0",),
    ("domicile_p2p.rules.actions", "Place"): ("by", "card"),
    ("domicile_p2p.rules.actions", "Lock"): ("by",),
    ("domicile_p2p.rules.actions", "Unlock"): ("by",),
    ("domicile_p2p.rules.actions", "Chat"): ("by", "text"),
    ("domicile_p2p.rules.actions", "Seance"): ("verdicts", "by=0"),
    ("domicile_p2p.rules.actions", "CulpritSeance"): ("correct", "by=0"),
    ("domicile_p2p.rules.actions", "TimeUp"): ("locked", "no_guess", "by=-1"),
    ("domicile_p2p.rules.visibility", "GhostKnowledge"): ("columns", "culprit", "hand"),
    ("domicile_p2p.rules.visibility", "View"): ("seat", "state", "ghost=None"),
    ("domicile_p2p.transcript.ledger", "StepRule"): (
        "ghost=frozenset()",
        "investigators=frozenset()",
        "host=frozenset()",
        "owed=frozenset()",
        "final=False",
        "!-~_owed_by",
    ),
    ("domicile_p2p.transcript.ledger", "TableSetup"): (
        "genesis",
        "game_id",
        "config",
        "cards",
        "host_key",
        "seat_keys",
    ),
    ("domicile_p2p.transcript.ledger", "OpenedSlot"): ("seq", "slot", "salt", "card"),
    ("domicile_p2p.transcript.ledger", "Ledger"): (
        "table_setup",
        "step=<Step.COMMITMENTS: 'commitments'>",
        "ghost_commit=None",
        "entropy_commits=()",
        "entropies=()",
        "joint_seed=None",
        "tableau=None",
        "slot_commits=None",
        "slot_commits_seq=None",
        "state=None",
        "moves=()",
        "openings=()",
        "game_over_seq=None",
        "abort=None",
        "abort_seq=None",
        "seed=None",
        "replay=None",
        "cheat=None",
        "foresight=None",
    ),
    ("domicile_p2p.transcript.verify", "CheckResult"): ("name", "ok", "detail"),
    ("domicile_p2p.transcript.verify", "NotChecked"): ("name", "detail"),
    ("domicile_p2p.transcript.verify", "VerifyError"): ("seq", "reason", "check", "party"),
    ("domicile_p2p.transcript.verify", "VerifyReport"): (
        "checks",
        "not_checked",
        "error",
        "events",
        "game=None",
        "outcome=None",
        "summary=''",
        "recognized=True",
        "!-replica=None",
    ),
}


def _record(key: tuple[str, str]) -> type:
    module, name = key
    return getattr(importlib.import_module(module), name)  # type: ignore[no-any-return]


def _parse(line: tuple[str, ...]) -> list[tuple[str, bool, bool, bool, str | None]]:
    """(name, init, compare, repr, default's repr or None) for each field."""
    fields = []
    for word in line:
        name, _, default = word.partition("=")
        shown = not name.startswith("!")
        name = name.lstrip("!")
        compare = not name.startswith("-")
        name = name.lstrip("-")
        init = not name.startswith("~")
        fields.append((name.lstrip("~"), init, compare, shown, default or None))
    return fields


def _twin(cls: type, line: tuple[str, ...]) -> type:
    """The dataclass ``cls`` was, from its ``SPEC`` line and its record's defaults."""
    signature = inspect.signature(cls)
    specs: list[Any] = []
    for name, init, compare, shown, default in _parse(line):
        options: dict[str, Any] = {"init": init, "compare": compare, "repr": shown}
        if default is not None and default.endswith("()") and default[:-2] in ("list", "dict"):
            options["default_factory"] = {"list": list, "dict": dict}[default[:-2]]
        elif default is not None:
            options["default"] = signature.parameters[name].default
        specs.append((name, Any, dataclasses.field(**options)))
    namespace = {}
    if hasattr(cls, "__post_init__"):
        namespace["__post_init__"] = cls.__post_init__
    return dataclasses.make_dataclass(
        cls.__name__, specs, frozen=True, slots=True, namespace=namespace
    )


def _values(cls: type, tag: str = "") -> list[object]:
    """A distinct, hashable value for every argument of ``__init__`` (a frozenset: what
    the ``__post_init__`` hooks can take)."""
    return [frozenset({name + tag}) for name in cls.__match_args__]


KEYS = sorted(SPEC)


def test_every_class_verify_imports_is_a_record_and_no_dataclass_is_made() -> None:
    code = "import sys\nimport domicile_p2p.cli.verify\nprint('dataclasses' in sys.modules)\n"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "False"
    for key in KEYS:
        assert issubclass(_record(key), records.Record), key


@pytest.mark.parametrize("key", KEYS, ids=lambda key: key[1])
def test_the_record_keeps_its_dataclass_behaviour(key: tuple[str, str]) -> None:
    cls = _record(key)
    twin = _twin(cls, SPEC[key])
    fields = _parse(SPEC[key])

    # the constructor: names, order, kinds and defaults; the pattern-matching order
    ours = inspect.signature(cls).parameters
    theirs = inspect.signature(twin).parameters
    assert [(p.name, p.kind) for p in ours.values()] == [(p.name, p.kind) for p in theirs.values()]
    for name, _init, _compare, _shown, default in fields:
        if default is not None and name in ours and not default.endswith("()"):
            assert repr(ours[name].default) == default, name
    assert cls.__match_args__ == twin.__match_args__
    assert records.field_names(cls) == tuple(f.name for f in dataclasses.fields(twin))
    assert records.init_field_names(cls) == records.init_field_names(twin)

    values = _values(cls)
    ours_one, theirs_one = cls(*values), twin(*values)
    assert repr(ours_one) == repr(theirs_one)
    assert hash(ours_one) == hash(theirs_one)
    assert ours_one == cls(*values)
    assert not ours_one != cls(*values)  # noqa: SIM202 (__ne__ from __eq__)
    assert ours_one != theirs_one and ours_one != 1
    assert ours_one.__getstate__() == theirs_one.__getstate__()
    by_name = cls(**dict(zip(cls.__match_args__, values, strict=True)))
    assert by_name == ours_one and repr(by_name) == repr(ours_one)
    for name, _init, _compare, _shown, _default in fields:
        assert getattr(ours_one, name) == getattr(theirs_one, name), name

    # a change in a compared field is seen by equality, one in another field is not
    for position, name in enumerate(cls.__match_args__):
        changed = list(values)
        changed[position] = frozenset({"other"})
        compared = next(f[2] for f in fields if f[0] == name)
        assert (cls(*changed) == ours_one) is not compared, name
        assert (twin(*changed) == theirs_one) is not compared, name

    # frozen: the same error, the same words
    for name in records.field_names(cls):
        with pytest.raises(dataclasses.FrozenInstanceError) as ours_error:
            setattr(ours_one, name, 1)
        with pytest.raises(dataclasses.FrozenInstanceError) as theirs_error:
            setattr(theirs_one, name, 1)
        assert str(ours_error.value) == str(theirs_error.value)
        with pytest.raises(dataclasses.FrozenInstanceError) as ours_error:
            delattr(ours_one, name)
        with pytest.raises(dataclasses.FrozenInstanceError) as theirs_error:
            delattr(theirs_one, name)
        assert str(ours_error.value) == str(theirs_error.value)
    with pytest.raises(AttributeError):
        ours_one.__dict__  # noqa: B018 (slots: no instance dictionary)

    # copies
    assert pickle.loads(pickle.dumps(ours_one)) == ours_one
    assert copy.copy(ours_one) == ours_one and copy.deepcopy(ours_one) == ours_one

    # the dataclasses module's view, and replace through the helper
    assert dataclasses.is_dataclass(cls) and dataclasses.is_dataclass(ours_one)
    assert records.is_record(ours_one) and records.is_record(cls)
    assert [(f.name, f.init, f.compare, f.repr) for f in dataclasses.fields(cls)] == [
        (f.name, f.init, f.compare, f.repr) for f in dataclasses.fields(twin)
    ]
    if cls.__match_args__:
        first = cls.__match_args__[0]
        new = frozenset({"replaced"})
        assert records.replace(ours_one, **{first: new}) == dataclasses.replace(
            ours_one, **{first: new}
        )
        assert repr(records.replace(ours_one, **{first: new})) == repr(
            dataclasses.replace(theirs_one, **{first: new})
        )
        assert records.replace(ours_one) == ours_one
    with pytest.raises(TypeError):
        records.replace(ours_one, no_such_field=1)
    for name, init, _compare, _shown, _default in fields:
        if not init:
            with pytest.raises(ValueError):
                records.replace(ours_one, **{name: 1})
            with pytest.raises(ValueError):
                dataclasses.replace(ours_one, **{name: 1})


def test_pattern_matching_reads_the_fields_in_order() -> None:
    from domicile_p2p.rules import Give, Investigator, Verdict

    match Give(2, ("dream-1",)):
        case Give(to, cards, by):
            assert (to, cards, by) == (2, ("dream-1",), 0)
        case _:
            pytest.fail("Give did not match")
    match Investigator(("char-01",), marker="loc-02"):
        case Investigator(found, dreams, marker, locked=False):
            assert (found, dreams, marker) == (("char-01",), (), "loc-02")
        case _:
            pytest.fail("Investigator did not match")
    match Verdict(1, True):
        case Verdict(seat=1, correct=True):
            pass
        case _:
            pytest.fail("Verdict did not match")


def test_a_default_factory_makes_a_new_object_each_time() -> None:
    from domicile_p2p.transcript.packref import PackIdentity

    one, two = PackIdentity("a", "h", ()), PackIdentity("a", "h", ())  # type: ignore[arg-type]
    assert one.character_names == {} and one.character_names is not two.character_names
    default = inspect.signature(PackIdentity).parameters["character_names"].default
    assert repr(default) == "<factory>"  # as a dataclass's signature shows it
