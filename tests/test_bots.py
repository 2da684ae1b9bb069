"""The bots: legal, blind to secrets, pointed in their gives, and able to finish a game."""

from __future__ import annotations

import json
import random
import re
import shutil
from collections.abc import Sequence
from dataclasses import fields, replace
from itertools import permutations
from types import SimpleNamespace
from typing import cast

import pytest

from domicile_p2p.bots import (
    BotMisuse,
    GhostBot,
    InvestigatorBot,
    Listener,
    Policy,
    make_policy,
    talk,
)
from domicile_p2p.bots.ghost import (
    Plan,
    _positive_slots,
    _splittable_threes,
    best_laying_of_three,
    splits_by_slot,
)
from domicile_p2p.bots.memory import SeanceMemory
from domicile_p2p.bots.motifs import motif_index
from domicile_p2p.bots.naming import dream_names, wrong_named_cards
from domicile_p2p.bots.readers import Fits, Readers, fits
from domicile_p2p.bots.reading import card_scores, softmax_choice
from domicile_p2p.bots.talk import NO_WORD_LINES, VOICES
from domicile_p2p.bots.waiting import WAIT_WITHOUT_SAND_GLASS, patience, wait_left
from domicile_p2p.net.adapters.bot import BotBrain
from domicile_p2p.net.sessions.peer import PeerSession
from domicile_p2p.packs import Pack, default_pack_dir, load_default_pack, load_pack
from domicile_p2p.rules import (
    CATEGORY_ORDER,
    GHOST,
    Action,
    Category,
    Chat,
    Column,
    CulpritSeance,
    Difficulty,
    GameState,
    GhostKnowledge,
    Give,
    GroupGive,
    Lock,
    Outcome,
    Phase,
    Place,
    Seance,
    Secrets,
    Stage,
    apply,
    legal_actions,
    public,
    refresh_refusal,
    view,
)
from domicile_p2p.sim import Deadlock, bot_seed, deal, run_game
from domicile_p2p.transcript.schema import ChatBody


@pytest.fixture(scope="module")
def pack() -> Pack:
    return load_default_pack()


@pytest.fixture(scope="module")
def naming_pack(tmp_path_factory: pytest.TempPathFactory) -> Pack:
    """The default pack with a card's name added to every third dream.

    The built-in pack's dreams name no card (docs/packs.md, `giveaway`); the tests of how
    the bots weigh a named card need dreams that do, some of them a wrong card.
    """
    directory = shutil.copytree(default_pack_dir(), tmp_path_factory.mktemp("naming") / "pack")
    pack = load_default_pack()
    cards = pack.investigator_cards
    dreams = directory / "dreams.toml"
    text = dreams.read_text("utf-8")
    for position, dream in enumerate(pack.dreams[::3]):
        card = cards[position % len(cards)]
        named = f"{dream.text} {card.name}."
        text = text.replace(json.dumps(dream.text, ensure_ascii=False), json.dumps(named), 1)
    dreams.write_text(text, "utf-8")
    return load_pack(directory, announce_warnings=False)


def _policies(pack: Pack, state: GameState, seed: int) -> list[Policy]:
    return [
        make_policy(seat, pack, bot_seed(seed, seat)) for seat in range(len(state.config.seats) + 1)
    ]


def _play_logged(state: GameState, policies: list[Policy]) -> list[tuple[GameState, int, Action]]:
    """Play to the end like the simulator, keeping every (state before, seat, action)."""
    log: list[tuple[GameState, int, Action]] = []
    while state.outcome is None:
        acted = False
        for seat, policy in enumerate(policies):
            action = policy.act(view(state, seat))
            if action is None:
                continue
            log.append((state, seat, action))
            state = apply(state, action)
            acted = True
            if isinstance(action, Chat):  # every bot hears the table, as in the simulator
                for listener in policies:
                    if isinstance(listener, Listener):
                        listener.hear(seat, action.text, state.day)
            if state.outcome is not None:
                break
        if not acted:
            raise Deadlock("no seat acted")
    return log


# --- legality -------------------------------------------------------------------------


@pytest.mark.parametrize("investigators", range(1, 7))
@pytest.mark.parametrize("difficulty", list(Difficulty))
def test_bots_only_take_legal_actions_at_every_table(
    pack: Pack, investigators: int, difficulty: Difficulty
) -> None:
    for game in range(2):
        seed = 1000 * investigators + 10 * list(Difficulty).index(difficulty) + game
        state = deal(pack, investigators, difficulty, seed)
        for before, seat, action in _play_logged(state, _policies(pack, state, seed)):
            assert action.by == seat, "a bot acted in someone else's name"
            if isinstance(action, Chat):  # table talk is open-ended: not a listed move
                assert seat != GHOST
            else:
                assert action in legal_actions(before)
            apply(public(before), action)  # every other peer accepts it too


