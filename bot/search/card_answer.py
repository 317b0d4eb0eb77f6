"""When a query names a card, the card is the answer.

A query that is a card's name (any of its printed forms, exactly) answers with the card —
its text, its own rulings and the rulings that mention it — unless the query is just as
exactly the title of a ruling that is not about that card: a card title never confidently
becomes a rules term it contains, and a rules term typed exactly stays the rules term.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from bot.normalize import holds_run, normalize, quoted_phrases, terms
from bot.search.build import CardTexts, subtitle_printed
from bot.search.confidence import (
    INSIDE_CARD,
    edition_fit,
    explained_margin,
    feature_row,
    logit,
    share,
)
from bot.search.hits import SearchResult, Target
from bot.search.index import SearchIndex, asks_of_cards, asks_with_unnamed
from bot.search.likeness import FILLER, MISSPELT_NAME, content_words, misspelt_name
from bot.search.passages import written_sentences
from bot.search.question_terms import english_words


@dataclass(slots=True)
class CardChoice:
    """The cards a query names exactly, the best first, and the features of that answer."""

    cards: list[Target]
    features: list[float]
    covers: dict[str, set[str]] = field(default_factory=dict)  # card id -> its rulings' topics


def named_cards(card_index: SearchIndex, query: str, edition: str | None) -> list[Target]:
    """The cards whose name, title or printed form is exactly the query."""
    return card_index.catalog.exact(query, edition=edition)


def mentioned_card(
    card_index: SearchIndex, result: SearchResult, query: str, edition: str | None
) -> tuple[list[Target], float]:
    """The card a search's top answer only mentions, when the query is that card's name
    misspelt ("Assimilate Planit"): the card is the answer, as it is for its name spelt
    right, and the ruling that mentions it is among the card's rulings."""
    top = result.hits[0] if result.hits else None
    if top is None or not top.mention:
        return [], 0.0
    likeness = misspelt_name(normalize(query), top.matched)
    if not likeness:
        return [], 0.0
    return card_index.catalog.exact(top.matched, edition=edition), likeness


def misspelt_cards(
    card_index: SearchIndex, query: str, edition: str | None
) -> tuple[list[Target], float]:
    """The cards a query names with a typo ("Atmosperic Ionization"), and how alike the
    name is (0..1): only when the whole query is that one name, confidently."""
    if not card_index.catalog.names.could_be_misspelt_name(normalize(query)):
        return [], 0.0
    found = card_index.search(query, edition=edition, limit=5)
    if not found.confident or not found.hits:
        return [], 0.0
    top = found.hits[0]
    if top.via not in ("title", "card name", "typo"):
        return [], 0.0
    # The whole query is the name misspelt, not a few of its words ("what time is it" is
    # not "You Will in Time"): compared as wholes, not word by word.
    whole = misspelt_name(normalize(query), top.matched)
    if not whole and top.matched == normalize(top.target.title):
        # Compared as typed: folding plurals cuts a mistyped word where it would not cut
        # the name's ("helplses" folds to "helplse", "helpless" stays).
        whole = misspelt_name(
            normalize(query, fold_plurals=False), normalize(top.target.title, fold_plurals=False)
        )
    if not whole:
        return [], 0.0
    likeness = top.score
    if likeness < MISSPELT_NAME:
        # Matched less closely word for word ("Arne Darivn", "Desitned To Be"): a typo, as
        # alike as the wholes are, unless every word typed is a word of its own ("fiction"
        # is not Friction).
        typed = normalize(query, fold_plurals=False).split()
        if top.via != "typo" or all(word in english_words() for word in typed):
            return [], 0.0
        likeness = whole
    return [h.target for h in found.hits if h.matched == top.matched], likeness


NAMED_WITHIN_WORDS = 2  # the fewest words a card name needs to be found inside a question
MAX_NAME_WORDS = 8  # the longest run of a query's words looked up as a card name
CARD_WORDS = frozenset(
    {"card", "cards", "play", "plays", "played", "playing", "use", "uses", "used", "using"}
)  # beside a card's name: what the name is, or asking how it is played


