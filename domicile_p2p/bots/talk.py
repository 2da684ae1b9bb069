"""Table talk: what a bot investigator says, in its own voice, before it commits.

A person at the table should be able to follow a bot's reasoning and argue
with it, so every line names the card (or the group) and *why*, quoting the
words of the dreams that led there ("the wine and the sleeping birds"): the
words the text reader found pointing to the card (``PackTexts.clues``), never
the pack's hidden motifs.  When its top two are close it names both; when a
person's word changed its mind it says so; in Stage Two it proposes its own
group with its reason, and says so when it goes with the people instead.

Each seat speaks with its persona's voice (:data:`VOICES`, after the six
personas: the Spiritualist, the Folklorist, the Archivist, the Detective, the
Journalist and the Constable), with several phrasings each, and a line is the
bot's own: it never says a line another seat has said that day (it hears the
chat, :meth:`~domicile_p2p.bots.investigator.InvestigatorBot.hear`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from domicile_p2p.bots.readers import PackTexts, pack_texts
from domicile_p2p.packs import Pack
from domicile_p2p.rules import MAX_CHAT_LENGTH

QUOTES: Final = 2
"""How many quotations of the dreams a line gives at most."""


@dataclass(frozen=True, slots=True)
class Voice:
    """How one persona says things.  Placeholders: ``{card}`` the chosen card or group,
    ``{other}`` the runner-up, ``{why}`` the quoted words (or, when no word points
    there, the reason it is chosen anyway), ``{who}`` a person, ``{was}`` the card the
    bot had before, ``{table}`` how many people locked where."""

    leaning: tuple[str, ...]
    close: tuple[str, ...]
    changed: tuple[str, ...]
    proposing: tuple[str, ...]
    following: tuple[str, ...]


VOICES: Final[tuple[Voice, ...]] = (
    Voice(  # the Spiritualist: calm and exact; says what the dream made her feel
        leaning=(
            "When I hold {why}, it is {card} I feel.",
            "{why}: I feel {card} in that, quite clearly.",
            "{card}. Sitting with {why}, nothing else answers.",
        ),
        close=(
            "{card}, I feel, from {why}; though {other} stirs too.",
            "{why} pulls me two ways, {card} or {other}; {card}, a little more.",
        ),
        changed=(
            "{who} named {card}, and {why} feels right for it; I had {was}. I'll change.",
            "I felt {was}, but {who} is right about {card}: {why}.",
        ),
        proposing=(
            "I feel {card}: {why}. I'll wait for you before I lock.",
            "For me it is {card}, from {why}. Tell me what you feel.",
        ),
        following=(
            "{table}. I felt {was}, but I'll sit with you on {card}.",
            "{table}, so {card} it is; I had felt {was}.",
        ),
    ),
    Voice(  # the Folklorist: warm; remembers an old saying that fits
        leaning=(
            "The old stories would read {why} as {card}.",
            "There's a saying on this coast about {why}; it points to {card}.",
            "{why}, like the old tale. That's {card} to me.",
        ),
        close=(
            "{why}: the tales fit {card}, though {other} has a story too.",
            "It's {card} or {other}, by {why}; I lean {card}.",
        ),
        changed=(
            "{who} says {card}, and the tale of {why} fits it better than {was}. I'm turned.",
            "I had {was}, but {who}'s {card} suits {why}; I'll go that way.",
        ),
        proposing=(
            "The old tales say {card}: {why}. What do you make of it?",
            "My story is {card}, by {why}; I'll hear yours before I lock.",
        ),
        following=(
            "{table}. My tale said {was}, but the table says {card}; so be it.",
            "{table}; I'll walk with you to {card}, though I had {was}.",
        ),
    ),
    Voice(  # the Archivist: precise and dry; counts what the dreams have in common
        leaning=(
            "{card}. For the record: {why}.",
            "Noted: {why}. That is {card}.",
            "{why}: they belong in {card}'s file.",
        ),
        close=(
            "{card} by a narrow count over {other}: {why}.",
            "Close between {card} and {other}; {why} tips it to {card}.",
        ),
        changed=(
            "Correction: {who} named {card}; with {why} it outweighs {was}.",
            "Amending my note from {was} to {card}, as {who} said: {why}.",
        ),
        proposing=(
            "My entry reads {card}: {why}. I will wait for the table's.",
            "For the record, {card}: {why}. Lock when you are sure.",
        ),
        following=(
            "{table}; I had {was} on file, but the count is {card}.",
            "Amended: {card}, by the table's count ({table}); mine was {was}.",
        ),
    ),
    Voice(  # the Detective: methodical; rules cards out before naming one
        leaning=(
            "Ruling the rest out, {why} leaves {card}.",
            "{why} place it at {card}.",
            "Weighing {why}: {card}.",
        ),
        close=(
            "It's between {card} and {other}; {why} favours {card}.",
            "Not quite {other}: {why} puts it at {card}.",
        ),
        changed=(
            "{who} made a case for {card}; with {why} it beats {was}. I stand corrected.",
            "Reconsidering after {who}: {card} over {was}, given {why}.",
        ),
        proposing=(
            "My case is {card}: {why}. I'll hear yours before I lock.",
            "The evidence puts it on {card}: {why}. Convince me otherwise.",
        ),
        following=(
            "{table}. My case was {was}, but I'll go with {card}.",
            "{table}; I yield {was} and go with {card}.",
        ),
    ),
    Voice(  # the Journalist: brisk and curious; asks the table a question
        leaning=(
            "{why}? Surely that's {card}. Anyone disagree?",
            "Who else reads {why} as {card}?",
            "{card}, from {why}, or am I wrong?",
        ),
        close=(
            "{card} or {other}? {why} says {card} to me.",
            "{why}: {card}, though could it be {other}?",
        ),
        changed=(
            "{who} said {card}, and {why} fits; I had {was}. Good catch!",
            "Switching from {was} to {card}, thanks to {who}: {why}.",
        ),
        proposing=(
            "My story is {card}: {why}. What do the rest of you think?",
            "{card}, from {why}? I'll wait to hear you all.",
        ),
        following=(
            "{table}, so {card}; I'd have filed {was}.",
            "{table}? Then {card} it is, not my {was}.",
        ),
    ),
    Voice(  # the Constable: plain and practical; goes with the evidence in front of him
        leaning=(
            "Evidence says {card}: {why}.",
            "{why}. {card}, plain as day.",
            "Going on {why}: {card}.",
        ),
        close=(
            "{card}, on {why}; {other} is a near thing.",
            "{why} could mean {other}, but I'd say {card}.",
        ),
        changed=(
            "{who} said {card}; with {why}, that beats my {was}.",
            "Fair enough, {who}: {card}, not {was}, given {why}.",
        ),
        proposing=(
            "My evidence says {card}: {why}. I'll wait on you.",
            "I'd charge {card}: {why}. Your call before I lock.",
        ),
        following=(
            "{table}; I had {was}, but I'll go with {card}.",
            "{table}, so {card}. I had {was}.",
        ),
    ),
)

NO_WORD_LINES: Final = (
    "{card}: none of my dreams points anywhere else.",
    "{card}, since the other cards were ruled out.",
    "{card}; nothing I hold speaks against it, and nothing speaks for the rest.",
)
"""The lines, with their reason, for a card that no word of the dreams points to."""


ENDINGS: Final = (
    "",
    " (my own reading)",
    " (so I read it too)",
    " (I came to it myself)",
    " (on my own count)",
    " (my reading as well)",
    " (I see it the same)",
)
"""What a line that someone else has said today ends with, so that it is the bot's own:
more endings than seats, so a line is always found."""


def voice_of(seat: int) -> Voice:
    """The voice of the bot in investigator ``seat`` (1 to 6)."""
    return VOICES[(seat - 1) % len(VOICES)]


class TableTalk:
    """The lines of one bot: its voice, the pack's words, and what it quotes."""

    def __init__(self, pack: Pack, seat: int) -> None:
        self._pack = pack
        self._texts: PackTexts = pack_texts(pack)
        self.voice = voice_of(seat)

    def quotes(
        self, dreams: Sequence[str], cards: Sequence[str], most: int | None = None
    ) -> list[str]:
        """The words of ``dreams`` that point to ``cards``, weightiest first, each once: a
        word with the words printed next to it ("cold stone vault"), at most three; the
        first ``most`` of them, when given."""
        weighed: dict[str, float] = {}
        quoted_in = self._texts.quoted
        for dream in dreams:
            for card in cards:
                for quoted, weight in quoted_in(dream, card):
                    if weight > weighed.get(quoted, 0.0):
                        weighed[quoted] = weight
        chosen: list[str] = []
        for quoted in sorted(weighed, key=lambda quoted: -weighed[quoted]):
            if not any(quoted in earlier or earlier in quoted for earlier in chosen):
                chosen.append(quoted)
                if len(chosen) == most:
                    break
        return chosen

    def name(self, cards: Sequence[str]) -> str:
        """One card's name, or a group as "the Cook in the Kitchen with the Carving Knife"."""
        names = [self._pack.investigator_card(card).name for card in cards]
        if len(names) != 3:
            return ", ".join(names)
        character, place, item = names
        return f"{character} in {_lower_article(place)} with {_lower_article(item)}"

    def line(
        self,
        kind: str,
        variant: int,
        dreams: Sequence[str],
        cards: Sequence[str],
        heard: Collection[str],
        **words: str,
    ) -> str:
        """A line of ``kind`` (a field of :class:`Voice`) about ``cards``, quoting ``dreams``;
        never one of ``heard`` (the lines said at the table today).  ``variant`` picks the
        phrasing to try first (any whole number: the bots vary it by seed and day)."""
        templates: tuple[str, ...] = getattr(self.voice, kind)
        quoted = self.quotes(dreams, cards, QUOTES + 1)
        card = self.name(cards)
        start = variant % len(templates)
        # Tried in order, each phrasing (and each reason) made only when the ones before it
        # were said: most lines are the first tried.
        rotated = [templates[(start + offset) % len(templates)] for offset in range(len(templates))]
        candidates: Iterable[str]
        if quoted:
            candidates = (
                template.format(card=card, why=why, **words)
                for why in _reasons(quoted)
                for template in rotated
            )
        elif kind in ("changed", "following"):  # the reason is the people's
            candidates = (
                template.format(card=card, why="what they said", **words) for template in rotated
            )
        else:  # no word points there: it says why it chose the card all the same
            first = variant % len(NO_WORD_LINES)
            candidates = (
                NO_WORD_LINES[(first + offset) % len(NO_WORD_LINES)].format(card=card)
                for offset in range(len(NO_WORD_LINES))
            )
        tried: list[str] = []
        for candidate in candidates:
            text = _fit(_capital(candidate) + ENDINGS[0])
            if text not in heard:
                return text
            tried.append(candidate)
        for ending in ENDINGS[1:]:  # every phrasing said today: the first with an ending
            for candidate in tried:
                text = _fit(_capital(candidate) + ending)
                if text not in heard:
                    return text
        return text  # six seats and as many endings: never reached


def _reasons(quoted: Sequence[str]) -> Iterator[str]:
    """The reasons a line gives, in the order tried: the first quotations, the next
    ones, the first alone."""
    yield _quote(quoted[:QUOTES])
    if len(quoted) > QUOTES:
        yield _quote(quoted[QUOTES - 1 : QUOTES + 1])
    yield _quote(quoted[:1])


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _quote(words: Sequence[str]) -> str:
    return " and ".join(f"“{word}”" for word in words)


def _lower_article(name: str) -> str:
    return "the " + name[4:] if name.startswith("The ") else name


def _fit(text: str) -> str:
    """``text`` within the chat's bound, cut at a word."""
    if len(text) <= MAX_CHAT_LENGTH:
        return text
    return text[: MAX_CHAT_LENGTH - 1].rsplit(" ", 1)[0] + "…"