def test_full_games_end_within_seven_days(pack: Pack) -> None:
    outcomes = set()
    for seed in range(12):
        result = run_game(pack, 1 + seed % 6, list(Difficulty)[seed % 4], seed)
        assert 1 <= result.rounds <= 7
        assert (result.failure is None) == result.won
        outcomes.add(result.outcome)
    assert outcomes == {Outcome.WON, Outcome.LOST}


def test_stage_two_bots_vote_their_own_reading_and_follow_only_locks(pack: Pack) -> None:
    accusations = repeats_avoided = own_votes_against_a_tryout = followed_locks = 0
    for seed in range(16):
        state = deal(pack, 4, Difficulty.NORMAL, seed)
        wrongly_accused: set[str] = set()
        for before, seat, action in _play_logged(state, _policies(pack, state, seed)):
            if isinstance(action, Place) and before.stage is Stage.CULPRIT:
                others = [inv for s, inv in enumerate(before.investigators, 1) if s != seat]
                locked = {inv.marker for inv in others if inv.locked}
                tryouts = {inv.marker for inv in others if not inv.locked} - {None}
                if locked:  # it moves only to a group someone has locked on
                    assert action.card in locked
                    followed_locks += 1
                else:  # its own reading, never an unlocked tryout copied
                    assert action.card not in wrongly_accused
                    repeats_avoided += bool(wrongly_accused)
                    own_votes_against_a_tryout += bool(tryouts - {action.card})
            if isinstance(action, CulpritSeance):
                accusations += 1
                markers = {inv.marker for inv in before.investigators}
                assert len(markers) == 1
                if not action.correct:
                    wrongly_accused |= {m for m in markers if m is not None}
    assert accusations > 0
    assert repeats_avoided > 0
    assert own_votes_against_a_tryout > 0
    assert followed_locks > 0


def test_bots_say_one_line_of_table_talk_before_each_lock(pack: Pack) -> None:
    for seed in range(6):
        state = deal(pack, 3, Difficulty.NORMAL, seed)
        log = _play_logged(state, _policies(pack, state, seed))
        talk = [(before, seat, action) for before, seat, action in log if isinstance(action, Chat)]
        assert talk and all(seat != GHOST for _, seat, _ in talk)
        for position, (_, seat, action) in enumerate(log):
            if isinstance(action, Lock):
                own = [a for _, s, a in log[:position] if s == seat]
                assert isinstance(own[-1], Chat), "a bot locked without saying why"


_QUOTED = re.compile(r"“([^”]+)”")


def _six_seat_talk(pack: Pack, games: int) -> list[tuple[int, GameState, int, Chat]]:
    """Every line of ``games`` bot games at six investigators: (game, state, seat, line)."""
    said: list[tuple[int, GameState, int, Chat]] = []
    for game in range(games):
        state = deal(pack, 6, list(Difficulty)[game % 4], 500 + game)
        for before, seat, action in _play_logged(state, _policies(pack, state, 500 + game)):
            if isinstance(action, Chat):
                said.append((game, before, seat, action))
    return said


def test_table_talk_quotes_the_words_of_the_dreams_and_gives_a_reason(pack: Pack) -> None:
    lines = quoting = 0
    for _, before, seat, chat in _six_seat_talk(pack, 8):
        lines += 1
        if before.stage is Stage.PLOT:
            held = before.investigator(seat).dreams
        else:
            held = before.group_dreams
        texts = " ".join(pack.dream(dream).text for dream in held).lower()
        quotes = _QUOTED.findall(chat.text)
        # Every quotation is the very words of a dream the bot holds (or the group's)...
        assert all(quote in texts for quote in quotes), chat.text
        quoting += bool(quotes)
        # ...and a line without one says why all the same.
        reasons = [line.format(card="")[2:] for line in NO_WORD_LINES]
        reasons += [
            "what they said",
            "locked there",
        ]  # the people's word, or the table's
        assert quotes or any(reason in chat.text for reason in reasons), chat.text
        assert not any(motif in chat.text.split() for motif in ("motif", "motifs"))
    assert lines > 200 and quoting / lines > 0.8


@pytest.mark.parametrize("one_voice", [False, True])
def test_no_line_copies_another_seats_line_that_day(
    pack: Pack, monkeypatch: pytest.MonkeyPatch, one_voice: bool
) -> None:
    if one_voice:  # the hardest case: every seat speaks with the first voice
        monkeypatch.setattr(talk, "voice_of", lambda seat: VOICES[0])
    by_day: dict[tuple[int, int], dict[str, int]] = {}
    for game, before, seat, chat in _six_seat_talk(pack, 8):
        said = by_day.setdefault((game, before.day), {})
        assert said.setdefault(chat.text, seat) == seat, f"seat {seat} copied {chat.text!r}"


