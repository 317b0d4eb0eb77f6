"""Passages, the game lexicon and the show answer's pointers (pure functions first)."""

import math

import pytest

from bot.normalize import holds_run, quoted_phrases, terms, terms_as_written
from bot.search import confidence, edition_lean, passages, question_terms
from bot.search.confidence import (
    FEATURES,
    NEGATIVE_MARGIN,
    UNQUOTED,
    Confidence,
    choose_threshold,
    fit_logistic,
    sigmoid,
    threshold_for,
)
from bot.search.passages import PassageIndex, split_passages, topic_passages


def test_terms_apply_the_lexicon_and_stems():
    assert terms("phasing") != terms("phase")  # "phase" must not pull "phasing"
    assert terms("space line") == terms("spaceline")
    assert terms("seeding") == terms("seeds") == terms("seed")
    assert terms("Can my AT beam down?") == terms("away team transport down")
    assert terms("what is at stake") == terms("stake")  # lower-case "at" is just a word
    assert terms("crew") == terms("personnel")


def test_the_words_a_question_is_wrapped_in_carry_no_topic():
    # No ruling says "someone" or "thanks": counted, they were weight no passage explains.
    asked = "Hi guys, I was wondering: can someone clarify the seed phase? Thanks"
    assert terms(asked) == terms("seed phase")
    assert terms("What makes someone the matching commander?") == terms("makes matching commander")


def test_split_passages_cuts_paragraphs_steps_bullets_and_examples():
    text = (
        "A rule in one paragraph.\n\n"
        "Steps:\n1. First step.\n2. Second step.\n\n"
        "Example: a worked example.\n\n"
        "Examples:\n\n- one example\n- another example"
    )
    got = split_passages(text)
    assert [body for body, _ in got] == [
        "A rule in one paragraph.",
        "Steps:",
        "1. First step.",
        "2. Second step.",
        "Example: a worked example.",
        "Examples:",
        "- one example",
        "- another example",
    ]
    assert [example for _, example in got] == [False] * 4 + [True] * 4


def _index():
    index = PassageIndex()
    rows = {
        "1e-mis-seeds": "You may seed a dilemma at a mission where it cannot be encountered.\n\n"
        "A mis-seeded card is discarded when revealed.",
        "1e-cloaking-and-phasing": "A ship may cloak or phase once per turn.",
        "1e-seed-phase": "During the seed phase players seed missions and dilemmas.",
    }
    for topic, text in rows.items():
        passages = topic_passages([{"topic": topic, "id": topic + ":1", "text": text}])
        index.set_topic(topic, topic.split("-", 1)[1].replace("-", " "), passages, "1E")
    return index


def test_bm25_finds_the_passage_and_compounds_meet():
    index = _index()
    hits = index.search("what happens to a misseeded card when revealed")
    assert hits[0].topic == "1e-mis-seeds"
    assert hits[0].passage.index == 1 and "discarded" in hits[0].passage.text
    assert 0 < hits[0].share <= 1
    assert index.search("phasing")[0].topic == "1e-cloaking-and-phasing"


def test_words_typed_apart_meet_the_closed_compound_the_passages_hold():
    # No lexicon entry joins "red shirt"; the passages say "redshirt", and a question's
    # parts of it are not words the answer fails to explain.
    index = PassageIndex()
    text = "You can redshirt: attempt a mission without its requirements."
    index.set_topic("1e-a", "attempt", topic_passages([{"topic": "1e-a", "id": "a", "text": text}]), "1E")  # fmt: skip
    index.set_topic("1e-b", "ship", topic_passages([{"topic": "1e-b", "id": "b", "text": "A blue ship."}]), "1E")  # fmt: skip
    assert index.query_terms("red shirts") == index.query_terms("redshirt") == terms("redshirt")
    assert index.search('"red shirts"')[0].share == index.search("redshirt")[0].share
    assert index.holds_phrase("1e-a", terms("red shirt"))
    assert not index.holds_phrase("1e-b", terms("red shirt"))
    # A part the passages also hold alone stays a term of its own.
    index.set_topic("1e-c", "alert", topic_passages([{"topic": "1e-c", "id": "c", "text": "Red alert."}]), "1E")  # fmt: skip
    assert index.query_terms("red shirts") == terms("red redshirt")


