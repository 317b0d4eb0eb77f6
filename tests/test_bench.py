"""`rulings bench`: its report, checked on a small index (figures are not timed here)."""

import json

from bot.cli.main import main


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
    # Progress goes to stderr, so --json output stays parseable.
    assert "bench: building the index" in err
    assert "through the baseline" in err


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
