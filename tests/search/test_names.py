"""Name matching: misspelt plurals, and a query naming two rulings by their titles."""

from bot.normalize import normalize, terms, unfolded
from bot.search import confidence
from bot.search.build import named_subtitles
from bot.search.confidence import FEATURES, TWO_TITLES, vetoed
from bot.search.hits import Target
from bot.search.likeness import content_words
from bot.search.passages import build_passage_index
from tests.search.helpers import index_of, titled_index, titled_index_with_passages


def test_a_folded_word_unfolds_to_the_plurals_that_fold_to_it():
    assert normalize("species") == "specy"  # plurals fold on both sides of a comparison
    assert "species" in unfolded("specy")
    assert unfolded("mission") == ("mission", "missions")
    assert "boxes" in unfolded("box")
    assert all(normalize(form) == "dilemma" for form in unfolded("dilemma"))


def test_a_misspelt_plural_title_is_found_by_its_name():
    index = titled_index("species", "special equipment")
    # "speceis" is a typo of "species", far from its fold "specy": it was found by no name.
    top = index.search("speceis").hits[0]
    assert top.target.title == "species" and top.via == "typo"


def test_a_query_naming_two_rulings_by_their_whole_titles_is_marked():
    index = titled_index("Major Rakal", "dilemma resolution", "dilemma", "seed phase")
    two = index.search("Major Rakal's 5-Step guide to Dilemma resolution")
    assert two.features[TWO_TITLES] == 1.0
    # A one-word title alongside is too common to mean a second ruling ("dilemma"), and
    # a title inside the matched name is that name's own word.
    assert index.search("dilemma resolution").features[TWO_TITLES] == 0.0
    assert index.search("Major Rakal and the dilemma").features[TWO_TITLES] == 0.0


def test_a_lonely_lead_counts_as_much_as_the_query_the_answer_explains():
    from bot.search.confidence import explained_margin, margin

    assert explained_margin(0.9, 0.1, 1.0) == margin(0.9, 0.1) > 0
    # The same lead over nothing else, for an answer explaining a fifth of the question.
    assert explained_margin(0.9, 0.1, 0.2) == margin(0.9, 0.1) * 0.2
    index = titled_index("deep space 9", "seed phase")
    long = index.search(
        "Will Deep Space 9 and Voyager be separate expansions and when are they out"
    )
    second = long.hits[1].score if len(long.hits) > 1 else 0.0
    lead = long.features[FEATURES.index("explained_margin")]
    assert 0 < lead < margin(long.hits[0].score, second)  # "deep space 9" is a few words of it


def test_the_sentences_a_query_is_written_in_are_counted():
    from bot.search.passages import written_sentences

    assert written_sentences("deck size") == 0  # a bare lookup
    assert written_sentences('Dilemmas -- "Discard dilemma"') == 0
    assert written_sentences("who is the matching commander of the U.S.S. Defiant?") == 1
    told = "My crew was stopped by a dilemma. Can I beam another crew over? Or is it 2E?"
    assert written_sentences(told) == 3
    # As typed in a chat: lower case after a full stop still starts a sentence; "u.s.s." not.
    assert written_sentences("my crew was stopped. can i beam another crew over?") == 2
    assert written_sentences("who commands the u.s.s. defiant?") == 1
    index = titled_index("stopped", "seed phase")
    said = FEATURES.index("sentences")
    assert index.search("stopped").features[said] == 0.0
    assert index.search(told).features[said] > index.search("Is a crew stopped?").features[said]


