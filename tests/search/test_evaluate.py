"""The evaluation harness: figures per category, k-fold refits, a later batch judged unseen."""

from pathlib import Path

import pytest

from bot.search.evaluate import (
    Case,
    Ranked,
    fold_of,
    group_of,
    is_frozen,
    load_cases,
    run,
    source_page,
    split_cases,
    split_frozen,
    summarise,
)

TABLE = Path(__file__).with_name("eval_cases.yaml")


def _system(answers):
    def system(query, edition):
        ids, confident = answers[query]
        return Ranked(ids=ids, features=[1.0, float(confident)], confident=confident)

    return system


def test_figures_count_top1_top5_precision_coverage_and_negatives():
    cases = [
        Case("a", ("x",), None, "exact"),
        Case("b", ("y",), None, "exact"),
        Case("c", ("z",), None, "typo"),
        Case("d", (), None, "negative"),
    ]
    answers = {
        "a": (["x", "q"], True),  # right, confident
        "b": (["q", "y"], True),  # wrong first, right in top 5, confident: a bad answer
        "c": (["z"], False),  # right, not confident
        "d": (["q"], False),  # negative, unconfident
    }
    report = summarise(run(cases, _system(answers)))
    overall = report["overall"]
    assert overall["top1"] == round(2 / 3, 4)
    assert overall["top5"] == 1.0
    assert overall["confident_precision"] == 0.5
    assert overall["coverage"] == round(2 / 3, 4)
    assert overall["negatives_unconfident"] == 1.0
    assert [f["why"] for f in report["categories"]["exact"]["failures"]] == ["confident and wrong"]
    assert report["categories"]["typo"]["failures"][0]["why"] == "right but not confident"


def test_kfold_decides_confidence_with_a_model_fitted_on_the_other_folds():
    cases = [Case(f"q{i}", ("x",) if i % 4 else (), None, "exact") for i in range(20)]
    answers = {c.query: (["x"], False) for c in cases}
    seen_sizes = []

    def fit(rows, labels, negative, groups):
        # Told which training questions no document answers (a quarter of them here), and
        # each one's group (its page; here each case its own).
        assert len(negative) == len(rows) and 0 < sum(negative) < len(rows)
        assert len(set(groups)) == len(rows)
        seen_sizes.append(len(rows))
        return lambda features: True

    outcomes = run(cases, _system(answers), fit=fit, folds=4)
    assert all(o.confident for o in outcomes)
    assert len(seen_sizes) == 4 and all(size < 20 for size in seen_sizes)
    assert sum(20 - size for size in seen_sizes) == 20  # every case held out exactly once


def test_folds_are_stable():
    case = Case("how many copies of a card", ("2e-building-a-deck",), None, "real-question")
    assert fold_of(case, 5) == fold_of(Case(*[getattr(case, f) for f in case.__slots__]), 5)


def test_each_deal_puts_the_cases_in_other_folds_and_is_stable():
    cases = [Case(f"q{i}", ("x",), None, "exact") for i in range(40)]
    deals = [[fold_of(c, 5, draw) for c in cases] for draw in range(3)]
    assert deals[0] != deals[1] != deals[2]
    assert deals[1] == [fold_of(c, 5, 1) for c in cases]


def test_deals_are_averaged_and_each_failure_counted():
    from bot.search.evaluate import average

    def report(top1, failures):
        figures = {"top1": top1, "top5": 1.0, "confident_precision": None, "coverage": 0.5,
                   "negatives_unconfident": 1.0, "cases": 2, "failures": failures}  # fmt: skip
        return {"overall": figures, "real": figures, "categories": {"exact": figures}}

    miss = {"query": "q", "edition": None, "why": "wrong first", "got": ["y"], "want": ["x"]}
    other = {**miss, "query": "r"}
    merged = average([report(1.0, []), report(0.5, [miss]), report(0.0, [miss, other])])
    assert merged["overall"]["top1"] == 0.5 and merged["overall"]["confident_precision"] is None
    assert [(f["query"], f["deals"]) for f in merged["overall"]["failures"]] == [("q", 2), ("r", 1)]
    assert [d["top1"] for d in merged["deals"]] == [1.0, 0.5, 0.0]


