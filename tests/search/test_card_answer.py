"""Cards as answers: a card named inside a question, and what is not a misspelt card name."""

from bot.normalize import lexicon, normalize
from bot.search import card_answer, confidence
from bot.search.build import CardTexts
from bot.search.confidence import (
    FEATURES,
    INSIDE_CARD,
    TWO_TITLES,
    UNQUOTED,
    VETOES,
    Confidence,
)
from bot.search.hits import SearchResult, Target
from bot.search.index import SearchIndex
from bot.search.passages import Passage, PassageIndex
from tests.search.helpers import index_of, titled_index


def _card_index(*titles: str) -> SearchIndex:
    return titled_index(*titles, kind="Personnel", source="card")


def test_a_card_named_inside_a_question_is_found_the_longest_name_first():
    index = _card_index("Darian Wallace", "Wallace", "Mot the Barber", "Mot")
    found, share = card_answer.cards_named_within(
        index, "Who is Darian Wallace? I don't recall him from the show.", None
    )
    assert [c.title for c in found] == ["Darian Wallace"]
    assert 0 < share < 1  # the name holds some of the question's words, not all
    found, _ = card_answer.cards_named_within(index, "cards with no use, like Mot the Barber", None)
    assert [c.title for c in found] == ["Mot the Barber"]


def test_a_card_named_with_only_question_words_besides_is_named_exactly():
    index = _card_index("Energy Vortex", "Combat Vessel", "Kargan")
    found, share = card_answer.cards_named_within(index, "what does Energy Vortex do?", None)
    assert [c.title for c in found] == ["Energy Vortex"] and share == 1.0
    # Another word the question is about: named inside it, not exactly.
    _, share = card_answer.cards_named_within(index, "is Combat Vessel unique", None)
    assert 0 < share < 1
    # A one-word name, no English word, is still only likely a name.
    _, share = card_answer.cards_named_within(index, "how does Kargan work", None)
    assert 0 < share < 1


def test_the_word_card_beside_a_card_name_says_what_the_name_is():
    index = _card_index("Energy Vortex", "Combat Vessel")
    for query in ("Energy Vortex card", "the Energy Vortex card", "card Energy Vortex"):
        found, share = card_answer.cards_named_within(index, query, None)
        assert [c.title for c in found] == ["Energy Vortex"] and share == 1.0, query
    # A word asked of the card besides "card" still leaves the name short of the question.
    _, share = card_answer.cards_named_within(index, "is the Combat Vessel card unique", None)
    assert 0 < share < 1


def test_asking_how_a_card_is_played_or_for_its_explanation_asks_for_the_card():
    index = _card_index("Devidian Door", "Phased Matter")
    for query in (
        "DEVIDIAN DOOR: WHERE PLAYED",  # headings of the Decipher FAQs
        "Phased Matter -- Expanded Explanation",
        "can I play Devidian Door",
        "how do I use Devidian Door",
    ):
        found, share = card_answer.cards_named_within(index, query, None)
        assert found and share == 1.0, query
    # Something else asked of the card leaves its name short of the question.
    _, share = card_answer.cards_named_within(index, "can I play Devidian Door on a ship", None)
    assert 0 < share < 1


def test_a_card_a_ruling_only_names_is_the_answer_when_the_question_holds_only_its_name(rulings):
    # The Mission II ruling names Secret Salvage II: that made it a sure answer to "how does
    # Secret Salvage II work", though the card's name alone answers with the card.
    assert rulings.ranked("how does Secret Salvage II work").ids[0] == "1e-secret-salvage-ii"
    # Asking more than the names: the ruling that names both cards stays the answer.
    assert rulings.ranked("Tama Dathon speaking first").ids[0] == "1e-matching-commander"


def test_a_rule_naming_a_card_is_no_answer_to_what_it_does_not_say_of_the_card(rulings):
    # The species rule lists Jean-Luc Picard and William T. Riker among humans and says
    # "download" elsewhere: it was the sure answer to questions it says nothing about.
    for question in (
        "does Jean-Luc Picard count as a leader",
        "can William T. Riker be downloaded",
    ):
        found = rulings.ranked(question)
        assert found.ids[0] != "1e-species"
    # Nor the rule that says "need" and "report" beside the door, but nothing of "mirror".
    found = rulings.ranked("Do I need an Alternate Universe Door to report mirror personnel?", "1E")
    assert found.ids[0] != "1e-time-location"
    # What it does say of a card, it answers: "Dathon speaking first", and two cards it names.
    assert rulings.ranked("Tama Dathon speaking first").ids[0] == "1e-matching-commander"
    assert rulings.ranked("The Intendant Terok Nor").ids[0] == "1e-facility-commander"
    # ... sure of it or not ("The Intentant", as the CRD spells her). A ruling found by one
    # of two cards that never names the other is no such answer: the two cards lead.
    assert rulings.ranked("Limited Welcome and Pinned Down", "2E").ids[:2] == [
        "2e-limited-welcome",
        "2e-pinned-down",
    ]