def test_a_subtitle_names_a_card_alone_only_when_one_title_has_it_and_it_is_no_word():
    def card(title: str, subtitle: str, edition: str = "2E", kind: str = "Personnel") -> dict:
        return {"edition": edition, "title": title, "subtitle": subtitle, "type": kind}

    cards = [
        card("Kira Nerys", "Iliana Ghemor"),
        card("Captain's Log", "Voyager", "1E"),
        card("Ready Room Door", "Voyager", "1E"),
        card("Marlena Moreau", "Mirror"),
        card("Alexander Rozhenko", "K'mtar"),
        card("Combat Vessel", "Heavily Armed", kind="Ship"),
        card("Rotation Damage Marker", "Deep Space Nine", "1E", "Damage Marker"),
        card("Colonel Kira", "Warp Pack", "1E"),
        card("A Private Little War", "IDR", kind="Dilemma"),
    ]
    named = named_subtitles(cards)
    assert ("2E", normalize("Iliana Ghemor")) in named
    assert ("2E", normalize("K'mtar")) in named  # one word, but no English word
    assert ("2E", normalize("Heavily Armed")) in named  # a ship's printed subtitle too
    assert ("1E", "voyager") not in named  # several cards' mark, not one card's name
    assert ("2E", "mirror") not in named  # an everyday word
    # The card lists' own subtitles that only tell versions apart: a 1E set or episode, a
    # 2E reprint's set code. "Deep Space Nine" answered with the damage marker.
    assert ("1E", normalize("Deep Space Nine")) not in named
    assert ("1E", normalize("Warp Pack")) not in named
    assert ("2E", "idr") not in named


def test_a_shared_or_everyday_subtitle_typed_alone_is_not_a_card(rulings):
    # "Voyager" marks 31 cards' versions; it answered with one of them, Captain's Log.
    assert rulings.ranked("Voyager").ids[0] != "1e-captains-log-voyager"
    mirror = rulings.ranked("mirror")
    assert mirror.ids[0] != "2e-marlena-moreau-mirror"
    assert rulings.ranked("Iliana Ghemor").ids[0] == "2e-kira-nerys-iliana-ghemor"


def test_an_edition_typed_at_the_end_of_a_lookup_is_the_edition_asked_for(rulings):
    # "matching commander 2E" answered with the 1E rule, confidently: the words chose 2E.
    assert rulings.ranked("matching commander 2E").ids[0].startswith("2e-")
    assert rulings.ranked("seed phase (first edition)").ids[0] == "1e-seed-phase"
    answer, _ = rulings.show("2E building a deck")
    assert answer is not None and answer["edition"] == "2E"


def test_a_title_typed_exactly_answers_whatever_the_model_says():
    # "may not" is all stop words: no passage explains it, and a fitted model may doubt it.
    # A title typed whole is asked for by name, as an alias is; a near miss is still weighed.
    index = titled_index("may not", "not in play", "may")
    index.confidence_override = confidence.Confidence((-20.0,) + (0.0,) * (len(FEATURES) - 1), 0.9)
    assert index.search("may not").confident
    assert index.search("not in play").confident
    assert not index.search("may nt").confident


def test_a_title_typed_exactly_that_two_rulings_share_is_weighed():
    index = titled_index("stopped", "stopped")
    index.confidence_override = confidence.Confidence((-20.0,) + (0.0,) * (len(FEATURES) - 1), 0.9)
    assert not index.search("stopped").confident


def test_an_explanation_asked_for_is_not_what_the_query_is_about():
    # "DEVIDIAN DOOR EXPLANATION" (a Decipher FAQ heading) names the card and nothing more.
    words = normalize("DEVIDIAN DOOR EXPLANATION").split()
    assert content_words(words) == ["devidian", "door"]
    assert terms("Alien Parasites -- Expanded Explanation") == terms("alien parasites expanded")


def test_question_words_are_filler_as_the_query_is_compared_plurals_folded():
    # "does" folds to "doe", which was taken for a word the question is about.
    words = normalize("what does Energy Vortex do?").split()
    assert content_words(words) == ["energy", "vortex"]


def test_a_title_misspelt_as_a_whole_counts_as_nearly_typed_exactly(rulings):
    # Word for word, stop words aside, "this misson" is as near "missions" as "this mission";
    # compared whole it is the one title misspelt (0.96 alike).
    from bot.search.ranking import SIGNALS

    hits = rulings.index.search("this misson", edition="2E").hits
    exact = {h.target.topic: h.signals[SIGNALS.index("exact")] for h in hits if h.signals}
    assert exact["2e-this-mission"] >= 0.9 > exact["2e-missions"]