def test_eval_deals_from_the_first_deal_asked(monkeypatch, tmp_path):
    # Deals 8 on are fresh: a check on figures no choice was measured on.
    from bot.cli import eval as cli_eval
    from bot.search.evaluate import Ranked

    draws = []
    judged = cli_eval.run

    def recording(cases, system, **options):
        draws.append(options["draw"])
        return judged(cases, system)  # the system's own verdict: no fit needed here

    monkeypatch.setattr(cli_eval, "run", recording)

    class System:
        def ranked(self, query, edition):
            return Ranked(["1e-x"], [], confident=True)

        def use_ranking(self, model): ...

        def use_confidence(self, model): ...

    table = tmp_path / "t.yaml"
    table.write_text("cases:\n  - {query: x, expect: [1e-x], category: exact}\n", encoding="utf-8")
    report = cli_eval.evaluate(System(), table, 5, deals=2, first_deal=8)
    assert draws == [8, 9] and report["first_deal"] == 8
    assert report["overall"]["coverage"] == 1.0


def test_the_table_meets_the_minimums():
    cases = load_cases(TABLE)
    assert len(cases) >= 250
    real = [c for c in cases if c.source]
    assert len(real) >= 100 and all(c.source.startswith("http") for c in real)
    assert sum(c.negative for c in cases) >= 30
    categories = {c.category for c in cases}
    assert {"typo", "short-lookup", "card-with-rulings", "card-without-rulings"} <= categories
    editions = {e.split("-", 1)[0] for c in cases for e in c.expect}
    assert editions == {"1e", "2e"}


def test_every_expected_id_exists(rulings):
    cases = load_cases(TABLE)
    known = set(rulings.index.by_topic)
    with rulings._live.lock:
        known |= {row["id"] for row in rulings._answers.store.db.query("SELECT id FROM cards")}
    missing = sorted({e for c in cases for e in c.expect} - known)
    assert not missing, missing


def test_held_out_figures_meet_the_bar(rulings):
    """5-fold on the table grouped by page, the frozen split aside, one deal into folds (the
    first; `rulings eval` averages three, and each deal alone has met these bars, see
    docs/search.md — one deal takes a tenth of the suite's time): the ranking, the system's
    own verdict and then the confidence are fitted without the cases they are judged on.
    The issue's targets: confident precision >= 98 %, coverage >= 80 %, questions no
    document answers confident <= 1 %, top-1 >= 90 % (held here at 93 %, as measured)."""
    from bot.cli.eval import evaluate

    report = evaluate(rulings, TABLE, folds=5, deals=1)
    overall = report["overall"]
    assert overall["cases"] == len(split_frozen(load_cases(TABLE))[0])  # the frozen split aside
    assert overall["confident_precision"] >= 0.98, report["confident_wrong"]
    assert overall["negatives_unconfident"] >= 0.99, report["categories"]["negative"]["failures"]
    assert overall["top5"] >= 0.98
    assert overall["top1"] >= 0.93
    assert overall["coverage"] >= 0.80
    assert report["categories"]["card-without-rulings"]["top1"] == 1.0
    assert "frozen" not in report  # only when asked


def test_no_page_is_in_two_folds():
    cases = load_cases(TABLE)
    for draw in range(3):
        folds: dict[str, set[int]] = {}
        for case in cases:
            folds.setdefault(group_of(case), set()).add(fold_of(case, 5, draw))
        assert all(len(found) == 1 for found in folds.values())
        assert len({next(iter(found)) for found in folds.values()}) == 5  # every fold used
    # One forum thread linked through different posts and sessions is one page.
    post = "https://www.trekcc.org/forum/viewtopic.php?f=24&t=47798&p=5&sid=6b12"
    other = "http://trekcc.org/forum/viewtopic.php?t=47798&sid=99&f=24"
    assert source_page(post) == source_page(other) != source_page(post.replace("47798", "1"))
    a, b = Case("a", ("x",), None, "real", post), Case("b", (), None, "negative", other)
    assert group_of(a) == group_of(b) and fold_of(a, 5, 2) == fold_of(b, 5, 2)