def test_an_editing_instruction_is_not_a_passage():
    # A CRD amendment says where its text goes; its import records the instructions.
    row = {
        "topic": "1e-x",
        "id": "1e-crd:x",
        "text": "Replace the first paragraph of this entry with the following:\n\n"
        "A ship may cloak once per turn.\n\n"
        "**The rest of the entry does not change.**",
        "amendments": '[{"action": "replace part", "instruction": "Replace the first '
        'paragraph of this entry with the following:"}, {"action": "rest unchanged", '
        '"instruction": "The rest of the entry does not change."}]',
    }
    assert [p.text for p in topic_passages([row])] == ["A ship may cloak once per turn."]
    # An instruction run into the text it introduces leaves the text.
    row["text"] = "Replace the first paragraph of this entry with the following: Cloak once."
    assert [p.text for p in topic_passages([row])] == ["Cloak once."]
    # Without recorded instructions, the text is all passages.
    assert len(topic_passages([{**row, "amendments": "[]"}])) == 1
    assert topic_passages([{**row, "amendments": "[]"}])[0].text.startswith("Replace")


def test_quoted_phrases_are_read_and_apostrophes_are_not_quotes():
    assert quoted_phrases('Dilemmas -- "Discard dilemma"') == [["discard", "dilemma"]]
    assert quoted_phrases("Is a ship's \u201cRange\u201d the same as 'Warp Speed'?") == [
        terms("Range"),
        terms("Warp Speed"),
    ]
    assert quoted_phrases("Major Rakal's guide to the players' ships") == []
    assert quoted_phrases('the player earns it." Does it stay?') == []  # an unbalanced quote
    assert quoted_phrases('a "the" word') == []  # nothing but stop words
    assert holds_run(["a", "b", "c"], ["b", "c"]) and not holds_run(["a", "b", "c"], ["a", "c"])


def test_a_topic_holds_a_quoted_phrase_only_with_its_words_together():
    index = _index()
    assert index.holds_phrase("1e-mis-seeds", terms("mis-seeded card"))
    assert index.holds_phrase("1e-seed-phase", terms("seed phase"))  # its title
    # Both words are in its text, but not together.
    assert not index.holds_phrase("1e-seed-phase", terms("seed dilemmas"))
    assert not index.holds_phrase("1e-seed-phase", terms("cloak"))


def test_a_topic_holds_words_together_only_within_one_passage():
    index = _index()
    assert index.holds_together("1e-mis-seeds", terms("mission dilemma"))  # any order
    assert index.holds_together("1e-mis-seeds", terms("revealed mis seeds"))  # with its title
    # Each word is in its text, but in two passages.
    assert not index.holds_together("1e-mis-seeds", terms("dilemma revealed"))
    assert not index.holds_together("1e-seed-phase", terms("cloak"))


def _unquoted_row(value: float, probability_weight: float = 1.0) -> list[float]:
    row = [0.0] * len(FEATURES)
    row[0] = probability_weight
    row[UNQUOTED] = value
    return row


def test_an_answer_holding_none_of_the_quoted_phrases_is_never_confident():
    sure = Confidence(tuple([5.0] + [0.0] * (len(FEATURES) - 1)), 0.9)
    assert sure.confident(_unquoted_row(0.0))
    assert sure.confident(_unquoted_row(0.5))  # one of two quoted phrases held
    assert not sure.confident(_unquoted_row(1.0))


def test_answers_the_quote_rule_keeps_unconfident_do_not_set_the_threshold():
    # Weights that score the wrong answers (which hold no quoted phrase) above the right
    # ones: if they counted, no threshold would keep precision and none would be confident.
    weights = [0.0] * len(FEATURES)
    weights[1] = 3.0  # the top answer's score
    right = [1.0, 0.5] + [0.0] * (len(FEATURES) - 2)
    wrong = [1.0, 0.9] + [0.0] * (len(FEATURES) - 2)
    wrong[UNQUOTED] = 1.0
    rows, labels = [right] * 20 + [wrong] * 5, [True] * 20 + [False] * 5
    threshold = threshold_for(weights, rows, labels)
    model = Confidence(tuple(weights), threshold)
    assert threshold < model.probability(wrong)
    assert model.confident(right) and not model.confident(wrong)


