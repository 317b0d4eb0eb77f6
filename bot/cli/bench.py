"""``rulings bench``: speed, recall and memory of the search at scale, against a baseline.

It builds an index of N entries (the bundled rulings plus seeded, generated entries made
from the card lists' titles and the rulings' own vocabulary), replays Q realistic queries
(prefixes keystroke by keystroke, typos, initialisms, full titles, questions) through our
``suggest`` and ``search``, and the same queries through a baseline in the same process:
rapidfuzz ``process.extract`` with ``fuzz.WRatio`` over every title, no pruning.
Figures are ratios against that baseline, so they mean the same on any machine.

The index carries the passage index the service builds (BM25 over every paragraph), so
``search`` is the service's search; Q more questions in plain words, made from the words of
one passage of an entry, are timed through it as a phase of their own (``question``).
"""

from __future__ import annotations

import gc
import itertools
import json
import os
import random
import re
import resource
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz, process

from bot.ingest.cards import load_card_index
from bot.ingest.dataset import CARDS_DIR, default_data_dir, load_documents, load_entries
from bot.normalize import initialism, terms
from bot.search.build import build_passages, card_witnesses
from bot.search.hits import Target
from bot.search.index import SearchIndex
from bot.search.likeness import FILLER
from bot.search.names import MENTION, TITLE
from bot.search.passages import split_passages
from bot.store.schema import fill_fulltext

_WORD = re.compile(r"[A-Za-z][a-z]{3,}")
_TOPIC_WORDS = (
    "timing",
    "download",
    "cost",
    "reveal",
    "dilemma",
    "mission",
    "attempt",
    "stopped",
    "battle",
    "capture",
    "ship",
    "personnel",
    "event",
    "interrupt",
    "equipment",
    "staffing",
    "report",
    "seed",
    "score",
    "points",
    "headquarters",
    "away team",
    "commander",
    "lore",
)


# Plain-language questions built from the words of one passage of an entry's text: the
# passage (BM25) path of the search, timed and scored as a phase of their own.
PLAIN = "plain question"
_QUESTION_FORMS = (
    "can my {0} {1} when {2}",
    "does {0} {1} during {2}",
    "what happens if {0} {1} my {2}",
    "how does {0} work with {1} and {2}",
    "can I {0} a {1} after {2}",
)


@dataclass
class Query:
    text: str
    kind: str
    target: int  # index of the intended entry


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _percentile(values: list[float], pct: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(pct / 100 * (len(ordered) - 1))))
    return ordered[index]


def _typo(text: str, rng: random.Random) -> str:
    chars = list(text)
    letters = [i for i, c in enumerate(chars) if c.isalpha()]
    if len(letters) < 5:
        return text
    i = rng.choice(letters[1:])
    op = rng.choice(("drop", "swap", "double", "replace"))
    if op == "drop":
        del chars[i]
    elif op == "swap" and i + 1 < len(chars):
        chars[i], chars[i + 1] = chars[i + 1], chars[i]
    elif op == "double":
        chars.insert(i, chars[i])
    else:
        chars[i] = rng.choice("aeiourstln")
    return "".join(chars)


@dataclass(slots=True)
class BenchEntry:
    title: str
    edition: str
    card: Any  # the Card an entry is named after, for its automatic aliases
    mention: str | None  # a card name its text mentions
    text: str | None  # bundled text; generated entries make theirs on demand (memory)