def test_each_persona_has_its_own_voice() -> None:
    every = [
        template
        for voice in VOICES
        for kind in fields(voice)
        for template in getattr(voice, kind.name)
    ]
    assert len(every) == len(set(every))  # no phrasing is shared by two voices
    assert len(VOICES) == 6 and all(len(voice.leaning) >= 2 for voice in VOICES)


def _served_state(pack: Pack, seed: int) -> tuple[GameState, int]:
    """Day 1 of a two-investigator game, every seat served; and the first seat's seat."""
    state = deal(pack, 2, Difficulty.VERY_DIFFICULT, seed)
    ghost = GhostBot(pack, seed)
    while state.phase is Phase.DREAMS:
        action = ghost.act(view(state, GHOST))
        assert action is not None
        state = apply(state, action)
    return state, 1


def test_a_card_a_person_names_is_weighed_in_and_the_bot_says_it_changed_its_mind(
    pack: Pack,
) -> None:
    changed = 0
    for seed in range(40):
        state, seat = _served_state(pack, seed)
        alone = InvestigatorBot(seat, pack, seed)
        place = alone.act(view(state, seat))
        assert isinstance(place, Place)
        for card in state.tableau.character:
            if card == place.card:
                continue
            name = pack.investigator_card(card).name
            listening = InvestigatorBot(seat, pack, seed)
            listening.people = frozenset({2})
            listening.hear(2, f"I think it's {name}", state.day)
            moved = listening.act(view(state, seat))
            assert isinstance(moved, Place)
            if moved.card != card:
                continue
            placed = apply(state, moved)
            line = listening.act(view(placed, seat))
            assert isinstance(line, Chat)
            assert state.config.name(2) in line.text and name in line.text, line.text
            changed += 1
            # A bot's line naming the card is no person's word: it changes nothing.
            deaf = InvestigatorBot(seat, pack, seed)
            deaf.people = frozenset({2})
            deaf.hear(3, f"I think it's {name}", state.day)
            assert deaf.act(view(state, seat)) == place
            break
    assert changed >= 5


def _stage_two(pack: Pack) -> GameState:
    """The first Stage Two investigation of a four-investigator bot game, nobody placed."""
    for seed in range(50):
        state = deal(pack, 4, Difficulty.EASY, seed)
        policies = _policies(pack, state, seed)
        while state.outcome is None:
            if state.stage is Stage.CULPRIT and state.phase is Phase.INVESTIGATION:
                if len({group[0] for group in state.grouped_tableau}) == 4:
                    return state
                break
            acted = False
            for seat, policy in enumerate(policies):
                if state.stage is Stage.CULPRIT and state.phase is Phase.INVESTIGATION:
                    break
                action = policy.act(view(state, seat))
                if action is not None:
                    state = apply(state, action)
                    acted = True
            assert acted
    raise AssertionError("no game reached Stage Two")


def test_in_stage_two_bots_follow_the_majority_of_the_peoples_locks_not_the_lowest_seat(
    pack: Pack,
) -> None:
    state = _stage_two(pack)
    characters = [group[0] for group in state.grouped_tableau]
    bot = InvestigatorBot(4, pack, 9)
    bot.people = frozenset({1, 2, 3})
    own = bot.act(view(state, 4))
    assert isinstance(own, Place)
    majority = next(card for card in characters if card != own.card)
    lowest = next(card for card in characters if card not in (own.card, majority))
    # Seat 1 (the lowest) locks on one group, seats 2 and 3 on another.
    for seat, card in ((1, lowest), (2, majority), (3, majority)):
        state = apply(apply(state, Place(seat, card)), Lock(seat))
    moves = []
    for _ in range(6):
        action = bot.act(view(state, 4))
        if action is None:
            break
        moves.append(action)
        state = apply(state, action)
    assert state.investigator(4).marker == majority and state.investigator(4).locked
    said = [move for move in moves if isinstance(move, Chat)]
    assert said and "2 of the 3 of you" in said[-1].text


def test_in_stage_two_a_waiting_bot_proposes_its_group_and_does_not_lock(pack: Pack) -> None:
    state = _stage_two(pack)
    bot = InvestigatorBot(4, pack, 9)
    bot.people = frozenset({1, 2, 3})
    bot.hold_lock = True
    place = bot.act(view(state, 4))
    assert isinstance(place, Place)
    state = apply(state, place)
    line = bot.act(view(state, 4))
    assert isinstance(line, Chat) and _QUOTED.search(line.text)
    assert bot.act(view(state, 4)) is None  # it waits: no lock
    bot.hold_lock = False
    assert bot.act(view(state, 4)) == Lock(4)  # its proposal stands, said once