def cards_named_within(
    card_index: SearchIndex, query: str, edition: str | None
) -> tuple[list[Target], float]:
    """The cards a longer question names word for word ("Who is Darian Wallace? I don't
    recall him"), the longest name first, and the share of the question's content words
    that name holds (0..1). A one-word name counts only when it is no English word ("what
    does Kargan do?"; not "Regenerate" or "Chef", which are words too)."""
    words = normalize(query).split()
    content = content_words(words)
    if not content:
        return [], 0.0
    longest = min(len(words) - 1, MAX_NAME_WORDS)
    # "card" beside a card's name says what the name is ("Warrior's Birthright card"), and
    # "play" or "use" asks how the card is played ("can I play Devidian Door"): the card's
    # text answers that, nothing else is asked of it.
    asked = [w for w in content if w not in CARD_WORDS] or content
    for phrase, found in _named_runs(card_index, words, edition, longest, NAMED_WITHIN_WORDS):
        if asks_of_cards(query, " ".join(phrase)):  # of a kind of card named after it
            asked = [w for w in content if w not in CARD_WORDS or w == "card"] or content
        held = min(1.0, sum(1 for w in phrase if w not in FILLER) / len(asked))
        if held >= 1.0:
            # "how does Azetbur work", "what does Energy Vortex do?": besides the name only
            # the words a question is wrapped in, named as exactly as by the name alone.
            return found, 1.0
        return found, round(min(held, 0.99), 4)
    typed = normalize(query, fold_plurals=False).split()  # word for word, as spelt
    if len(typed) != len(words) or len(words) < 2:  # a whole query: the exact path's
        return [], 0.0
    # A word no one spells beside it may be part of a longer name misspelt ("Cruzon Odo"
    # is Curzon Odo, not Odo): then the one word names nothing.
    pairs = list(zip(words, typed, strict=True))
    spelt_right = [s in english_words() or card_index.catalog.names.has_word(w) for w, s in pairs]
    # The only word the question is about, wrapped in nothing but question and source
    # words ("Forsaken ruling", "what does Simmons do?"): a name even when it is a word too.
    alone = len(content) == 1
    for at, (word, spelt) in enumerate(pairs):
        if word in FILLER or len(spelt) < 2 or (spelt in english_words() and not alone):
            continue
        if not all(known for i, known in enumerate(spelt_right) if i != at):
            return [], 0.0
        # Spelt as the name is, not a plural of it: "holograms, exocomps and androids" are
        # kinds of personnel, not the card Exocomp.
        found = [
            card
            for card in _named_exactly(card_index, word, edition, set())
            if spelt in whole_names(card, fold_plurals=False)
        ]
        if found:
            return found, round(min(1 / len(asked), 0.99), 4)
    return [], 0.0


MAX_NAMED_IN_PART = 6  # more card names than this start or end so: a common word, no name


def cards_named_in_part(
    card_index: SearchIndex, query: str, edition: str | None
) -> tuple[list[Target], float]:
    """The cards whose name starts or ends with the query's words ("Stone Knives": Stone
    Knives and Bearskins; "Transport Crash Survivor": the 2E mission whose card list joins
    its location to its title), and the share of the name's words typed (below 1). Two
    words at least, or one that is no English word; never a word many names share."""
    words = normalize(query).split()
    typed = normalize(query, fold_plurals=False).split()
    if len(words) != len(typed):
        return [], 0.0
    # The words a question is wrapped in ("how does ... work") around the name, not inside
    # it ("Blessed of the Prophets").
    while words and words[0] in FILLER:
        words, typed = words[1:], typed[1:]
    while words and words[-1] in FILLER:
        words, typed = words[:-1], typed[:-1]
    if not words or (len(words) == 1 and (len(typed[0]) < 4 or typed[0] in english_words())):
        return [], 0.0
    run = " ".join(words)
    if card_index.catalog.exact(run, edition=edition):
        return [], 0.0  # a whole name: named, not in part
    # The end of a name counts only where it is more than the set a 1E version comes from:
    # "The Trouble With Tribbles" is a set, not Odo, The Trouble with Tribbles.
    ending = [
        card for card in card_index.catalog.named_ending(run, edition) if not _set_only(card, run)
    ]
    found = card_index.catalog.named_starting(run, edition) + ending
    found = [
        card
        for at, card in enumerate(found)
        if card not in found[:at] and normalize(card.title) != run
    ]
    if not found or len({normalize(card.title) for card in found}) > MAX_NAMED_IN_PART:
        return [], 0.0
    longest = max(len(normalize(card.title).split()) for card in found)
    return found, round(min(len(words) / longest, 0.99), 4)