class Corpus:
    """N entries: the bundled rulings first, then generated ones (seeded, reproducible).

    Generated texts are made from the seed when the index is built, so the benchmark's own
    corpus does not inflate the memory it measures (the passage index keeps them, as the
    service's does: that is measured).
    """

    def __init__(self, n: int, seed: int):
        rng = random.Random(seed)
        data_dir = default_data_dir()
        bundled = load_entries(data_dir, load_documents(data_dir))
        cards = []
        for edition in ("1e", "2e"):
            path = data_dir / CARDS_DIR / f"{edition}.yaml"
            if path.exists():
                cards.extend(load_card_index(path))
        self.cards = cards
        self.seed = seed
        counts = Counter(w.lower() for e in bundled for w in _WORD.findall(e.get("text") or ""))
        self.counts = counts  # how often the rulings use each word
        self.vocabulary = sorted(counts)
        # Generated texts use each word as often as the rulings do: a few common words and a
        # long tail of rare ones, as real texts have (uniform draws would make every word
        # common at 100,000 entries, and no question's words would narrow anything).
        self._cum_weights = list(itertools.accumulate(counts[w] for w in self.vocabulary))
        self.entries: list[BenchEntry] = []
        seen: set[str] = set()
        for e in bundled:
            key = f"{e['edition']}|{e['title'].casefold()}"
            if key not in seen:
                seen.add(key)
                self.entries.append(
                    BenchEntry(e["title"], e["edition"], None, None, e.get("text") or "")
                )
        attempts = 0
        while len(self.entries) < n and attempts < n * 20:
            attempts += 1
            card = rng.choice(cards)
            style = rng.random()
            if style < 0.35:
                title = card.name
            elif style < 0.7:
                title = f"{card.name} – {rng.choice(_TOPIC_WORDS)}"
            else:
                title = f"{rng.choice(_TOPIC_WORDS)} {rng.choice(self.vocabulary)} {rng.choice(self.vocabulary)}"
            key = f"{card.edition}|{title.casefold()}"
            if key in seen:
                continue
            seen.add(key)
            mention = rng.choice(cards).name
            self.entries.append(
                BenchEntry(title, card.edition, card if style < 0.35 else None, mention, None)
            )
        del self.entries[n:]

    def text(self, i: int) -> str:
        entry = self.entries[i]
        if entry.text is not None:
            return entry.text
        rng = random.Random(self.seed * 1_000_003 + i)
        # Several paragraphs, so an entry has several passages, as a ruling has.
        paragraphs = []
        for _ in range(rng.randint(2, 4)):
            words = rng.choices(
                self.vocabulary, cum_weights=self._cum_weights, k=rng.randint(12, 30)
            )
            paragraphs.append(" ".join(words).capitalize() + ".")
        other = rng.choice(self.cards)
        paragraphs.append(f"For example, {entry.mention} reads: {other.text[:160]}")
        return "\n\n".join(paragraphs)


def add_generated_entries(conn, document: str, rows: list[tuple[str, str, str, str, str]]) -> None:
    """Put generated rulings into a built store, as current entries of one benchmark
    document: ``rows`` of (entry id, topic, title, edition, text), each a rule of its own
    topic, in the full text too. The caller commits (``with conn``)."""
    from bot.normalize import normalize

    conn.execute(
        "INSERT INTO documents(id, title, edition, kind, date, official, origin) "
        "VALUES (?, 'Generated entries (benchmark)', '2E', 'current rulings', NULL, 0, 'bench')",
        (document,),
    )
    conn.executemany(
        "INSERT INTO entries(id, topic, title, edition, kind, document, text, origin) "
        "VALUES (?, ?, ?, ?, 'rule', ?, ?, 'bench')",
        [
            (entry, topic, title, edition, document, text)
            for entry, topic, title, edition, text in rows
        ],
    )
    conn.executemany(
        "INSERT INTO topics(id, edition, title, current, key) VALUES (?, ?, ?, ?, ?)",
        [
            (topic, edition, title, entry, normalize(title))
            for entry, topic, title, edition, _ in rows
        ],
    )
    conn.execute(
        "INSERT INTO fulltext(rowid, topic, edition, title, text) "
        "SELECT rowid, topic, edition, title, text FROM entries WHERE document = ?",
        (document,),
    )