def test_two_letters_swapped_are_one_slip_as_a_letter_dropped_is():
    from bot.search.likeness import MISSPELT_NAME, misspelt_name

    # fuzz.ratio counts a swap as two changes: "frcition" is only 0.875 alike "friction".
    assert misspelt_name("frcition", "friction") == MISSPELT_NAME
    assert misspelt_name("friction", "frcition") == MISSPELT_NAME
    assert misspelt_name("cloaknig", "cloaking") == MISSPELT_NAME
    assert misspelt_name("frcition", "faction") == 0.0  # two slips
    assert misspelt_name("quirk", "quark") == 0.0  # too short to tell a slip from a word
    assert misspelt_name("assimilate planit", "assimilate planet") >= MISSPELT_NAME


def test_a_title_is_named_without_its_closing_qualifier_in_brackets(rulings):
    found = rulings.index.catalog.exact("playing an affiliation", edition="1E")
    assert [t.topic for t in found] == ["1e-playing-an-affiliation-non-borg"]


def test_a_lookup_of_a_kind_of_the_name_the_answer_never_names_is_marked():
    unheld = FEATURES.index("unheld_modifier")
    index = titled_index_with_passages(
        {
            "actions": "Players perform actions to play cards and execute orders.",
            "requirements": "All requirements must be met, unless there is a condition.",
            "selections": "A random selection is made by the opponent.",
            "attributes ship": "A ship's hidden attributes are revealed when it moves.",
            "playing a card": "To play a card, pay its cost and place it in play.",
        }
    )

    def marked(query: str, feature: int = unheld) -> float:
        result = index.search(query)
        assert result.hits, query
        return result.features[feature]

    # Headings (from the 2E rulebook and the rulings list) that ask of a kind of the thing.
    assert marked("Other Order Actions") == 1.0  # "orders" and "actions", never together
    assert marked("Dilemmas With Conditional Requirements") == 1.0
    # The answer says the kind itself; nothing narrows the name; a question's words.
    assert marked("random selection") == 0.0
    assert marked("actions") == 0.0
    assert marked("what are other order actions") == 0.0
    assert marked("Actions -- Order Actions") == 1.0  # the last clause is what is asked
    assert marked("Order Actions -- costs") == 0.0
    # A one-word name so narrowed is another kind of the thing, never confident, and so is a
    # longer name with the word inside it (a real 2E rulebook heading); a longer name is
    # narrow already, and a word more before it is left to the model.
    other = FEATURES.index("other_kind")
    assert marked("Other Order Actions", other) == 1.0
    assert marked("Playing Specific Kinds of Cards", other) == 1.0
    assert marked("playing a card", other) == 0.0
    assert vetoed(index.search("Dilemmas With Conditional Requirements").features)
    assert marked("random selection", other) == marked("actions", other) == 0.0
    assert marked("strange ship attributes") == 1.0
    assert marked("strange ship attributes", other) == 0.0
    assert marked("what are other order actions", other) == 0.0


def test_a_heading_asking_within_the_answer_of_what_it_never_mentions_weighs_against_it():
    aside = FEATURES.index("unheld_aside")
    index = titled_index_with_passages(
        {
            "seed phase": "The only actions you may take during the seed phases are seeding "
            "cards and downloads.",
            "alien parasites": "Alien Parasites takes over the crew of a ship.",
            "space missions": "You may seed multiple copies of a universal mission.\n\n"
            "The crew of one undocked ship attempts it.",
        }
    )

    def marked(query: str) -> float:
        result = index.search(query)
        assert result.hits, query
        return result.features[aside]

    # A real 1E tutorial heading: the seed phase rule never mentions facilities.
    assert marked("The Seed Phase - Facilities") == 1.0
    # Not a veto (on the grouped folds the model weighing it did better, docs/search.md):
    # an input whose weight must lower the odds.
    assert confidence.INPUTS["unheld_aside"] == -1
    assert confidence.load_shipped().weights[aside] < 0
    assert marked("Seed Phase: Downloads") == 0.0  # the rule does say downloads
    assert marked("Alien Parasites -- Expanded Explanation") == 0.0  # wrapping words only
    assert marked("seed phase") == 0.0  # one part
    assert marked("what about facilities - seed phase") == 0.0  # a question, not a heading
    # A real 1994 FAQ heading: the rule says "multiple" and "ship", never together.
    assert marked("Space Missions -- Multiple Ships") == 1.0
    assert marked("Space Missions -- Multiple Copies") == 0.0  # said in one passage
    assert marked("Space Missions -- Undocked Ship") == 0.0


