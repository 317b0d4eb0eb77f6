"""Which names a query's words may stand for, and how well each name matches: a word as
typed, a prefix of a longer word, or a typo of one (:func:`word_matches`); the names
sharing such words, bounded whatever the index size (:func:`name_candidates`); and each
candidate's score, capped by where its name came from (:func:`scored_names`)."""

from __future__ import annotations

import bisect
from collections import Counter

from rapidfuzz import fuzz, process

from bot.search.likeness import content_words, typo_likeness
from bot.search.names import SOURCE_WEIGHT, NameIndex

# Bounds that keep a search's work independent of the index size.
POSTING_CAP = 3000
RESCORE = 40


def word_matches(names: NameIndex, word: str, allow_fuzzy: bool = True) -> dict[str, float]:
    """Vocabulary words a query word may stand for, with a similarity in 0..1."""
    found: dict[str, float] = {}
    if word in names.postings:
        found[word] = 1.0
    if len(word) >= 3:
        start = bisect.bisect_left(names.vocab_sorted, word)
        for candidate in names.vocab_sorted[start : start + 40]:
            if not candidate.startswith(word):
                break
            found.setdefault(candidate, 0.9)
    if allow_fuzzy and len(word) >= 4 and not found:
        bucket = names.vocab_by_letter.get(word[0], [])
        for candidate, score, _ in process.extract(
            word, bucket, scorer=fuzz.ratio, score_cutoff=75, limit=5
        ):
            found.setdefault(candidate, score / 100 * 0.95)
    return found


def score_name(key: str, query_words: list[str], query_key: str) -> float:
    """How well a name matches: word coverage both ways, or whole-string similarity."""
    key_words = content_words(key.split())
    if not key_words:
        return 0.0
    sims: dict[tuple[str, str], float] = {}

    def sim(q: str, k: str) -> float:
        pair = (q, k)
        if pair not in sims:
            if q == k:
                value = 1.0
            elif len(q) >= 2 and k.startswith(q):
                value = 0.9
            else:
                ratio = typo_likeness(q, k)
                value = ratio * 0.95 if ratio >= 0.75 else 0.0
            sims[pair] = value
        return sims[pair]

    title_cov = sum(max(sim(q, k) for q in query_words) for k in key_words) / len(key_words)
    query_cov = sum(max(sim(q, k) for k in key_words) for q in query_words) / len(query_words)
    words_score = 0.6 * title_cov + 0.4 * query_cov
    whole = fuzz.ratio(query_key, key) / 100
    whole_score = whole * 0.95 if whole >= 0.8 else 0.0
    return max(words_score, whole_score)


def name_candidates(names: NameIndex, words: list[str], limit: int = 1500) -> list[int]:
    """Names sharing a (possibly misspelt or partial) word with the query, most shared first.

    A word found in very many names narrows nothing and is skipped when the query has
    other words, which keeps the work bounded whatever the index size.
    """
    counts: Counter[int] = Counter()
    for word in words:
        matched: set[int] = set()
        for vocab_word in word_matches(names, word):
            posting = names.postings[vocab_word]
            if len(posting) > POSTING_CAP:
                if len(words) > 1:
                    continue
                posting = posting[:POSTING_CAP]
            matched.update(posting)
        counts.update(matched)
    return [index for index, _ in counts.most_common(limit)]


def scored_names(names: NameIndex, content: list[str], key: str) -> list[tuple[int, float]]:
    """Candidate names scored: a C-speed preselection, then the word-coverage score."""
    candidates = name_candidates(names, content)
    if not candidates:
        return []
    query_key = " ".join(content)
    if len(candidates) > RESCORE:
        keys = [names.keys[i] for i in candidates]
        picked = process.extract(query_key, keys, scorer=fuzz.WRatio, limit=RESCORE)
        candidates = [candidates[position] for _, _, position in picked]
    out = []
    for index in candidates:
        name = names.keys[index]
        source = names.source_of[index]
        score = score_name(name, content, query_key) * SOURCE_WEIGHT[source]
        if name != key:
            score = min(score, SOURCE_WEIGHT[source] - 0.01)
        out.append((index, score))
    return out