def test_the_stage_two_wait_ends_when_every_person_locked_or_the_time_is_up(pack: Pack) -> None:
    state = _stage_two(pack)
    people = frozenset({1, 2})
    assert patience(state) == WAIT_WITHOUT_SAND_GLASS == 60
    assert wait_left(state, people, 0.0) == 60
    assert wait_left(state, people, 59.5) == 0.5
    assert wait_left(state, people, 60.0) is None  # a minute without a sand-glass
    assert wait_left(state, frozenset(), 0.0) is None  # a table of bots never waits
    timed = replace(state, config=replace(state.config, timer=100))
    assert wait_left(timed, people, 49.0) == 1.0 and wait_left(timed, people, 50.0) is None
    for seat in people:
        characters = state.grouped_tableau[0][0]
        state = apply(apply(state, Place(seat, characters)), Lock(seat))
    assert wait_left(state, people, 0.0) is None  # every person has locked


# --- what the investigator knows -----------------------------------------------------------


def _other_secrets(state: GameState, rng: random.Random) -> Secrets:
    """Secrets that differ from the real ones in every part an investigator could use."""
    assert state.secrets is not None
    real = state.secrets
    tableau = state.tableau
    columns = []
    for seat in state.config.seats:
        found = state.investigator(seat).found
        cards = [
            found[index] if index < len(found) else rng.choice(tableau.cards(category))
            for index, category in enumerate(CATEGORY_ORDER)
        ]
        columns.append(Column(*cards))
    pool = [card for card in state.config.dream_cards if card not in state.dreams_in_play]
    rng.shuffle(pool)
    hand = tuple(pool[: len(real.hand)])
    rest = pool[len(real.hand) :]
    return Secrets(
        columns=tuple(columns),
        culprit=1 + (real.culprit % state.config.investigators),
        hand=hand,
        deck=tuple(rest[: len(real.deck)]),
        discard=tuple(rest[len(real.deck) :]),
        reshuffle=real.reshuffle,
    )


def test_investigator_plays_identically_whatever_the_ghosts_secrets(pack: Pack) -> None:
    """Same public history, other secrets (or none at all, as a peer replays it): same moves."""
    rng = random.Random(7)
    for seed in range(4):
        state = deal(pack, 3, Difficulty.NORMAL, seed)
        log = _play_logged(state, _policies(pack, state, seed))
        for seat in state.config.seats:
            honest, fooled, peer = (InvestigatorBot(seat, pack, 99) for _ in range(3))
            replayed = public(state)
            moves = 0
            for before, _, action in log:
                twin = replace(before, secrets=_other_secrets(before, rng))
                assert twin.secrets != before.secrets
                assert public(twin) == public(before) == replayed
                move = honest.act(view(before, seat))
                assert fooled.act(view(twin, seat)) == move
                assert peer.act(view(replayed, seat)) == move
                moves += move is not None
                replayed = apply(replayed, action)
            assert moves > 0


def test_a_wrong_seance_rules_the_card_out_for_that_investigator(pack: Pack) -> None:
    checked = 0
    for seed in range(10):
        state = deal(pack, 4, Difficulty.VERY_DIFFICULT, seed)
        wrong: dict[tuple[int, str], set[str]] = {}
        for before, _, action in _play_logged(state, _policies(pack, state, seed)):
            if isinstance(action, Seance):
                for verdict in action.verdicts:
                    if not verdict.correct:
                        investigator = before.investigator(verdict.seat)
                        assert investigator.seeking is not None and investigator.marker
                        key = (verdict.seat, investigator.seeking.value)
                        wrong.setdefault(key, set()).add(investigator.marker)
            if isinstance(action, Place) and before.stage is Stage.PLOT:
                seeking = before.investigator(action.by).seeking
                assert seeking is not None
                ruled_out = wrong.get((action.by, seeking.value), set())
                still_open = set(before.tableau.cards(seeking)) - ruled_out
                if still_open:
                    checked += 1
                    assert action.card not in ruled_out
    assert checked > 0