def test_the_real_heading_is_no_confident_seed_phase_answer(rulings):
    found = rulings.ranked("The Seed Phase - Facilities", "1E")
    assert found.ids[0] == "1e-seed-phase" and not found.confident
    assert rulings.ranked("seed phase", "1E").confident  # the rule itself, asked for


def test_a_lookup_of_another_kind_of_the_thing_the_answer_is_named_after_is_vetoed():
    other = FEATURES.index("other_kind")
    index = titled_index_with_passages(
        {
            "seed phase": 'During the seed phase you may not use "play phase" game text.',
            "special equipment": "A ship's special equipment is listed in its text box.",
        }
    )

    def marked(query: str) -> float:
        result = index.search(query)
        assert result.hits and result.hits[0].target.title in ("seed phase", "special equipment")
        return result.features[other]

    # A real forum heading: the card play phase is another phase, though the seed phase
    # rule says "play phase"; a ship's equipment is not its special equipment.
    assert marked("Card Play Phase") == 1.0
    assert vetoed(index.search("Card Play Phase").features)
    assert marked("Ship Equipment") == 1.0
    # The name itself, misspelt, or asked of in another clause: the same thing.
    assert marked("seed phase") == 0.0
    assert marked("1E seed phase") == 0.0
    assert marked("sead phase") == 0.0
    assert marked("Seed Phase -- Downloads") == 0.0
    assert marked("special equipment") == 0.0


def test_a_title_typed_with_a_slip_is_no_other_kind_of_it(rulings):
    # From the title sweeps: the name's other word mistyped, not another word.
    other = FEATURES.index("other_kind")
    for query, topic in (
        ("Memery Wipe", "1e-memory-wipe"),
        ("plying a card", "2e-playing-a-card"),
        ("naued in lore", "1e-named-in-lore"),
        ("Miing Survey", "1e-mining-survey"),
    ):
        found = rulings.ranked(query)
        assert found.ids[0] == topic and found.features[other] == 0.0, query


def test_cards_of_a_kind_named_after_a_card_are_no_confident_answer_with_the_card(rulings):
    kind = rulings.ranked("Captain Proton cards", "1E")
    assert kind.ids[0] == "1e-captain-proton" and not kind.confident
    assert kind.features[FEATURES.index("other_kind")] == 1.0
    assert rulings.ranked("Captain Proton card", "1E").confident  # the one card
    # "Cards" elsewhere in the question is not asked of the card.
    liked = rulings.ranked("What about cards that seem to have no use, like Mot the Barber?")
    assert liked.ids[0] == "1e-mot-the-barber"
    assert liked.features[FEATURES.index("other_kind")] == 0.0


def test_cards_of_a_kind_named_after_a_card_a_ruling_mentions_are_no_confident_answer(rulings):
    # A real 1995 rules-sheet heading: the Alternate Universe set's cards, not the time
    # location rule, found by the card Alternate Universe Door its text mentions.
    kind = rulings.ranked("How To Use Your Alternate Universe Cards", "1E")
    assert not kind.confident and kind.features[FEATURES.index("other_kind")] == 1.0
    assert rulings.ranked("Alternate Universe Door", "1E").confident  # the card itself


def test_trademark_marks_are_no_part_of_a_word(rulings):
    # Decipher's documents mark names ("Alternate Universe™ Doorway", a real 1995 heading);
    # NFKD alone spells the mark out as "TM", which made "universetm" of the word.
    assert normalize("Alternate Universe™ Doorway") == "alternate universe doorway"
    assert normalize("Star Trek® Customizable Card Game℠") == "star trek customizable card game"
    assert terms("Alternate Universe™ Doorway") == terms("Alternate Universe Doorway")
    marked = rulings.ranked("Alternate Universe™ Doorway", "1E")
    plain = rulings.ranked("Alternate Universe Doorway", "1E")
    assert marked.ids[:3] == plain.ids[:3] and marked.features == plain.features


