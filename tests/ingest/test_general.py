"""Issue 38: pages from sites the reader has never seen. Chrome is removed by its form, entry
heads are found by known titles and rules-document conventions, a page without rulings is
refused as such (never imported as an entry titled by its first line), and a doubt about
entry boundaries or titles blocks applying until the entries are corrected."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.answers.imports import EntriesInDoubt
from bot.answers.moderation import ModerationError
from bot.cli.main import main
from bot.ingest.reader import UnknownShape, general, read_document, read_text
from bot.ingest.reader.chrome import strip
from bot.ingest.reader.corrections import CorrectionError, apply

DATA = Path(__file__).resolve().parents[2] / "rulings_data"
# The committee site's menu line as a browser copies it (the line issue 38 quotes).
MENU = (
    "What's New Dashboard Articles Forums Chat Room Achievements Tournaments Player Map "
    "The Promenade Volunteers About Us Site Index"
)
# One ruling of the committee's 2E rulings page (shared/sources/examples), on its own page.
SET_UP = (
    "When this event's text is used on a random selection involving more than one personnel, "
    "the player using Set Up chooses one personnel to be included in the selection, then the "
    "remainder of that random selection occurs as usual."
)
EXAMPLE = "Example: Cliff attempts a mission with six personnel, and Sara commands Set Up."
FOOTER = (
    "Star Trek in all forms is copyright and trademark of CBS Paramount Studios which has no "
    "affiliation with trekcc.org or The Continuing Committee."
)


def _single_ruling_page(title_line: str) -> str:
    return (
        f"{MENU}\nSecond Edition\n\n{title_line}\n\n{SET_UP}\n\n{EXAMPLE}\n\n"
        f"Applicable Cards:\nSet Up\n\n{FOOTER}\n"
    )


@pytest.mark.parametrize("title_line", ["Set Up 2016-09-19", "Set Up\n2016-09-19"])
def test_the_committees_single_ruling_page_as_a_browser_copies_it_reads_exactly(title_line):
    document = read_text(_single_ruling_page(title_line))
    assert document.shape == "single-ruling-page"
    (entry,) = document.entries
    assert (entry.title, entry.date, entry.cards) == ("Set Up", "2016-09-19", ["Set Up"])
    assert entry.text == f"{SET_UP}\n\n{EXAMPLE}"
    # The menu, the edition heading and the footer are notes listed by line, never doubts.
    assert not [w for w in document.warnings if w.doubt]
    noted = " ".join(w.message for w in document.warnings)
    assert "page chrome before the ruling (2 lines" in noted
    assert "page chrome after the ruling (1 line:" in noted


def test_the_rulings_list_with_the_menu_line_first_reads_every_ruling():
    feed = Path(__file__).parent / "corpus" / "2e-rulings-feed-trekcc-2016-2017.txt"
    text = feed.read_text(encoding="utf-8")
    document = read_text(f"{MENU}\n{text}")
    assert document.shape == "rulings-feed"
    assert [e.title for e in document.entries][:3] == [
        "Naming a Number",
        "Examining a Card",
        "Set Up",
    ]
    assert MENU not in {e.title for e in document.entries}


@pytest.mark.parametrize(
    ("page", "looks_like"),
    [
        (f"{MENU}\nArticle Archives\nFirst EditionSecond EditionTribblesAll\n", "navigation"),
        (
            "Contents\n\nIntroduction\nTypes of Cards\nSetting Up\nPlaying the Game\nWinning\n"
            "Glossary\nIndex\n",
            "a table of contents",
        ),
        (  # short lines, but sentences: a thread, not a list of contents
            "ann · description · 2021-08-15\nThe card was not allowed.\nTurn 8 he battled me."
            "\nbo · comment · 2021-08-15\nThat is the implied target rule.\nThanks. Sorry about "
            "the mess.\n",
            "a preamble or an article",
        ),
        (  # a forum's printable thread: a subject line over each reply, dates, authors
            "Page 1 of 1\n\nDamage from dilemmas\n\nPosted: Thu Apr 08, 2021\nby ann\nHow many"
            " cards?\n\nRe: Damage from dilemmas\n\nPosted: Thu Apr 08, 2021\nby bo\nTwo.\n\n"
            "Re: Damage from dilemmas\n\nPosted: Fri Apr 09, 2021\nby ann\nThanks.\n",
            "a forum thread or a mail exchange",
        ),
        (
            "Rule Booklet Glossary (12/7/98)\n\nThis document is comprehensive; it contains all "
            "rules and rulings as of December 1998. We recommend that you discard all earlier "
            "rules documents and refer to this Glossary for all rules questions.\n",
            "a preamble",
        ),
    ],
    ids=["navigation", "contents", "thread", "forum-thread", "preamble"],
)
def test_a_page_without_rulings_is_refused_as_what_it_looks_like(page, looks_like):
    with pytest.raises(UnknownShape) as caught:
        read_text(page, filename="page.txt")
    assert str(caught.value).startswith(f"page.txt: no entries found: this looks like {looks_like}")


def test_a_first_short_line_is_never_made_an_entry_title():
    page = "header\n\nWelcome to our site. We collect strategy articles about the game here.\n"
    with pytest.raises(UnknownShape, match="no entries found"):
        read_text(page)


def test_chrome_is_removed_by_its_form_and_listed_by_line():
    page = (
        "A - B - C - D - E - F - G - top\n"
        "Bookmark and Share\n"
        "We use cookies to improve your experience\n"
        "Home | Rules | Cards | Forums\n"
        "Skills – A skill is anything in the skills box of a personnel card.\n"
    )
    cleaned = strip(page)
    assert [(n, kind) for n, kind, _ in cleaned.removed] == [
        (1, "letter index"),
        (2, "link"),
        (3, "link"),
        (4, "link list"),
    ]
    assert cleaned.text.split("\n")[4].startswith("Skills – A skill")


# A glossary letter page as openCards prints it: a title line, then its text.
GLOSSARY = (
    "Dabo\nWhile you may have two copies in play, you may not get probe results from both.\n\n"
    "Dal'Rok\nThis dilemma is an exception to the rule that dilemmas affect only the crew.\n\n"
    "Phantom Heading\nSome text under an unknown head that the project has never seen.\n"
)


def test_known_heads_confirm_the_page_and_an_unknown_head_alone_is_a_doubt():
    document = read_text(GLOSSARY)
    assert document.shape == "general"
    confidence = {e.title: e.confidence for e in document.entries}
    assert confidence["Dabo"] > 0.9 and confidence["Dal'Rok"] > 0.9
    # A title line of its own may be a heading (a post's title among card titles): even on a
    # page whose other title lines are known, an unknown one is a doubt.
    assert confidence["Phantom Heading"] < 0.6
    colons = read_text(
        "Dabo: While you may have two copies in play, you may not get probe results.\n\n"
        "Dal'Rok: This dilemma is an exception to the rule that dilemmas affect the crew.\n\n"
        "Phantom Heading: Some text under an unknown head that the project has never seen.\n"
    )
    assert colons.shape == "general"
    confidence = {e.title: e.confidence for e in colons.entries}
    assert 0.6 <= confidence["Phantom Heading"] < 0.9  # "title: text" confirmed by two known
    lone = read_text("Phantom Heading – Some text under an unknown head nobody has seen.\n")
    (entry,) = lone.entries
    assert entry.confidence < 0.6
    assert [w.line for w in lone.warnings if w.doubt] == [1]


def test_corrections_resolve_doubts_and_fix_entries():
    page = (
        "Lone Head – Text of an entry whose title nobody knows yet.\n\n"
        "Removing Things – More text of the Lone Head entry, printed under a sub-head.\n"
    )
    document = read_text(page)
    assert document.shape == "general"
    assert sorted(w.line for w in document.warnings if w.doubt) == [1, 3]
    fixed = apply(document, [{"line": 1, "title": "lone head"}, {"line": 3, "merge": True}])
    assert [e.title for e in fixed.entries] == ["lone head"]
    assert "Removing Things – More text" in fixed.entries[0].text
    assert not [w for w in fixed.warnings if w.doubt]
    with pytest.raises(CorrectionError, match="no entry starts there"):
        apply(document, [{"line": 2, "drop": True}])
    with pytest.raises(CorrectionError, match="say one of"):
        apply(document, [{"line": 1, "rename": "x"}])


INGEST = Path(__file__).parent


def test_correcting_an_entry_settles_the_doubts_raised_inside_it():
    # Decipher's FAQ (Klauser copy): a topic's text holds the next section's contents lines
    # ("Q: MOT THE BARBER"), each doubted at its own line, where no entry starts. A moderator
    # who confirms the entry had no way to settle them: a correction at those lines was refused.
    page = INGEST / "fresh20/1e-faq-decipher-personnel-klauser-faq15.txt"
    document = read_document(page.read_bytes(), page.name)
    holder = next(e for e in document.entries if e.title == "AU PERSONNEL")
    inside = [w.line for w in document.warnings if w.doubt and w.line > holder.line]
    assert inside and all(line not in {e.line for e in document.entries} for line in inside)
    fixed = apply(document, [{"line": holder.line, "confirm": True}])
    assert not [w for w in fixed.warnings if w.doubt]
    assert [e.text for e in fixed.entries] == [e.text for e in document.entries]


def test_a_doubt_outside_any_entry_is_confirmed_at_its_line():
    # a Czech rulebook page: text before the first entry holds a heading, doubted at its
    # line; a moderator who finds no entry there confirms the line as read
    page = INGEST / "fresh50/2e-rules-card-types-czech-voyager-cz.txt"
    document = read_document(page.read_bytes(), page.name)
    first = min(e.line for e in document.entries)
    outside = [w.line for w in document.warnings if w.doubt and w.line < first]
    assert outside
    # the doubt says how to settle it either way
    said = next(w.message for w in document.warnings if w.line == outside[0])
    assert f"{{line: {outside[0]}, confirm: true}}" in said and "head: true" in said
    fixed = apply(document, [{"line": line, "confirm": True} for line in outside])
    assert not [w for w in fixed.warnings if w.doubt and w.line < first]
    assert fixed.entries == document.entries
    # a line with neither an entry nor a doubt is still no line to correct
    with pytest.raises(CorrectionError, match="no entry starts there"):
        apply(document, [{"line": outside[0] + 1, "confirm": True}])


def test_a_doubt_blocks_applying_even_with_warnings_accepted(rulings):
    page = b"Phantom Heading - Some text under an unknown head nobody has seen.\n"
    preview = rulings.preview_import(page, "page.txt", edition="1E", kind="glossary")
    assert preview.doubts and preview.to_json()["warnings"][0]["doubt"] is True
    assert "Doubts block applying" in preview.as_text()
    with pytest.raises(EntriesInDoubt):
        rulings.apply_import(None, preview, accept_warnings=True)
    fixed = rulings.preview_import(
        page, "page.txt", edition="1E", kind="glossary", corrections=[{"line": 1, "confirm": True}]
    )
    assert not fixed.doubts and fixed.entries[0]["title"] == "Phantom Heading"


def test_cli_refuses_apply_on_doubts_and_applies_once_corrected(store_copy, tmp_path, capsys):
    page = tmp_path / "page.txt"
    page.write_text("Phantom Heading – Some text under an unknown head nobody has seen.\n")
    argv = ["--data", str(DATA), "--db", str(store_copy), "ingest", str(page), "--edition", "1E"]
    argv += ["--kind", "glossary"]
    assert main([*argv, "--apply", "--accept-warnings"]) == 2
    assert "doubt(s) about entry boundaries or titles" in capsys.readouterr().err
    fixes = tmp_path / "fixes.yaml"
    fixes.write_text("- {line: 1, confirm: true}\n")
    assert main([*argv, "--corrections", str(fixes), "--apply", "--accept-warnings"]) == 0
    assert "import" in capsys.readouterr().err


# A Current Rulings section whose line breaks were lost (as a PDF viewer copies it): card
# titles the project knows, a "*" marking new entries, a topic in lower case.
RUN_TOGETHER = (
    "Current Rulings are periodic updates to the Rulebook. Entries that are new are marked "
    "with an asterisk (*) before the topic. One Away Team member reads this first. RULINGS "
    "A Klingon Matter Whether someone dies or not, if you do not meet the requirements, all "
    "your other personnel are stopped. * Bustling With Activity Erratum: When you play a "
    "personnel at Mouth of the Wormhole, each player may discard a card from hand. "
    "commanding stopped personnel When your personnel are stopped, you do not lose command "
    "of those personnel. ability Aside from skills, any game text on a personnel is an "
    "ability. This includes keywords.\n"
)


def test_entries_run_together_are_found_by_titles_inside_the_text_with_a_doubt():
    document = read_text(RUN_TOGETHER)
    assert document.shape == "general"
    assert [(e.title, e.marked_new, e.line) for e in document.entries] == [
        ("A Klingon Matter", False, 1),
        ("Bustling With Activity", True, 1),
        ("commanding stopped personnel", False, 1),
        ("ability", False, 1),
    ]
    assert document.entries[1].text.startswith("Erratum: When you play a personnel")
    assert document.entries[1].text.endswith("may discard a card from hand.")
    # "One Away Team member…": a lone capitalised word before a capital is a subject.
    assert "One" not in [e.title for e in document.entries]
    (doubt,) = [w for w in document.warnings if w.doubt]
    assert doubt.line == 1 and "runs entries together" in doubt.message
    # Only the line as a whole can be confirmed; a title for one of its entries cannot be.
    fixed = apply(document, [{"line": 1, "confirm": True}])
    assert len(fixed.entries) == 4 and not [w for w in fixed.warnings if w.doubt]
    with pytest.raises(CorrectionError, match="holds several entries"):
        apply(document, [{"line": 1, "title": "A Klingon Matter"}])


def test_a_title_after_a_quote_closed_inside_brackets_opens_its_entry():
    # A PDF's entry may end inside a bracketed quote ('… are the same locations as "Beta
    # Stromgen.")'): the stop under the quote and the bracket still ends the sentence
    page = RUN_TOGETHER.replace(
        "all your other personnel are stopped. *",
        'all your other personnel are stopped (as the card says, "all of them.") *',
    ).replace(
        "of those personnel. ability", 'of those personnel ("stopped" is a state.\u201d) ability'
    )
    document = read_text(page)
    assert [e.title for e in document.entries] == [
        "A Klingon Matter",
        "Bustling With Activity",
        "commanding stopped personnel",
        "ability",
    ]
    assert document.entries[3].text.startswith("Aside from skills")


CUT_ABOVE = """{top}{first}

