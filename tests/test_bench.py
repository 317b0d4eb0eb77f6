"""`rulings bench`: its report, checked on a small index (figures are not timed here)."""

import json
import math
import re

from bot.cli.bench import _QUESTION_FORMS, PLAIN, Corpus, make_queries
from bot.cli.main import main
from bot.search import passages
from bot.search.passages import PassageIndex, split_passages, topic_passages


def test_bench_reports_ours_and_the_baseline_from_one_run(capsys):
    code = main(["bench", "--entries", "3000", "--queries", "25", "--seed", "3", "--json"])
    out, err = capsys.readouterr()
    assert code == 0
    report = json.loads(out)
    assert report["entries"] == 3000
    assert report["queries"] == 25
    assert report["keystrokes"] > report["queries"]  # every prefix of every query
    ours, baseline = report["ours"], report["baseline"]
    for figures in (ours["suggest"], ours["search"], baseline):
        assert 0 < figures["p50_ms"] <= figures["p99_ms"]
        assert 0 <= figures["recall@1"] <= figures["recall@25"] <= 1
    assert ours["suggest"]["recall@25"] >= baseline["recall@25"]
    assert report["speedup_suggest_p99"] > 0
    assert report["index_build_seconds"] > 0 and report["peak_rss_mb"] > 0
    assert {"prefix", "typo", "initialism", "full", "question"} == set(report["by_kind"])
    # Questions in plain words go through the passage index, built as the service builds it.
    assert report["questions"] == 25
    assert report["passages"] >= 2 * report["entries"]  # generated texts have paragraphs
    assert 0 < report["passage_build_seconds"] < report["index_build_seconds"]
    question = ours["question"]
    assert 0 < question["p50_ms"] <= question["p99_ms"]
    assert 0 <= question["recall@1"] <= question["recall@5"] <= question["recall@25"] <= 1
    # The entry a question was made from is found (0.36 here: generated titles made of the
    # same words often outrank it as partial name matches), not lost altogether.
    assert question["recall@5"] >= 0.3
    # Progress goes to stderr, so --json output stays parseable.
    assert "bench: building the index" in err
    assert "through the baseline" in err


def test_questions_are_made_from_a_passage_of_their_entry_and_leave_the_mix_alone():
    corpus = Corpus(1200, 5)
    names = make_queries(corpus.entries, 30, 5)
    mixed = make_queries(corpus.entries, 30, 5, corpus, questions=12)
    assert mixed[:30] == names  # the name queries are the same with questions or without
    questions = mixed[30:]
    assert len(questions) == 12 and {q.kind for q in questions} == {PLAIN}
    frames = {w for form in _QUESTION_FORMS for w in re.findall(r"[a-z]+", form.lower())}
    for q in questions:
        words = [w for w in q.text.lower().split() if w not in frames]
        bodies = [body.lower() for body, _ in split_passages(corpus.text(q.target))]
        assert len(words) >= 2
        assert any(all(re.search(rf"\b{w}\b", p) for w in words) for p in bodies), q.text


def test_bench_refuses_an_empty_run(capsys):
    assert main(["bench", "--entries", "0"]) == 2
    assert "--entries and --queries must be positive" in capsys.readouterr().err


def test_visibility_bench_times_each_change_in_another_process(capsys):
    code = main(["bench", "--visibility", "--entries", "1500", "--changes", "2", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    report = json.loads(out)
    assert report["entries"] == 1500 and report["changes"] == 2
    for figures in (
        report["writer_change_and_update_seconds"],
        report["other_process_visible_after_seconds"],
    ):
        assert 0 < figures["p50"] <= figures["max"]
    assert report["baseline_whole_rebuild_seconds"] > 0
    assert "bench: change 2/2" in err


# The bounds that keep a question's work the same at 100,000 entries (bot/search/passages.py).


def _passage_index(texts: dict[str, tuple[str, str]]) -> PassageIndex:
    index = PassageIndex()
    for topic, (edition, text) in texts.items():
        rows = [{"topic": topic, "id": topic + ":1", "text": text}]
        index.set_topic(topic, topic, topic_passages(rows), edition)
    return index


def _lean_by_walking(index: PassageIndex, text: str) -> float:
    """``lean`` as it was computed before the counts were kept: every posting walked."""
    total = weight = 0.0
    for term in index.query_terms(text):
        posting = index._postings.get(term)
        if not posting:
            continue
        editions = [index._editions.get(index._passages[slot].topic) for slot in posting]
        first, second = editions.count("1E"), editions.count("2E")
        idf = index._idf(term)
        total += idf * ((first + 0.5) / (first + second + 1) - 0.5) * 2
        weight += idf
    return math.tanh(total / passages.LEAN_SCALE) if weight else 0.0


def test_the_edition_lean_is_kept_as_topics_come_and_go_and_matches_a_walk():
    index = _passage_index(
        {
            "a": ("1E", "A ship may cloak once per turn.\n\nA cloaked ship cannot attack."),
            "b": ("2E", "A ship with range may move.\n\nCounters pay for a ship."),
            "c": ("1E", "Seed a dilemma under a mission.\n\nA ship is not a dilemma."),
            "d": ("", "A ship of no edition."),
        }
    )
    questions = ["can my ship cloak", "counters for a dilemma", "ship mission", "range"]
    before = [index.lean(q) for q in questions]
    assert before == [_lean_by_walking(index, q) for q in questions]
    assert before[0] > 0  # cloaking is a 1E word here
    edited = index.edited()
    edited.set_topic("a", "a", topic_passages([{"topic": "a", "id": "a:2", "text": "Pay counters for a ship."}]), "2E")  # fmt: skip
    edited.remove_topic("c")
    for q in questions:
        assert edited.lean(q) == _lean_by_walking(edited, q)
    assert [index.lean(q) for q in questions] == before  # the copy's changes stay its own
    assert edited.lean("dilemma") == 0.0  # its only topic is gone


def test_a_common_word_alone_is_walked_only_so_far(monkeypatch):
    monkeypatch.setattr(passages, "POSTING_CAP", 5)
    index = _passage_index({f"t{i:02}": ("1E", f"A ship numbered {i}.") for i in range(12)})
    assert len(index.search("ship", limit=20)) == 5  # of 12: the walk stops at the cap
    # Narrow words are still walked whole.
    assert [h.topic for h in index.search("numbered ship 7")][:1] == ["t07"]
