"""The rule as in force: amendments applied to the entries they amend, and honest labels.

Pure functions first (no store), then the cases issue 12 names, on the bundled data.
"""

import pytest

from bot.answers.compose import (
    AMENDED,
    AS_PRINTED,
    BASE_MISSING,
    COMPOSED,
    CURRENT,
    OLDER_COPY,
    REPLACED,
    SIDE_BY_SIDE,
    SUPERSEDED,
    compose,
    looks_cut,
    split_amendment,
    version_label,
)
from bot.markup import markup_to_words

BASE = "\n\n".join(f"Old paragraph {n} says something." for n in range(1, 6))


def _amend(action, instruction):
    return {"action": action, "instruction": instruction}


def _compose(text, amendments, base=BASE):
    return compose(text, amendments, base, edition="1E", title="example")


# ------------------------------------------------------------------ pure: composing
def test_replace_entry_drops_the_instruction_and_marks_everything_new():
    done = _compose(
        "Replace this entry with the following:\n\nNew one.\n\nNew two.",
        [_amend("replace entry", "Replace this entry with the following:")],
    )
    assert done.mode == REPLACED
    assert done.text == "New one.\n\nNew two."
    assert all(p.changed for p in done.paragraphs)
    assert done.instructions == ["Replace this entry with the following:"]


def test_add_after_the_second_paragraph_lands_after_it():
    done = _compose(
        "Add the following after the second paragraph of this entry:\n\nInserted.",
        [_amend("add", "Add the following after the second paragraph of this entry:")],
    )
    assert done.mode == COMPOSED
    texts = [p.text for p in done.paragraphs]
    assert texts[2] == "Inserted." and len(texts) == 6
    assert [p.changed for p in done.paragraphs] == [False, False, True, False, False, False]


def test_add_then_replace_count_paragraphs_of_the_original_entry():
    add = "Add the following after the third paragraph of this entry:"
    replace = "Replace the fourth paragraph of this entry with the following:"
    done = _compose(
        f"{add}\n\nAdded.\n\n{replace}\n\nReplacement.",
        [_amend("add", add), _amend("replace part", replace)],
    )
    assert done.mode == COMPOSED
    assert [p.text for p in done.paragraphs] == [
        "Old paragraph 1 says something.",
        "Old paragraph 2 says something.",
        "Old paragraph 3 says something.",
        "Added.",
        "Replacement.",
        "Old paragraph 5 says something.",
    ]


def test_replace_two_paragraphs_and_delete_one():
    replace = "Replace the fourth and fifth paragraphs of this entry with the following:"
    done = _compose(f"{replace}\n\nBoth at once.", [_amend("replace part", replace)])
    assert [p.text for p in done.paragraphs][-1] == "Both at once."
    assert len(done.paragraphs) == 4
    delete = "Delete the second paragraph of this entry."
    done = _compose(delete, [_amend("delete part", delete)])
    assert "Old paragraph 2 says something." not in done.text
    assert len(done.paragraphs) == 4 and done.mode == COMPOSED


def test_a_paragraph_count_that_does_not_check_out_is_shown_side_by_side():
    replace = "Replace the eleventh paragraph of this entry with the following:"
    done = _compose(f"{replace}\n\nEleven.", [_amend("replace part", replace)])
    assert done.mode == SIDE_BY_SIDE
    assert done.text == "Eleven."
    assert "5 paragraphs" in done.note


def test_an_instruction_that_names_a_sentence_is_never_guessed():
    replace = "replace the first sentence of the final paragraph with the following:"
    done = _compose(f"{replace}\n\nNew sentence.", [_amend("replace part", replace)])
    assert done.mode == SIDE_BY_SIDE


def test_without_the_base_the_note_names_the_amended_entry():
    add = 'Add the following bullet point to the section "some additional notes"'
    done = compose(
        f"{add}\n\n- A bullet.", [_amend("add", add)], None, edition="1E", title="stopped"
    )
    assert done.mode == BASE_MISSING
    assert done.text == "- A bullet."
    assert '1E Glossary entry "stopped"' in done.note and "not in the bundled" in done.note