def test_answers_a_veto_keeps_unconfident_do_not_weigh_in_the_fit():
    # Vetoed answers whose score says the opposite of the others': the model never decides
    # them, so the weights are those of the answers left to it, number for number.
    left = [[1.0, k / 20] + [0.0] * (len(FEATURES) - 2) for k in range(20)]
    left_labels = [k >= 8 for k in range(20)]
    vetoed_rows = [[1.0, 0.95] + [0.0] * (len(FEATURES) - 2) for _ in range(6)]
    for row in vetoed_rows:
        row[UNQUOTED] = 1.0
    alone = confidence.fit(left, left_labels)
    both = confidence.fit(left + vetoed_rows, left_labels + [False] * 6)
    assert both.weights == alone.weights and both.threshold == alone.threshold


def test_a_word_the_card_texts_spell_is_not_corrected_into_another_word():
    # "Gorta" and "Vorta" are no English words: only the card texts say Gorta is a word.
    text = "During the seed phase, a Vorta rule that is overridden stays overridden."
    rows = {"1e-seed-phase": [{"topic": "1e-seed-phase", "id": "e", "text": text}]}
    titles = {"1e-seed-phase": "seed phase"}
    unaware = passages.build_passage_index(rows, titles)
    assert "vorta" in unaware.query_terms("what about Gorta")  # taken for a typo of "Vorta"
    known = question_terms.known_terms(["Gorta: a Ferengi. Overrides the rule."])
    index = passages.build_passage_index(rows, titles, lambda: known)
    assert "vorta" not in index.query_terms("what about Gorta")  # a word, not a typo
    assert "overridden" in index.query_terms("it overrides")  # another form of itself
    assert "seed" in index.query_terms("the seeed phase")  # a typo is still a typo


def test_only_a_participle_is_another_form_of_a_word_no_passage_holds():
    # The nearest indexed term that merely starts like the word is another word: these were
    # searched as persona, property, continue, mis-seed and the seed phase.
    text = (
        "A persona's property: continue the seed phase; a mis-seed is placed out-of-play. "
        "A rule that is overridden stays overridden."
    )
    rows = {"1e-seed-phase": [{"topic": "1e-seed-phase", "id": "e", "text": text}]}
    index = passages.build_passage_index(rows, {"1e-seed-phase": "seed phase"})
    for typed, other in (
        ("person", "persona"),
        ("proper", "property"),
        ("continuum", "continue"),
        ("miss", "mis-seed"),
        ("phased", "phase"),  # the lexicon keeps "phased" apart on purpose
    ):
        assert terms(other)[0] not in index.query_terms(f"the {typed} rule"), typed
    assert "overridden" in index.query_terms("it overrides")  # a participle is


def test_a_word_the_card_texts_spell_is_not_split_into_two_words():
    # Spacedock is a 1E card; the rulings say "space" and "dock" apart, not the card's word.
    text = "A ship may dock at a space station."
    rows = {"1e-docking": [{"topic": "1e-docking", "id": "e", "text": text}]}
    titles = {"1e-docking": "docking"}
    unaware = passages.build_passage_index(rows, titles)
    assert unaware.query_terms("spacedock") == terms("space dock")  # taken for two words
    known = question_terms.known_terms(["Spacedock: your ships may repair here."])
    index = passages.build_passage_index(rows, titles, lambda: known)
    assert index.query_terms("spacedock") == terms("spacedock")  # a word of its own


def test_an_english_word_is_not_corrected_into_another_word():
    text = "Spend a counter to seed a mission; a pending choice waits."
    rows = {"2e-cost": [{"topic": "2e-cost", "id": "e", "text": text}]}
    index = passages.build_passage_index(rows, {"2e-cost": "cost"})
    assert (
        "send" in question_terms.english_words() and "mision" not in question_terms.english_words()
    )
    # "send" and "speed" were "corrected" into "spend" and "seed", and found them.
    assert index.query_terms("send down one personnel") == ["send", "down", "personnel"]
    assert "seed" not in index.query_terms("warp speed")
    assert "mission" in index.query_terms("a mision attempt")  # a typo is still a typo
    assert "pend" in index.query_terms("pending")  # another form of itself
    # English words typed for another word are the lexicon's to map, not the typo step's.
    assert terms("loose points") == terms("lose points") and terms("can't") == terms("cannot")
    assert terms("stopped personal") == terms("stopped personnel")


