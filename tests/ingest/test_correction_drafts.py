"""Issue 38: a doubted preview or a refused page is fixed from a drafted corrections file.

The draft holds what the reader proposes (each doubt's fixes, each listed line as a head),
every item commented out: submitted unread it fixes nothing, and the items chosen are read
back as any corrections are. The CLI writes it (``--draft-corrections``); Discord's **Fix…**
form opens with it (tests/commands/test_import_discord.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from bot.answers.drafts import NOTHING_CHOSEN, chosen, doubts_draft, drafted, heads_draft
from bot.answers.imports import read_upload
from bot.answers.moderators import NotRead
from bot.ingest.reader.corrections import CorrectionError, parse
from tests.ingest.test_head_corrections import RULEBOOK_PAGE, rulebook_ingest

HEADS = [(3, "Grappling Hooks"), (6, "Lantern Signals"), (9, "Ration Packs")]
# A real fan-wiki term page (tests/ingest/fresh*/): read with two doubts, one of them
# proposing two fixes ("if it is one: {line: 16, head: true}; if not: {line: 16, confirm …").
WIKI_PAGE = next(Path(__file__).parent.glob("*/1e-wiki-glossary-cumulative-wikia.txt"))


def _choose(draft: str, *items: str) -> str:
    """``draft`` with the "#" removed before each of ``items`` (as a moderator does)."""
    for item in items:
        assert f"#- {item}" in draft, item
        draft = draft.replace(f"#- {item}", f"- {item}")
    return draft


def test_a_refused_upload_carries_the_lines_it_lists_from_the_worker():
    with pytest.raises(NotRead) as refused:
        read_upload(RULEBOOK_PAGE.encode(), "rulebook.txt")
    assert refused.value.heads == HEADS
    for line, title in HEADS:  # the same lines the message lists
        assert f"line {line}: {title}" in str(refused.value)


def test_a_heads_draft_fixes_nothing_unread_and_reads_the_heads_chosen():
    draft = heads_draft(HEADS, filename="rulebook.txt")
    assert draft.startswith("# Corrections for rulebook.txt.\n")
    assert "\n#- {line: 6, head: Lantern Signals}\n" in draft
    assert drafted(draft)
    assert parse(draft) == []  # every item a comment
    with pytest.raises(CorrectionError, match=re.escape(NOTHING_CHOSEN)):
        chosen(draft)
    picked = chosen(
        _choose(draft, "{line: 3, head: Grappling Hooks}", "{line: 6, head: Lantern Signals}")
    )
    assert picked == [
        {"line": 3, "head": "Grappling Hooks"},
        {"line": 6, "head": "Lantern Signals"},
    ]
    read = read_upload(RULEBOOK_PAGE.encode(), "rulebook.txt", picked)
    assert [e.title for e in read.entries] == ["Grappling Hooks", "Lantern Signals"]


def test_a_doubts_draft_offers_each_doubts_own_fixes_and_choosing_them_settles_it(rulings):
    content = WIKI_PAGE.read_bytes()
    preview = rulings.preview_import(content, WIKI_PAGE.name, edition="1E", kind="glossary")
    assert [d["line"] for d in preview.doubts] == [1, 16]
    draft = doubts_draft(preview.doubts, filename=WIKI_PAGE.name)
    blocks = draft.split("# DOUBT at line ")[1:]
    assert [block.split(":")[0] for block in blocks] == ["1", "16"]
    assert blocks[0].count("\n#- ") == 1 and "#- {line: 1, confirm: true}" in blocks[0]
    assert (
        "#- {line: 16, head: true}  # this line opens an entry\n"
        "#- {line: 16, confirm: true}  # right as read\n"
    ) in blocks[1]
    picked = chosen(_choose(draft, "{line: 1, confirm: true}", "{line: 16, confirm: true}"))
    fixed = rulings.preview_import(
        content, WIKI_PAGE.name, edition="1E", kind="glossary", corrections=picked
    )
    assert fixed.doubts == []
    # The next draft starts from the corrections applied, as they were chosen.
    again = doubts_draft(fixed.doubts, picked, WIKI_PAGE.name)
    assert parse(again) == picked and not drafted(again)


def test_a_draft_fits_its_room_with_whole_doubts_and_says_how_many_are_left():
    doubts = [{"line": n, "message": f"entry 'Term {n}' is doubted " * 3} for n in range(1, 101)]
    draft = doubts_draft(doubts, limit=1500)
    assert len(draft) <= 1500
    shown = draft.count("# DOUBT at line ")
    assert 0 < shown < 100 and draft.count("\n#- {line: ") == shown
    assert draft.endswith(
        f"# … {100 - shown} more doubt(s) not drafted here: see the preview's listing.\n"
    )


def test_items_read_back_as_written_and_a_placeholder_is_never_offered():
    earlier = [{"line": 4, "title": "skills: modifying # 'two'"}, {"line": 9, "drop": True}]
    doubts = [
        {
            "line": 5,
            "message": "the page does not print the card's name: if that is the card, confirm "
            "it ({line: 5, confirm: true}); else give the title ({line: 5, title: …})",
        }
    ]
    draft = doubts_draft(doubts, earlier)
    assert parse(draft) == earlier
    assert "title: …" not in draft.split("# DOUBT")[1].split("\n", 1)[1]
    assert yaml.safe_load(_choose(draft, "{line: 5, confirm: true}"))[-1] == {
        "line": 5,
        "confirm": True,
    }


def test_the_cli_drafts_corrections_and_never_writes_over_a_file(store_copy, tmp_path, capsys):
    from bot.cli.main import main

    argv, _ = rulebook_ingest(store_copy, tmp_path)
    assert main(argv) == 2
    assert "--draft-corrections NEW_FILE writes those lines" in capsys.readouterr().err
    draft = tmp_path / "fixes.yaml"
    assert main([*argv, "--draft-corrections", str(draft)]) == 2
    assert f"wrote a corrections draft to {draft}" in capsys.readouterr().err
    written = draft.read_text(encoding="utf-8")
    assert written == heads_draft(HEADS, filename="rulebook.txt")
    # Run again into the same file: it may hold the moderator's edits, so it is kept.
    draft.write_text(_choose(written, "{line: 3, head: Grappling Hooks}"), encoding="utf-8")
    assert main([*argv, "--draft-corrections", str(draft)]) == 2
    assert "exists: not overwritten" in capsys.readouterr().err
    assert draft.read_text(encoding="utf-8") == _choose(written, "{line: 3, head: Grappling Hooks}")
    assert main([*argv, "--corrections", str(draft)]) == 0
    assert "new       Grappling Hooks" in capsys.readouterr().out
