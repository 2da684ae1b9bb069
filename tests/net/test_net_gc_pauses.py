"""The host's garbage-collector policy: survivors frozen, thawed now and then, pauses logged."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Mapping
from typing import Any

from domicile_p2p.net.gc_pauses import PauseWatch


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


async def test_a_thaw_lets_the_next_full_collection_visit_everything() -> None:
    watch = PauseWatch(lambda event, fields: None, thaw_every=0.01)
    try:
        watch.install(asyncio.get_running_loop())
        assert gc.get_freeze_count() > 0
        await asyncio.sleep(0.05)
        assert gc.get_freeze_count() == 0, "thawed"
    finally:
        watch.uninstall()