def test_words_are_said_side_by_side_as_typed_or_mistyped():
    from bot.search.likeness import says_alike

    text = "the intentant commands terok nor in the mirror universe".split()
    assert says_alike(text, ["intendant"]) and says_alike(text, ["terok", "nor"])
    assert says_alike(text, ["mirror", "universe"])
    assert not says_alike(text, ["nor", "terok"])  # side by side, in order
    assert not says_alike(text, ["limited", "welcome"]) and not says_alike(text, [])


def test_a_rule_says_something_of_words_only_where_it_names_the_card():
    index = PassageIndex()
    index.set_topic(
        "species",
        "species",
        [
            Passage("species", "species", 0, "Jean-Luc Picard and William Riker are Human.", False),
            Passage("species", "species", 1, "A downloaded personnel keeps its name.", False),
        ],
    )
    assert index.says_beside("species", "Jean-Luc Picard", "human")
    assert not index.says_beside("species", "William Riker", "downloaded")  # another passage
    assert not index.says_beside("species", "Jean-Luc Picard", "leader")
    assert index.says_beside("species", "Riker", "species rules")  # the title says it


def test_a_rule_beside_a_card_must_hold_what_the_question_asks_most():
    # The real question "Do I need an Alternate Universe Door to report mirror personnel?"
    # was confidently the time location rule: it says "need" and "report" beside the door,
    # but nothing of "mirror" personnel, the word the question turns on.
    index = PassageIndex()
    index.set_topic(
        "time location",
        "time location",
        [
            Passage(
                "time location",
                "time location",
                0,
                "When reported in this manner, you do not need an open doorway, such as an "
                "Alternate Universe Door, to report the Alternate Universe icon cards.",
                False,
            ),
            Passage("time location", "time location", 1, "Report personnel to it.", False),
        ],
    )
    for topic, text in (
        ("mirror universe", "Mirror personnel are native to the mirror universe."),
        ("reporting", "You report personnel for free; a doorway may need to be open."),
        ("door", "A doorway card plays on the table."),
    ):
        index.set_topic(topic, topic, [Passage(topic, topic, 0, text, False)])
    door = "Alternate Universe Door"
    assert index.says_beside("time location", door, "need report")
    assert not index.says_beside("time location", door, "need report mirror personnel")


def test_a_card_is_found_by_the_start_or_the_end_of_its_name():
    index = _card_index(
        "Stone Knives and Bearskins",
        "Alpha 5 Approach Transport Crash Survivor",  # a 2E mission: location and title joined
        "Bajor Blessed of the Prophets",
        "Abandon Ship!",
        "Assist Cloaked Ship",
        "Alpha Attack Ship",
        "Ambush Ship",
        "Acquire Surplus Ships",
        "Borg Ship",
        "Kargan",
    )

    def named(query):
        found, likeness = card_answer.cards_named_in_part(index, query, None)
        return [c.title for c in found], likeness

    assert named("Stone Knives") == (["Stone Knives and Bearskins"], 0.5)
    assert named("Transport Crash Survivor")[0] == ["Alpha 5 Approach Transport Crash Survivor"]
    assert named("Alpha 5 Approach")[0] == ["Alpha 5 Approach Transport Crash Survivor"]
    # The words a question is wrapped in are not part of it; the words inside a name are.
    assert named("how does Blessed of the Prophets work")[0] == ["Bajor Blessed of the Prophets"]
    assert named("ship") == ([], 0.0)  # an English word, and a word many names end with
    assert named("Borg Ship") == ([], 0.0)  # a whole name is named, not in part
    assert named("Kargan") == ([], 0.0)
    assert named("Knives Bearskins") == ([], 0.0)  # neither its start nor its end
    # Found at their start and their end all the same, after an edit too.
    edited = index.edited()
    edited.catalog.remove_topics(["1e-1"])
    edited.catalog.finish_edit()
    assert card_answer.cards_named_in_part(edited, "Crash Survivor", None) == ([], 0.0)