def build_index(
    corpus: Corpus, fulltext_path: str = ":memory:", timings: dict[str, float] | None = None
) -> SearchIndex:
    """The same index the service builds: titles, card forms, mentions, full text, and the
    passage index (built by the service's own ``build_passages``) that questions search.

    ``timings``, if given, hears how long the passage index took (``passages`` seconds)."""
    entries = corpus.entries
    targets = [
        Target(
            topic=f"t{i}",
            entry=f"e{i}",
            title=e.title,
            edition=e.edition,
            kind="rule",
            source="bench",
            date=None,
        )
        for i, e in enumerate(entries)
    ]
    # The rows the service reads from its store (each topic's one current version).
    rows = [
        {
            "topic": f"t{i}",
            "id": f"e{i}",
            "rank": 0,
            "title": e.title,
            "edition": e.edition,
            "text": corpus.text(i),
        }
        for i, e in enumerate(entries)
    ]
    conn = sqlite3.connect(fulltext_path, check_same_thread=False)
    fill_fulltext(conn, ((r["topic"], r["edition"], r["title"], r["text"]) for r in rows))
    index = SearchIndex(targets, fulltext=conn)
    names = index.catalog.names
    for i, e in enumerate(entries):
        names.add_name(e.title, i, TITLE)
        if e.card is not None:
            names.add_card_forms(e.card.title, e.card.subtitle, i)
        if e.mention:
            names.add_name(e.mention, i, MENTION)
    started = time.perf_counter()
    # The card lists' words and vocabulary, as the service's index has them: the lean of
    # every question reads them. Built now, as the bot builds them at start-up.
    index.passages = build_passages(
        rows, *card_witnesses((card.edition, f"{card.name} {card.text}") for card in corpus.cards)
    )
    index.passages.warm_up()
    if timings is not None:
        timings["passages"] = time.perf_counter() - started
    del rows
    index.catalog.finish()
    return index


def make_queries(
    entries: list[BenchEntry],
    count: int,
    seed: int,
    corpus: Corpus | None = None,
    questions: int = 0,
) -> list[Query]:
    """``count`` name queries (the same for a seed as before questions were added), then
    ``questions`` plain-language questions (kind PLAIN) made from the entries' texts in ``corpus``."""
    rng = random.Random(seed + 1)
    queries: list[Query] = []
    kinds = ("prefix", "typo", "initialism", "full", "question")
    while len(queries) < count:
        target = rng.randrange(len(entries))
        title = entries[target].title
        kind = kinds[len(queries) % len(kinds)]
        if kind == "prefix":
            cut = max(4, int(len(title) * rng.uniform(0.5, 0.9)))
            text = title[:cut]
        elif kind == "typo":
            text = _typo(title, rng)
        elif kind == "initialism":
            card = entries[target].card
            letters = initialism(card.name) if card is not None else ""
            if len(letters) < 3:
                continue
            text = letters.upper()
        elif kind == "question":
            text = f"how does {title.lower()} work"
        else:
            text = title
        queries.append(Query(text, kind, target))
    if corpus is not None and questions > 0:
        queries.extend(_questions(corpus, questions, seed))
    return queries


def _questions(corpus: Corpus, count: int, seed: int) -> list[Query]:
    """Questions in plain words: three distinct content words of one of an entry's passages
    (not an example) in a question's frame, as a player asks about what a ruling says."""
    rng = random.Random(seed + 2)
    out: list[Query] = []
    attempts = 0
    while len(out) < count and attempts < count * 20:
        attempts += 1
        target = rng.randrange(len(corpus.entries))
        passages = [body for body, example in split_passages(corpus.text(target)) if not example]
        if not passages:
            continue
        # Words that carry meaning (a stop word or a question's filler asks nothing).
        words = sorted(
            {w.lower() for w in _WORD.findall(rng.choice(passages))} - FILLER,
        )
        words = [w for w in words if terms(w)]
        if len(words) < 3:
            continue
        # A question names what it is about: the passage's rarest word, and two others.
        # (Three words drawn alike are mostly common ones, which hundreds of generated
        # passages share at 100,000 entries: no search could tell which one was meant.)
        anchor = min(words, key=lambda w: (corpus.counts.get(w, 0), w))
        chosen = [anchor, *rng.sample([w for w in words if w != anchor], 2)]
        rng.shuffle(chosen)
        out.append(Query(rng.choice(_QUESTION_FORMS).format(*chosen), PLAIN, target))
    return out


