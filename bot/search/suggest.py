"""Autocomplete, per keystroke and from memory: which topics a name being typed may be
(:func:`suggestions`). Whole names that start as typed come first (titles before the
rest), then names holding every typed word (the last one as a prefix), then, failing
both, the names most like a typo of it."""

from __future__ import annotations

import bisect

from rapidfuzz import fuzz, process

from bot.normalize import normalize
from bot.search.catalog import Catalog
from bot.search.likeness import FILLER
from bot.search.name_match import POSTING_CAP, name_candidates, word_matches
from bot.search.names import NameIndex
from bot.validate import MAX_QUERY_CHARS  # the one query cap

SUGGEST_FUZZY_POOL = 400
MAX_SUGGESTIONS = 25
LABEL_LIMIT = 100


def suggestions(
    catalog: Catalog, prefix: str, edition: str | None = None, limit: int = MAX_SUGGESTIONS
) -> list[tuple[str, str]]:
    """Up to 25 (entry id, label ≤ 100 chars) for what has been typed so far."""
    limit = max(1, min(limit, MAX_SUGGESTIONS))
    words = normalize(str(prefix)[:MAX_QUERY_CHARS], fold_plurals=False).split()[:8]
    targets = catalog.targets
    names = catalog.names
    chosen: list[int] = []
    seen: set[int] = set()

    def take(target: int) -> bool:
        if target in seen or (edition and targets[target].edition != edition):
            return False
        seen.add(target)
        chosen.append(target)
        return len(chosen) >= limit

    if not words:
        for target in sorted(
            catalog.by_topic.values(),
            key=lambda t: (targets[t].title.casefold(), targets[t].topic),
        )[:limit]:
            take(target)
        return [_label(targets[t]) for t in chosen]

    full = _prefix_pass(names, words, take)
    kept = [w for w in words if w not in FILLER]
    if not full and kept and len(kept) < len(words):
        # "how does kira nerys work": the question words are not part of any name.
        words = kept
        full = _prefix_pass(names, words, take)
    typed = " ".join(words)
    folded = normalize(typed)
    if not full and len(typed) >= 4:
        # 3. a typo: the names that best match what was typed, at C speed.
        candidates = name_candidates(names, words, limit=SUGGEST_FUZZY_POOL)
        if candidates:
            keys = [names.keys[i] for i in candidates]
            picked = process.extract(
                folded, keys, scorer=fuzz.WRatio, limit=limit * 2, score_cutoff=60
            )
            for _, _, position in picked:
                if take(names.target_of[candidates[position]]):
                    break
    return [_label(targets[t]) for t in chosen]


def _prefix_pass(names: NameIndex, words: list[str], take) -> bool:
    """Whole names, then words, that start as typed; True once ``take`` is full."""
    typed = " ".join(words)
    folded = normalize(typed)
    full = False
    # 1. whole names starting with what was typed: titles first, then the rest.
    for probe in dict.fromkeys((typed, folded)):
        start = bisect.bisect_left(names.sorted_keys, probe)
        window = []
        for position in range(start, min(start + 400, len(names.order))):
            if not names.sorted_keys[position].startswith(probe):
                break
            window.append(names.order[position])
        window.sort(key=lambda i: (names.source_of[i], len(names.keys[i])))
        for index in window:
            if take(names.target_of[index]):
                full = True
                break
        if full:
            break
    if not full:
        # 2. every typed word present (the last one as a prefix), in any position.
        *complete, last = words
        pools = []
        for word in complete:
            pool: set[int] = set()
            for vocab_word in word_matches(names, word, allow_fuzzy=True):
                pool.update(names.postings[vocab_word][:POSTING_CAP])
            pools.append(pool)
        last_words = []
        start = bisect.bisect_left(names.vocab_sorted, last)
        for candidate in names.vocab_sorted[start : start + 60]:
            if not candidate.startswith(last):
                break
            last_words.append(candidate)
        if not last_words and len(last) >= 4:
            last_words = list(word_matches(names, last))
        if pools:
            pools.sort(key=len)
            candidates = pools[0]
            for pool in pools[1:]:
                candidates = candidates & pool
            hits = _with_last_word(names, candidates, last, last_words)
        else:
            hits = []
            for word in last_words:
                hits.extend(names.postings[word][:500])
                if len(hits) >= POSTING_CAP:
                    break
        hits.sort(key=lambda i: (names.source_of[i], len(names.keys[i]), names.keys[i]))
        for index in hits:
            if take(names.target_of[index]):
                full = True
                break
    return full


def _with_last_word(
    names: NameIndex, candidates: set[int], last: str, near: list[str]
) -> list[int]:
    """The candidate names with a word that starts as ``last`` (still being typed), or
    failing any, one of its ``near`` spellings. Walks whichever is shorter: the posting
    lists of those words or the candidates themselves (this is autocomplete's hot path)."""
    vocab = names.vocab_sorted
    lo = bisect.bisect_left(vocab, last)
    hi = bisect.bisect_left(vocab, last + "\U0010ffff", lo)
    words = vocab[lo:hi] if hi > lo else near
    budget = 4 * len(candidates)
    cost = 0
    for word in words:
        cost += len(names.postings[word])
        if cost > budget:
            break
    if cost <= budget:
        found: set[int] = set()
        for word in words:
            found.update(candidates.intersection(names.postings[word]))
        return list(found)
    keys = names.keys
    if hi > lo:
        return [i for i in candidates if any(k.startswith(last) for k in keys[i].split())]
    wanted = set(near)
    return [i for i in candidates if wanted.intersection(keys[i].split())]


def _label(target) -> tuple[str, str]:
    label = f"{target.title} ({target.edition})"
    if len(label) > LABEL_LIMIT:
        label = label[: LABEL_LIMIT - 1] + "…"
    return target.entry, label