def test_the_end_of_a_name_is_no_card_when_it_is_only_the_set_of_a_1e_version():
    # The 1E lists give a version the set it comes from as a subtitle: "The Trouble With
    # Tribbles" (a real CRD heading about that set's rules) is not Odo of that set.
    cards = [
        ("Odo, The Trouble with Tribbles", "1E", "Personnel"),
        ("Kira Nerys, Iliana Ghemor", "2E", "Personnel"),  # a printed subtitle
        ("Alpha 5 Approach Transport Crash Survivor", "2E", "Mission"),  # no comma at all
    ]
    index = index_of(
        [
            Target(f"c-{i}", f"c-{i}", title, edition, kind, "card", None)
            for i, (title, edition, kind) in enumerate(cards)
        ]
    )

    def named(query):
        return [c.title for c in card_answer.cards_named_in_part(index, query, None)[0]]

    assert named("The Trouble With Tribbles") == []
    assert named("Trouble with Tribbles") == []
    assert named("Ghemor") == ["Kira Nerys, Iliana Ghemor"]
    assert named("Transport Crash Survivor") == ["Alpha 5 Approach Transport Crash Survivor"]


def test_a_card_named_in_part_is_the_answer_first(rulings):
    # "Alpha 5 Approach" names a 2E mission whose card list joined its location and title.
    assert rulings.ranked("Alpha 5 Approach", "2E").ids[0].startswith("2e-alpha-5-approach")
    assert rulings.ranked("Transport Crash Survivor").ids[0].startswith("2e-alpha-5-approach")
    assert rulings.ranked("Stone Knives").ids[0] == "1e-stone-knives-and-bearskins"
    # A card named whole inside a question stays that card, not one whose name it starts.
    assert rulings.ranked("question about Leonardo da Vinci", "1E").ids[0] == (
        "1e-leonardo-da-vinci"
    )


def test_a_lookup_no_name_holds_finds_the_few_cards_printing_it_the_earliest_first():
    index = _card_index(
        "Storage Compartment Door", "Q-Flash", "Beware of Q", "Deneb Approach", "Lenara Kahn"
    )
    texts = CardTexts(
        [
            ("1e-0", "1E", "Place one atop Tribble side deck during the seed phase."),
            ("1e-1", "1E", "Place one atop Q-Continuum side deck during the seed phase."),
            ("1e-2", "1E", "Once each turn, draw one card from your Q-Continuum side deck."),
            ("1e-3", "1E", "Your maximum deck size is 40 cards."),
            ("1e-4", "1E", "You may play a wormhole card on her."),
        ]
    )

    def printing(query, edition=None, cards=texts):
        return [c.title for c in card_answer.cards_printing(index, cards, query, edition)]

    assert printing("Tribble Side Deck") == ["Storage Compartment Door"]
    # The card that leads with it first: Q-Flash opens that side deck, Beware of Q reads it.
    assert printing("Q-Continuum side deck") == ["Q-Flash", "Beware of Q"]
    assert printing("what is the Tribble side deck") == ["Storage Compartment Door"]
    # Fewer than three words that say something are printed side by side in passing.
    assert printing("deck size") == [] and printing("play a wormhole") == []
    assert printing("Is there a Tribble side deck? I can't find it.") == []  # sentences
    assert printing("Tribble side deck", "2E") == []  # the edition asked for
    # Printed by more than a few cards: common wording, no card's subject.
    common = CardTexts([(f"1e-{i}", "1E", "Draw from your Tribble side deck.") for i in range(4)])
    assert printing("Tribble side deck", cards=common) == []


def test_a_lookup_only_a_card_prints_shows_that_card_first_never_confidently(rulings):
    ranked = rulings.ranked("Tribble Side Deck", "1E")
    assert ranked.ids[0] == "1e-storage-compartment-door" and not ranked.confident
    answer, found = rulings.show("Tribble Side Deck", "1E")
    assert answer is None and found["results"][0]["id"] == "1e-storage-compartment-door"
    # The sentence that prints it is pointed out: why the card is suggested.
    assert found["results"][0]["passage"]["text"] == (
        "Place one atop Tribble side deck during the seed phase."
    )
    # A ruling that holds the words together is what they are about, though a card prints
    # them: the Alien Parasites ruling, not New Essentialists.
    card, _ = rulings.card("1e-new-essentialists")
    assert "borg away team" in normalize(card["text"])
    assert rulings.ranked("borg away team").ids[0] == "1e-alien-parasites"


