"""The one answer layout (issue 35): what every front end shows, in which order, on which page."""

import re

import pytest

from bot.answers.layout import (
    ANSWER,
    BASE,
    BEST_MATCH_PART,
    CARD,
    PAGE_TARGET,
    answer_layout,
    first_reply,
    flat,
    pages,
    part_at,
    part_key,
)

REATTEMPT = "Can I reattempt a mission on the same turn?"
GLOSSARY = "First Edition Glossary (letter M page)"
CRD_1E = "First Edition Current Rulings Document (3 November 2014)"


@pytest.fixture(scope="module")
def answers(rulings):
    """Every version of every entry, answered by id (as a page button opens it)."""
    rows = list(rulings.store.db.query("SELECT id FROM entries"))
    return [rulings.show(row["id"])[0] for row in rows]


def test_the_part_that_answers_is_cited_under_its_own_document(rulings):
    # The quoted sentence is the Glossary's, which the CRD amends: it is shown under the
    # Glossary, not under the CRD's source, and the CRD's own text under the CRD.
    answer, _ = rulings.show(REATTEMPT)
    layout = answer_layout(answer)
    assert layout.lead is not None and "reattempt the mission" in layout.lead.text
    assert layout.lead.cite.source == GLOSSARY
    assert layout.lead.cite.status.startswith("amended")  # still in force, partly changed
    ruling, base = layout.rest[0], layout.rest[-1]
    assert ruling.cite.source == CRD_1E and ruling.cite.status is None
    assert base.role == BASE and base.cite.source == GLOSSARY
    # The same words as the history gives the Glossary's version.
    history = rulings.history(REATTEMPT)
    glossary = next(v for v in history["versions"] if v["source"] == GLOSSARY)
    assert base.cite.status == f"{glossary['label']}: {glossary['label_detail']}"


def test_the_part_that_answers_opens_the_first_page_then_the_rest(rulings):
    answer, _ = rulings.show(REATTEMPT)
    layout = answer_layout(answer)
    first = pages(layout)[0]
    assert first[0].block is layout.lead and first[0].block.role == ANSWER
    assert first[1].block is layout.rest[0] and first[1].first


def test_every_block_of_every_answer_names_its_document(answers):
    for answer in answers:
        for block in answer_layout(answer).blocks:
            assert block.cite is not None and block.cite.source, (answer["id"], block.heading)


def test_status_only_when_not_simply_current(answers):
    for answer in answers:
        layout = answer_layout(answer)
        own = [b for b in layout.rest if b.about == answer["id"]]
        plain = answer.get("label") in (None, "current") and not answer.get("retired")
        for block in own:
            assert (block.cite.status is None) == plain, (answer["id"], block.cite)


def test_editing_instructions_are_left_to_the_history(answers):
    for answer in answers:
        shown = flat(" ".join(b.text for b in answer_layout(answer).blocks))
        for instruction in (answer.get("in_force") or {}).get("instructions", []):
            if len(instruction) > 40:
                assert flat(instruction) not in shown, (answer["id"], instruction)


def test_pages_fit_a_phone_and_break_between_paragraphs_and_sentences(answers):
    ends = re.compile(r"[.!?:;)\"”’*]$")
    for answer in answers:
        laid = pages(answer_layout(answer))
        for number, page in enumerate(laid):
            size = sum(len(s.text) for s in page)
            if number:  # the first also holds the part that answers
                assert size <= PAGE_TARGET, (answer["id"], number, size)
            last = page[-1].text.rstrip()
            if number < len(laid) - 1 and laid[number + 1][0].block is page[-1].block:
                # Continued on the next page: this one ended at a paragraph or sentence.
                assert ends.search(last) or "\n" not in last, (answer["id"], number, last[-60:])


def test_pages_lose_no_word(answers):
    for answer in answers:
        layout = answer_layout(answer)
        for block in layout.rest:
            laid = " ".join(s.text for p in pages(layout) for s in p if s.block is block)
            assert flat(laid) == flat(block.text), answer["id"]


def test_a_part_key_opens_the_same_part_and_refuses_a_forged_one(rulings):
    answer, _ = rulings.show(REATTEMPT)
    part = answer["passage"]["text"]
    opened, _ = rulings.show(answer["id"])  # as a button opens it: by id, no question
    start, length, check = part_key(opened, part)
    assert part_at(opened, start, length, check) == flat(part)
    forged = "0000" if check != "0000" else "ffff"
    assert part_at(opened, start, length, forged) is None
    assert part_at(opened, start + 10**6, length, check) is None
    assert part_at(opened, -1, length, check) is None


def test_a_miss_shows_its_best_matches_parts_cited(rulings):
    answer, found = rulings.show("aborting missions")
    assert answer is None
    shown = first_reply(answer, found)
    assert 2 <= len(shown) <= 3
    for result, (about, text) in zip(found["results"], shown, strict=False):
        part = result["part"]
        assert about == result["id"] and len(text) <= BEST_MATCH_PART + 2
        assert part["source"] and part["at"] is not None
    first = found["results"][0]["part"]
    assert "may not be voluntarily aborted" in first["text"]
    assert first["source"] == GLOSSARY  # the sentence's own document


def test_a_card_answer_shows_its_rulings_sentence_then_its_text_once(rulings):
    answer, _ = rulings.show("Tama")
    layout = answer_layout(answer)
    assert layout.lead.heading == "Ruling: matching commander"
    assert "Tama" in layout.lead.text and layout.lead.cite.source == CRD_1E
    cards = [b for b in layout.blocks if b.role == CARD]
    assert len(cards) == 1
    assert not re.search(r"\[[A-Za-z]{2,5}\]|\{[^}]+\}", " ".join(b.text for b in layout.blocks))


@pytest.mark.parametrize(
    "question", [REATTEMPT, "Ptol cost reduction", "Can an Away Team abort a mission attempt?"]
)
def test_pages_after_the_first_are_the_same_however_the_ruling_was_reached(rulings, question):
    # A page button carries only the ruling's id: the part that answers (and the card the
    # question names) sit on the first page, and never move the pages after it.
    asked, _ = rulings.show(question)
    by_id, _ = rulings.show(asked["id"])
    laid = pages(answer_layout(asked))
    plain = pages(answer_layout(by_id))
    assert len(laid) == len(plain) > 1
    texts = [[(s.block.heading, s.text) for s in page] for page in laid[1:]]
    assert texts == [[(s.block.heading, s.text) for s in page] for page in plain[1:]]