def test_a_typo_is_matched_to_the_word_it_misspells_not_to_a_stem():
    # The stem of "condtional" ("condtion") is nearer "continu" than "condit"; the word
    # itself is nearest "conditional", which a stem would never show.
    text = "A conditional effect may continue. The infiltration icon is printed."
    rows = {"2e-conditional": [{"topic": "2e-conditional", "id": "e", "text": text}]}
    index = passages.build_passage_index(rows, {"2e-conditional": "conditional effects"})
    assert index.query_terms("condtional effect") == terms("conditional effect")
    assert index.query_terms("infiltraton icon") == terms("infiltration icon")
    # The words follow the topics: a word no passage holds any longer corrects nothing.
    index.set_topic(
        "2e-conditional",
        "effects",
        [passages.Passage("2e-conditional", "e", 0, "An effect may continue.", False)],
        "2E",
    )
    assert terms("conditional")[0] not in index.query_terms("condtional effect")
    # ... and a copy being edited (a moderator's change) learns the words it is given.
    copy = index.edited()
    copy.set_topic("2e-conditional", "conditional effects", [
        passages.Passage("2e-conditional", "e", 0, text, False)], "2E")  # fmt: skip
    assert copy.query_terms("a condtional effect") == terms("conditional effect")


def test_a_topic_can_be_replaced_alone():
    index = _index()
    assert index.search("players")[0].topic == "1e-seed-phase"
    index.set_topic("1e-seed-phase", "seed phase", [], "1E")  # emptied: only its title is left
    assert not index.search("players")
    assert index.search("seed phase")[0].topic == "1e-seed-phase"
    index.remove_topic("1e-mis-seeds")
    assert not index.search("revealed discarded")


# Weights that make an answer's probability sigmoid(its score), and a row of that score.
_BY_SCORE = [0.0, 1.0] + [0.0] * (len(FEATURES) - 2)


def _scored_row(score: float) -> list[float]:
    return [1.0, score] + [0.0] * (len(FEATURES) - 2)


def test_the_threshold_keeps_a_margin_above_questions_no_document_answers():
    right = [_scored_row(1.5 + k / 100) for k in range(1, 41)]
    unanswerable = [_scored_row(1.5), _scored_row(1.0)]
    rows, labels = right + unanswerable, [True] * 40 + [False, False]
    # As wrong answers, the likeliest sets the line just above itself; as questions no
    # document answers, a margin above it: held out, the next one may lie a little higher.
    plain = threshold_for(_BY_SCORE, rows, labels)
    guarded = threshold_for(_BY_SCORE, rows, labels, [False] * 40 + [True, True])
    assert sigmoid(1.5) < plain < sigmoid(1.5 + NEGATIVE_MARGIN) <= guarded
    assert guarded == pytest.approx(sigmoid(1.5 + NEGATIVE_MARGIN))
    # A negative a veto keeps unconfident sets no margin, however likely the model finds it.
    vetoed = _scored_row(3.0)
    vetoed[UNQUOTED] = 1.0
    rows, labels = right + [vetoed], [True] * 40 + [False]
    assert threshold_for(_BY_SCORE, rows, labels, [False] * 40 + [True]) == sigmoid(1.51)


def test_no_wrong_training_answer_lies_above_the_threshold_however_many_are_right():
    # 99.7 % would let one wrong answer in among 400 right ones: a fit on the whole table
    # would then draw a lower line than the k-fold fits it is measured by.
    right = [_scored_row(1.0 + k / 100) for k in range(400)]
    rows, labels = right + [_scored_row(2.005)], [True] * 400 + [False]
    assert threshold_for(_BY_SCORE, rows, labels) > sigmoid(2.005)


def test_a_wrong_training_answer_weighs_more_than_a_right_one_in_the_fit():
    # A weight is as many copies of the row, number for number.
    rows = [_scored_row(x / 10) for x in range(10)]
    labels = [x >= 4 and x != 6 for x in range(10)]
    copied = fit_logistic(rows + [rows[6]] * 2, labels + [False] * 2)
    weighed = fit_logistic(rows, labels, [3.0 if x == 6 else 1.0 for x in range(10)])
    assert weighed == pytest.approx(copied)
    # The model fitted for confidence weighs every answer that is not right (wrong, or to
    # a question no document answers) WRONG_WEIGHT times: the costly mistake counts more,
    # and a score like a wrong answer's is less likely right than the plain fit says.
    plain = Confidence(tuple(fit_logistic(rows, labels)), 1.0)
    model = confidence.fit(rows, labels)
    assert confidence.WRONG_WEIGHT > 1
    assert model.weights == tuple(
        fit_logistic(rows, labels, [1.0 if y else confidence.WRONG_WEIGHT for y in labels])
    )
    assert model.probability(rows[6]) < plain.probability(rows[6])