def test_one_word_english_names_and_the_whole_query_are_not_named_within():
    index = _card_index("Wallace", "Darian Wallace")
    assert card_answer.cards_named_within(index, "is Wallace a personnel", None) == ([], 0.0)
    # The whole query is a name: that is the exact path's, not this one's.
    assert card_answer.cards_named_within(index, "Darian Wallace", None) == ([], 0.0)


def test_a_one_word_name_that_is_no_english_word_is_named_within():
    index = _card_index("Kargan", "Chef", "Odo", "Curzon Odo")
    found, share = card_answer.cards_named_within(index, "what does Kargan do?", None)
    assert [c.title for c in found] == ["Kargan"] and 0 < share < 1
    found, _ = card_answer.cards_named_within(index, "can I play kargan", None)  # any case
    assert [c.title for c in found] == ["Kargan"]
    # "Chef" is a word too: beside other words it asks about, no name; "Cruzon" is no
    # one's word: maybe "Curzon Odo" misspelt, not Odo.
    assert card_answer.cards_named_within(index, "can chef attempt missions", None) == ([], 0.0)
    # The only word asked about, wrapped in question words alone: the name, word or not.
    found, share = card_answer.cards_named_within(index, "what does Chef do?", None)
    assert [c.title for c in found] == ["Chef"] and 0 < share < 1
    assert card_answer.cards_named_within(index, "Cruzon Odo", None) == ([], 0.0)
    found, _ = card_answer.cards_named_within(index, "how does Odo work", None)
    assert [c.title for c in found] == ["Odo"]
    assert card_answer.cards_named_within(index, "Kargan", None) == ([], 0.0)  # exact path's
    # a plural is the kind, not the card: "holograms, exocomps and androids"
    assert card_answer.cards_named_within(index, "how do Kargans work", None) == ([], 0.0)


def test_a_question_naming_a_card_puts_the_card_first(rulings):
    question = "Who is Darian Wallace? I don't recall him from the show."
    assert rulings.ranked(question).ids[0] == "1e-darian-wallace"
    answer, found = rulings.show(question)
    shown = answer["id"] if answer else found["results"][0]["id"]
    assert shown == "1e-darian-wallace"  # answered, or at least suggested first


def test_a_card_named_in_a_question_comes_before_a_ruling_named_as_much(rulings):
    # "play" half-matches "not in play" as "Tozara'Kesh" is half the question.
    assert rulings.ranked("can I play Tozara'Kesh?", "2E").ids[0] == "2e-tozarakesh"


def test_a_card_named_in_a_question_is_not_lost_to_a_rule_that_only_mentions_it(rulings):
    # The species rule names Jean-Luc Picard: matched by that mention, its "name" is the
    # card's own, and the question about the card was answered with neither card nor rule.
    found = rulings.ranked("cost of Jean-Luc Picard")
    assert found.ids[0].startswith(("1e-jean-luc-picard", "2e-jean-luc-picard"))
    answer, suggested = rulings.show("what is the cost of Jean-Luc Picard")
    first = answer["id"] if answer else suggested["results"][0]["id"]
    assert "jean-luc-picard" in first


def test_a_name_several_cards_bear_lists_the_others_never_one_in_silence(rulings):
    # "Data" in 2E is a dozen personas: one was the answer and the rest unsaid.
    answer, _ = rulings.show("Data", "2E")
    others = {c["id"] for c in answer["same_name"]}
    named = {c.topic for c in rulings.card_targets() if c.title.startswith("Data, ")}
    named = {t for t in named if t.startswith("2e-")}
    assert answer["id"] in named and others == named - {answer["id"]}
    card, _ = rulings.card("Data", "2E")  # the card lookup says so too
    assert {c["id"] for c in card["same_name"]} == named - {card["id"]}
    # A name one card bears lists none.
    answer, _ = rulings.show("Atmospheric Ionization", "1E")
    assert answer["kind"] == "card" and not answer.get("same_name")