def test_memory_learns_from_the_last_seance_and_from_the_found_cards(pack: Pack) -> None:
    state = deal(pack, 2, Difficulty.NORMAL, 3)
    secrets = state.secrets
    assert secrets is not None
    ghost = GhostBot(pack, 1)
    while state.phase is Phase.DREAMS:
        action = ghost.act(view(state, GHOST))
        assert action is not None
        state = apply(state, action)
    truth = secrets.column(1).character
    wrong_card = next(c for c in state.tableau.character if c != truth)
    right_card = secrets.column(2).character
    state = apply(state, Place(1, wrong_card))
    state = apply(state, Place(2, right_card))
    late = SeanceMemory()  # notes the markers as they are placed, before the locks
    late.note(1, state, wrong_card)
    late.note(2, state, right_card)
    state = apply(apply(state, Lock(1)), Lock(2))
    assert state.phase is Phase.SEANCE
    listening = SeanceMemory()  # sees the locked markers just before the séance
    listening.observe(state)
    seat_one_only = SeanceMemory(only=1)
    seat_one_only.observe(state)
    seat_two_only = SeanceMemory(only=2)
    seat_two_only.observe(state)
    seance = ghost.act(view(state, GHOST))
    assert isinstance(seance, Seance)
    state = apply(state, seance)
    assert state.day == 2
    listening.observe(state)
    assert listening.ruled_out(1, Category.CHARACTER) == {wrong_card}
    assert listening.ruled_out(2, Category.CHARACTER) == frozenset()
    seat_one_only.observe(state)
    assert seat_one_only.ruled_out(1, Category.CHARACTER) == {wrong_card}
    seat_two_only.observe(state)  # watches only seat 2, whose guess was right
    assert seat_two_only.ruled_out(1, Category.CHARACTER) == frozenset()
    # Without the verdict (it is gone two days later), the table still tells.
    later = replace(state, day=3, last_seance=())
    late.observe(later)
    assert late.ruled_out(1, Category.CHARACTER) == {wrong_card}
    assert late.ruled_out(2, Category.CHARACTER) == frozenset()


def test_memory_remembers_a_wrong_accusation_even_without_its_verdict(pack: Pack) -> None:
    state = replace(deal(pack, 2, Difficulty.EASY, 4), stage=Stage.CULPRIT, day=5)
    memory = SeanceMemory()
    memory.note(1, state, "char-01")
    memory.observe(state)
    assert memory.accused_wrongly == frozenset()  # not judged yet
    memory.observe(replace(state, day=7, last_seance=()))
    assert memory.accused_wrongly == {"char-01"}


def test_a_bot_rebuilt_every_day_still_plays_legally_to_the_end(pack: Pack) -> None:
    seed = 5
    state = deal(pack, 4, Difficulty.DIFFICULT, seed)
    policies = _policies(pack, state, seed)
    day = state.day
    while state.outcome is None:
        if state.day != day:  # forget everything
            day = state.day
            policies = _policies(pack, state, seed + day)
        acted = False
        for seat, policy in enumerate(policies):
            action = policy.act(view(state, seat))
            if action is not None:
                state = apply(state, action)
                acted = True
                if state.outcome is not None:
                    break
        assert acted
    assert state.outcome is not None


# --- the Ghost points --------------------------------------------------------------------


def _points_at(table: Fits, dreams: tuple[str, ...], cards: tuple[str, ...], target: str) -> bool:
    """Whether ``target`` alone scores best among ``cards`` for these dreams."""
    scores = card_scores(table, dreams, cards)
    best = max(scores)
    return scores[cards.index(target)] == best and scores.count(best) == 1


def test_the_ghost_points_at_the_target_far_more_often_than_a_random_give(pack: Pack) -> None:
    table = fits(pack)
    ghost_hits = random_hits = gives = 0
    chance = 0.0
    rng = random.Random(11)
    for seed in range(60):
        state = deal(pack, 4, Difficulty.VERY_DIFFICULT, seed)
        ghost = GhostBot(pack, seed)
        while state.phase is Phase.DREAMS:  # day 1: everyone seeks a Character
            action = ghost.act(view(state, GHOST))
            assert isinstance(action, Give) and state.secrets is not None
            candidates = state.tableau.character
            target = state.secrets.column(action.to).character
            random_give = tuple(rng.sample(state.secrets.hand, len(action.cards)))
            gives += 1
            chance += 1 / len(candidates)
            ghost_hits += _points_at(table, action.cards, candidates, target)
            random_hits += _points_at(table, random_give, candidates, target)
            state = apply(state, action)
    assert ghost_hits > 2 * random_hits
    assert ghost_hits > 4 * chance
    assert ghost_hits / gives > 0.4


def test_the_ghosts_verdicts_are_the_truth(pack: Pack) -> None:
    # apply() on the full state raises FalseVerdict on any lie; a whole game is the proof.
    for seed in range(6):
        state = deal(pack, 3, Difficulty.VERY_DIFFICULT, seed)
        seances = [
            action
            for _, _, action in _play_logged(state, _policies(pack, state, seed))
            if isinstance(action, Seance | CulpritSeance)
        ]
        assert seances


