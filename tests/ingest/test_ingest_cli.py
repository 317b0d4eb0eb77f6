"""``rulings ingest FILE``: the preview contract (JSON shape, exit codes, one stderr line on
refusal), nothing changed without --apply, warnings accepted explicitly, metadata and ids."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.answers.service import Rulings
from bot.cli.main import main

HERE = Path(__file__).parent
DATA = HERE.parents[1] / "rulings_data"
# A real partial copy of the committee's 2E rulings feed (see corpus/README.md).
FEED = HERE / "corpus" / "2e-rulings-feed-trekcc-2016-2017.txt"


def _ingest(db: Path, *argv: str) -> int:
    return main(["--data", str(DATA), "--db", str(db), "ingest", *argv])


def _changes(db: Path) -> list[dict]:
    live = Rulings.open(db, DATA)
    try:
        return live.change_log(10)
    finally:
        live.close()


def test_json_preview_is_the_contract_and_changes_nothing(store_copy, capsys):
    assert _ingest(store_copy, str(FEED), "--json") == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out) == ["document", "entries", "warnings"]
    assert out["document"] == {
        "id": "2e-rulings-second-edition",
        "title": "Second Edition",
        "edition": "2E",  # printed: "Second Edition"
        "date": None,  # the feed prints no date of its own; each ruling has one
        "kind": "rulings feed",
        "official": True,
        "shape": "rulings-feed",
        "encoding": "utf-8",
    }
    assert [(e["title"], e["date"], e["status"], e["kind"]) for e in out["entries"]] == [
        ("Naming a Number", "2017-06-06", "new", "rule"),
        ("Examining a Card", "2016-11-02", "new", "rule"),
        ("Set Up", "2016-09-19", "new", "card ruling"),  # titled with a card's name
        ("One-Time Broadcast Abilities", "2016-09-19", "new", "rule"),
    ]
    assert out["entries"][0]["text"] == (
        "When a player names a number, he or she must choose zero or a positive integer."
    )
    keys = {"title", "date", "kind", "status", "text", "line", "confidence"}
    assert all(set(e) == keys for e in out["entries"])
    assert [e["confidence"] for e in out["entries"]] == [1.0] * 4  # a known shape: sure
    assert out["warnings"] == [
        {
            "line": 16,
            "message": "the last entry 'One-Time Broadcast Abilities' ends mid-sentence "
            '("e game to fulfill TFER\'s text. Karyn Arc"): the document looks cut off (partial)',
            "doubt": False,  # a note: --accept-warnings accepts it
        }
    ]
    assert _changes(store_copy) == []


def test_text_preview_lists_warnings_first_then_every_entry(store_copy, capsys):
    assert _ingest(store_copy, str(FEED)) == 0
    out = capsys.readouterr().out
    assert "shape rulings-feed · encoding utf-8" in out
    assert out.index("Warnings:") < out.index("Entries:")
    assert (
        "  new       Naming a Number (2017-06-06) — 16 words: When a player names a number, he or …"
        in out
    )
    assert out.rstrip().endswith("Nothing changed (preview only): add --apply to import it.")


def test_apply_over_warnings_takes_an_explicit_second_flag(store_copy, capsys):
    assert _ingest(store_copy, str(FEED), "--apply", "--json") == 2
    out, err = capsys.readouterr()
    err = err.strip().splitlines()
    assert len(err) == 1 and "--apply --accept-warnings" in err[0]
    refused = json.loads(out)  # the preview, to read the warnings in, and no change
    assert refused["warnings"] and refused["change"] is None
    assert _changes(store_copy) == []
    argv = ("--apply", "--accept-warnings", "--as", "mary", "--json")
    assert _ingest(store_copy, str(FEED), *argv) == 0
    applied = json.loads(capsys.readouterr().out)  # one document: the preview and its change
    assert applied["change"]["action"] == "import" and applied["change"]["id"] == 1
    assert applied["document"]["id"] == "2e-rulings-second-edition"
    live = Rulings.open(store_copy, DATA)
    try:
        answer, _ = live.show("Naming a Number", edition="2E")
        assert answer["date"] == "2017-06-06" and answer["text"].startswith("When a player names")
        assert live.change_log(1)[0]["moderator_name"] == "mary"
    finally:
        live.close()
    # The same document again is refused, naming the id it was imported as.
    assert _ingest(store_copy, str(FEED)) == 2
    assert "already imported as 2e-rulings-second-edition" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (
            b"Just a note to self.\n",
            "no entries found: this looks like a preamble or an article (prose with no entry "
            "titles the reader can find). Its first lines: > Just a note to self. Upload the page as it is published (saved as text or HTML) if it holds "
            "rulings, or ask a maintainer to add a shape for it. Accepted shapes: rulings-feed, "
            "rulings-feed-table,",
        ),
        (b"%PDF-1.4\n", "the PDF could not be read"),
        (b"", "the file is empty"),
    ],
)
def test_refused_documents_exit_2_with_one_line(store_copy, tmp_path, capsys, content, says):
    path = tmp_path / "doc.txt"
    path.write_bytes(content)
    assert _ingest(store_copy, str(path)) == 2
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert (
        len(err) == 1
        and says in err[0]
        and err[0].startswith("rulings ingest: not imported: doc.txt: ")
    )
    assert err[0].lower().count("imported") == 1  # said once, by the front end
    assert captured.out == ""


ARTICLE_WITH_HEADINGS = """Rules Update, May 2030