def test_a_name_several_cards_bear_is_no_ruling_about_one_of_them(rulings):
    # The 2011 CRD rules on "Kira Nerys, Iliana Ghemor"; 22 other cards are named Kira
    # Nerys. Typed alone, the name was confidently that ruling and the others unsaid.
    named = {c.topic for c in rulings.card_targets() if c.title.startswith("Kira Nerys")}
    assert len(named) > 2
    answer, _ = rulings.show("Kira Nerys")
    assert answer["kind"] == "card"
    listed = {c["id"] for c in answer.get("same_name", [])} | {
        e["id"] for e in answer.get("editions", [])
    }
    assert named - {answer["id"]} <= listed
    # The list of rulings found says as much: it holds that ruling, but not as the answer.
    found = rulings.search("Kira Nerys")
    assert found["results"][0]["id"].endswith("kira-nerys-iliana-ghemor")
    assert not found["confident"]
    # The ruling keeps its own name, and the printed subtitle alone, which no other bears.
    for query in ("Kira Nerys, Iliana Ghemor", "Iliana Ghemor"):
        found = rulings.search(query)
        assert found["confident"] and found["results"][0]["id"].endswith("kira-nerys-iliana-ghemor")


def test_a_few_words_of_a_card_name_are_not_its_misspelling(rulings):
    """ "what time is it" shares one content word with "You Will in Time": no card."""
    answer, found = rulings.show("what time is it")
    assert answer is None or answer["kind"] != "card"
    assert rulings.ranked("what time is it").ids[:1] != ["1e-you-will-in-time"]
    typo, _ = rulings.show("Atmosperic Ionization")  # a whole name misspelt still is
    assert typo["kind"] == "card"


def test_a_misspelt_card_name_a_ruling_mentions_answers_with_the_card(rulings):
    # Spelt right, Assimilate Planet answers with the card; misspelt, the rule that lists
    # it among examples used to be the confident answer instead.
    for query, card in (("Assimilate Planit", "1e-assimilate-planet"), ("quash conspiricy", "1e-quash-conspiracy")):  # fmt: skip
        found = rulings.ranked(query, "1E")
        assert found.ids[0] == card and found.confident, query
        answer, _ = rulings.show(query, "1E")
        assert answer["kind"] == "card", query
    # Not the name misspelt, only words alike: neither the card nor the rule, confidently.
    assert not rulings.ranked("assimilation planet", "1E").confident


def test_a_misspelt_card_name_answers_with_the_card_even_when_a_rule_matches_a_word(rulings):
    # The species rule mentions Spock: "Ambassadr Spock" was confidently that rule, and
    # "First Contct" the ruling titled Stop First Contact, while the cards were meant.
    for query, card in (("Ambassadr Spock", "1e-ambassador-spock"), ("First Contct", "1e-first-contact")):  # fmt: skip
        found = rulings.ranked(query, "1E")
        assert found.ids[0] == card and found.confident, query


def test_a_one_word_card_name_wrapped_only_in_question_words_is_the_card(rulings):
    # From the sweeps: a one-word name that is a word too found nothing at all inside a
    # question, though nothing else was asked ("Forsaken ruling", "how does Prot work").
    for query, edition, cards in (
        ("Forsaken ruling", None, {"1e-forsaken", "2e-forsaken"}),
        ("what does Simmons do?", "2E", {"2e-simmons"}),
        ("Empress rules", "1E", {"1e-empress"}),
    ):
        found = rulings.ranked(query, edition)
        assert found.ids[:1] and found.ids[0] in cards and found.confident, query
    # A rules word the rulings answer stays the rule; a word beside the name asks more.
    assert rulings.ranked("stopped ruling").ids[0].endswith("-stopped")
    assert rulings.ranked("what is a dilemma?").ids[0] in {"2e-dilemmas", "1e-dilemma-resolution"}
    assert "1e-empress" not in rulings.ranked("can the Empress attempt a mission", "1E").ids[:1]


def test_a_one_word_card_name_misspelt_is_the_card_not_a_rule_spelt_alike(rulings):
    # "Frcition" (two letters swapped) was confidently the faction rule, not Friction.
    assert rulings.ranked("Frcition", "1E").ids[0] == "1e-friction"
    assert rulings.ranked("frictoin").ids[0] in {"1e-friction", "2e-friction"}
    # A word spelt right is no misspelt name: "fiction" is not the card Friction.
    found = rulings.ranked("fiction")
    assert not (found.confident and found.ids[0].endswith("-friction"))


def test_a_card_name_misspelt_as_a_whole_is_the_card_though_a_word_matches_loosely(rulings):
    # From the sweeps: one slip in one word of a longer name left the word-for-word match
    # below the line ("darivn" for "Darvin"), and these found nothing at all.
    for query, edition, card in (
        ("Arne Darivn", "1E", "1e-arne-darvin"),
        ("Desitned To Be", "2E", "2e-destined-to-be"),
        ("Jane Talyor", "2E", "2e-jane-taylor"),
        # Two letters swapped at the end: folding plurals cut "helplses" as "helplse".
        ("Helplses", "1E", "1e-helpless"),
    ):
        found = rulings.ranked(query, edition)
        assert found.ids[:1] == [card] and found.confident, query
    # Words spelt right are no misspelt name, however close: "Worth the Prize" is not taken
    # for the card Worth the Price.
    assert "2e-worth-the-price" not in rulings.ranked("Worth the Prize", "2E").ids[:1]