def test_logistic_fit_separates_and_the_threshold_keeps_precision():
    rows = [[1.0, x / 10] for x in range(10)]
    labels = [x >= 5 for x in range(10)]
    weights = fit_logistic(rows, labels)
    assert weights[1] > 0
    probabilities = [sigmoid(weights[0] + weights[1] * r[1]) for r in rows]
    threshold = choose_threshold(probabilities, labels, target=1.0)
    assert all(labels[i] for i, p in enumerate(probabilities) if p >= threshold)
    assert sum(p >= threshold for p in probabilities) >= 4


def test_show_points_at_the_answering_passage(rulings):
    answer, _ = rulings.show("can I seed a time location if its spaceline location is not in play")
    assert answer["title"].lower() == "time location"
    assert "corresponding spaceline location is in play" in answer["passage"]["text"]
    assert answer["passage"]["text"] in answer["text"]
    exact, _ = rulings.show("time location")
    assert "passage" not in exact  # asked by its name: the whole text answers


def test_a_sentence_another_text_already_says_is_left_out_even_run_into_the_next():
    amendment = (
        "You may seed multiple copies of missions with the universal () icon, but only one "
        "copy or version of a unique mission persona.\n\nMission cards are designed with "
        "relevant information facing both players."
    )
    # The base entry's paragraph the amendment replaced, its icon and break lost in the scrape.
    base = (
        "There are three kinds of missions: space, planet and dual. You may seed multiple "
        "copies of missions with the universal Mission cards are designed with relevant "
        "information facing both players. Cards may not be seeded twice."
    )
    said = passages.said_runs(amendment)
    assert passages.unsaid(base, said) == [
        "There are three kinds of missions: space, planet and dual.",
        "Cards may not be seeded twice.",
    ]
    assert passages.unsaid(amendment, said) == []
    assert passages.unsaid(base, passages.said_runs("Nothing alike.")) == [base]


def test_the_part_that_answers_is_not_a_sentence_the_amendment_replaced(rulings):
    # The 1E missions entry amends the Glossary's: the Glossary paragraph that ran "You may
    # seed multiple copies of missions with the universal" into the next sentence is the
    # one the amendment replaced.
    answer, _ = rulings.show("three kinds of missions space region", edition="1E")
    assert answer["id"] == "1e-crd-2014-11-03:missions"
    assert answer["passage"]["text"].startswith("There are three kinds of missions")
    assert "multiple copies" not in answer["passage"]["text"]
    assert "multiple copies" in answer["text"]  # said where it is in force


def test_a_suggested_amendment_points_at_the_part_of_its_base_that_fits(rulings):
    # Real questions the search is unsure of: the 1E mission attempt ruling is a CRD
    # amendment of the Glossary entry, which holds the sentences that answer them.
    asked = {
        'Can an Away Team "abort" a Mission before going through every dilemma at a certain '
        "location?": "may not be voluntarily aborted",
        "Space Missions -- Multiple Ships": "entire active crew of one undocked ship",
    }
    for question, answering in asked.items():
        answer, found = rulings.show(question)
        assert answer is None, question
        pointed = {r["id"]: (r.get("passage") or {}).get("text", "") for r in found["results"]}
        assert answering in pointed["1e-crd-2014-11-03:missions-attempt"], question


def test_a_step_title_is_pointed_out_with_its_first_sub_step(rulings):
    index = PassageIndex()
    text = "Steps:\n1. Draw Dilemmas\n   a. Draw them.\n   b. Stack them.\n2. Face each one."
    cut = topic_passages([{"topic": "2e-a", "id": "a", "text": text}])
    index.set_topic("2e-a", "attempt", cut, "2E")
    by_text = {p.text: p for p in cut}
    assert index.with_first_sub_step(by_text["1. Draw Dilemmas"]).text == (
        "1. Draw Dilemmas a. Draw them."
    )
    for alone in ("2. Face each one.", "b. Stack them.", "Steps:"):  # a whole step, ...
        assert index.with_first_sub_step(by_text[alone]) is by_text[alone]
    # The real 2E timing list: "4. Overcoming Dilemmas" alone says only where the rule is.
    answer, found = rulings.show('Dilemmas -- "Overcoming"')
    parts = [answer["passage"]["text"]] if answer and answer.get("passage") else []
    parts += [r["passage"]["text"] for r in found.get("results", []) if r.get("passage")]
    assert any(part.startswith("4. Overcoming Dilemmas a. ") for part in parts), parts