def test_invisible_marks_inside_a_copied_word_do_not_split_it():
    # A soft hyphen (where a PDF or web page may break the word), joiners, a byte-order mark.
    assert normalize("dilem\u00adma reso\u00adlution") == "dilemma resolution"
    assert normalize("\ufeffmatching com\u200dmander") == "matching commander"
    # a zero-width space, where a web page lets a long word break
    assert normalize("Kira Ne\u200brys") == normalize("Kira Nerys")
    assert terms("dilem\u00adma") == terms("dilemma")


def test_an_answer_the_top_one_lists_as_related_is_no_rival_to_it():
    from bot.search.hits import Target
    from tests.search.helpers import index_of

    def index(related: tuple[str, ...]):
        # The CRD's "cloaking device" only says "See cloaking and phasing".
        return index_of(
            [
                Target("1e-0", "1e-0", "cloaking and phasing", "1E", "rule", "CRD", None),
                Target(
                    "1e-1", "1e-1", "cloaking device", "1E", "rule", "CRD", None, False, related
                ),
                Target("1e-2", "1e-2", "ship cloaking costs", "1E", "rule", "CRD", None),
            ]
        )

    pointer = index(("1e-0",))
    assert pointer.targets[1].kin(pointer.targets[0]) and pointer.targets[0].kin(pointer.targets[1])
    assert not pointer.targets[0].kin(pointer.targets[2])
    gap, share = FEATURES.index("gap"), FEATURES.index("share")
    for query in ("cloaking device", "cloaking and phasing"):
        kin, apart = pointer.search(query), index(()).search(query)
        assert [h.target.topic for h in kin.hits] == [h.target.topic for h in apart.hits]
        top, *rest = kin.hits
        # Measured against the next answer that is no kin of it: the unrelated one.
        unrelated = next(h for h in rest if h.target.topic == "1e-2")
        assert kin.features[gap] == top.score - unrelated.score > apart.features[gap], query
        assert kin.features[share] > apart.features[share], query


def test_the_section_a_partial_amendment_rewrites_is_read_from_its_instruction():
    from bot.models import replaced_section

    def section(*instructions: tuple[str, str]) -> str:
        return replaced_section([{"action": a, "instruction": i} for a, i in instructions])

    # The real 1E CRD wording (the Borg entry), and a section named in quotes.
    objectives = "Replace the first paragraph of the *Objectives* subsection with the following"
    rest = "All other sections of this entry remain unchanged."
    assert section(("replace part", objectives), ("rest unchanged", rest)) == "Objectives"
    assert section(("replace part", 'Replace the section "Battle" with the following:')) == (
        "Battle"
    )
    # A paragraph by number, a note added to a section, the whole entry: no section.
    assert section(("replace part", "Replace the third paragraph of this entry with:")) == ""
    added = 'Add the following bullet point to the section "some additional notes"'
    assert section(("add", added)) == ""
    assert section(("replace entry", "Replace this entry with the following:")) == ""


def test_a_lookup_of_another_section_than_the_one_an_answer_holds_is_told_apart():
    other = FEATURES.index("other_section")
    index = index_of(
        [
            Target("1e-borg", "1e-borg", "Borg", "1E", "rule", "CRD", None, section="Objectives"),
            Target("1e-nebula", "1e-nebula", "Nebula", "1E", "rule", "CRD", None),
        ]
    )
    index.passages = build_passage_index(
        {
            "1e-borg": [
                {
                    "topic": "1e-borg",
                    "id": "1e-borg:1",
                    "edition": "1E",
                    "text": "Objectives – [Borg] personnel may never begin or join mission "
                    "attempts. Some Borg objectives score points.",
                }
            ],
            "1e-nebula": [
                {
                    "topic": "1e-nebula",
                    "id": "1e-nebula:1",
                    "edition": "1E",
                    "text": "A nebula mission has no planet.",
                }
            ],
        },
        {"1e-borg": "Borg", "1e-nebula": "Nebula"},
    )

    # A real glossary sub-heading: the Borg entry's personnel, not its objectives.
    personnel = index.search("Borg Personnel")
    assert personnel.hits[0].target.topic == "1e-borg" and personnel.features[other] == 1.0
    # The section itself, the name alone, a question of it, an entry that is whole.
    for query in ("Borg objectives", "Borg", "can Borg personnel attempt missions"):
        found = index.search(query)
        assert found.hits[0].target.topic == "1e-borg" and found.features[other] == 0.0, query
    nebula = index.search("Nebula planets")
    assert nebula.hits[0].target.topic == "1e-nebula" and nebula.features[other] == 0.0