def _timed_searches(
    index: SearchIndex, queries: list[Query]
) -> tuple[list[float], list[list[int]]]:
    """Each query through ``search``: its time in seconds and the targets it ranked."""
    times: list[float] = []
    ranked: list[list[int]] = []
    for q in queries:
        t = time.perf_counter()
        result = index.search(q.text, limit=25)
        times.append(time.perf_counter() - t)
        ranked.append([index.by_topic[h.target.topic] for h in result.hits])
    return times, ranked


def _recall(ranked: list[list[int]], queries: list[Query], k: int) -> float:
    hits = sum(1 for q, r in zip(queries, ranked, strict=True) if q.target in r[:k])
    return hits / len(queries) if queries else 0.0


def run(
    entries_n: int, queries_n: int, seed: int, progress: Callable[[str], None] = lambda _: None
) -> dict[str, Any]:
    """Build, replay and measure; ``progress`` hears of each phase as it starts."""
    # The full-text table lives on disk, as in the real store, so SQLite's page cache (not
    # the whole table) is what occupies memory.
    with tempfile.TemporaryDirectory(prefix="rulings-bench-") as folder:
        return _run(entries_n, queries_n, seed, os.path.join(folder, "fulltext.sqlite3"), progress)


def _run(
    entries_n: int,
    queries_n: int,
    seed: int,
    fulltext_path: str,
    progress: Callable[[str], None],
) -> dict[str, Any]:
    progress(f"generating {entries_n:,} entries (seed {seed})")
    started = time.perf_counter()
    corpus = Corpus(entries_n, seed)
    entries = corpus.entries
    corpus_seconds = time.perf_counter() - started
    gc.collect()
    progress("building the index")
    t0 = time.perf_counter()
    timings: dict[str, float] = {}
    index = build_index(corpus, fulltext_path, timings)
    build_seconds = time.perf_counter() - t0
    rss_after_build = _peak_rss_mb()
    mixed = make_queries(entries, queries_n, seed, corpus, questions=queries_n)
    queries = [q for q in mixed if q.kind != PLAIN]
    questions = [q for q in mixed if q.kind == PLAIN]
    by_entry = {t.entry: i for i, t in enumerate(index.targets)}

    progress(f"replaying {len(queries):,} queries keystroke by keystroke through suggest")
    suggest_times: list[float] = []
    suggest_ranked: list[list[int]] = []
    for q in queries:
        for end in range(1, len(q.text) + 1):  # keystroke by keystroke
            t = time.perf_counter()
            got = index.suggest(q.text[:end])
            suggest_times.append(time.perf_counter() - t)
        suggest_ranked.append([by_entry[entry] for entry, _ in got])
    progress("the same queries through search")
    search_times, search_ranked = _timed_searches(index, queries)
    progress(f"{len(questions):,} questions in plain words through search (passages)")
    question_times, question_ranked = _timed_searches(index, questions)

    titles = [e.title for e in entries]
    index.fulltext.close()
    progress("the same queries through the baseline (a full scan each: the slow part)")
    base_times: list[float] = []
    base_ranked: list[list[int]] = []
    for q in queries:
        t = time.perf_counter()
        got = process.extract(q.text, titles, scorer=fuzz.WRatio, limit=25)
        base_times.append(time.perf_counter() - t)
        base_ranked.append([i for _, _, i in got])

    ms = 1000.0
    ours_suggest = {
        "p50_ms": _percentile(suggest_times, 50) * ms,
        "p99_ms": _percentile(suggest_times, 99) * ms,
    }
    ours_search = {
        "p50_ms": _percentile(search_times, 50) * ms,
        "p99_ms": _percentile(search_times, 99) * ms,
    }
    ours_question = {
        "p50_ms": _percentile(question_times, 50) * ms,
        "p99_ms": _percentile(question_times, 99) * ms,
    }
    baseline = {
        "p50_ms": _percentile(base_times, 50) * ms,
        "p99_ms": _percentile(base_times, 99) * ms,
    }
    per_kind = {}
    for kind in sorted({q.kind for q in queries}):
        chosen = [i for i, q in enumerate(queries) if q.kind == kind]
        sub = [queries[i] for i in chosen]
        per_kind[kind] = {
            "search_recall@1": _recall([search_ranked[i] for i in chosen], sub, 1),
            "suggest_recall@25": _recall([suggest_ranked[i] for i in chosen], sub, 25),
            "baseline_recall@25": _recall([base_ranked[i] for i in chosen], sub, 25),
        }
    return {
        "entries": len(entries),
        "names_indexed": index.catalog.names.name_count,
        "queries": len(queries),
        "questions": len(questions),
        "passages": len(index.passages),
        "keystrokes": len(suggest_times),
        "seed": seed,
        "corpus_seconds": round(corpus_seconds, 3),
        "index_build_seconds": round(build_seconds, 3),
        "passage_build_seconds": round(timings["passages"], 3),
        "peak_rss_mb_after_build": round(rss_after_build, 1),
        "peak_rss_mb": round(_peak_rss_mb(), 1),
        "ours": {
            "suggest": {k: round(v, 3) for k, v in ours_suggest.items()}
            | {
                "recall@1": _recall(suggest_ranked, queries, 1),
                "recall@25": _recall(suggest_ranked, queries, 25),
            },
            "search": {k: round(v, 3) for k, v in ours_search.items()}
            | {
                "recall@1": _recall(search_ranked, queries, 1),
                "recall@25": _recall(search_ranked, queries, 25),
            },
            "question": {k: round(v, 3) for k, v in ours_question.items()}
            | {
                "recall@1": _recall(question_ranked, questions, 1),
                "recall@5": _recall(question_ranked, questions, 5),
                "recall@25": _recall(question_ranked, questions, 25),
            },
        },
        "baseline": {k: round(v, 3) for k, v in baseline.items()}
        | {
            "recall@1": _recall(base_ranked, queries, 1),
            "recall@25": _recall(base_ranked, queries, 25),
        },
        "speedup_suggest_p99": round(baseline["p99_ms"] / max(ours_suggest["p99_ms"], 1e-6), 1),
        "speedup_suggest_p50": round(baseline["p50_ms"] / max(ours_suggest["p50_ms"], 1e-6), 1),
        "speedup_search_p99": round(baseline["p99_ms"] / max(ours_search["p99_ms"], 1e-6), 1),
        "by_kind": per_kind,
    }