def test_the_frozen_split_is_whole_pages_chosen_once():
    cases = load_cases(TABLE)
    train, frozen = split_frozen(cases)
    assert len(train) + len(frozen) == len(cases) and not any(is_frozen(c) for c in train)
    pages = {source_page(c.source) for c in cases if c.source}
    held = {source_page(c.source) for c in frozen}
    assert 0.15 <= len(held) / len(pages) <= 0.30  # about a fifth of the pages
    assert all(source_page(c.source) not in held for c in train if c.source)  # whole pages
    assert not any(is_frozen(c) for c in cases if not c.source)  # constructed cases train

    # Chosen once: these pages' membership never changes (a new salt or rule would hand
    # pages already looked at to the frozen split).
    def page(n):
        return Case("q", (), None, "negative", f"https://example.org/faq-{n}.htm")

    assert [n for n in range(24) if is_frozen(page(n))] == [15, 16, 17, 18, 20, 23]


_TWO_PAGES = """cases:
  - {query: "matching commander", expect: [1e-matching-commander], category: real-lookup,
     source: "https://example.org/faq-1.htm"}
  - {query: "seed phase", expect: [1e-seed-phase], category: real-lookup,
     source: "https://example.org/faq-2.htm"}
  - {query: "qwzxv", expect: null, category: negative, source: "https://example.org/faq-3.htm"}
  - {query: "dilemmas", expect: [2e-dilemmas], edition: "2E", category: exact}
  - {query: "facility commander", expect: [1e-facility-commander], category: real-lookup,
     source: "https://example.org/faq-15.htm"}
  - {query: "how do I win at chess", expect: null, category: negative,
     source: "https://example.org/faq-16.htm"}
"""


class _Recording:
    """The service, each lookup's query recorded with the models in use then."""

    def __init__(self, rulings):
        self.rulings, self.asked, self.models = rulings, [], (None, None)

    def ranked(self, query, edition=None):
        self.asked.append((query, self.models))
        return self.rulings.ranked(query, edition)

    def use_ranking(self, model):
        self.models = (model, self.models[1])
        self.rulings.use_ranking(model)

    def use_confidence(self, model):
        self.models = (self.models[0], model)
        self.rulings.use_confidence(model)


def test_the_frozen_split_is_never_fitted_on_and_judged_only_when_asked(rulings, tmp_path):
    from bot.cli.eval import evaluate

    table = tmp_path / "t.yaml"
    table.write_text(_TWO_PAGES, encoding="utf-8")
    frozen = {"facility commander", "how do I win at chess"}
    assert {c.query for c in split_frozen(load_cases(table))[1]} == frozen
    system = _Recording(rulings)
    report = evaluate(system, table, folds=2, deals=1)
    assert report["overall"]["cases"] == 4 and "frozen" not in report
    assert not frozen & {query for query, _ in system.asked}  # never even looked up
    system.asked.clear()
    report = evaluate(system, table, folds=2, deals=1, frozen=True)
    assert report["frozen"]["overall"]["cases"] == 2
    # Looked up only once both models fitted on the rest are in use, to be judged.
    judged = [models for query, models in system.asked if query in frozen]
    assert len(judged) == 2 and all(None not in models for models in judged)
    assert system.models == (None, None)  # the shipped models answer again


def test_kfold_fits_the_ranking_without_the_held_out_cases():
    """The ranking each fold uses is fitted on the other folds' candidates only, and the
    shipped ranking is restored afterwards."""
    from bot.search.evaluate import RankingHooks

    cases = [Case(f"q{i}", ("x",), None, "exact") for i in range(12)]
    in_use = [None]
    fitted_on: list[set[str]] = []

    def system(query, edition):
        # The candidates carry their case's query, so a fit can tell which cases it saw.
        return Ranked(
            ids=["x"], features=[1.0], candidates=[("x", [float(query[1:])])], confident=False
        )

    def fit(groups):
        fitted_on.append({f"q{int(group[0][0][0])}" for group in groups})
        return len(fitted_on)

    def use(model):
        in_use[0] = model

    outcomes = run(cases, system, fit=lambda rows, labels, negative, groups: (lambda f: True), folds=3,
                   ranking=RankingHooks(fit=fit, use=use))  # fmt: skip
    assert len(outcomes) == 12 and in_use[0] is None
    for held, seen in enumerate(fitted_on):
        held_out = {c.query for c in cases if fold_of(c, 3) == held}
        assert held_out and not (held_out & seen) and seen | held_out == {c.query for c in cases}