cannot: Game text which specifically forbids an action cannot be overridden except by game text which specified what forbidding text is being overridden.

Consume: If a card has the keyword "Consume: X", X is determined by the number of cards actually placed underneath the mission by this text.
"""


FIRST_LINES = [
    "brings to the game at least 60 cards: 5 different missions, (including at least two non "
    "headquarters missions) . The rest of the entry does not change.",
    "60 cards: 5 different missions, (including at least two non headquarters missions) . The "
    "rest of the entry does not change.",
]


@pytest.mark.parametrize("first", FIRST_LINES)
@pytest.mark.parametrize("top", ["", "Rules\n\n"])
def test_a_cut_copys_first_words_before_a_colon_are_a_doubt_not_a_term(top, first):
    # The copy is cut inside an entry: its first line, the end of that entry's sentence,
    # reads "words: text" as the terms under it do; the page's other heads confirm their
    # form, not that this line is one of them
    document = read_text(CUT_ABOVE.format(top=top, first=first))
    assert [e.title for e in document.entries][1:] == ["cannot", "Consume"]
    (doubt,) = [w for w in document.warnings if w.doubt]
    assert doubt.line == document.entries[0].line
    assert "may be the end of an entry cut off above it" in doubt.message


NUMBERED_CUT_ABOVE = """{top}4. Lose: Any effects that completely remove an aspect of a card without regard to amount occur. 5. Zero: Any number that is less than zero becomes zero.