def main(args) -> int:
    if args.entries < 1 or args.queries < 1:
        raise ValueError("--entries and --queries must be positive")
    report = run(
        args.entries,
        args.queries,
        args.seed,
        progress=lambda step: print(f"bench: {step} ...", file=sys.stderr, flush=True),
    )
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    o, b = report["ours"], report["baseline"]
    print(
        f"entries {report['entries']}  names {report['names_indexed']}  queries {report['queries']}  keystrokes {report['keystrokes']}"
    )
    print(
        f"index build {report['index_build_seconds']} s (passages {report['passage_build_seconds']} s, {report['passages']} of them)   peak RSS {report['peak_rss_mb']} MB"
    )
    print(
        f"suggest   p50 {o['suggest']['p50_ms']:.2f} ms  p99 {o['suggest']['p99_ms']:.2f} ms  recall@1 {o['suggest']['recall@1']:.3f}  recall@25 {o['suggest']['recall@25']:.3f}"
    )
    print(
        f"search    p50 {o['search']['p50_ms']:.2f} ms  p99 {o['search']['p99_ms']:.2f} ms  recall@1 {o['search']['recall@1']:.3f}  recall@25 {o['search']['recall@25']:.3f}"
    )
    print(
        f"question  p50 {o['question']['p50_ms']:.2f} ms  p99 {o['question']['p99_ms']:.2f} ms  recall@1 {o['question']['recall@1']:.3f}  recall@5 {o['question']['recall@5']:.3f}  ({report['questions']} questions in plain words)"
    )
    print(
        f"baseline  p50 {b['p50_ms']:.2f} ms  p99 {b['p99_ms']:.2f} ms  recall@1 {b['recall@1']:.3f}  recall@25 {b['recall@25']:.3f}"
    )
    print(
        f"speed-up (baseline / ours, p99): suggest {report['speedup_suggest_p99']}x, search {report['speedup_search_p99']}x"
    )
    return 0