def test_a_card_named_with_a_players_abbreviation_is_the_card(rulings):
    # The lexicon's AU is "alternate universe": "AU Door" is the card Alternate Universe Door.
    assert rulings.ranked("AU Door", "1E").ids[0] == "1e-alternate-universe-door"
    assert rulings.ranked("how does an AU Door work").ids[0] == "1e-alternate-universe-door"
    # Spelt out only where it was typed in capitals: "au door" is no abbreviation.
    assert lexicon().spell_out("AU Door") == "alternate universe Door"
    assert lexicon().spell_out("au door") == "au door"


def test_the_card_lookup_finds_a_card_as_the_answers_do(rulings):
    # /card and `rulings card` name a card as /ruling does: spelt out, or by part of its name.
    assert rulings.card("AU Door", "1E")[0]["id"] == "1e-alternate-universe-door"
    assert rulings.card("Stone Knives")[0]["id"] == "1e-stone-knives-and-bearskins"
    assert rulings.card("Transport Crash Survivor")[0]["id"].startswith("2e-alpha-5-approach")
    # Part of several cards' names: none is picked, they are suggested first.
    card, found = rulings.card("Tal Shiar")
    assert card is None
    assert all("tal-shiar" in r["id"] for r in found["results"][:3])


def test_the_card_whose_whole_name_was_typed_comes_before_one_of_that_title(rulings):
    # "Combat Vessel" is the whole name of a 1E card and only the title of the 2E Combat
    # Vessel, Heavily Armed: both are offered, the one named first.
    assert rulings.ranked("Combat Vessel").ids[:2] == ["1e-combat-vessel", "2e-combat-vessel-heavily-armed"]  # fmt: skip
    assert rulings.ranked("Tekeny Ghemor").ids[0] == "1e-tekeny-ghemor"
    # Named inside a question too.
    assert rulings.ranked("what does U.S.S. Enterprise-B do?").ids[0] == "1e-u-s-s-enterprise-b"


def test_the_nearest_card_name_comes_before_a_card_a_ruling_mentions(rulings):
    # "U.S.S. Enterprie-E" took the U.S.S. Enterprise that a ruling mentions (90 % alike),
    # not the nearer Enterprise-E (98 %) that the card search finds.
    found = rulings.ranked("U.S.S. Enterprie-E")
    assert found.ids[0].startswith(("1e-u-s-s-enterprise-e", "2e-u-s-s-enterprise-e"))


def test_a_quoted_phrase_is_about_the_card_only_when_its_name_holds_it():
    index = _card_index("Starfleet Type II Phaser", "Cry Havoc!")
    phaser, havoc = index.targets

    def unquoted(query: str, card: Target) -> float:
        choice = card_answer.choose(query, None, SearchResult(query, False), [card], {})
        return choice.features[UNQUOTED]

    assert unquoted('What does "Starfleet Type II Phaser" do?', phaser) == 0.0
    assert unquoted('Cry "Havoc!"', havoc) == 0.0  # part of the name, quoted
    # The quote says more than the name: it asks about "armed with", not the card.
    assert unquoted('What does "Armed with Starfleet Type II Phaser" mean', phaser) == 1.0


def test_a_card_lookup_answers_only_for_a_name_not_for_a_few_of_its_words(rulings):
    # The card index's best guess used to be the answer whenever the rulings' confidence
    # model liked it: a question sharing a word with a card's title came back as that card.
    for query in ("what time is it", "cost", 'Dilemmas -- "Discard dilemma"'):
        card, found = rulings.card(query)
        assert card is None and not found["confident"], query
    assert rulings.card("Atmosperic Ionization")[0]["name"] == "Atmospheric Ionization"
    assert rulings.card("Klingon Tea Ceremony")[0]["name"] == "Klingon Tea Ceremony"


