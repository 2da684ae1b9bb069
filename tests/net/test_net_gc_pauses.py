"""The host's garbage-collector policy: survivors frozen, thawed now and then, pauses logged."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Mapping
from typing import Any

from domicile_p2p.net.adapters.gc_pauses import MIDDLE_EVERY, PauseWatch


async def test_survivors_of_a_full_collection_are_frozen_and_long_pauses_logged() -> None:
    records: list[tuple[str, Mapping[str, Any]]] = []
    watch = PauseWatch(lambda event, fields: records.append((event, fields)), threshold=0.0)
    gc.unfreeze()
    try:
        watch.install(asyncio.get_running_loop())
        assert gc.get_freeze_count() > 0, "what start-up left is out of the collector's way"
        gc.unfreeze()
        survivor = [[] for _ in range(1000)]  # tracked objects that live on
        gc.collect()
        await asyncio.sleep(0)  # the watch hands over to the loop after the collection
        assert gc.get_freeze_count() >= len(survivor), "the full collection's survivors"
        pauses = [fields for event, fields in records if event == "gc-pause"]
        assert pauses and pauses[-1]["generation"] == 2 and pauses[-1]["ms"] >= 0
    finally:
        watch.uninstall()
    assert gc.get_freeze_count() == 0 and watch._callback not in gc.callbacks


def _collectable(thing: object) -> bool:
    """Whether ``thing`` is in one of the collector's generations (not frozen)."""
    return any(found is thing for generation in range(3) for found in gc.get_objects(generation))


class _Node:
    """A tracked object that can sit in a reference cycle and be weakly referenced."""

    partner: object = None


async def test_a_thaw_frees_the_cycles_that_died_frozen_and_freezes_the_rest_again() -> None:
    watch = PauseWatch(lambda event, fields: None, thaw_every=0.05)
    try:
        watch.install(asyncio.get_running_loop())
        node = _Node()
        node.partner = node  # a cycle: only the collector can free it
        died = weakref.ref(node)
        gc.freeze()
        del node
        gc.collect()
        assert died() is not None, "a frozen cycle waits for the thaw"
        await asyncio.sleep(0.1)
        assert died() is None, "the thaw collected it"
        assert gc.get_freeze_count() > 0, "what survived the thaw's collection is frozen again"
    finally:
        watch.uninstall()


async def test_survivors_of_a_middle_collection_are_frozen_and_thresholds_restored() -> None:
    before = gc.get_threshold()
    watch = PauseWatch(lambda event, fields: None)
    gc.unfreeze()
    try:
        watch.install(asyncio.get_running_loop())
        assert gc.get_threshold() == (before[0], MIDDLE_EVERY, before[2])
        survivor = [[] for _ in range(1000)]
        gc.collect(1)
        await asyncio.sleep(0)
        assert not _collectable(survivor), "frozen: out of every later collection"
        young = [[] for _ in range(100)]
        gc.collect(0)
        await asyncio.sleep(0)
        assert _collectable(young), "a young collection freezes nothing"
    finally:
        watch.uninstall()
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