def test_a_new_opening_keeps_the_rest_of_the_base():
    base = "Intro as printed.\n\n- one\n- two\n\nThird paragraph.\n\nFourth paragraph."
    text = "A new first sentence.\n\nIntro as printed!\n\n- one\n- two, changed\n\nThe rest of the entry does not change."
    done = compose(
        text,
        [_amend("rest unchanged", "The rest of the entry does not change.")],
        base,
        edition="2E",
        title="x",
    )
    assert done.mode == COMPOSED
    assert [p.text for p in done.paragraphs] == [
        "A new first sentence.",
        "Intro as printed!",
        "- one\n- two, changed",
        "Third paragraph.",
        "Fourth paragraph.",
    ]
    assert [p.changed for p in done.paragraphs] == [True, False, True, False, False]
    assert "does not change" not in done.text


def test_split_amendment_keeps_the_rest_unchanged_line_as_provenance():
    steps, rest = split_amendment(
        "New text.\n\n*The rest of the entry does not change.*",
        [_amend("rest unchanged", "The rest of the entry does not change.")],
    )
    assert rest is True
    assert [s.body for s in steps] == [["New text."]]


def test_text_without_instructions_is_as_printed():
    done = _compose("Just a ruling.", [])
    assert done.mode == AS_PRINTED and done.text == "Just a ruling."


@pytest.mark.parametrize(
    ("text", "cut"),
    [
        ("This personnel retains her", True),
        ("Two need clarification:", True),
        ("A complete sentence.", False),
        ('He said "stop."', False),
        ("", False),
    ],
)
def test_looks_cut(text, cut):
    assert looks_cut(text) is cut


# ------------------------------------------------------------------ pure: labels
def _version(id_, text, amendments=None):
    return {"id": id_, "text": text, "amendments": amendments or []}


def test_labels():
    partial = _version("crd:x", "New.", [_amend("replace part", "Replace the first ...")])
    whole = _version("crd:x", "New.", [_amend("replace entry", "Replace this entry ...")])
    base = _version("glossary:x", "Old text of the entry.")
    kw = {"current_source": "CRD"}
    assert version_label(partial, partial, is_base=False, **kw)[0] == CURRENT
    assert version_label(base, partial, is_base=True, **kw)[0] == AMENDED
    assert version_label(base, whole, is_base=True, **kw)[0] == SUPERSEDED
    copy = _version("old-crd:x", "new")
    assert version_label(copy, partial, is_base=False, **kw)[0] == OLDER_COPY
    other = _version("old-crd:x", "Something else entirely, a different ruling.")
    assert version_label(other, partial, is_base=False, **kw)[0] == SUPERSEDED
    retired = {**base, "retired": True, "retired_reason": "wrong"}
    assert version_label(retired, partial, is_base=True, **kw) == ("retired", "wrong")


# ------------------------------------------------------------------ pure: markup
@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ("play {Ready Room Door} here", "play Ready Room Door here"),
        ("[Fajo] card", "Fajo Collection icon card"),
        ("a [Fed] personnel", "a Federation icon personnel"),
        ("You may download one  card.", "You may download one (icon) card."),
        ("the universal () icon", "the universal icon"),
        # as the 1E CRD's species entry reads with its icons lost
        (
            "All non- personnel with a Borg subcommand icon (, , or ) are Borg",
            "All non-(icon) personnel with a Borg subcommand icon (icon, icon, or icon) are Borg",
        ),
        (
            "(or have played) a non- personnel or ship",
            "(or have played) a non-(icon) personnel or ship",
        ),
        ("non-Borg personnel (see below)", "non-Borg personnel (see below)"),
        ("[S] and [P] icons", "S and P icons"),
        ("an [XYZ] thing", "an XYZ icon thing"),
        ("see [1e-darian-wallace]", "see [1e-darian-wallace]"),  # a card id, not an icon
    ],
)
def test_markup_to_words(raw, words):
    assert markup_to_words(raw) == words


# ------------------------------------------------------------------ bundled data
def _show(rulings, query, edition):
    answer, _ = rulings.show(query, edition=edition)
    assert answer is not None, query
    return answer


def test_matching_commander_1e_is_the_replacement_without_its_instruction(rulings):
    answer = _show(rulings, "matching commander", "1E")
    rule = answer["in_force"]
    assert rule["mode"] == REPLACED
    assert rule["text"].startswith("A personnel is a *matching commander* for a ship")
    assert "Replace this entry" not in rule["text"]
    assert rule["instructions"] == ["Replace this entry with the following:"]
    assert "base" not in answer and rule["sources"] == [answer["id"]]  # not "still in force"
    glossary = next(v for v in answer["versions"] if v["id"].startswith("1e-glossary-m:"))
    assert glossary["label"] == SUPERSEDED
    assert "First Edition Current Rulings Document" in glossary["label_detail"]
    assert glossary["damaged"] is True  # "Two need clarification:" and the list is lost