# --- misuse and small parts ------------------------------------------------------------------


def test_bots_refuse_views_they_cannot_act_on(pack: Pack) -> None:
    state = deal(pack, 2, Difficulty.EASY, 1)
    with pytest.raises(BotMisuse):
        InvestigatorBot(GHOST, pack, 0)
    with pytest.raises(BotMisuse):
        InvestigatorBot(1, pack, 0).act(view(state, 2))
    with pytest.raises(BotMisuse):
        GhostBot(pack, 0).act(view(state, 1))
    with pytest.raises(BotMisuse):
        GhostBot(pack, 0).act(view(public(state), GHOST))


def test_make_policy_seats_the_right_bot(pack: Pack) -> None:
    assert isinstance(make_policy(GHOST, pack, 1), GhostBot)
    bot = make_policy(3, pack, 1)
    assert isinstance(bot, InvestigatorBot) and bot.seat == 3


def test_investigators_wait_for_their_dreams(pack: Pack) -> None:
    state = deal(pack, 3, Difficulty.NORMAL, 2)
    for seat in state.config.seats:
        assert InvestigatorBot(seat, pack, 0).act(view(state, seat)) is None


def test_softmax_choice_is_an_argmax_when_cold_and_spreads_when_warm() -> None:
    options, scores = ["a", "b", "c"], [1.0, 3.0, 2.0]
    rng = random.Random(0)
    assert {softmax_choice(rng.random(), options, scores, 0) for _ in range(20)} == {"b"}
    warm = [softmax_choice(rng.random(), options, scores, 1.0) for _ in range(400)]
    assert warm.count("b") > warm.count("c") > warm.count("a") > 0
    with pytest.raises(ValueError):
        softmax_choice(rng.random(), [], [], 1.0)


def test_the_best_laying_of_three_cards_is_the_best_of_the_six_orders() -> None:
    rng = random.Random(3)
    for _ in range(500):
        rows = [[rng.randrange(-6, 7) for _ in range(3)] for _ in range(3)]
        every_order = max(
            sum(row[slot] for row, slot in zip(rows, slots, strict=True))
            for slots in permutations(range(3))
        )
        assert best_laying_of_three(*rows) == every_order


# --- the bots read the dreams' words ------------------------------------------------------


def test_the_ghost_never_gives_a_dream_that_names_a_wrong_card(naming_pack: Pack) -> None:
    pack = naming_pack
    names = dream_names(pack)
    gives = 0
    for seed in range(40):
        result_state = deal(pack, 1 + seed % 6, list(Difficulty)[seed % 4], seed)
        for before, _, action in _play_logged(result_state, _policies(pack, result_state, seed)):
            if isinstance(action, Give):
                gives += 1
                assert wrong_named_cards(names, view(before, GHOST), action) == ()
    assert gives > 300


def test_the_naming_pack_has_dreams_that_name_wrong_cards_to_avoid(naming_pack: Pack) -> None:
    # Without such dreams the test above could not fail.
    pack = naming_pack
    names = dream_names(pack)
    characters = [card.id for card in pack.characters]
    assert any(names.names_wrongly(dream.id, characters[0], characters) for dream in pack.dreams)


def test_a_card_named_in_a_dream_outscores_one_tied_on_motifs(naming_pack: Pack) -> None:
    pack = naming_pack
    index, names = motif_index(pack), dream_names(pack)
    table = fits(pack, Readers.MOTIFS)
    cards = [*pack.characters, *pack.locations, *pack.items]
    checked = 0
    for dream in pack.dreams:
        for card_id in names.named.get(dream.id, ()):
            named = pack.investigator_card(card_id)
            rivals = [c.id for c in cards if c.category == named.category and c.id != card_id]
            tied = [
                r for r in rivals if index.overlap(dream.id, r) == index.overlap(dream.id, card_id)
            ]
            for rival in tied:
                scores = card_scores(table, (dream.id,), (card_id, rival))
                assert scores[0] > scores[1]
                checked += 1
    assert checked > 0


def test_the_simulator_counts_misnamed_gives_and_split_group_gives(pack: Pack) -> None:
    results = [run_game(pack, 4, Difficulty.NORMAL, seed) for seed in range(30)]
    assert sum(r.ghost_gives for r in results) > 0
    assert sum(r.wrong_named_gives for r in results) == 0
    group_gives = sum(r.group_gives for r in results)
    splittable = sum(r.group_gives_splittable for r in results)
    assert group_gives > 0 and 0 < splittable <= group_gives
    assert sum(r.group_gives_split for r in results) == splittable