def test_a_rules_word_inside_a_card_name_the_query_holds_is_marked():
    index = _card_index("Borg Ship", "Borg")
    assert card_answer.inside_card_name(index, "Borg Ship -- Limits?", None, "borg")
    # The name is the card's whole name, or the query names no longer card: not inside.
    assert not card_answer.inside_card_name(index, "Borg Ship -- Limits?", None, "borg ship")
    assert not card_answer.inside_card_name(index, "can Borg personnel attempt", None, "borg")
    assert not card_answer.inside_card_name(index, "Borg", None, "borg")


def test_a_name_matched_from_words_in_any_order_is_inside_the_card_name_holding_them():
    index = _card_index("Queen's Borg Cube", "Borg Queen")
    # The replace rule mentions the Borg Queen; the query names the ship.
    assert card_answer.inside_card_name(
        index, "how does Queen's Borg Cube work", None, "borg queen"
    )
    assert not card_answer.inside_card_name(
        index, "how does the Borg Queen work", None, "borg queen"
    )


def test_a_name_matched_in_part_is_inside_a_card_name_holding_the_words_typed():
    # The cost rule names the U.S.S. Equinox, Determined to Get Home: "U.S.S." and "home"
    # are all the question holds of it, and both belong to the ship the question names.
    ships = _card_index("U.S.S. Voyager, Home Away From Home", "U.S.S. Equinox, Determined to Get Home")  # fmt: skip
    equinox = "u s s equinox determined to get home"
    question = "question about U.S.S. Voyager, Home Away From Home"
    assert card_answer.inside_card_name(ships, question, None, equinox)
    assert not card_answer.inside_card_name(ships, "U.S.S. Equinox and home", None, equinox)


def test_a_rules_word_inside_a_card_name_is_not_the_confident_answer(rulings):
    # "Borg Ship" is a card: the question is not about the Borg (issue 10, pattern 8).
    inside = rulings.ranked("Borg Ship -- Limits?")
    assert inside.ids[:2] == ["1e-borg-ship", "1e-borg"] and not inside.confident
    assert rulings.ranked("Borg").ids[0] == "1e-borg"


def test_a_card_named_whole_is_closer_than_a_ruling_whose_longer_name_holds_it(rulings):
    # From a sweep of every card asked about by name: the 1E mission First Contact was
    # confidently the objective Stop First Contact, whose name only holds the card's.
    asked = rulings.ranked("how does First Contact work")
    assert asked.ids[0] == "1e-first-contact" and "1e-stop-first-contact" in asked.ids[1:]
    assert rulings.ranked("Stop First Contact").ids[0] == "1e-stop-first-contact"
    # A name held whole by the query keeps its ruling ("DS9 facility commander").
    assert rulings.ranked("DS9 facility commander", "1E").ids[0] == "1e-facility-commander"


def test_answers_a_veto_keeps_unconfident_are_never_confident():
    sure = Confidence(tuple([5.0] + [0.0] * (len(FEATURES) - 1)), 0.9)
    assert INSIDE_CARD in VETOES and TWO_TITLES in VETOES and UNQUOTED in VETOES
    for veto in VETOES:
        row = [1.0] + [0.0] * (len(FEATURES) - 1)
        assert sure.confident(row)
        row[veto] = 1.0
        assert not sure.confident(row), FEATURES[veto]


def test_another_card_named_beside_the_card_is_found_by_its_name_or_its_first_words():
    index = _card_index(
        "Vidiian Harvester", "Stone Knives and Bearskins", "Tribble Bomb", "Q2",
        "Away Team Ration Pack", "Robin Lefler, Mission Specialist",
    )  # fmt: skip
    harvester = index.targets[0]

    def others(query: str) -> list[str]:
        return [c.title for c in card_answer.other_cards_named(index, query, None, [harvester])]

    assert others("Vidiian Harvester and Tribble Bomb") == ["Tribble Bomb"]  # a whole name
    # Its first words, typed with capitals as a name is: how players shorten card names.
    assert others("Vidiian Harvester & Stone Knives") == ["Stone Knives and Bearskins"]
    assert others("Vidiian Harvester and stone knives") == []
    # Everyday words that start or end a card's name are not a card.
    assert others("can a Vidiian Harvester go on an away team") == []
    assert others("Vidiian Harvester mission specialist") == []
    assert others("Vidiian Harvester") == []
    # A one-word name counts when it is no English word, however it is typed.
    assert others("Vidiian Harvester vs Q2") == others("q2 and vidiian harvester") == ["Q2"]
    assert (
        card_answer.other_cards_named(
            _card_index("Vidiian Harvester", "Scan"),
            "Vidiian Harvester: Scan it",
            None,
            [harvester],
        )
        == []
    )
    assert card_answer.other_cards_named(index, "Vidian Harvestr", None, [harvester]) == []


