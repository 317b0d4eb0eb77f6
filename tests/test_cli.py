"""The CLI: the README's first command, JSON shapes, exit codes."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.answers.snapshot import SUFFIX as SNAPSHOT_SUFFIX
from bot.cli.main import main
from bot.markup import excerpt

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def run(tmp_path_factory, capsys, built_store, kept_snapshot):
    db = tmp_path_factory.getbasetemp() / "cli-store.sqlite3"
    if not db.exists():  # the session's store and its answers' snapshot, as after a first start
        shutil.copy(built_store, db)
        shutil.copy(kept_snapshot, db.with_name(db.name + SNAPSHOT_SUFFIX))

    def invoke(*argv: str) -> tuple[int, str, str]:
        code = main(["--db", str(db), *argv])
        out, err = capsys.readouterr()
        return code, out, err

    return invoke


def test_readme_first_command_answers_matching_commander(tmp_path):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first = next(
        line.strip() for line in readme.splitlines() if line.startswith("    python3 -m venv")
    )
    lookup = first.split("&&")[-1].strip()
    assert lookup.startswith(".venv/bin/rulings show")
    args = re.findall(r'"[^"]*"|\S+', lookup)[1:]
    script = Path(sys.executable).with_name("rulings")
    env = {**os.environ, "RULINGS_DB": str(tmp_path / "db.sqlite3")}
    done = subprocess.run(
        [str(script), *[a.strip('"') for a in args]],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Rinnak Pire and Regent Worf" in " ".join(done.stdout.split())  # wrapped text
    assert "First Edition Current Rulings Document (3 November 2014)" in done.stdout
    assert "2014-11-03" in done.stdout
    assert "Glossary" in done.stdout and "superseded" in done.stdout


def test_show_json_shape(run):
    code, out, _ = run("show", "Klingon Tea Ceremony", "--json")
    assert code == 0
    answer = json.loads(out)
    assert {
        "id",
        "title",
        "edition",
        "kind",
        "text",
        "source",
        "date",
        "status",
        "related",
        "versions",
    } <= set(answer)
    assert answer["title"] == "Klingon Tea Ceremony"
    assert answer["edition"] == "2E"
    assert answer["kind"] == "clarification"
    assert answer["date"] == "2011-10-05"
    assert answer["status"] == "current"
    assert answer["text"].startswith("If a single action downloads multiple cards simultaneously")
    assert all(
        set(v) == {"id", "source", "date", "status", "label", "label_detail"}
        for v in answer["versions"]
    )
    assert answer["label"] == "current"
    assert all(set(r) == {"id", "title", "edition"} for r in answer["related"])


def test_search_json_shape(run):
    code, out, _ = run("search", "matchng comander", "--json", "--limit", "3")
    assert code == 0
    found = json.loads(out)
    assert set(found) == {"query", "confident", "results"}
    assert found["confident"] is True
    top = found["results"][0]
    assert set(top) == {"id", "title", "edition", "kind", "source", "date", "score"}
    assert top["title"] == "matching commander" and top["date"] == "2014-11-03"
    assert len(found["results"]) <= 3


def test_no_confident_match_exits_1_with_suggestions(run):
    code, out, _ = run("search", "qwzxv", "--json")
    assert code == 1
    assert json.loads(out)["confident"] is False
    code, _, err = run("show", "qwzxv")
    assert code == 1
    assert "No confident match" in err


def test_a_miss_points_out_where_each_suggested_ruling_fits_the_question(run):
    question = "When my Away Team is stopped, can a new away team be formed and beamed down?"
    code, out, _ = run("show", question, "--edition", "1E", "--json")
    assert code == 1
    results = json.loads(out)["results"]
    parts = {r["id"]: r["passage"]["text"] for r in results if r.get("passage")}
    assert parts
    for result in results:
        # A part of what the ruling's answer shows (the rule in force, and the base entry
        # an amendment adds to, shown beside it), never of a version replaced.
        if result["id"] in parts:
            code, shown, _ = run("show", result["id"], "--json")
            answer = json.loads(shown)
            in_force = (answer.get("in_force") or {}).get("text") or answer["text"]
            beside = (answer.get("base") or {}).get("text", "")
            assert " ".join(parts[result["id"]].split()) in " ".join(f"{in_force} {beside}".split())
    code, _, err = run("show", question, "--edition", "1E")
    first = next(iter(parts.values()))
    assert excerpt(first, 60).removesuffix("…") in " ".join(err.split())  # beneath its title
    # Asked in a title's own words, no part is pointed out: every part holds them alike.
    _, out, _ = run("show", "matching", "--json")
    titled = [r for r in json.loads(out)["results"] if "matching" in r["title"]]
    assert titled and not any(r.get("passage") for r in titled)


def test_sources_lists_all_five_documents_with_counts(run):
    code, out, _ = run("sources", "--json")
    assert code == 0
    documents = json.loads(out)["documents"]
    assert [d["id"] for d in documents] == [
        "2e-crd-2014-07-07", "2e-crd-2011-10-05", "1e-crd-2014-11-03", "1e-glossary-m", "2e-opencards-terms",
    ]  # fmt: skip
    counts = {d["id"]: d["entries"] for d in documents}
    assert counts["2e-crd-2014-07-07"] == 23
    assert counts["2e-crd-2011-10-05"] == 18
    assert counts["1e-crd-2014-11-03"] == 45
    assert counts["2e-opencards-terms"] == 33
    assert all(d["entries"] > 0 for d in documents)


def test_history_newest_first(run):
    code, out, _ = run("history", "attempting missions", "--edition", "2E", "--json")
    assert code == 0
    versions = json.loads(out)["versions"]
    assert [v["date"] for v in versions] == ["2014-07-07", "2011-10-05", None]
    assert versions[0]["status"] == "current"


def test_show_as_of_gives_the_version_then_in_force(run):
    code, out, _ = run(
        "show", "attempting missions", "--edition", "2E", "--as-of", "2012-01-01", "--json"
    )
    assert code == 0
    assert json.loads(out)["date"] == "2011-10-05"
    code, out, _ = run(
        "show", "matching commander", "--edition", "1E", "--as-of", "2014-01-01", "--json"
    )
    assert code == 0
    assert json.loads(out)["id"].startswith("1e-glossary-m:")


def test_changes_since(run):
    code, out, _ = run("changes", "--since", "2012-01-01", "--edition", "2E", "--json")
    assert code == 0
    changes = {c["title"]: c["change"] for c in json.loads(out)["changes"]}
    assert changes["exchange"] == "added"
    assert changes["attempting missions"] == "changed"


def test_related(run):
    code, out, _ = run("related", "matching commander", "--edition", "1E", "--json")
    assert code == 0
    titles = [r["title"] for r in json.loads(out)["related"]]
    assert "named in lore" in titles and "facility commander" in titles


@pytest.mark.parametrize(
    "argv",
    [
        ["search"],
        ["search", "x", "--edition", "3E"],
        ["search", "x", "--limit", "0"],
        ["show", "x", "--as-of", "2014-13-45"],
        ["changes", "--since", "yesterday"],
        ["frobnicate"],
    ],
)
def test_usage_errors_exit_2(run, argv):
    with pytest.raises(SystemExit) as info:
        run(*argv)
    assert info.value.code == 2


def test_data_error_exits_2_with_one_line(tmp_path, capsys):
    code = main(["--data", str(tmp_path), "--db", str(tmp_path / "db.sqlite3"), "sources"])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("rulings: error:") and err.count("\n") == 1


def test_title_only_glossary_entry_says_its_text_is_missing(run):
    # Shown by its id, the entry says its text was lost.
    code, out, _ = run("show", "1e-glossary-m:make-it-so", "--json")
    assert code == 0
    answer = json.loads(out)
    assert answer["text"] == "" and answer["source"] == "First Edition Glossary (letter M page)"
    assert answer["note"].startswith("The text of this entry is not in the bundled data")
    # Asked by its name, it is no answer: the card of that name is, and says so.
    code, out, _ = run("show", "Make It So", "--edition", "1E", "--json")
    answer = json.loads(out)
    assert code == 0 and answer["kind"] == "card" and answer["text"]
    assert "Make It So (First Edition Glossary" in answer["rulings_note"]
    assert "missing from the bundled copy" in answer["rulings_note"]


def test_partial_amendment_is_shown_with_the_entry_it_amends(run):
    code, out, _ = run("show", "skills", "--edition", "2E", "--json")
    answer = json.loads(out)
    assert code == 0 and answer["date"] == "2014-07-07"
    assert [a["action"] for a in answer["amendments"]] == ["rest unchanged"]
    assert (
        answer["base"]["source"]
        == "2E Rulebook text, via openCards 2E terms overview (community copy)"
    )
    assert answer["base"]["text"].startswith("A personnel “uses” one of his or her skills:")
    code, out, _ = run("show", "missions attempt", "--edition", "1E", "--json")
    assert json.loads(out)["base"]["id"] == "1e-glossary-m:mission-attempt"
