"""``rulings eval``: the search measured on the labelled table, k-fold.

The folds keep each source page's cases together, and the frozen split (a fifth of the
pages, see :mod:`bot.search.evaluate`) is left out of every fold, fit and figure; only
``--frozen`` judges it, with models fitted on every other case, beside the folds' figures.
Prints, per category, top-1, top-5, confident precision, coverage (share of answerable
queries answered confidently) and the failures; ``--json`` for machines. Progress goes to
stderr (see :class:`Progress`), so stdout holds the report alone.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from bot.answers.glance import GLANCE_WORDS, glance
from bot.cli import interrupts
from bot.cli.conventions import described
from bot.search.evaluate import (
    RankingHooks,
    average,
    candidate_groups,
    group_of,
    load_cases,
    run,
    split_cases,
    split_frozen,
    summarise,
)

TABLE = Path(__file__).resolve().parents[2] / "tests" / "search" / "eval_cases.yaml"
# One deal of the cases into folds moves a figure by a case or two with any change (the
# confidence threshold hangs on a few hard cases); the mean of three deals is steadier.
DEALS = 3


class Progress:
    """How far a run is, on stderr. On a terminal: one line rewritten in place (the stage and
    a count of lookups). Otherwise (a log, a pipe): one line as each stage starts. Either
    way a last line with the total."""

    EVERY = 25  # lookups between redraws: often enough to see it move, rarely enough to be cheap

    def __init__(self, stream: TextIO | None = None):
        self.stream = stream or sys.stderr
        self.live = getattr(self.stream, "isatty", lambda: False)()
        self.stage = ""
        self.lookups = 0
        self._drawn = 0
        self._started = time.monotonic()

    def begin(self, stage: str) -> None:
        self.stage = stage
        if self.live:
            self._draw()
        else:
            self._write(f"eval: {stage}\n")

    def tick(self) -> None:
        interrupts.check()  # a Ctrl-C swallowed inside a lookup stops the run here
        self.lookups += 1
        if self.live and self.lookups % self.EVERY == 0:
            self._draw()

    def done(self) -> None:
        seconds = time.monotonic() - self._started
        line = f"eval: done, {self.lookups} lookups in {seconds:.0f} s"
        self._write(("\r" + line.ljust(self._drawn) if self.live else line) + "\n")

    def stop(self) -> None:
        """Cut short: end the line being redrawn, claim nothing."""
        if self.live and self._drawn:
            self._write("\n")

    def _draw(self) -> None:
        # "\r" and spaces, not an escape code, to redraw: TERM=dumb terminals show it right.
        line = f"eval: {self.stage}: {self.lookups} lookups"
        self._write("\r" + line.ljust(self._drawn))
        self._drawn = len(line)

    def _write(self, text: str) -> None:
        self.stream.write(text)
        self.stream.flush()


class _Counted:
    """The service, each ranked lookup counted on a :class:`Progress`."""

    def __init__(self, rulings: Any, progress: Progress):
        self._rulings, self._progress = rulings, progress

    def ranked(self, query: str, edition: str | None = None):
        self._progress.tick()
        return self._rulings.ranked(query, edition)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rulings, name)


def add_eval_command(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "eval",
        **described(
            "measure the search on the labelled table (k-fold)",
            "rulings eval",
            "rulings eval --no-fit --json > figures.json",
            "rulings eval --sweep --seed 3",
            notes="Progress goes to stderr: on a terminal one line counting lookups, "
            "otherwise a line per stage; stdout holds only the report.",
        ),
    )
    p.add_argument("--folds", type=int, default=5, help="folds for the confidence fit (>= 2)")
    p.add_argument(
        "--deals",
        type=int,
        default=DEALS,
        help=f"times the cases are dealt into folds afresh, figures averaged (default {DEALS})",
    )
    p.add_argument(
        "--first-deal",
        type=int,
        default=0,
        help="deal the cases afresh from this deal on (default 0): deals no choice was "
        "measured on, to check a figure that the first deals may flatter",
    )
    p.add_argument(
        "--table",
        type=Path,
        help="the labelled cases (YAML; default: the checkout's tests/search/eval_cases.yaml)",
    )
    p.add_argument(
        "--json", action="store_true", help="machine-readable output (one JSON document)"
    )
    p.add_argument("--failures", type=int, default=10, help="failures listed per category")
    p.add_argument(
        "--no-fit", action="store_true", help="the shipped confidence as is, no k-fold refit"
    )
    p.add_argument(
        "--sweep",
        action="store_true",
        help="instead of the table: every title with a typo, and card names with a typo or "
        "inside a question, with the shipped parameters (a confident answer must be the one "
        "asked for)",
    )
    p.add_argument("--seed", type=int, default=1, help="the sweeps' random seed (default 1)")
    p.add_argument(
        "--fit-before",
        metavar="MARK",
        help="instead of k-fold: fit the ranking and confidence on the table's cases before "
        "the first line holding MARK (a batch's comment) and judge the cases from there on, "
        "a later batch as the search would have met it",
    )
    p.add_argument(
        "--glance",
        action="store_true",
        help="instead: the share of answerable cases whose first reply shows at least "
        f"{GLANCE_WORDS} consecutive words of a right ruling without a tap (shipped parameters)",
    )
    p.add_argument(
        "--frozen",
        action="store_true",
        help="also judge the frozen split (pages set aside from every fit and design choice) "
        "with models fitted on every other case, beside the folds' figures: look once, at "
        "the end of a piece of work",
    )
    p.add_argument(
        "--write-params",
        action="store_true",
        help="fit the ranking and confidence on the table (and tests/search/cases.yaml), "
        "the frozen split left out, and ship them",
    )
    p.set_defaults(run=run_eval)


def _ranking_hooks(rulings: Any) -> RankingHooks:
    from bot.search import confidence, ranking

    return RankingHooks(
        fit=ranking.fit,
        use=rulings.use_ranking,
        fit_confidence=confidence.fit,
        use_confidence=rulings.use_confidence,
    )


def evaluate(
    rulings: Any,
    table: Path,
    folds: int,
    refit: bool = True,
    deals: int = DEALS,
    first_deal: int = 0,
    on_deal: Callable[[int], None] | None = None,
    frozen: bool = False,
) -> dict[str, Any]:
    """The table's figures, the frozen split left out: with ``refit``, k-fold grouped by
    page (ranking and confidence fitted on the other folds), averaged over ``deals`` deals
    of the pages into folds, the first of them ``first_deal``; ``on_deal`` is told as each
    deal starts. With ``frozen``, the report's "frozen" holds the frozen split's figures,
    judged by models fitted on every other case (with ``refit``) or the shipped ones."""
    from bot.search.confidence import fit_confidence

    cases, held = split_frozen(load_cases(table))
    if not refit:
        report = summarise(run(cases, rulings.ranked))
        report["folds"] = None
    else:
        reports = []
        for deal in range(first_deal, first_deal + deals):
            if on_deal is not None:
                on_deal(deal)
            reports.append(
                summarise(
                    run(
                        cases,
                        rulings.ranked,
                        fit=fit_confidence,
                        folds=folds,
                        ranking=_ranking_hooks(rulings),
                        draw=deal,
                    )
                )
            )
        report = average(reports)
        report["folds"] = folds
        report["first_deal"] = first_deal
    if frozen:
        report["frozen"] = judge_frozen(rulings, cases, held, refit)
    return report


def judge_frozen(rulings: Any, train: list, held: list, refit: bool) -> dict[str, Any]:
    """The frozen cases judged by the ranking and confidence fitted on ``train`` (with
    ``refit``; else the shipped ones, which ``--write-params`` fitted without them)."""
    if not refit:
        return summarise(run(held, rulings.ranked))
    order, model = fit_models(rulings, train)
    try:
        rulings.use_ranking(order)
        rulings.use_confidence(model)
        return summarise(run(held, rulings.ranked))
    finally:
        rulings.use_ranking(None)
        rulings.use_confidence(None)


def fit_models(rulings: Any, cases: list) -> tuple[Any, Any]:
    """Fit the ranking, then the confidence on the answers it ranks, on ``cases``; returns
    (ranking, confidence) and leaves the shipped models answering."""
    from bot.search import confidence, ranking

    rulings.use_ranking(None)
    rulings.use_confidence(None)
    first = [rulings.ranked(case.query, case.edition) for case in cases]
    order = ranking.fit(candidate_groups(cases, first))
    rulings.use_ranking(order)
    try:
        answers = [rulings.ranked(case.query, case.edition) for case in cases]
    finally:
        rulings.use_ranking(None)
    model = confidence.fit(
        [a.features for a in answers],
        [a.right(case.expect) for a, case in zip(answers, cases, strict=True)],
        [case.negative for case in cases],
        [group_of(case) for case in cases],
    )
    return order, model


def evaluate_later_batch(rulings: Any, table: Path, mark: str) -> dict[str, Any]:
    """The cases from the first line holding ``mark`` on, judged by models fitted on the
    cases before it only (see :func:`bot.search.evaluate.split_cases`); the frozen split
    left out of both."""
    before, after = (split_frozen(part)[0] for part in split_cases(table, mark))
    if not before or not after:
        raise ValueError(f"{mark!r} leaves no cases on one side of it in {table.name}")
    order, model = fit_models(rulings, before)
    try:
        rulings.use_ranking(order)
        rulings.use_confidence(model)
        report = summarise(run(after, rulings.ranked))
    finally:
        rulings.use_ranking(None)
        rulings.use_confidence(None)
    report["folds"] = None
    report["fitted_on"] = len(before)
    report["threshold"] = round(model.threshold, 4)
    return report


def write_params(rulings: Any, tables: list[Path], as_json: bool = False) -> int:
    """Fit the ranking, then the confidence on its answers, on every case of the tables but
    the frozen split, and write ranking.json and confidence.json."""
    from bot.search import confidence, ranking

    every = [case for table in tables if table.exists() for case in load_cases(table)]
    cases = split_frozen(every)[0]
    order, model = fit_models(rulings, cases)
    ranking.save(order)
    confidence.save(model)
    if as_json:
        written = [ranking.PARAMS_FILE.name, confidence.PARAMS_FILE.name]
        report = {"cases": len(cases), "threshold": round(model.threshold, 4), "wrote": written}
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return 0
    print(
        f"fitted on {len(cases)} cases; threshold {model.threshold:.3f} -> "
        f"{ranking.PARAMS_FILE.name}, {confidence.PARAMS_FILE.name}"
    )
    return 0


def sweeps(rulings: Any, seed: int) -> dict[str, dict]:
    """The three sweeps of bot.search.sweep over the bundled data, with one seed."""
    from bot.search.sweep import card_probes, sweep, title_probes

    cards, about = rulings.card_targets(), rulings.card_covers()
    probes = {
        "titles with a typo": title_probes(rulings.index.targets, random.Random(seed)),
        "card names with a typo": card_probes(cards, about, random.Random(seed)),
        "card names in a question": card_probes(cards, about, random.Random(seed), True),
    }
    return {name: sweep(found, rulings.ranked) for name, found in probes.items()}


def run_sweeps(rulings: Any, seed: int, as_json: bool, failures: int) -> int:
    report = sweeps(rulings, seed)
    if as_json:
        print(json.dumps({"seed": seed, "sweeps": report}, ensure_ascii=False, indent=2))
        return 0
    print(f"sweeps with the shipped parameters, seed {seed}")
    print(f"{'sweep':26} {'probes':>6} {'confident':>9} {'not asked for':>13}")
    for name, found in report.items():
        print(f"{name:26} {found['probes']:6} {found['confident']:9} {len(found['wrong']):13}")
    for name, found in report.items():
        for wrong in found["wrong"][:failures]:
            print(f"  {name}: {wrong['query']!r} ({wrong['edition'] or 'any'}) got {wrong['got']}")
    return 0


def _measure(rulings: Any, args: argparse.Namespace, progress: Progress):
    """(exit code, report): the report is None when the mode printed its own."""
    if args.write_params:
        progress.begin("fitting the shipped parameters on every case")
        tables = [args.table, TABLE.with_name("cases.yaml")]
        return write_params(rulings, tables, args.json), None
    if args.sweep:
        progress.begin(f"sweeps, seed {args.seed}")
        return run_sweeps(rulings, args.seed, args.json, args.failures), None
    if args.glance:
        progress.begin("the answer at a glance, every case")
        return run_glance(rulings, args.table, args.json, args.failures), None
    if args.fit_before is not None:  # a mark not found: a ValueError, one line, exit 2
        progress.begin(f"fitting on the cases before {args.fit_before!r}")
        return 0, evaluate_later_batch(rulings, args.table, args.fit_before)
    if args.no_fit:
        progress.begin("the shipped parameters, no refit")

    def on_deal(deal: int) -> None:
        done = deal - args.first_deal
        progress.begin(f"deal {done + 1} of {args.deals} into {args.folds} folds")

    report = evaluate(
        rulings,
        args.table,
        args.folds,
        refit=not args.no_fit,
        deals=args.deals,
        first_deal=args.first_deal,
        on_deal=on_deal,
        frozen=args.frozen,
    )
    return 0, report


def run_glance(rulings: Any, table: Path, as_json: bool, failures: int) -> int:
    """The answer at a glance on the table (see :mod:`bot.answers.glance`)."""
    report = glance(rulings, split_frozen(load_cases(table))[0])
    if as_json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return 0
    print(
        f"first reply shows {GLANCE_WORDS}+ consecutive words of a right ruling: "
        f"{report['shown']}/{report['cases']} answerable cases ({_pct(report['share']).strip()}, "
        f"{table.name})"
    )
    for name, c in report["categories"].items():
        print(f"  {name:22} {c['shown']:4}/{c['cases']:<4}")
    for failure in report["failures"][:failures]:
        print(f"  not shown: {failure['query'][:70]!r} want {failure['want'][:2]}")
    return 0


def _pct(value: float | None) -> str:
    return "   -  " if value is None else f"{value * 100:5.1f}%"


def run_eval(ctx: Any) -> int:
    args = ctx.args
    if args.folds < 2:  # usage errors: one line, exit 2 (1 is "no confident match")
        raise ValueError("--folds must be at least 2")
    if args.deals < 1:
        raise ValueError("--deals must be at least 1")
    if args.first_deal < 0:
        raise ValueError("--first-deal must be 0 or more")
    if args.table is None:
        if not TABLE.is_file():  # an installed package: the table lives in the checkout
            raise ValueError(
                "no labelled table here: pass --table (the checkout's tests/search/eval_cases.yaml)"
            )
        args.table = TABLE
    progress = Progress()
    rulings = _Counted(ctx.rulings, progress)  # opened (indexes built) before the first line
    try:
        code, report = _measure(rulings, args, progress)
    except BaseException:  # an error's line, or Ctrl-C, starts on a line of its own
        progress.stop()
        raise
    progress.done()
    if report is None:
        return code
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return 0
    cases, table = report["overall"]["cases"], args.table.name
    if "fitted_on" in report:
        print(
            f"fitted on the {report['fitted_on']} cases before {args.fit_before!r} "
            f"(threshold {report['threshold']}), judged on the {cases} from there on ({table})"
        )
    elif report["folds"] is None:
        print(f"the shipped parameters on {cases} cases ({table}), no refit, frozen split aside")
    else:
        print(
            f"{args.folds}-fold evaluation of {cases} cases ({table}), folds grouped by "
            f"source page, mean of {args.deals} deal{'s' if args.deals > 1 else ''} into folds"
            + (f" (deals {args.first_deal} on)" if args.first_deal else "")
            + ", frozen split aside"
        )
    _print_figures(report)
    if "frozen" in report:
        frozen = report["frozen"]
        how = "the shipped parameters" if report["folds"] is None else "models fitted on the rest"
        print(f"\nfrozen split: {frozen['overall']['cases']} cases, judged by {how}")
        _print_figures(frozen)
    for name, f in report["categories"].items():
        if not f["failures"]:
            continue
        print(f"\n{name}: {len(f['failures'])} failures")
        for failure in f["failures"][: args.failures]:
            print(f"  {_failure_line(failure, args.deals)}")
    for label, part in [("", report), ("frozen split: ", report.get("frozen"))]:
        if part is not None:
            print(f"\n{label}confident and wrong: {len(part['confident_wrong'])}")
            for failure in part["confident_wrong"]:
                print(f"  {_failure_line(failure, args.deals)}")
    return 0


def _print_figures(report: dict[str, Any]) -> None:
    rows = [("overall", report["overall"]), ("real (with URL)", report["real"])]
    rows += list(report["categories"].items())
    print(
        f"{'category':22} {'n':>4} {'top-1':>7} {'top-5':>7} {'conf.prec':>9} {'coverage':>8} {'neg.unconf':>10}"
    )
    for name, f in rows:
        print(
            f"{name:22} {f['cases']:4} {_pct(f['top1']):>7} {_pct(f['top5']):>7} "
            f"{_pct(f['confident_precision']):>9} {_pct(f['coverage']):>8} "
            f"{_pct(f['negatives_unconfident']):>10}"
        )


def _failure_line(failure: dict[str, Any], deals: int) -> str:
    counted = f" (in {failure['deals']} of {deals} deals)" if "deals" in failure else ""
    return (
        f"{failure['why']}{counted}: {failure['query'][:70]!r} "
        f"got {failure['got'][:2]} want {failure['want'][:2]}"
    )