def test_a_query_naming_two_cards_is_answered_with_neither_confidently(rulings):
    # Asked how two cards meet, neither card's text settles it: both are offered.
    two = rulings.ranked("Atmospheric Ionization and Tribble Bomb", "1E")
    assert two.ids[:2] == ["1e-atmospheric-ionization", "1e-tribble-bomb"]
    assert not two.confident
    shown, found = rulings.show("Amanda Rogers vs Q2")
    assert shown is None and "1e-q2" in [r["id"] for r in found["results"][:3]]
    one = rulings.ranked("Atmospheric Ionization", "1E")
    assert one.ids[0] == "1e-atmospheric-ionization" and one.confident


def test_a_query_too_long_to_be_a_misspelt_name_is_not_compared_with_the_names():
    index = _card_index("Assimilate Planet", "Q")
    assert index.catalog.names.could_be_misspelt_name("assimilate planit")
    assert index.catalog.names.could_be_misspelt_name(
        "assimilate a planet"
    )  # 19 letters to 17: maybe
    # 21 to 17 cannot be 90 % alike (at best 2 x 17 / 38), nor can a question
    assert not index.catalog.names.could_be_misspelt_name("assimilate the planet")
    assert not index.catalog.names.could_be_misspelt_name(
        "can i assimilate a planet with one drone"
    )


def test_an_answer_in_the_edition_asked_for_fits_it_wholly(rulings):
    # Confidence reads the edition fit: a judge who named the edition left no doubt of it.
    fit = confidence.FEATURES.index("edition_fit")
    assert rulings.ranked("examining a card", "2E").features[fit] == 1.0
    assert rulings.ranked("Assimilate Planit", "1E").features[fit] == 1.0  # a card answer
    assert rulings.ranked("examining a card").features[fit] < 1.0


def test_a_card_answer_offering_both_editions_stands_for_either(rulings):
    # "Both editions match": the 2E card first, the 1E card beside it, as for a ruling.
    both = rulings.ranked("Quite a Coincidence")
    assert both.ids[:2] == ["2e-quite-a-coincidence", "1e-quite-a-coincidence"]
    assert both.right(["1e-quite-a-coincidence"]) and both.right(["2e-quite-a-coincidence"])
    answer, _ = rulings.show("Quite a Coincidence")
    assert [e["id"] for e in answer["editions"]] == both.ids[:2]
    # An edition asked for offers that edition's card alone.
    asked = rulings.ranked("Quite a Coincidence", "2E")
    assert not asked.right(["1e-quite-a-coincidence"])


def test_an_entry_whose_text_was_lost_is_never_the_answer(rulings):
    # The Glossary's "Mission Debriefing" lost its text in the scrape: asked by its very
    # title it is no answer (it was a confident empty one); the card of that name answers,
    # saying the rule text is missing.
    index = rulings.index
    lost = [t for t in index.targets if t.title_only]
    assert any(t.title == "Mission Debriefing" for t in lost)
    for target in lost:
        for hit in index.search(target.title, edition=target.edition).hits:
            assert not hit.target.title_only, (target.title, hit.target.topic)
    answer, _ = rulings.show("Mission Debriefing", "1E")
    assert answer["kind"] == "card" and answer["title"] == "Mission Debriefing"
    assert "Mission Debriefing" in answer["rulings_note"]
    assert "missing from the bundled copy" in answer["rulings_note"]
    # A lost entry with no card of its name: no confident answer at all.
    assert not rulings.ranked("Multiple Targets", "1E").confident


def test_a_phrase_is_printed_by_a_card_only_within_its_own_text():
    # The cards' texts are searched joined: a phrase is never found across two of them,
    # and where it stands is counted in the card's own text.
    texts = CardTexts(
        [
            ("1e-0", "1E", "Discard this card to nullify a Tribble"),
            ("2e-1", "2E", "side deck cards may not be played. Draw from your Tribble side deck."),
            ("1e-2", "1E", "Place it atop your Tribble side deck."),
        ]
    )
    assert texts.printing("tribble side deck") == [("2e-1", 48), ("1e-2", 19)]
    assert texts.printing("tribble side deck", "1E") == [("1e-2", 19)]
    assert texts.printing("tribble side deck", "2E") == [("2e-1", 48)]
    assert texts.printing("nullify a tribble side deck") == []
    assert texts.printing("discard this card") == [("1e-0", 0)]