MAX_PRINTING = 3  # more cards than this print the phrase: common wording, no card's subject
# Two words are often printed side by side in passing ("Your maximum deck size is 40
# cards" is no answer to "deck size"); three or more a card prints when it names a thing.
MIN_PRINTED_WORDS, MAX_PRINTED_WORDS = 3, 5  # words that say something; words in all


def cards_printing(
    card_index: SearchIndex, texts: CardTexts, query: str, edition: str | None
) -> list[Target]:
    """The cards whose game text prints the whole lookup, word for word, where no card's
    name holds it: "Tribble Side Deck" is the side deck Storage Compartment Door opens. A
    lookup of up to five words, three of them saying something, not a sentence, that few
    cards print; the card printing it earliest in its text first (Q-Flash, which opens the
    Q-Continuum side deck, before Beware of Q, which is played next to it). A lead to show first,
    never a confident answer."""
    if written_sentences(query):
        return []
    words = normalize(query).split()
    while words and words[0] in FILLER:
        words = words[1:]
    while words and words[-1] in FILLER:
        words = words[:-1]
    if len(words) > MAX_PRINTED_WORDS or len(terms(" ".join(words))) < MIN_PRINTED_WORDS:
        return []  # its words that say something, three at least ("play a wormhole": two)
    found = texts.printing(" ".join(words), edition)
    if not found or len(found) > MAX_PRINTING:
        return []
    return [
        card_index.targets[card_index.by_entry[card]]
        for card, _ in sorted(found, key=lambda pair: (pair[1], pair[0]))
        if card in card_index.by_entry
    ]


def _set_only(card: Target, run: str) -> bool:
    """Whether ``run``, the end of the card's name, lies within a subtitle the card does not
    print (see :func:`bot.search.build.subtitle_printed`)."""
    full, bare = whole_names(card)
    if full == bare or subtitle_printed(card.edition, card.kind):
        return False
    return len(run.split()) <= len(full.split()) - len(bare.split())


def _named_runs(
    card_index: SearchIndex,
    words: list[str],
    edition: str | None,
    longest: int,
    shortest: int,
    holding: list[str] | None = None,
) -> Iterator[tuple[list[str], list[Target]]]:
    """Each run of ``words`` (longest first, then left to right) that is a card's name, with
    those cards; ``holding``: only runs that hold these words together."""
    for size in range(longest, shortest - 1, -1):
        for start in range(len(words) - size + 1):
            phrase = words[start : start + size]
            if holding and not set(holding) <= set(phrase):
                continue
            found = card_index.catalog.exact(" ".join(phrase), edition=edition)
            if found:
                yield phrase, found