def test_kfold_fits_the_systems_own_confidence_without_the_held_out_cases():
    """The system reads its own confident verdict (its card lookups do): each fold's held-out
    cases are answered with a verdict fitted on the other folds, never the shipped one."""
    from bot.search.evaluate import RankingHooks

    cases = [Case(f"q{i}", ("x",), None, "exact") for i in range(12)]
    in_use: list = [None]
    fitted_on: list[set[str]] = []
    judged_with: dict[str, float] = {}

    def system(query, edition):
        # The features carry the case and the verdict the system was answering with.
        return Ranked(ids=["x"], features=[float(query[1:]), float(in_use[0] or 0)],
                      candidates=[("x", [1.0])])  # fmt: skip

    def fit_confidence(rows, labels, negative, groups):
        fitted_on.append({f"q{int(row[0])}" for row in rows})
        return len(fitted_on)

    def use_confidence(model):
        in_use[0] = model

    def fit(rows, labels, negative, groups):
        def verdict(features):
            judged_with[f"q{int(features[0])}"] = features[1]
            return True

        return verdict

    hooks = RankingHooks(fit=lambda groups: None, use=lambda model: None,
                         fit_confidence=fit_confidence, use_confidence=use_confidence)  # fmt: skip
    run(cases, system, fit=fit, folds=3, ranking=hooks)
    assert in_use[0] is None and len(fitted_on) == 3
    for held, seen in enumerate(fitted_on):
        held_out = {c.query for c in cases if fold_of(c, 3) == held}
        assert held_out and not (held_out & seen)
        assert {judged_with[q] for q in held_out} == {held + 1.0}  # this fold's own verdict


def test_rulings_eval_prints_per_category_figures(store_copy, capsys):
    from bot.cli.main import main

    table = store_copy.with_name("small.yaml")
    table.write_text(
        "cases:\n"
        "  - {query: matching commander, expect: [1e-matching-commander], category: exact}\n"
        "  - {query: qwzxv, expect: null, category: negative}\n"
        "  - {query: Horta, expect: [1e-horta], category: card-without-rulings}\n",
        encoding="utf-8",
    )
    code = main(["--db", str(store_copy), "eval", "--table", str(table), "--no-fit"])
    lines = {line.split()[0]: line.split() for line in capsys.readouterr().out.splitlines() if line}
    assert code == 0
    # category, n, top-1, top-5, confident precision, coverage, negatives unconfident
    assert lines["overall"][1:] == ["3", "100.0%", "100.0%", "100.0%", "100.0%", "100.0%"]
    assert lines["negative"][1] == "1" and lines["negative"][-1] == "100.0%"
    assert lines["card-without-rulings"][2] == "100.0%"


_BATCHES = """# a table in two batches
cases:
  - {query: "matching commander", expect: [1e-matching-commander], category: exact}
  - {query: "seed phase", expect: [1e-seed-phase], category: exact}
  - {query: "dilemmas", expect: [2e-dilemmas], edition: "2E", category: exact}
  - {query: "stopped", expect: [2e-stopped], edition: "2E", category: exact}
  - {query: "Klingon Tea Ceremony", expect: [2e-klingon-tea-ceremony], category: exact}
  - {query: "qwzxv", expect: null, category: negative}
  - {query: "how do I win at chess", expect: null, category: negative}
  # Batch two: added later
  - {query: "facility commander", expect: [1e-facility-commander], category: exact}
  - {query: "what is the weather today", expect: null, category: negative}
"""


def test_a_later_batch_is_split_off_at_its_comment(tmp_path):
    table = tmp_path / "t.yaml"
    table.write_text(_BATCHES, encoding="utf-8")
    before, after = split_cases(table, "# Batch two")
    assert [c.query for c in after] == ["facility commander", "what is the weather today"]
    assert len(before) == 7 and before[2].edition == "2E"
    with pytest.raises(ValueError, match="no line"):
        split_cases(table, "# Batch three")


def test_a_later_batch_is_judged_by_models_fitted_before_it_only(rulings, tmp_path):
    from bot.cli.eval import evaluate_later_batch

    table = tmp_path / "t.yaml"
    table.write_text(_BATCHES, encoding="utf-8")
    report = evaluate_later_batch(rulings, table, "# Batch two")
    assert report["fitted_on"] == 7 and report["overall"]["cases"] == 2
    assert report["overall"]["top1"] == 1.0 and report["overall"]["negatives_unconfident"] == 1.0
    # The shipped models answer again afterwards.
    index = rulings._answers.index
    assert index.ranker_override is None and index.confidence_override is None
