"""`rulings bench`: its report, checked on a small index (figures are not timed here)."""

import json
import re

import pytest

from bot.cli.bench import _QUESTION_FORMS, PLAIN, Corpus, make_queries
from bot.cli.main import main
from bot.search.passages import split_passages


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


def test_start_bench_times_starts_with_and_without_the_snapshot(capsys):
    code = main(["bench", "--start", "--entries", "400", "--rounds", "1", "--json"])
    out, _ = capsys.readouterr()
    assert code == 0
    report = json.loads(out)
    cli = report["cli"]
    assert cli["command"] == "show 'matching commander' --edition 1E"
    assert cli["show_s"] > 0 and cli["version_s"] > 0
    assert cli["ratio"] == pytest.approx(cli["show_s"] / cli["version_s"], abs=0.01)
    (size,) = report["sizes"]
    assert size["entries"] == 400
    built, kept = size["without_snapshot"], size["with_snapshot"]
    # The first start built the answers from the store and wrote the snapshot; the next
    # read it, and wrote nothing.
    assert not built["from_snapshot"] and built["wrote_snapshot"]
    assert all(run["from_snapshot"] and not run["wrote_snapshot"] for run in kept["runs"])
    for figures in (built, kept):
        assert 0 < figures["start_s"] <= figures["first_answer_s"] and figures["rss_mb"] > 0
    assert kept["snapshot_mb"] > 0