def test_splits_by_slot_needs_one_pointing_dream_per_slot() -> None:
    assert splits_by_slot([[1, 0, 0], [0, 0, 2], [0, 1, -1]])
    assert not splits_by_slot([[1, 0, 0], [2, 0, 0], [0, 1, 1]])
    assert not splits_by_slot([[1, 1, 1], [1, 1, 1], [0, 0, 0]])


class _SeatOrderCheckedGhost(GhostBot):
    """The Ghost bot, checking each choice of a seat to serve against the rule as first
    written: every seat searched in seat order, a give replacing the best only when its
    value is strictly greater (the bot searches the seats with the highest bound first)."""

    checked = 0

    def _best_plan(
        self,
        state: GameState,
        ghost: GhostKnowledge,
        waiting: Sequence[int],
        hand: list[str],
        *,
        fair: bool,
    ) -> tuple[int, Plan] | None:
        chosen = super()._best_plan(state, ghost, waiting, hand, fair=fair)
        in_seat_order: tuple[int, Plan] | None = None
        for seat in waiting:
            usable = self._usable(state, ghost, seat, hand, fair=fair)
            if not usable:
                continue
            better_than = float("-inf") if in_seat_order is None else in_seat_order[1].value
            plan = self._search(state, ghost, seat, usable).best(better_than)
            if plan is not None:
                in_seat_order = (seat, plan)
        assert chosen == in_seat_order
        type(self).checked += 1
        return chosen


def test_the_ghost_serves_the_seat_a_search_in_seat_order_would(pack: Pack) -> None:
    for seed in range(24):
        investigators = 2 + seed % 5
        state = deal(pack, investigators, list(Difficulty)[seed % 4], seed)
        policies = _policies(pack, state, seed)
        policies[GHOST] = _SeatOrderCheckedGhost(pack, bot_seed(seed, GHOST))
        _play_logged(state, policies)
    assert _SeatOrderCheckedGhost.checked > 200


def _as_set(action: Action | None) -> object:
    """An action with its cards as a set (a give lists them in the hand's order)."""
    if isinstance(action, Give):
        return ("give", action.to, frozenset(action.cards))
    if isinstance(action, GroupGive):
        return ("group", frozenset(action.cards))
    return action


def test_the_ghosts_choice_does_not_hang_on_the_order_of_its_hand(pack: Pack) -> None:
    """Ties between gives go by an order of the dream cards fixed for the game, never by
    where a card sits in the hand: the same hand in the opposite order gets the same give."""
    compared = 0
    for seed in range(12):
        state = deal(pack, 2 + seed % 5, list(Difficulty)[seed % 4], 700 + seed)
        for before, seat, action in _play_logged(state, _policies(pack, state, 700 + seed)):
            if seat != GHOST or not isinstance(action, Give | GroupGive):
                continue
            seen = view(before, GHOST)
            assert seen.ghost is not None
            reversed_hand = replace(seen, ghost=replace(seen.ghost, hand=seen.ghost.hand[::-1]))
            chosen = [
                GhostBot(pack, bot_seed(700 + seed, GHOST)).act(shown)
                for shown in (seen, reversed_hand)
            ]
            assert _as_set(chosen[0]) == _as_set(chosen[1])
            compared += 1
    assert compared > 200


def test_three_dreams_split_by_slot_as_their_pointing_slots_say() -> None:
    rng = random.Random(5)
    table = _splittable_threes()
    for _ in range(2000):
        rows = [[rng.randrange(-2, 3) for _ in range(3)] for _ in range(3)]
        bits = [_positive_slots(row) for row in rows]
        assert table[bits[0] | bits[1] << 3 | bits[2] << 6] == splits_by_slot(rows)


# --- the networked runner waits for the people -----------------------------------------


class _StubPlayer:
    """Just enough of a seat's player for ``BotBrain.decide``: a state moved by its moves."""

    def __init__(self, pack: Pack, state: GameState, seat: int) -> None:
        self.state, self.seat = state, seat
        self.held = 0
        self.playing = True
        self.finished = False
        self.events: list[object] = []
        genesis = SimpleNamespace(pack=SimpleNamespace(hash=pack.content_hash, id=pack.id))
        self.replica = SimpleNamespace(
            table_setup=SimpleNamespace(genesis=genesis), events=self.events
        )

    def due(self) -> None:
        return None

    def view(self) -> object:
        return view(self.state, self.seat)

    def play(self, action: Action) -> Action:
        self.state = apply(self.state, action)
        return action