@pytest.mark.parametrize(
    ("query", "instruction", "base_paragraphs"),
    [
        ("mission attempt", "Add the following after the tenth paragraph of this entry:", 2),
        ("mission", "Replace the fourth and fifth paragraphs of this entry with the following:", 1),
    ],
)
def test_mission_entries_1e_cannot_be_placed_in_the_cut_glossary(
    rulings, query, instruction, base_paragraphs
):
    answer = _show(rulings, query, "1E")
    rule = answer["in_force"]
    # The scrape flattened the Glossary's paragraphs: composing would put text in the wrong
    # place, so both are shown with the reason.
    assert rule["mode"] == SIDE_BY_SIDE
    assert f"({base_paragraphs} paragraph" in rule["note"]
    assert instruction in rule["instructions"]
    assert not any(p["text"].startswith(("Add the", "Replace the")) for p in rule["paragraphs"])
    assert answer["base"]["id"].startswith("1e-glossary-m:")
    assert answer["base"]["label"] == AMENDED
    assert rule["sources"] == [answer["id"], answer["base"]["id"]]


@pytest.mark.parametrize(("query", "edition"), [("mission", "1E"), ("mission attempt", "1E"), ("mission II", "1E"), ("skills", "2E")])  # fmt: skip
def test_partly_amended_entries_are_labelled_amended_not_superseded(rulings, query, edition):
    answer = _show(rulings, query, edition)
    base = answer["base"]
    assert base["label"] == AMENDED
    by_id = {v["id"]: v for v in answer["versions"]}
    assert by_id[base["id"]]["label"] == AMENDED
    assert answer["source"] in base["label_detail"]


def test_skills_2e_composes_the_new_opening_with_the_rulebook_rest(rulings):
    answer = _show(rulings, "skills", "2E")
    rule = answer["in_force"]
    assert rule["mode"] == COMPOSED
    first = rule["paragraphs"][0]
    assert first["changed"] and first["text"].startswith("Whenever “all skills”")
    assert "The rest of the entry does not change" not in rule["text"]
    base_rest = answer["base"]["text"].split("\n\n")[-1]
    assert rule["paragraphs"][-1] == {"text": base_rest, "changed": False}


def test_species_2e_rulebook_text_stays_in_force_beside_the_crd_sentence(rulings):
    answer = _show(rulings, "species", "2E")
    assert (
        answer["text"] == "When a card becomes a different species, it loses its previous species."
    )
    assert answer["base"]["id"] == "2e-opencards-terms:species"
    assert answer["base"]["label"] == AMENDED


@pytest.mark.parametrize(
    ("query", "older"),
    [
        ("winning the game", "2e-crd-2011-10-05:winning-the-game"),
        ("building a deck", "2e-opencards-terms:building-a-deck"),
    ],
)
def test_an_earlier_copy_of_the_same_amendment_is_not_its_base(rulings, query, older):
    answer = _show(rulings, query, "2E")
    assert "base" not in answer
    assert answer["in_force"]["mode"] == BASE_MISSING
    assert f'2E Rulebook entry "{query}"' in answer["in_force"]["note"]
    assert {v["id"]: v["label"] for v in answer["versions"]}[older] == OLDER_COPY


def test_stopped_1e_says_the_amended_entry_is_not_bundled(rulings):
    answer = _show(rulings, "stopped", "1E")
    rule = answer["in_force"]
    assert rule["mode"] == BASE_MISSING
    assert '1E Glossary entry "stopped"' in rule["note"]
    assert rule["text"].startswith("- Your cards aboard your ship")
    assert rule["instructions"][0].startswith("Add the following bullet point")


def test_cut_glossary_text_carries_a_damaged_note(rulings):
    answer = _show(rulings, "Major Rakal", "1E")
    assert answer["text"] == "This personnel retains her"
    assert answer["damaged"] is True and "cut short" in answer["damaged_note"]
    whole = _show(rulings, "KTC", "2E")
    assert "damaged" not in whole


def test_history_carries_labels(rulings):
    data = rulings.history("mission", edition="1E")
    assert [v["label"] for v in data["versions"]] == [CURRENT, AMENDED]
