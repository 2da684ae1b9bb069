"""Who is at the other end: a second host at a pinned address, spoofed adverts, code guessing.

All over real TLS websockets (and mDNS) on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import dataclasses
import secrets
from pathlib import Path
from typing import Any

import pytest
from hostile_support import Records, counted
from live_support import LOOPBACK, loopback_config, network_bot
from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from domicile_p2p.net.adapters.client import Backoff, websocket_dialer
from domicile_p2p.net.adapters.discovery import SERVICE_TYPE, TableAdvert, discover
from domicile_p2p.net.adapters.host import HostConfig, start_host
from domicile_p2p.net.adapters.pins import PinStore
from domicile_p2p.net.address import Address
from domicile_p2p.net.errors import HostIdentityChanged, Refused, WrongCode
from domicile_p2p.net.join.codes import JoinCode
from domicile_p2p.net.wire import Role, TableState

CODE = JoinCode(3, "owl", "quill")
QUICK = Backoff(first=0.05, cap=0.2, attempts=100)


def _config(data_dir: Path, port: int, **options: object) -> HostConfig:
    base = loopback_config(
        data_dir,
        port=port,
        investigators=1,
        codes=(CODE,),
        ghost_bot=True,
        bot_delay=0.02,
    )
    return dataclasses.replace(base, **options)


async def test_a_second_host_at_the_pinned_address_is_refused_without_a_retry_loop(
    tmp_path: Path,
) -> None:
    real = await start_host(_config(tmp_path / "real", 0))
    # The impostor, and the real host when it comes back, take the same port.
    port = real.port
    url = f"wss://{LOOPBACK}:{port}"
    player = network_bot(tmp_path / "player", url, CODE, seat=1, backoff=QUICK)
    dials = counted(player)
    game = asyncio.create_task(player.play(delay=0.02))
    try:
        while player.session.player.held < 12:
            await asyncio.sleep(0.02)
        pinned = PinStore.in_data_dir(tmp_path / "player").get(f"{LOOPBACK}:{port}")
        assert pinned == real.certificate.fingerprint
        await real.close()
        impostor_log = Records()
        impostor = await start_host(
            _config(tmp_path / "impostor", port, ghost_bot=False), impostor_log
        )
        try:
            assert impostor.certificate.fingerprint != pinned
            with pytest.raises(HostIdentityChanged, match="host identity changed"):
                await asyncio.wait_for(game, 20)
            await asyncio.sleep(0.5)  # would a retry loop dial again? It must not.
        finally:
            await impostor.close()
    finally:
        if not game.done():
            game.cancel()
    assert dials.count("HostIdentityChanged") == 1 and dials.results[-1] == "HostIdentityChanged"
    assert impostor_log.named("listening"), "the impostor's log was recorded"
    assert not impostor_log.named("join") and not impostor_log.named("resume")
    # The table carries on: the real host comes back, and so does the player (same data dir).
    log = Records()
    back = await start_host(_config(tmp_path / "real", port, resume=True), log)
    try:
        again = network_bot(tmp_path / "player", url, CODE, seat=1, backoff=QUICK)
        outcome = await asyncio.wait_for(again.play(), 60)
        await asyncio.wait_for(back.wait_done(), 10)
    finally:
        await back.close()
    assert outcome.valid, outcome.report.summary
    came_back = log.named("rejoin") + log.named("resume")
    assert 1 in {record["seat"] for record in came_back}, "the player took its seat back"


@pytest.mark.slow
async def test_a_spoofed_advert_is_a_distinct_table_and_cannot_be_joined_without_its_code(
    tmp_path: Path,
) -> None:
    log, rogue_log = Records(), Records()
    # A name of this test's own: mDNS on 127.0.0.1 is shared with every other test and
    # run on this machine, whose tables called Friday must not be counted here.
    name = f"Friday {secrets.token_hex(4)}"
    options = {"advertise": True, "name": name, "ghost_bot": False}
    real = await start_host(_config(tmp_path / "real", 0, **options), log)
    # The attacker runs a table of its own under the same name (it does not know the code).
    rogue_code = JoinCode(3, "moss", "wren")
    rogue = await start_host(
        _config(tmp_path / "rogue", 0, codes=(rogue_code,), **options), rogue_log
    )
    # A standard mDNS responder, as an attacker's laptop runs (it probes, RFC 6762 8.1).
    copycat = AsyncZeroconf(interfaces=[LOOPBACK], ip_version=IPVersion.V4Only)
    try:
        while len(log.named("advertised")) + len(rogue_log.named("advertised")) < 2:
            await asyncio.sleep(0.05)
        # ...and a bare advert that copies the real table's instance name and fingerprint,
        # pointing at its own port.
        fingerprint = real.certificate.fingerprint_hex
        copied = TableAdvert(name, 3, fingerprint, 2, 2, "normal", TableState.LOBBY)
        [real_instance] = [r["instance"] for r in log.named("advertised")]
        spoof = AsyncServiceInfo(
            SERVICE_TYPE,
            f"{real_instance}.{SERVICE_TYPE}",
            port=rogue.port,
            properties=dict(copied.txt()),
            server="copycat.local.",
            parsed_addresses=[LOOPBACK],
        )
        await (await copycat.async_register_service(spoof, allow_name_change=True))
        # Each look keeps what it heard: on a loaded machine one answer may come after a
        # look's window, and the next look hears it.  The bound only stops a hang.
        heard: dict[str, Any] = {}
        for _ in range(10):
            tables = await discover(1.5, LOOPBACK)
            heard |= {t.instance: t for t in tables if t.advert.name == name}
            if len(heard) >= 3:
                break
        fridays = list(heard.values())
        assert len({t.instance for t in fridays}) == len(fridays) == 3, fridays
        assert sorted(t.port for t in fridays) == sorted([real.port, rogue.port, rogue.port])
        [listed_real] = [t for t in fridays if t.port == real.port]
        assert listed_real.advert.fingerprint == fingerprint
        assert {t.advert.fingerprint for t in fridays if t.port == rogue.port} == {
            rogue.certificate.fingerprint_hex,
            fingerprint,
        }, "the rogue's own table and the copycat: each a distinct entry"

        # A player picks the attacker's table and types the real code: the PAKE fails.
        victim = network_bot(tmp_path / "victim", f"wss://{LOOPBACK}:{rogue.port}", CODE, seat=1)
        with pytest.raises(WrongCode):
            await asyncio.wait_for(victim.play(), 10)
        assert PinStore.in_data_dir(tmp_path / "victim").get(f"{LOOPBACK}:{rogue.port}") is None
        assert rogue.rooms[3].seats_free == 2, "nobody sat down at the attacker's table"

        # The copycat advert names the real fingerprint: dialling its address is refused.
        address = Address(LOOPBACK, rogue.port)
        dial = websocket_dialer(
            address, PinStore(tmp_path / "pins.json"), bytes.fromhex(fingerprint)
        )
        with pytest.raises(HostIdentityChanged):
            await dial()

        # The real table is joined with its code, and nothing of the above touched it.
        honest = network_bot(tmp_path / "honest", f"wss://{LOOPBACK}:{real.port}", CODE, seat=1)
        ghost = network_bot(
            tmp_path / "ghost", f"wss://{LOOPBACK}:{real.port}", CODE, role=Role.GHOST
        )
        outcomes = await asyncio.wait_for(asyncio.gather(honest.play(), ghost.play()), 60)
    finally:
        await copycat.async_close()
        await rogue.close()
        await real.close()
    assert all(outcome.valid for outcome in outcomes)
    assert [r["code"] for r in rogue_log.named("refused")] == ["wrong-code"]


async def test_guessing_the_code_is_counted_then_rate_limited_while_the_game_goes_on(
    tmp_path: Path,
) -> None:
    log = Records()
    host = await start_host(_config(tmp_path / "host", 0, ghost_bot=True), log)
    url = f"wss://{LOOPBACK}:{host.port}"
    try:
        player = network_bot(tmp_path / "player", url, CODE, seat=1)
        game = asyncio.create_task(player.play(delay=0.01))
        while not player.session.seated:
            await asyncio.sleep(0.02)
        guesses = [JoinCode(3, "moss", word) for word in ("owl", "wren", "lark", "kite", "dove")]
        for attempt, guess in enumerate(guesses, start=1):
            guesser = network_bot(tmp_path / f"guess{attempt}", url, guess, seat=1)
            with pytest.raises(WrongCode):
                await asyncio.wait_for(guesser.play(), 10)
            while len(log.named("refused")) < attempt:
                await asyncio.sleep(0.01)
            assert log.named("refused")[-1]["failures"] == attempt
        # The sixth try from the same address is refused before any PAKE, even with the code.
        late = network_bot(tmp_path / "late", url, CODE, role=Role.INVESTIGATOR)
        with pytest.raises(Refused, match="try again in") as refused:
            await asyncio.wait_for(late.play(), 10)
        assert refused.value.code == "rate-limited"
        outcome = await asyncio.wait_for(game, 60)
    finally:
        await host.close()
    assert outcome.valid, "the seated player's game went on and verifies"
    assert [r["failures"] for r in log.named("refused") if r["code"] == "wrong-code"] == [
        1,
        2,
        3,
        4,
        5,
    ]