def test_a_ruling_asked_for_by_its_name_in_other_words_has_no_part_pointed_out(rulings):
    # Every passage holds the title alike: the shortest (': "Oooh." Draw one card.') won.
    for query in (
        "Visit Cochrain Memorial",
        "matchng comander",
        "how does matching commander work",
    ):
        answer, _ = rulings.show(query, edition="1E")
        assert answer and "passage" not in answer, query
    answer, _ = rulings.show("matching commander of a ship", edition="1E")
    assert "ship" in answer["passage"]["text"]  # a word beside the name: its part


def test_a_card_without_rulings_is_still_an_answer(rulings):
    answer, _ = rulings.show("Kruge, Instinctive Commander")
    assert answer["kind"] == "card" and answer["id"] == "2e-kruge-instinctive-commander"
    assert answer["card"]["text"] and answer["rulings_note"]
    again, _ = rulings.show(answer["id"])  # buttons link by id
    assert again["id"] == answer["id"]


def test_a_card_named_in_rulings_lists_them(rulings):
    answer, _ = rulings.show("Quash Conspiracy")
    assert answer["kind"] == "card"
    assert any("mission" in r["title"].lower() for r in answer["related"])


def test_both_editions_are_offered_without_an_edition(rulings):
    answer, _ = rulings.show("Mot the Barber")
    assert {e["edition"] for e in answer["editions"]} == {"1E", "2E"}
    only, _ = rulings.show("Mot the Barber", edition="2E")
    assert only["edition"] == "2E" and "editions" not in only


def _hit(topic, title, edition, score):
    from bot.search.hits import Hit, Target

    return Hit(Target(topic, topic, title, edition, "rule", "doc", None), score, "title", title)


def test_the_other_edition_is_offered_when_it_matches_as_well():
    from bot.search.hits import SearchResult

    def result(*hits):
        return SearchResult("q", False, list(hits))

    # The same title in both editions: both, however the passages weigh them.
    same = result(_hit("2e-s", "stopped", "2E", 0.92), _hit("1e-s", "Stopped", "1E", 0.30))
    assert same.other_edition(None).target.topic == "1e-s"
    assert same.other_edition("2E") is None  # an edition asked: no second guess
    # Different titles: only when the other edition's score comes close (in log-odds).
    close = result(_hit("2e-a", "attempting missions", "2E", 0.60), _hit("x", "x", "2E", 0.5),
                   _hit("1e-m", "mission attempt", "1E", 0.45))  # fmt: skip
    assert close.other_edition(None).target.topic == "1e-m"
    far = result(_hit("2e-a", "attempting missions", "2E", 0.95),
                 _hit("1e-m", "mission attempt", "1E", 0.20))  # fmt: skip
    assert far.other_edition(None) is None


def test_an_answer_offering_both_editions_stands_for_both(rulings):
    ranked = rulings.ranked("stopped")
    first, *_ = ranked.ids
    other = "1e-stopped" if first == "2e-stopped" else "2e-stopped"
    assert ranked.right([other]) and ranked.right([first])
    assert not rulings.ranked("stopped", edition="2E").right(["1e-stopped"])


def test_a_quoted_phrase_the_answer_does_not_hold_leaves_it_unconfident(rulings):
    # A 1994 FAQ heading: the best ruling is about discarding cards, not the quoted
    # "Discard dilemma" instruction, and only the quotes tell the two apart.
    plain = rulings.ranked("Dilemmas -- Discard dilemma")
    quoted = rulings.ranked('Dilemmas -- "Discard dilemma"')
    assert plain.ids[0] == quoted.ids[0] == "2e-discarding"
    assert plain.features[UNQUOTED] == 0.0 and quoted.features[UNQUOTED] == 1.0
    assert not quoted.confident
    # Quoting words the answer holds together costs nothing.
    assert rulings.ranked('what is "seed phase"').confident


def test_a_rules_term_typed_exactly_stays_the_rules_term(rulings):
    answer, _ = rulings.show("matching commander")
    assert answer["kind"] != "card" and answer["title"] == "matching commander"