def _brain_at(pack: Pack, state: GameState, now: list[float]) -> tuple[BotBrain, _StubPlayer]:
    """The runner of a bot in seat 4, people in seats 1 to 3, on the clock ``now[0]``."""
    player = _StubPlayer(pack, state, 4)
    seats = [SimpleNamespace(seat=seat, bot=seat in (GHOST, 4)) for seat in range(5)]
    session = SimpleNamespace(
        game=1,
        ready=True,
        finished=False,
        player=player,
        seat=4,
        bot=True,
        lobby=SimpleNamespace(seats=seats),
    )
    brain = BotBrain(cast(PeerSession, session), pack=pack, seed=9, clock=lambda: now[0])
    return brain, player


def test_a_networked_bot_waits_a_minute_for_the_people_on_a_frozen_clock(pack: Pack) -> None:
    now = [1000.0]
    brain, player = _brain_at(pack, _stage_two(pack), now)
    moves = [brain.decide(), brain.decide()]
    assert [type(move) for move in moves] == [Place, Chat]  # its proposal, and why
    assert brain.decide() is None and brain.wake_in() == 60  # then it waits
    now[0] += 59.5
    assert brain.decide() is None and brain.wake_in() == 0.5
    now[0] += 0.5  # a minute since the group give, and no person has locked
    assert brain.decide() == Lock(4) and brain.wake_in() is None
    assert player.state.investigator(4).locked


def test_a_networked_bot_stops_waiting_when_every_person_has_locked(pack: Pack) -> None:
    now = [0.0]
    state = _stage_two(pack)
    brain, player = _brain_at(pack, state, now)
    proposal = brain.decide()
    assert isinstance(proposal, Place)
    other = next(group[0] for group in state.grouped_tableau if group[0] != proposal.card)
    heard: list[str] = []
    player.events.append(SimpleNamespace(body=ChatBody(text="It must be them"), seat=1))
    for seat in (1, 2, 3):  # the clock never moves: only the people's locks end the wait
        player.state = apply(apply(player.state, Place(seat, other)), Lock(seat))
    original = InvestigatorBot.hear
    try:
        InvestigatorBot.hear = lambda self, seat, text, day: heard.append(text)  # type: ignore[method-assign]
        moves = [brain.decide() for _ in range(5)]
    finally:
        InvestigatorBot.hear = original  # type: ignore[method-assign]
    assert heard == ["It must be them"]  # it read the chat
    assert player.state.investigator(4).marker == other and player.state.investigator(4).locked
    assert any(isinstance(move, Chat) and "3 of the 3 of you" in move.text for move in moves)


def test_in_stage_two_the_ghost_refreshes_a_hand_with_no_dream_for_a_culprit_card(
    pack: Pack,
) -> None:
    """One dream for the culprit's Character, one for its Location, one for its Item: a
    hand that cannot give that is refreshed whenever the difficulty allows."""
    gives_that_could_refresh = 0
    for seed in range(40):
        state = deal(pack, 3, Difficulty.EASY, 3000 + seed)
        policies = _policies(pack, state, 3000 + seed)
        ghost = policies[GHOST]
        assert isinstance(ghost, GhostBot)
        for before, _, action in _play_logged(state, policies):
            if isinstance(action, GroupGive) and refresh_refusal(before) is None:
                note = ghost.group_gives[-1]
                assert note.allowed and note.split
                gives_that_could_refresh += 1
    assert gives_that_could_refresh > 10


def test_a_networked_bots_wait_counts_from_the_group_give_not_the_dawn(pack: Pack) -> None:
    now = [0.0]
    investigation = _stage_two(pack)
    day_begins = replace(investigation, phase=Phase.DREAMS)
    brain, player = _brain_at(pack, day_begins, now)
    assert brain.decide() is None and brain.wake_in() is None  # the Ghost is giving
    now[0] += 45.0  # a slow Ghost
    player.state = investigation
    assert isinstance(brain.decide(), Place)
    assert brain.wake_in() == 60  # a whole minute from the give


def test_while_it_waits_a_bot_keeps_its_own_proposal_then_follows_the_people(pack: Pack) -> None:
    state = _stage_two(pack)
    bot = InvestigatorBot(4, pack, 9)
    bot.people, bot.hold_lock = frozenset({1, 2, 3}), True
    own = bot.act(view(state, 4))
    assert isinstance(own, Place)
    other = next(group[0] for group in state.grouped_tableau if group[0] != own.card)
    state = apply(apply(state, Place(1, other)), Lock(1))  # one person decides early
    state = apply(state, own)
    assert isinstance(bot.act(view(state, 4)), Chat)  # it proposes its own group
    assert bot.act(view(state, 4)) is None  # and holds it
    bot.hold_lock = False  # the wait is over: the one locked person's group
    assert bot.act(view(state, 4)) == Place(4, other)