42) naming a card: When an ability requires a player to name a card title within particular criteria, that ability will affect only personae of the named card that meet the criteria.

44) naming cards: When you name a card, you do so by card title only, not subtitle.

46) own: Gametext that affects "personnel you own" still does so even if those personnel are stopped or not in play.
"""


@pytest.mark.parametrize("top", ["", "Rules\n\n"])
def test_a_cut_copys_first_line_an_item_of_the_list_above_is_a_doubt(top):
    # "4. Lose:" is an item of a list inside the entry cut above, not one of the page's
    # numbered terms ("42) naming a card: …")
    document = read_text(NUMBERED_CUT_ABOVE.format(top=top))
    assert [e.title for e in document.entries] == ["Lose", "naming a card", "naming cards", "own"]
    (doubt,) = [w for w in document.warnings if w.doubt]
    assert doubt.line == document.entries[0].line
    assert "may be the end of an entry cut off above it" in doubt.message


def test_running_prose_with_one_known_title_is_not_split():
    prose = RUN_TOGETHER.replace("* Bustling With Activity", "* Something Else Entirely")
    prose = prose.replace("ability A", "so a")  # "A Klingon Matter" is the one known title
    with pytest.raises(UnknownShape, match="no entries found"):
        read_text(prose)


def test_a_how_to_heading_in_a_preamble_is_no_entry():
    # The Glossary's preamble (2014): "How to use the Glossary – …" heads a paragraph of
    # instructions, not an entry; the page holds no ruling and is refused as such.
    page = (
        "This document is comprehensive; it contains all rules and rulings as of 2014.\n\n"
        "How to use the Glossary – You do not need to read this document from cover to "
        "cover. Instead, use it as you would a dictionary, to learn as you go.\n"
    )
    with pytest.raises(UnknownShape, match="no entries found: this looks like a preamble"):
        read_text(page)


def test_a_page_of_no_known_shape_must_be_given_its_kind(rulings):
    page = b"Phantom Heading - Some text under an unknown head nobody has seen.\n"
    with pytest.raises(ModerationError, match="does not say what kind it is"):
        rulings.preview_import(page, "page.txt", edition="1E")


def test_a_known_title_in_capitals_run_into_its_text_is_a_head():
    # The Dilemma Resolution Guide as PDF text: "[S/P] A FAST SHIP WOULD BE NICEKills …".
    page = (
        "This guide primarily addresses normal dilemma encounters by non-Borg Away Teams.\n\n"
        "[S/P] A FAST SHIP WOULD BE NICEKills one personnel (opponent's choice). You may "
        "substitute a bodyguard.\n"
        "[P] CARD TITLEGame text of a dilemma nobody knows, run into its title.\n"
    )
    document = read_text(page)
    assert [(e.title, e.text.split("\n")[0][:20]) for e in document.entries] == [
        ("A FAST SHIP WOULD BE NICE", "Kills one personnel ")
    ]
    assert "CARD TITLEGame text" in document.entries[0].text  # unknown: not split, kept


def test_card_title_lines_of_2e_personnel_are_heads_with_their_subtitles():
    # A post of card rulings: each card's "Title, Subtitle" on a line of its own, then prose.
    page = (
        "A few card rulings before the tournament.\n\n"
        "Data, Tempted by Flesh\n"
        "Erratum: This personnel has the following attributes: Integrity 3 Cunning 10.\n\n"
        "Deanna Troi, Guide and Conscience\n"
        "Erratum: When an opponent discards, examines, or reveals a card in your hand, you "
        "may draw a card.\n"
    )
    document = read_text(page)
    assert [e.title for e in document.entries] == [
        "Data, Tempted by Flesh",
        "Deanna Troi, Guide and Conscience",
    ]
    assert not [w for w in document.warnings if w.doubt]


def test_long_entries_one_to_a_line_are_not_text_run_together():
    long_entries = "".join(
        f"{title} – " + "This personnel may do a thing when another thing happens. " * 8 + "\n\n"
        for title in ("Kira Nerys", "Admiral Riker")
    )
    document = read_text(long_entries)
    assert [e.title for e in document.entries] == ["Kira Nerys", "Admiral Riker"]
    assert not [w for w in document.warnings if w.doubt]


def test_text_that_opens_like_an_entry_but_was_not_read_as_one_is_a_doubt():
    page = (
        "Rulings translated by a fan, in Italian and English alike.\n\n"
        "Zero Sum - vale per tutte le carte in gioco, anche quelle rivelate.\n\n"
        "Kira Nerys\nThis personnel may do a thing when another thing happens in play.\n\n"
        "Admiral Riker\nThe preview version has the correct game text for all players.\n\n"
        "Hikaru K. Sulu, Helmsman\n\nThis personnel's text is read as printed on the card.\n\n"
        "Odd Topic - una regola scritta in minuscolo dopo il trattino.\n"
    )
    document = read_text(page)
    assert [e.title for e in document.entries] == ["Kira Nerys", "Admiral Riker"]
    doubts = {w.line: w.message for w in document.warnings if w.doubt}
    assert "opens like an entry ('Zero Sum')" in doubts[3]
    # Read into "Admiral Riker": an unknown card title with an initial, a lower-case entry.
    assert "'Hikaru K. Sulu, Helmsman' (line 11), 'Odd Topic' (line 15)" in doubts[8]
    assert "split them: {line: 11, head: true} for each" in doubts[8]


def test_a_glossary_letter_page_keeps_its_sub_letter_anchor_and_cross_references_apart():
    # openCards' Glossary letter pages: "ta" above the first "ta…" entry is an anchor, and a
    # title-and-text line "Tal Shiar See skills - using." has its cross reference as text.
    page = (
        "|\n|\nGlossary - T\n|\n|\n"
        "A - B - C - D - E - F - G - H - I - J - K - L - M - N - O - P - Q - R - S - T - top\n"
        "|\n|\nta - te - th\n|\n|\nta\ntactic A card type which comes into play only\n"
        "through a special Battle Bridge side deck.\n|\n|\n|\n"
        "Tal Shiar See skills - using.\n|\n|\n|\n"
        "Tantalus Field You may not use this artifact to kill a personnel aboard a cloaked ship.\n"
    )
    document = read_text(page)
    assert document.shape == "glossary-table"
    assert [(e.title, e.text[:22]) for e in document.entries] == [
        ("tactic", "A card type which come"),
        ("Tal Shiar", "See skills - using."),
        ("Tantalus Field", "You may not use this a"),
    ]


def test_one_cell_of_a_table_under_no_glossary_letter_is_an_article_not_an_entry():
    # A strategy column set in a layout table (openCards' "Useless Card Review"): its heading
    # cell over one paragraph is no Glossary entry: no letter heading or letter index stands
    # over it, and the project knows no such title.
    article = (
        "|\n|\n||\n|\nMot's Useless Card Review #12: Zorbulon Gadget |\n|\n|\n"
        "Of all the cards released that year, this one was the most ignored. Try stocking it "
        "in a side deck, and you may still catch somebody out.\n"
    )
    with pytest.raises(UnknownShape, match="an article set in a table"):
        read_text(article)
    # The same cell under a Glossary letter's heading and index is that letter's entry.
    letter = (
        "|\n|\n||\n|\nGlossary - Z |\n|\n"
        "A - B - C - D - E - F - G - H - I - J - K - L - M - N - O - P - Q - R - S - T - top |\n"
        "||\n|\nzorbulon gadget\nA card nobody knows, with rules text. It may be played.\n"
    )
    document = read_text(letter)
    assert [(e.title, e.text[:20]) for e in document.entries] == [
        ("zorbulon gadget", "A card nobody knows,")
    ]


def test_cells_under_no_glossary_letter_none_titled_as_known_are_an_article():
    # A Card Extra set in a layout table: its heading cell, then its paragraph's cell,
    # read as two cells of a glossary; no Glossary letter stands over them and the project
    # knows neither title
    article = (
        "|\n|\n||\n|\nCard Extra Zorbulon Gadget from A Writer (01/1998) |\n||\n|\n"
        'Another FC card with an array of "or\'s", but one with a variety of uses that should '
        "find a lot of play, eh? Let's have a look at its uses. First up is the least "
        "valuable. |\n||\n"
    )
    with pytest.raises(UnknownShape, match="an article set in a table") as refused:
        read_text(article)
    # the refusal says how to import it if it does hold rulings, and that way reads it
    assert "{line: 5, head: true}" in str(refused.value)
    named = read_document(article.encode(), heads={5: None})
    assert [e.title[:22] for e in named.entries] == ["Card Extra Zorbulon Ga"]
    # under a Glossary letter's heading the same cells are that letter's entries, doubted
    lettered = article.replace("|\n|\n||", "|\n|\nGlossary - C |\n||", 1)
    assert read_text(lettered).entries


def test_a_glossary_title_whose_end_is_guessed_is_a_doubt():
    # No separator between title and text: a title ending in a label ("Revised text:") or
    # cut before a word that usually starts text is a guess, which a moderator confirms.
    page = (
        "|\n|\nGlossary - T\n|\n|\n"
        "Zorbulon Gadget Revised text:\nA card nobody knows, with revised text.\n"
        "|\n|\n|\nZorbulon Widget Lore note:\nA label the reader has never seen.\n"
        "|\n|\n|\nTantalus Field You may not use this artifact to kill a cloaked personnel.\n"
    )
    document = read_text(page)
    assert document.shape == "glossary-table"
    assert [(w.line, w.message) for w in document.warnings if w.doubt] == [
        (6, "title guessed as 'Zorbulon Gadget': check where the text starts"),
        (11, "title guessed as 'Zorbulon Widget Lore note:': check where the text starts"),
        (16, "title guessed as 'Tantalus Field': check where the text starts"),
    ]


def test_a_rendered_glossary_page_with_titles_on_lines_of_their_own():
    # openCards' Glossary as a browser renders it: the title on its own line, then its text,
    # which may open with a label ("Revised text:") or be a cross reference only.
    page = (
        "Glossary - Q\n\nA - B - C - D - E - F - G - H - I - J - K - L - M - N - O - P - Q - top\n\n"
        "Q\nRevised text:\nUnless 2 Leadership and INTEGRITY > 60, Q allows opponent to "
        "rearrange spaceline locations.\n\n"
        "Q2\nSee Q, Q-related dilemma.\n\nback to top of page qa\n\n"
        "Qapla'!\nIn Federation Standard, the title, lore, and game text of this interrupt "
        "would read: SUCCESS.\n"
    )
    document = read_text(page)
    assert [(e.title, e.text.split("\n")[0]) for e in document.entries] == [
        ("Q", "Revised text:"),
        ("Q2", "See Q, Q-related dilemma."),
        (
            "Qapla'!",
            "In Federation Standard, the title, lore, and game text of this interrupt "
            "would read: SUCCESS.",
        ),
    ]


def test_every_title_line_in_a_letter_pages_anchored_section_is_confirmed_by_it():
    # a new letter page: the terms under "back to top of page mi" start as the anchor does,
    # each one (not only the first under it); one out of the section's letters is not
    page = (
        "Rulebook Glossary - M\n\nA - B - C - D - E - F - G - H - I - J - K - L - M - top\n\n"
        "ma - mi - mo\n\nback to top of page mi\n\n"
        "mirage field\nA ship inside a mirage field may not be targeted by a scan card.\n\n"
        "mis-seeds\nIf you and your opponent each seed an artifact under one mission, each has "
        "its normal effect.\n\n"
        "missing crew\nA ship with missing crew may not move until it is staffed again.\n\n"
        "back to top of page mo\n\n"
        "mooring beam\nA facility's mooring beam holds one ship docked at it in place.\n\n"
        "Credits\nThe rules above apply in every format of the game.\n"
    )
    document = read_text(page)
    titles = [e.title for e in document.entries]
    assert titles[:4] == ["mirage field", "mis-seeds", "missing crew", "mooring beam"]
    doubted = {w.line for w in document.warnings if w.doubt}
    anchored = [e for e in document.entries if e.title.startswith("m")]
    assert anchored and not any(e.line in doubted for e in anchored)
    # a title line outside the anchors' letters and out of the page's order: no entry read
    # without a doubt
    assert not any(e.title == "Credits" and e.line not in doubted for e in document.entries)


def test_a_table_glossary_title_ending_in_an_exclamation_is_split_as_a_guess():
    page = (
        "|\n|\nGlossary - Q\n|\n|\nqa - qc - qf\n|\n|\nqa\n"
        "Qapla'! In Federation Standard, the title would read: SUCCESS!\n|\n|\n|\nqc\n"
        "Q-Continuum side deck This side deck is made up of cards identified by the icon.\n"
    )
    document = read_text(page)
    assert [e.title for e in document.entries] == ["Qapla'!", "Q-Continuum side deck"]
    assert [w.line for w in document.warnings if w.doubt] == [10, 15]  # both ends guessed


# After the blind fresh4 run (third pass): a head the project knows is not enough alone.
POST = (
    "I have a question about this card and what the Glossary says about it, since I think "
    "the wording leaves a gap that nobody has asked about before.\n\n"
)
WAKE = (
    "Plays on opponent's Neutral Zone Region mission if they seeded 4 or more. End of "
    "opponent's next turn, all non-Borg ships there are returned to hand.\n"
)


def test_a_lone_known_title_after_a_posts_prose_is_a_doubt_not_an_entry_taken_on_trust():
    document = read_text(POST + "The Wake of the Borg\n" + WAKE)
    (entry,) = document.entries
    assert entry.title == "The Wake of the Borg"
    doubts = [w.message for w in document.warnings if w.doubt]
    assert any("the only head of its form on the page" in m for m in doubts)
    # The same title opening the upload is a moderator's one-ruling text: no doubt.
    alone = read_text("The Wake of the Borg\n" + WAKE)
    assert [e.title for e in alone.entries] == ["The Wake of the Borg"]
    assert not [w for w in alone.warnings if w.doubt]


def test_a_known_word_among_labels_printed_alike_is_a_label_and_the_page_is_refused():
    # "Lore" is a card; in a review it is one of the labels PICTURE:, LORE:, TREK SENSE:.
    review = (
        "PICTURE: A rather dark picture of the bridge, with the colours washed out.\n\n"
        "LORE: Good title, and a good explanation of the game text on the card.\n\n"
        "TREK SENSE: The idea behind this card makes sense for the episode it shows.\n"
    )
    with pytest.raises(UnknownShape, match="no entries found"):
        read_text(review)


def test_a_plain_text_double_hyphen_separates_title_and_text_as_a_dash_does():
    document = read_text(
        "TIMING -- This has been a sticky situation for some time that was never clarified.\n"
        "Interrupts are resolved first in, first out, between individual actions.\n"
    )
    (entry,) = document.entries
    assert entry.title == "TIMING"
    assert entry.text.startswith("This has been a sticky situation")


def test_known_card_heads_with_an_initial_or_two_cards_joined_and_a_label_under_them():
    # Card titles hold what sentences hold (an initial "T.", quotes); a ruling may name two
    # cards joined by "and"; "Interim erratum: …" under a title line labels that entry.
    document = read_text(
        "Sabotaged Transporter\n"
        "When more than one personnel could be affected, its owner may discard as many.\n\n"
        "James T. Kirk, Original Thinker\n"
        'Interim erratum: "When a dilemma is about to be revealed, you may return him."\n\n'
        "Weyoun, \"Defective\" Clone and Jean-Luc Picard, Worf's cha'DIch\n"
        "Both these personnel cannot replace a personnel in the same selection.\n"
    )
    assert [e.title for e in document.entries] == [
        "Sabotaged Transporter",
        "James T. Kirk, Original Thinker",
        "Weyoun, \"Defective\" Clone and Jean-Luc Picard, Worf's cha'DIch",
    ]
    assert document.entries[1].text.startswith("Interim erratum:")
    assert not [w for w in document.warnings if w.doubt]


def test_a_line_leading_into_a_list_is_no_title_even_when_its_word_is_known():
    document = read_text(
        "TIMING -- Interrupts are resolved first in, first out, between individual actions.\n"
        "Here are some examples of Interrupts you can play during an opponent's\n"
        "action:\n"
        "- You can play Hail on a ship that is about to move away from you.\n"
    )
    assert [e.title for e in document.entries] == ["TIMING"]


def test_dash_heads_whose_text_starts_in_lower_case_need_two_known_dash_heads():
    page = (
        "10 AND 01 - sono di genere maschile, come dice la carta stessa.\n\n"
        "ABANDON SHIP! - Si possono scegliere i personali che soddisfano le richieste.\n\n"
        "Abilità - un' abilità e qualsiasi cosa che appaia nel riquadro di una carta.\n"
    )
    document = read_text(page)
    assert [e.title for e in document.entries] == ["10 AND 01", "ABANDON SHIP!", "Abilità"]
    doubts = [w for w in document.warnings if w.doubt]
    # the unknown one is a doubt: lower-case text after a dash is a weak sign
    assert [w.line for w in doubts] == [5]
    # without two known dash heads, a sentence's dash is no head
    with pytest.raises(UnknownShape):
        read_text(
            "Abilità - un' abilità e qualsiasi cosa che appaia nel riquadro di una carta.\n\n"
            "Remember - you can always ask the committee about the cards you play.\n"
        )


# After the blind fresh5 run.
def test_the_single_ruling_page_with_its_links_run_together_above_an_undated_title():
    document = read_text(_single_ruling_page("RulingsPrint Rulings\n\nSet Up"))
    assert document.shape == "single-ruling-page"
    (entry,) = document.entries
    assert (entry.title, entry.cards) == ("Set Up", ["Set Up"])
    assert entry.text == f"{SET_UP}\n\n{EXAMPLE}"
    assert not [w for w in document.warnings if w.doubt]
    assert any("page links above the ruling's title" in w.message for w in document.warnings)


def test_a_current_rulings_head_broken_over_two_lines_is_joined_when_its_title_is_known():
    document = read_text(
        "Rulings Updated 02/26/01\n"
        "RULINGS\n"
        "35th Rule of Acquisition - On\n"
        "this event, playing a 35th Rule card nullifies all 34th Rule cards.\n"
        "* 62nd Rule of\n"
        "Acquisition - This event is nullified if you begin an\n"
        "attempt of the mission with <3 or >7 personnel.\n"
        "A Fast Ship Would Be Nice - When encountering this dilemma, you may not substitute.\n"
    )
    assert document.shape == "decipher-current-rulings"
    titles = [(e.title, e.marked_new) for e in document.entries]
    assert titles == [
        ("35th Rule of Acquisition", False),
        ("62nd Rule of Acquisition", True),
        ("A Fast Ship Would Be Nice", False),
    ]
    assert document.entries[1].text.startswith("This event is nullified")


def test_current_rulings_text_set_aside_that_opens_like_an_entry_is_a_doubt():
    document = read_text(
        "Rulings Updated 02/26/01\n"
        "These rulings are listed by the card or topic of\n"
        "Quark's Bar - This text opens like an entry but follows an unfinished line.\n"
        "A Fast Ship Would Be Nice - When encountering this dilemma, you may not substitute.\n"
    )
    assert [e.title for e in document.entries] == ["A Fast Ship Would Be Nice"]
    doubts = [w.message for w in document.warnings if w.doubt]
    assert any("opens like an entry" in m and "Quark's Bar" in m for m in doubts)


def test_a_dash_inside_a_known_card_title_is_no_separator_and_a_banner_is_no_entry():
    document = read_text(
        "Dual-Personnel cards – A dual-personnel card is one card that includes two personnel.\n"
        "Armus - Skin of Evil randomly selects one personnel to die. Select one card.\n"
    )
    assert [e.title for e in document.entries] == ["Dual-Personnel cards"]
    assert "Armus - Skin of Evil randomly selects" in document.entries[0].text
    # A document host's banner, "title - subtitle" on a line of its own, is no entry.
    with pytest.raises(UnknownShape):
        read_text(
            "1e star trek customizable card game - 21 the borg rules supplement\n\n"
            "The Borg differ from the other affiliations in a number of important ways.\n"
        )


# After the blind fresh6 run.
def test_a_table_scrapes_letter_heading_with_its_cells_closing_pipe_is_no_entry():
    document = read_text(
        "|\n|\n||\n|\nRulebook Glossary - D |\n|\n"
        "A - B - C - D - E - F - G - H - I - J - K - L - M - N - O - P - top |\n||\n|\n"
        "dilemmas Each of your personnel involved in a mission attempt faces a dilemma. |\n||\n|\n"
        "discarding You may look through your own discard pile at any time. |\n||\n"
    )
    assert [e.title for e in document.entries] == ["dilemmas", "discarding"]


def test_title_lines_with_an_annotation_and_dash_sub_headings_inside_their_entries():
    document = read_text(
        "ab - ac\n\n"
        "ability (updated by Current Rulings)\n"
        "Any action in the game text of a personnel is an ability.\n\n"
        "action\n"
        "Nearly everything that occurs during the game is some kind of action.\n\n"
        "Response actions - The game text of a response action always begins with when.\n"
    )
    assert [e.title for e in document.entries] == ["ability", "action"]
    assert "Response actions - The game text" in document.entries[1].text
    # the sub-heading stays in its entry, named by a doubt a moderator can confirm
    assert any(w.doubt and "Response actions" in w.message for w in document.warnings)


# After the blind fresh7 run.
def test_new_entry_stars_glued_to_the_sentence_before_split_the_line_and_repeat_a_title():
    document = read_text(
        "SIGNIFICANT RULINGS CHANGES* assimilation - Correction to assimilation of counterparts."
        "* Cybernetics - The existing Glossary entry is cancelled upon release.\n"
        "* gender - Borg drones are considered to have no gender.\n"
        "RULINGS* All Threes - When you play this interrupt, reveal the first three cards."
        "* assimilation - The first bullet in the section on assimilating counterparts.\n"
    )
    titles = [e.title for e in document.entries]
    assert titles == ["assimilation", "Cybernetics", "gender", "All Threes", "assimilation"]
    assert document.entries[1].text == "The existing Glossary entry is cancelled upon release."
    # one title twice: the duplicate-title doubt asks a moderator to check it
    assert any(w.doubt and "duplicate title" in w.message for w in document.warnings)


def test_a_page_of_bare_cross_references_is_an_index_of_terms_and_refused():
    index = (
        "TermTaken from\n10/20 rule - See Warp Speed.Glossary\n22nd century iconGlossary\n"
        "aboard - See present.Glossary\nacquired - See artifact.Glossary\nactionsGlossary\n"
        "another - See other.Glossary\nanyGlossary\n"
    )
    assert general.detect(index) == 0.0
    assert general.parse(index).entries == []
    with pytest.raises(UnknownShape):
        read_text(index)


# After the blind fresh8 run.
FLIP = "15.12.2012 Views\n\nSHOW MORE\n\n"


def _flip_book(*lines: str) -> str:
    return FLIP + "".join(f"{line}<br />\n\n" for line in lines)


_HIT = ("hit – If your ATTACK total is more than", "your DEFENSE total, you score a hit.")


def test_a_flip_book_title_broken_over_two_lines_is_joined_when_known_else_doubted():
    tail = _HIT
    known = read_text(
        _flip_book(
            "here (even if landed).",
            "His Honor, The High Sheriff Of",
            "Nottingham – When you choose the",
            "second option on this Q-icon dilemma.",
            *tail,
        )
    )
    assert [e.title for e in known.entries][:2] == [
        "His Honor, The High Sheriff Of Nottingham",
        "hit",
    ]
    unknown = read_text(
        _flip_book(
            "here (even if landed).",
            "Some Entry Nobody Knows Of",
            "Elsewhere – When you choose the",
            "second option on this dilemma.",
            *tail,
        )
    )
    assert [e.title for e in unknown.entries] == ["hit"]
    assert any(w.doubt and "opens like an entry" in w.message for w in unknown.warnings)


@pytest.mark.parametrize("where", ["first", "inside"])
def test_an_unknown_flip_book_title_broken_over_two_lines_is_one_doubt(where):
    # "(non-Borg) – You are…" opens like no title on its own: the two lines together do
    head = ("keeping a faction", "(non-Borg) – You are keeping it if you")
    above = ["exchange missions. (See missions", "– persona.)"]
    if where == "inside":
        above = ["Borg – The Borg are a collective of drones.", *above]
    document = read_text(_flip_book(*above, *head, "have played one of its cards.", *_HIT))
    assert [e.title for e in document.entries] == (["Borg"] if where == "inside" else []) + ["hit"]
    (doubt,) = [w for w in document.warnings if w.doubt]
    assert "'keeping a faction (non-Borg)'" in doubt.message


def test_a_card_list_of_title_colon_subtitle_and_rarity_invents_no_entry():
    with pytest.raises(UnknownShape):
        read_text(
            '"Rules of Engagement" Dream Expansion\n\nNew Rules\n'
            "Artifacts (6) Orb of Time DS9 Rare\n"
            "Vulcan Stone of Gol: Piece 1 TNG Rare\nVulcan Stone of Gol: Piece 2 TNG Rare\n"
            "Quark's Bar: Tongo DS9 Common\nPADD: Earth Guidebook DS9 Uncommon\n"
        )


@pytest.mark.parametrize(
    "titles",
    [
        # the Glossary's order is letter by letter: "Handshake" before "hand weapon"
        ["Hail", "Handshake", "hand weapon", "Harness Particle 010", "Hate Crime", "Hawk"],
        ["Walls Have Ears, The", "Warp Core Breach", "Warped Space", "Warp Speed"],
        ["Talosian Cage", "Tal Shiar", "Tama", "Tantalus Field"],
        # and word by word as before: "Warp Speed" before "Warped Space"
        ["Walls Have Ears, The", "Warp Core Breach", "Warp Speed", "Warped Space"],
    ],
)
def test_a_title_in_either_alphabetical_order_of_the_page_is_no_sub_heading(titles):
    from bot.ingest.reader.model import ReadEntry
    from bot.ingest.reader.page_checks import out_of_order

    entries = [ReadEntry(title=t, text="A ruling.", line=n) for n, t in enumerate(titles, 1)]
    assert out_of_order(entries) == []
    # a title out of both is still a doubt
    stray = ReadEntry(title="Zebra Stripes", text="A ruling.", line=99)
    (doubt,) = out_of_order([*entries[:2], stray, *entries[2:]])
    assert doubt.doubt and "'Zebra Stripes'" in doubt.message


def test_steps_out_of_sequence_in_several_places_are_one_doubt_on_the_page():
    from bot.ingest.reader.page_checks import steps_interleaved

    # lists that restart, lettered steps under numbered ones, a Roman "i.": in sequence
    whole = [
        "1. Draw.",
        "a. one",
        "b. two",
        "2. Play.",
        "a. three",
        "i. four",
        "1. Again.",
        "2. End.",
    ]
    assert steps_interleaved(whole) == []
    # a lettered step inside the preamble, a numbered one after another entry's text
    mixed = [
        "Preamble text.",
        "c. OP reveals the top card.",
        "abilities – Skills are not abilities.",
    ]
    mixed += ["4. Overcoming Dilemmas", "1. Begin.", "2. Go on."]
    (doubt,) = steps_interleaved(mixed)
    assert doubt.doubt and doubt.line == 2 and "(lines 2, 4)" in doubt.message
    assert doubt.message.endswith("({line: 2, confirm: true})")
    assert steps_interleaved(mixed[:3]) == []  # one step out of place is an entry's doubt