def test_a_long_paragraph_is_cut_into_windows_of_whole_sentences():
    from bot.search.passages import WINDOW_WORDS, sentences, windows

    assert sentences('Use it, e.g. on Mr. Worf. Then stop. "Quoted" ends here.') == [
        "Use it, e.g. on Mr. Worf.",
        "Then stop.",
        '"Quoted" ends here.',
    ]
    sentence = "This sentence has exactly ten words in it, you see. "
    wall = sentence * 20
    cut = windows(wall.strip())
    assert len(cut) > 1 and " ".join(cut) == wall.strip()
    assert all(len(w.split()) <= WINDOW_WORDS for w in cut)
    assert windows("Short paragraph.") == ["Short paragraph."]


def test_a_glossary_wall_of_text_points_at_the_sentence_that_answers(rulings):
    """The 1E glossary lost its paragraph breaks: the answer is one sentence of a wall."""
    answer, _ = rulings.show("can a mission attempt be voluntarily aborted", edition="1E")
    assert answer["title"].lower().startswith("mission")
    assert "may not be voluntarily aborted" in answer["passage"]["text"]
    assert len(answer["passage"]["text"].split()) <= 120


def test_a_misspelt_card_name_answers_with_the_card(rulings):
    answer, _ = rulings.show("Atmosperic Ionization")
    assert answer["kind"] == "card" and answer["title"] == "Atmospheric Ionization"
    ruling, _ = rulings.show("matchng comander")  # a ruling's misspelt name stays the ruling
    assert ruling["kind"] != "card" and ruling["title"] == "matching commander"


def test_the_service_leans_with_the_bundled_cards(rulings):
    index = rulings.index.passages
    counted = {
        row["edition"]: row["n"]
        for row in rulings.store.db.query("SELECT edition, count(*) AS n FROM cards GROUP BY 1")
    }
    assert index.edition_lean.card_vocabulary().cards == (counted["1E"], counted["2E"])
    # A Q-Continuum side deck is 1E's: the rules barely say so, its cards do.
    assert index.lean("Q-Continuum side deck") > 0.5


def test_a_word_only_one_edition_uses_steers_among_shared_words():
    index = _passage_index(
        {
            "1e-a": ("1E", "Your Away Team may attempt the mission."),
            "2e-a": ("2E", "Your personnel may attempt the mission."),
            "1e-b": ("1E", "The ship and its crew."),
            "2e-b": ("2E", "The ship and its crew."),
        }
    )
    shared = index.lean("may the crew attempt the mission from the ship")
    steered = index.lean("may the away team crew attempt the mission from the ship")
    assert abs(shared) < 0.05 and steered > 0.1


def test_a_word_leans_to_its_edition_as_written_not_as_the_lexicon_folds_it():
    # The lexicon searches "crew" as "personnel" (its synonym), but 1E says crew and 2E
    # personnel: "my crew" is a 1E question.
    index = _passage_index(
        {
            "1e-a": ("1E", "The crew may attempt the mission."),
            "2e-a": ("2E", "Your personnel may attempt the mission."),
            "2e-b": ("2E", "Personnel are stopped."),
        }
    )
    assert index.query_terms("crew") == index.query_terms("personnel")  # searched alike
    assert index.lean("can my crew attempt") > 0 > index.lean("can my personnel attempt")


def test_the_cards_of_an_edition_steer_where_its_rulings_share_the_words():
    # Both editions' rules speak of away teams; 1E prints "Away Team" on many cards, 2E on
    # few: the cards say whose question it is.
    index = _passage_index(
        {
            "1e-a": ("1E", "An Away Team may attempt a planet mission."),
            "2e-a": ("2E", "An Away Team may attempt a planet mission."),
        }
    )
    question = "can my away team attempt"
    assert abs(index.lean(question)) < 0.05
    cards = [("1E", "Away Team member. Attempt a mission.")] * 30 + [("1E", "Ship.")] * 70
    cards += [("2E", "Attempt a mission.")] * 30 + [("2E", "Away Team member.")] * 2
    index.edition_lean.card_vocabulary = lambda: edition_lean.edition_vocabulary(tuple(cards))
    assert index.lean(question) > 0.1
    assert index.lean("attempt mission") < 0  # 30 of 32 2E cards, 30 of 100 1E cards