def other_cards_named(
    card_index: SearchIndex, query: str, edition: str | None, chosen: list[Target]
) -> list[Target]:
    """Other cards the query names beside the chosen one, apart from its name: "Amanda Rogers
    vs Q2", "Atmospheric Ionization and Tribble Bomb". Such a query asks how the cards
    meet, which neither card's text settles. Another card counts by its whole name of two
    words or more, or by its first words of two or more typed with capitals, as a name is
    ("Vidiian Harvester & Stone Knives"), or by a one-word name that is no English word."""
    words = normalize(query).split()
    typed = normalize(query, fold_plurals=False).split()  # word for word, as spelt
    own: set[int] = set()
    for card in chosen:
        title = normalize(card.title).split()
        for start in range(len(words) - len(title) + 1):
            if title and words[start : start + len(title)] == title:
                own.update(range(start, start + len(title)))
    if not own:
        return []  # the query is not the chosen name word for word (misspelt): nothing beside
    names = {normalize(card.title) for card in chosen}
    segments: list[list[int]] = [[]]  # the positions of the words beside the chosen name
    for i in range(len(words)):
        if i in own:
            segments.append([])
        else:
            segments[-1].append(i)
    for segment in segments:
        for size in range(min(len(segment), MAX_NAME_WORDS), NAMED_WITHIN_WORDS - 1, -1):
            for start in range(len(segment) - size + 1):
                at = segment[start : start + size]
                run = " ".join(words[i] for i in at)
                found = _named_exactly(card_index, run, edition, names)
                if not found:
                    found = [
                        card
                        for card in card_index.catalog.named_starting(run, edition=edition)
                        if normalize(card.title) not in names
                        and f"{normalize(card.title)} ".startswith(run + " ")
                    ]
                    if found and not _capitalised(query, [typed[i] for i in at]):
                        found = []  # first words of a name typed as everyday words
                if found:
                    return found
    # A one-word name counts when it is no English word: "Amanda Rogers vs Q2", "Tribble
    # Bomb and Worf"; not "Scan", "Data" or "Quark", which are words too.
    for i in sorted(set(range(len(words))) - own):
        if len(typed[i]) > 1 and typed[i] not in english_words():
            found = _named_exactly(card_index, words[i], edition, names)
            if found:
                return found
    return []


def _named_exactly(
    card_index: SearchIndex, run: str, edition: str | None, besides: set[str]
) -> list[Target]:
    """The cards whose whole name (with or without its subtitle) is ``run``, but for the
    ``besides`` names: a subtitle alone ("mission specialist") is no card's name here."""
    return [
        card
        for card in card_index.catalog.exact(run, edition=edition)
        if normalize(card.title) not in besides and run in whole_names(card)
    ]


def whole_names(card: Target, fold_plurals: bool = True) -> tuple[str, str]:
    """A card's whole name, normalised, with its subtitle and without it."""
    return (
        normalize(card.title, fold_plurals=fold_plurals),
        normalize(card.title.split(",")[0], fold_plurals=fold_plurals),
    )


def _capitalised(query: str, run: list[str]) -> bool:
    """Whether the query types these (normalised) words with capitals, as a name is."""
    pattern = r"(?<![\w])" + r"\W+".join(re.escape(word) for word in run) + r"(?![\w])"
    typed = re.search(pattern, query, re.IGNORECASE)
    return bool(typed) and all(word[:1].isupper() for word in re.findall(r"\w+", typed.group(0)))


def inside_card_name(card_index: SearchIndex, query: str, edition: str | None, name: str) -> bool:
    """Whether ``name`` (a ruling's name that matched, normalised) is only part of a longer
    card name the query holds word for word: "Borg Ship -- Limits?" names the card Borg
    Ship, not the Borg; "how does Queen's Borg Cube work" names that ship, not the Borg
    Queen (a name matched from its words in any order is inside in any order too)."""
    words = normalize(query).split()
    # Only the name's words the query holds: a name matched in part ("U.S.S. Equinox,
    # Determined to Get Home" through "U.S.S." and "home") is inside a card name the query
    # holds whole ("U.S.S. Voyager, Home Away From Home") when those words all are.
    inner = [w for w in dict.fromkeys(name.split()) if w in words]
    if not inner or len(words) <= len(inner):
        return False
    longest = min(len(words), MAX_NAME_WORDS)
    for _, found in _named_runs(card_index, words, edition, longest, len(inner) + 1, inner):
        for card in found:
            outer = normalize(card.title).split()
            if len(outer) > len(inner) and set(inner) <= set(outer):
                return True
    return False