by A. Writer, Rules Manager

This month we looked at two questions that players asked at the last regional tournament.

Beaming Between Ships

A player may beam personnel between two of his ships at the same location, if both ships
have their shields down and the transporters are not disabled.

Cards Placed Under a Mission

A card placed under a mission is not in play, so it cannot be targeted by any card that
targets a card in play.
"""


def test_the_one_line_keeps_listed_heads_apart(store_copy, tmp_path, capsys):
    # The refusal lists by line the heads it did not take; on one line, each listed item
    # must still end where the next begins, or a moderator cannot tell the titles apart.
    path = tmp_path / "article.txt"
    path.write_text(ARTICLE_WITH_HEADINGS, encoding="utf-8")
    assert _ingest(store_copy, str(path), "--edition", "1E") == 2
    (err,) = capsys.readouterr().err.strip().splitlines()
    # the group's last item is closed too: it does not run into the sentence after it
    assert "line 7: Beaming Between Ships; line 12: Cards Placed Under a Mission. If" in err
    assert "> Rules Update, May 2030; > by A. Writer, Rules Manager; > This month" in err


def test_a_page_in_no_shape_says_what_to_do_before_the_shapes(store_copy, capsys):
    # a page in no known shape: its first lines are listed, then what a shape that tried
    # found, as a sentence of its own, then what to do, and last the shapes by name
    page = Path(__file__).parent / "fresh16" / "1e-blaze-of-glory-rules-supplement-yumpu.txt"
    assert _ingest(store_copy, str(page), "--edition", "1E") == 2
    (err,) = capsys.readouterr().err.strip().splitlines()
    said = [
        "@ www.germes.org. Tried as glossary-pdf-page: no entries found. Lines that open like",
        "line 26: BATTLE BRIDGE SIDE DECK.",
        "--draft-corrections NEW_FILE writes those lines as heads to choose from. Upload the page",
    ]
    assert all(part in err for part in said)
    assert [err.index(part) for part in said] == sorted(err.index(part) for part in said)
    assert err.endswith(
        "add a shape for it. Accepted shapes: rulings-feed, rulings-feed-table, "
        "single-ruling-page, card-page, decipher-current-rulings, glossary-table, "
        "glossary-pdf-page, faq, rule-history, questions, general, crd-2e-text, crd-markdown, "
        "opencards-terms."
    )


def test_the_edition_is_asked_for_where_the_document_is_silent(store_copy, tmp_path, capsys):
    path = tmp_path / "parasites.txt"
    path.write_text("Alien Parasites\n\nA different text about the parasites.\n")
    assert _ingest(store_copy, str(path)) == 2
    assert "give the edition (1E or 2E)" in capsys.readouterr().err


def test_an_undated_glossary_is_older_than_a_dated_crd(store_copy, tmp_path, capsys):
    path = tmp_path / "parasites.txt"
    path.write_text("Alien Parasites\n\nA different text about the parasites.\n")
    assert _ingest(store_copy, str(path), "--edition", "1E", "--kind", "glossary", "--json") == 0
    out = json.loads(capsys.readouterr().out)
    assert (
        out["document"]["date"] is None and out["document"]["id"] == "1e-glossary-alien-parasites"
    )
    assert out["entries"][0]["status"] == "older"  # the 1E CRD (2014-11-03) stays current
    # The same entry in a dated, later CRD would change it.
    args = ("--edition", "1E", "--date", "2030-01-01", "--kind", "current rulings", "--json")
    assert _ingest(store_copy, str(path), *args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["document"]["id"] == "1e-crd-2030-01-01"
    assert out["entries"][0]["status"] == "changed"


def test_two_documents_of_one_date_get_two_ids(store_copy, tmp_path, capsys):
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text("Alien Parasites\n\nOne text about the parasites, longer than a line.\n")
    second.write_text("Bajoran Wormhole\n\nAnother text, about the wormhole this time.\n")
    common = ("--edition", "1E", "--date", "2030-01-01", "--kind", "current rulings", "--apply")
    assert _ingest(store_copy, str(first), "--title", "Update A", *common) == 0
    assert _ingest(store_copy, str(second), "--title", "Update B", *common) == 0
    capsys.readouterr()
    live = Rulings.open(store_copy, DATA)
    try:
        ids = {r[0] for r in live.store.db.conn.execute("SELECT id FROM documents")}
    finally:
        live.close()
    assert {"1e-crd-2030-01-01", "1e-crd-2030-01-01-2"} <= ids


def test_unofficial_and_invalid_options(store_copy, tmp_path, capsys):
    path = tmp_path / "a.txt"
    path.write_text("Alien Parasites\n\nOne text about the parasites, longer than a line.\n")
    # A page of no fixed shape prints no kind: it is given (issue 38: never guessed).
    argv = ("--edition", "1E", "--kind", "glossary", "--unofficial", "--json")
    assert _ingest(store_copy, str(path), *argv) == 0
    document = json.loads(capsys.readouterr().out)["document"]
    assert document["official"] is False
    with pytest.raises(SystemExit) as exit_:
        _ingest(store_copy, str(path), "--edition", "3E")
    assert exit_.value.code == 2
    assert "edition must be 1E or 2E" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        _ingest(store_copy, str(path), "--kind", "newsletter")
    assert "document kind must be one of" in capsys.readouterr().err


def test_help_documents_the_second_step(capsys):
    with pytest.raises(SystemExit):
        main(["ingest", "--help"])
    out = capsys.readouterr().out
    assert "--accept-warnings" in out and "Nothing changes without --apply" in out


def test_per_entry_dates_survive_export_and_rebuild(store_copy, tmp_path, capsys):
    import shutil

    data = tmp_path / "rulings_data"
    shutil.copytree(DATA, data)
    base = ["--data", str(data), "--db", str(store_copy)]
    assert main([*base, "ingest", str(FEED), "--apply", "--accept-warnings"]) == 0
    assert main([*base, "export"]) == 0
    assert "wrote entries/2e-rulings-second-edition.yaml" in capsys.readouterr().out
    exported = (data / "entries" / "2e-rulings-second-edition.yaml").read_text(encoding="utf-8")
    assert "date: '2017-06-06'" in exported
    fresh = Rulings.open(tmp_path / "fresh.sqlite3", data)  # built from the YAML alone
    try:
        answer, _ = fresh.show("Naming a Number", edition="2E")
        assert answer["date"] == "2017-06-06"
    finally:
        fresh.close()
