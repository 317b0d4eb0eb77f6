"""What a search answers with: the topics it can name (:class:`Target`), one candidate
answer and how it was found (:class:`Hit`), and a query's ranked answers with the verdict
on the first (:class:`SearchResult`). It decides one thing itself: whether the other
edition's best answer matches as well as the first, so that both are offered."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.normalize import normalize
from bot.search import confidence

# Both editions' answers within this many log-odds (no edition asked): both are offered.
EDITION_TIE = 1.0


@dataclass(slots=True)
class Target:
    """A topic the search can answer with (its current version)."""

    topic: str
    entry: str
    title: str
    edition: str
    kind: str
    source: str  # the document's title
    date: str | None
    title_only: bool = False  # the source lost its text: only the title is known
    # The topics its answer lists as related (its "see also" and the terms its text names).
    related: tuple[str, ...] = ()
    # The one named section of its entry that its text is, the rest not bundled: a CRD's
    # new "Objectives" subsection of the 1E Borg entry (see bot.models.replaced_section).
    section: str = ""

    def kin(self, other: Target) -> bool:
        """Either lists the other as related: the answer shows the other beside it."""
        return other.topic in self.related or self.topic in other.related


# How a hit is labelled when its text found it, not one of its names.
FOUND_BY_TEXT = ("full text", "passage")


@dataclass(slots=True)
class Hit:
    target: Target
    score: float
    via: str  # how it matched: title, alias, card name, mentioned, typo, full text, passage
    matched: str  # the name or text that matched
    passage: object = None  # the passage that answers (bot.search.passages.Passage), if known
    support: float = 0.0  # the share of the query's weight that passage explains, 0..1
    name_score: float = 0.0  # the name match alone (0: found by its text only)
    signals: list[float] | None = None  # what the fitted ranking read (bot.search.ranking)
    unquoted: float = 0.0  # the share of the query's quoted phrases it does not hold
    mention: bool = False  # the name that matched is one its text merely mentions


@dataclass
class SearchResult:
    query: str
    confident: bool
    hits: list[Hit] = field(default_factory=list)
    features: list[float] = field(default_factory=list)  # of the top hit, for the confidence
    # Every candidate the fitted ranking weighed: (topic, its signals), for refitting it.
    candidates: list[tuple[str, list[float]]] = field(default_factory=list)

    def other_edition(self, edition: str | None) -> Hit | None:
        """No edition asked and the other edition's best answer matches as well: that answer
        (both are offered, never a silent pick). As well: the same title, or a score within
        EDITION_TIE log-odds of the top one."""
        if edition or not self.hits:
            return None
        top = self.hits[0]
        for hit in self.hits[1:]:
            if hit.target.edition != top.target.edition:
                same_title = normalize(hit.target.title) == normalize(top.target.title)
                close = confidence.margin(top.score, hit.score) < EDITION_TIE
                return hit if same_title or close else None
        return None