def choose(
    query: str,
    edition: str | None,
    rulings: SearchResult,
    cards: list[Target],
    covers: dict[str, set[str]],
    lean: float = 0.0,
    likeness: float = 1.0,
    others: list[Target] | None = None,
    printed: bool = False,
) -> CardChoice | None:
    """The card answer for a query, or None when a ruling answers it instead
    (``likeness`` below 1: the cards were named with a typo, or inside a question;
    ``others``: other cards the query names beside them, see :func:`other_cards_named`;
    ``printed``: the cards print the query in their text and are in that order, see
    :func:`cards_printing`)."""
    if not cards:
        return None
    top = rulings.hits[0] if rulings.hits else None
    inside = bool(rulings.features) and rulings.features[INSIDE_CARD] >= 1.0
    names = {normalize(c.title) for c in cards}
    # The ruling matched only by mentioning this very card ("cost of Jean-Luc Picard": the
    # species rule names him): its name is the card's, no closer to what was typed.
    mentions_it = top is not None and top.mention and top.matched in names
    if (
        top is not None
        and likeness < 1.0
        and top.name_score > likeness
        and not inside
        and not printed
    ):
        if not mentions_it:
            # A ruling's name is closer to what was typed (not a word of the card's). As
            # close, the card's name is the more particular: "can I play Tozara'Kesh?" is
            # about the card as much as "play" is about "not in play".
            return None
    if top is not None:
        # A ruling about one of several cards the query names alike ("Kira Nerys": 23
        # versions) is not about the card asked for: the versions are listed instead.
        about_card = (len(names) == 1 and normalize(top.target.title) in names) or any(
            top.target.topic in covers.get(c.topic, ()) and top.via in ("title", "card name")
            for c in cards
        )
        if about_card:
            return None  # a ruling about this very card answers (with the card attached)
        if top.via in ("title", "alias") and top.matched == normalize(query):
            return None  # the query is a rules term's own title, or a moderator's alias
    # The card with rulings about it, then the one whose whole name the query holds
    # ("Combat Vessel" is the 1E card, and only the title of the 2E Combat Vessel, Heavily
    # Armed), then the edition the words lean to.
    typed = normalize(query).split()
    ordered = (
        cards
        if printed
        else sorted(
            cards,
            key=lambda c: (
                not covers.get(c.topic),
                not holds_run(typed, normalize(c.title).split()),
                c.edition != ("2E" if lean < 0 else "1E"),
                c.topic,
            ),
        )
    )
    best = ordered[0]
    same_edition = sum(1 for c in ordered[1:] if c.edition == best.edition)
    other_edition = any(c.edition != best.edition for c in ordered[1:])
    words = len(typed)
    rival = top.score if top is not None else 0.0
    typo = likeness < 1.0 and not printed
    # A quoted phrase is about the card when its name holds it ("Cry 'Havoc!'"); one that
    # says more than the name ('"Armed with Starfleet Type II Phaser"') is about more.
    quoted = quoted_phrases(query)
    name = terms(best.title)
    unquoted = sum(1 for run in quoted if not holds_run(name, run)) / len(quoted) if quoted else 0.0
    features = feature_row(
        score=likeness,
        gap=likeness - rival,
        exact=float(not typo and not printed),
        via_card=1.0,
        via_typo=float(typo),
        query_words=math.log1p(words),
        name_cover=0.0 if printed else 1.0,
        rivals=math.log1p(same_edition),
        other_edition=float(other_edition and not edition),
        edition_fit=edition_fit(best.edition, edition, lean),
        name_whole=likeness,
        logit=logit(likeness),
        explained_margin=explained_margin(likeness, rival, likeness),  # the name is the query
        share=share([likeness, rival]),
        unquoted=unquoted,
        # Two cards named: the query asks how they meet, never settled with confidence by
        # one card (the veto the query naming two rulings has). Both are offered.
        two_titles=float(bool(others)),
        sentences=math.log1p(written_sentences(query)),
        printed_only=float(printed),
        other_kind=float(asks_of_cards(query, normalize(best.title))),
        unnamed_party=float(any(asks_with_unnamed(query, name) for name in whole_names(best))),
    )
    return CardChoice(ordered + [c for c in others or [] if c not in ordered], features)