def test_only_the_bundled_borg_objectives_answer_a_lookup_of_the_borg_entry(rulings):
    borg = rulings.index.targets[rulings.index.by_topic["1e-borg"]]
    assert borg.section == "Objectives"
    # The species rule amends its entry whole, and the skills rule has its base bundled.
    for topic in ("1e-species", "2e-skills"):
        assert rulings.index.targets[rulings.index.by_topic[topic]].section == ""
    # No longer a veto (it held for this one table case only, docs/search.md): the answer
    # is the Borg entry either way, its confidence the model's.
    assert rulings.ranked("Borg Personnel", "1E").ids[0] == "1e-borg"
    assert rulings.ranked("Borg objectives", "1E").confident


def test_a_section_is_all_the_answer_holds_only_while_the_entry_it_amends_is_missing(live):
    from bot.answers.moderation import Moderator

    other = FEATURES.index("other_section")
    assert live.ranked("Borg Personnel", "1E").features[other] == 1.0
    # The Glossary's whole Borg entry, older than the CRD that rewrote its objectives, comes
    # in: the CRD's text stays the answer, but no longer all that is known of the Borg.
    added = live.add_ruling(
        Moderator("101", "Mod Mary"), title="Borg", edition="1E", kind="rule",
        text="Personnel – Borg personnel are drones. They have no gender.\n\n"
        "Objectives – Borg personnel may not attempt missions.",
        document="Moderator Glossary copy", date="1997-10-01", new_document=True,
    )  # fmt: skip
    assert added
    target = live.index.targets[live.index.by_topic["1e-borg"]]
    assert target.entry == "1e-crd-2014-11-03:borg" and target.section == ""
    assert live.ranked("Borg Personnel", "1E").features[other] == 0.0


def test_a_question_joining_the_answer_to_something_named_only_by_a_pronoun():
    from bot.search.wording import asks_with_unnamed

    # A real follow-up in a 1E rules thread: "this" is the rule discussed before it.
    assert asks_with_unnamed("How does this work with Data's Body?", normalize("Data's Body"))
    assert asks_with_unnamed("can I play it on the seed phase", normalize("seed phase"))
    # The name is the subject, or the other party is named, or no question is asked.
    assert not asks_with_unnamed("How does Data's Body work?", normalize("Data's Body"))
    assert not asks_with_unnamed("SD Bajoran Wormhole with Ultimatum", normalize("Ultimatum"))
    assert not asks_with_unnamed("Data's Body with this", normalize("Data's Body"))
    assert not asks_with_unnamed("can I play Tribble Bomb on this ship?", normalize("Tribble Bomb"))


def test_a_follow_up_question_on_a_card_offers_the_card_without_confidence(rulings):
    # A veto: "this" is the rule discussed before, which the card's own text does not settle
    # (it holds on the frozen split, docs/search.md).
    follow_up = rulings.ranked("How does this work with Data's Body?", "1E")
    assert follow_up.ids[0] == "1e-datas-body"
    assert follow_up.features[FEATURES.index("unnamed_party")] == 1.0
    assert vetoed(follow_up.features) and not follow_up.confident
    asked = rulings.ranked("How does Data's Body work?", "1E")
    assert (
        asked.ids[0] == "1e-datas-body" and asked.features[FEATURES.index("unnamed_party")] == 0.0
    )