def test_a_card_word_counts_by_its_share_of_each_editions_cards():
    # 1E's list is longer: the same share of each edition's cards leans to neither.
    cards = [("1E", "Crew.")] * 100 + [("1E", "Ship.")] * 900
    cards += [("2E", "Crew.")] * 20 + [("2E", "Ship.")] * 180
    vocabulary = edition_lean.edition_vocabulary(tuple(cards + [("", "Crew of no edition.")]))
    assert vocabulary.cards == (1000, 200)
    evidence, weight = vocabulary.evidence(terms_as_written("crew")[1][0])
    assert weight > 0 and abs(evidence) < 0.05 * weight
    assert vocabulary.evidence("starbase") is None


# The bounds that keep a question's work the same at 100,000 entries (bot/search/passages.py).


def _passage_index(texts: dict[str, tuple[str, str]]) -> PassageIndex:
    index = PassageIndex()
    for topic, (edition, text) in texts.items():
        rows = [{"topic": topic, "id": topic + ":1", "text": text}]
        index.set_topic(topic, topic, topic_passages(rows), edition)
    return index


def _lean_by_walking(index: PassageIndex, text: str) -> float:
    """``lean`` computed without the kept counts: every live passage's words walked."""
    held: list[tuple[str | None, set[str]]] = []
    for passage in index._passages:
        if passage is not None:
            title = terms_as_written(passage.topic)[1]  # these tests title a topic by its name
            written = set(terms_as_written(passage.text)[1]) | set(title)
            held.append((index._editions.get(passage.topic), written))
    total = weight = 0.0
    for term in dict.fromkeys(terms_as_written(text)[1]):
        editions = [edition for edition, written in held if term in written]
        first, second = editions.count("1E"), editions.count("2E")
        if not first + second:
            continue
        idf = math.log(1 + (len(held) - first - second + 0.5) / (first + second + 0.5))
        total += idf * ((first + 0.5) / (first + second + 1) - 0.5) * 2
        weight += idf
    return math.tanh(total / edition_lean.LEAN_SCALE) if weight else 0.0


def test_the_edition_lean_is_kept_as_topics_come_and_go_and_matches_a_walk():
    index = _passage_index(
        {
            "a": ("1E", "A ship may cloak once per turn.\n\nA cloaked ship cannot attack."),
            "b": ("2E", "A ship with range may move.\n\nCounters pay for a ship."),
            "c": ("1E", "Seed a dilemma under a mission.\n\nA ship is not a dilemma."),
            "d": ("", "A ship of no edition."),
        }
    )
    questions = ["can my ship cloak", "counters for a dilemma", "ship mission", "range"]
    before = [index.lean(q) for q in questions]
    assert before == [_lean_by_walking(index, q) for q in questions]
    assert before[0] > 0  # cloaking is a 1E word here
    edited = index.edited()
    edited.set_topic("a", "a", topic_passages([{"topic": "a", "id": "a:2", "text": "Pay counters for a ship."}]), "2E")  # fmt: skip
    edited.remove_topic("c")
    for q in questions:
        assert edited.lean(q) == _lean_by_walking(edited, q)
    assert [index.lean(q) for q in questions] == before  # the copy's changes stay its own
    assert edited.lean("dilemma") == 0.0  # its only topic is gone


def test_a_common_word_alone_is_walked_only_so_far(monkeypatch):
    monkeypatch.setattr(passages, "POSTING_CAP", 5)
    index = _passage_index({f"t{i:02}": ("1E", f"A ship numbered {i}.") for i in range(12)})
    assert len(index.search("ship", limit=20)) == 5  # of 12: the walk stops at the cap
    # Narrow words are still walked whole.
    assert [h.topic for h in index.search("numbered ship 7")][:1] == ["t07"]


def test_words_are_stemmed_alike_from_many_threads_at_once():
    # Lookups run in worker threads, and a Snowball stemmer keeps its word in itself: one
    # stemmer shared by threads gave wrong stems or an IndexError inside snowballstemmer.
    import threading

    import snowballstemmer

    from bot.normalize import stem

    words = [f"{prefix}{i}ings" for i in range(1500) for prefix in ("qrunn", "zattempt")]
    reference = snowballstemmer.stemmer("english")
    expected = {w: reference.stemWord(w) for w in words}
    found: dict[str, str] = {}
    errors: list[BaseException] = []

    def work(part: list[str]) -> None:
        try:
            for word in part:
                found[word] = stem(word)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(words[i::6],)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors and found == expected
