"""Issue 38: pages in a rulings page's form that hold no rulings. A page whose text speaks as
"I" (a deck report, a card review, a top-ten list) is a person's commentary, refused: rulings
never say "I", though an FAQ's questions may. A list of unknown "Name – words" lines is
no Current Rulings by its form alone."""

from __future__ import annotations

import pytest

from bot.ingest.reader import UnknownShape, read_text

DECK_REPORT = """My Federation Deck for the Regionals

Here is the deck I took to the regionals last weekend, and a few words on each card.

Jean-Luc Picard – He is the heart of the deck, and I always want him out by turn two.

Data – I love his skills, and he never fails to solve a mission when it counts in a game.

Wormhole – The best way along the spaceline for this deck, cheap and fast every turn.

Red Alert – Lets me get everything out fast, which my opponents always hated at the tables.
"""


def test_cards_titled_over_a_players_comments_are_refused_as_commentary():
    # Known card titles, each over a "– text" paragraph: the form of a rulings page, but the
    # text speaks as "I", as rulings never do
    with pytest.raises(UnknownShape, match="speaks in the first person"):
        read_text(DECK_REPORT)


def test_the_same_cards_over_rulings_are_read():
    rulings = (
        DECK_REPORT.replace("He is the heart of the deck, and I always want him out", "He may")
        .replace("I love his skills, and he never fails", "His skills may be used")
        .replace("Lets me get everything out fast, which my opponents", "Allows reporting; players")
    )
    assert [e.title for e in read_text(rulings).entries] == [
        "Jean-Luc Picard",
        "Data",
        "Wormhole",
        "Red Alert",
    ]


def test_an_faqs_questions_may_say_i():
    faq = """Frequently Asked Questions

Q: Red Alert – Can I report my ships and personnel for free while it is in play? A: Yes, you may report them for free.

Q: Data – May I use his skills while he is stopped? A: No. A stopped personnel's skills may not be used.
"""
    assert len(read_text(faq).entries) == 2


def test_a_list_of_unknown_name_dash_text_lines_is_no_current_rulings_by_form_alone():
    # Another game's glossary, release notes…: "Name – words" lines are the form of
    # Decipher's Current Rulings, but without their capitals, marks or the game's titles the
    # page is read as any page is, each unknown title a doubt that blocks applying
    page = """Release notes

Version 2.4 – The deck builder now remembers the last deck you opened, and loads faster.

Version 2.3 – Cards from the newest expansion were added to the card search at last.

Version 2.2 – Fixed a bug where images of dilemmas did not show in the preview window.
"""
    document = read_text(page)
    doubted = {w.line for w in document.warnings if w.doubt}
    assert document.entries and all(e.line in doubted for e in document.entries)


BOARD_GAME_GLOSSARY = """Glossary
Adjacent: Figures are adjacent when they occupy spaces that are next to each other.
Army: An army is a group of heroes and squads that each player controls in a battle.
Bonding: A special power that lets a player take a turn with two figures at once.
Class: The class names the type of figure shown on its army sheet, such as a scout.
Height: The number of levels a figure stands above the board, counted from its base.
Range: The number of spaces away that a figure can reach with its attack dice.
"""


def test_a_short_glossary_without_one_of_the_games_terms_is_refused():
    # Too few words to weigh a share of the game's terms, but none at all, and no title of
    # the game: another game's glossary
    with pytest.raises(UnknownShape, match="its 6 entries use none of the game's terms"):
        read_text(BOARD_GAME_GLOSSARY)


def test_a_glossary_of_titles_the_project_does_not_know_is_doubted():
    # Another game's glossary, "Term: text" in alphabetical order, reads as a new Glossary
    # would where its words could be the game's (one "ship"): only a person can tell them
    # apart, so the page is doubted until confirmed
    document = read_text(BOARD_GAME_GLOSSARY.replace("a group of heroes", "a ship of heroes"))
    assert len(document.entries) == 6
    (doubt,) = [w for w in document.warnings if w.doubt and "none of the page's" in w.message]
    assert doubt.line == document.entries[0].line and "6 titles" in doubt.message


def test_a_glossary_with_one_known_title_is_not_doubted_for_its_titles():
    known = BOARD_GAME_GLOSSARY.replace(
        "Class: The class names", "Cloaking Device: The class names"
    )
    document = read_text(known)
    assert not [w for w in document.warnings if "none of the page's" in w.message]


def test_an_address_is_no_title():
    page = """Re: cutting decks

MajorRakal@decipher.com -- Write here with rules questions, and we will answer them soon.

http://www.decipher.com -- Our site, with the current rulings and the tournament rules.

CustomerService@decipher.com -- Defective cards, requests for information and the like.
"""
    with pytest.raises(UnknownShape):
        read_text(page)


def test_a_card_list_with_each_cards_type_first_is_refused():
    page = """Premiere card list (rare cards)

Jean-Luc Picard – Personnel, Federation. Captain of the U.S.S. Enterprise. Diplomacy, Honor.
Data – Personnel, Federation. Android officer on the Enterprise. Computer Skill, Physics.
Kurn – Personnel, Klingon. Brother of Worf, commander of a bird-of-prey. Leadership, Honor.
Sarek – Personnel, Non-Aligned. Vulcan ambassador and father of Spock. Diplomacy x2.
"""
    with pytest.raises(UnknownShape, match="card list"):
        read_text(page)


def test_a_deck_lists_counts_are_no_titles():
    page = """Starter deck contents

Jean-Luc Picard x1 – the captain of your Federation deck, and its best leader.
Data x1 – an android officer with many skills, for any mission at all.
Red Alert x2 – lets you report cards faster, every turn of the game.
"""
    with pytest.raises(UnknownShape):
        read_text(page)


def test_a_cards_text_quoted_under_an_articles_prose_is_doubted():
    page = """Card of the Day: Q-Flash

Today's card is one of the most loved side decks of the game, printed in the Q-Continuum expansion.

Q-Flash – Seed this side deck face down on the table. Once each game, when you encounter a Q-Flash, draw the top card and resolve it.

Why do we love it? Because it makes every game a surprise, and players still talk about it.
"""
    document = read_text(page)
    assert [e.title for e in document.entries] == ["Q-Flash"]
    assert [w for w in document.warnings if w.doubt and "'Q-Flash'" in w.message]


def test_one_cards_ruling_pasted_alone_is_not_doubted():
    document = read_text("Q-Flash – Once each game, draw the top card and resolve it.\n")
    assert [e.title for e in document.entries] == ["Q-Flash"]
    assert not [w for w in document.warnings if w.doubt]


ANOTHER_GAMES_GLOSSARY = """Glossary S–Z
Scenario: A scenario sets up the board, the goals of each side and the number of rounds played, and it is chosen before the game starts.
Scourge: A scourge is a threat card that stays in play until a hero defeats it, and it adds one to the threat track at the end of each round.
Search: To search, a player looks through the named deck for a card of the kind the effect asks for, shows it and shuffles the deck.
Spell: A spell is a card a hero casts by spending mana; it goes to the discard pile after it resolves, unless it says it stays in play.
Story Bane: A story bane is the villain of a scenario; when its health drops to zero, the heroes win the game at the end of the turn.
Token: A token marks damage, mana or a condition on a hero or a monster; tokens are removed when the effect that placed them ends.
"""


def test_a_glossary_that_hardly_uses_the_games_terms_is_refused():
    with pytest.raises(UnknownShape, match="another game's or subject's glossary"):
        read_text(ANOTHER_GAMES_GLOSSARY)


def test_a_new_glossary_of_the_game_with_unknown_terms_is_read_with_a_doubt():
    # The same form, words of this game: new terms a new rules document may define
    page = """Glossary S–Z
Scout Team: A scout team is an Away Team of three personnel or fewer that attempts a planet mission without any ship present at the mission.
Seed Pool: The seed pool holds the dilemmas and artifacts each player seeds under missions during the seed phase, face down.
Shield Bleed: When a ship's shields drop below half, each personnel aboard that ship loses one point of integrity until the ship is repaired.
Spaceline Gap: A spaceline gap is a space between two missions where no ship may stop; a ship moving across it uses one more range.
Staffing Swap: During your turn, you may exchange one personnel staffing a ship with another personnel of matching affiliation aboard it.
Tractor Lock: A ship in a tractor lock may not move, cloak or attempt a mission until the ship holding it releases the lock or is destroyed.
"""
    document = read_text(page)
    assert [e.title for e in document.entries][:2] == ["Scout Team", "Seed Pool"]
    assert [w for w in document.warnings if w.doubt and "none of the page's 6 titles" in w.message]


ANOTHER_GAMES_RULING = """Rulings Archive – Skirmish Season Two

Flanking Charge – When a regiment charges an enemy unit in its flank, the attacker adds one die to each melee roll for the rest of the round, and the defender may not wheel or reform until its next activation. A unit already engaged to its front counts as flanked if a second regiment reaches its side arc, even when the first combat has not been resolved. Cavalry that completes a flanking charge may pursue a fleeing unit up to its full move, but infantry must halt once the fight is over. Terrain that blocks line of sight does not block the side arc itself, so a hidden regiment may still be flanked by troops who measured the distance before the move began. Markers for disorder stay on the unit until the end phase, when each commander removes them in turn order, starting with the player who holds the initiative token this round. The umpire settles any measurement that the two commanders cannot agree on before the dice are thrown.
"""
A_TIMING_RULE = """Rulings – Timing

Timing of a Play – Below is the timing sequence for playing a card during your turn and the response actions involving that card. The player examines the cards in hand and decides that a card can be paid for and played. The player announces the card, reveals it from hand and says where it will enter play, using the game text that allows the play. The card's cost-related game text activates, and cost-related responses process beginning with that player. The player pays every cost of playing the card. Mandatory prevent responses process, then optional ones, each beginning with the player whose turn it is. If playing the card has not been prevented, the card enters play where the player said, and its other game text becomes active. Mandatory responses to the card being played process, then optional ones. Once every response is complete, the player may go on playing cards or drawing cards as the turn allows, and the opponent may respond to each card in turn.
"""


def test_one_guessed_entry_in_another_vocabulary_is_refused():
    # One unknown "Title – text" head: nothing on the page confirms it, its text holds none
    # of the game's terms and hardly a card game's words (a wargame's ruling)
    with pytest.raises(UnknownShape, match="its entry uses none of the game's terms") as refused:
        read_text(ANOTHER_GAMES_RULING)
    assert "another game's or subject's page" in str(refused.value)
    assert "{line: 3, head: true}" in str(refused.value)  # the way on, if it is a ruling


def test_an_unknown_entry_that_speaks_of_cards_but_uses_none_of_the_games_terms_is_refused():
    # Another card game's rulings speak of cards, players and game text as the 2E rules of
    # timing do (real pages: another game's Current Rulings, two FAQs of another game), so
    # a card game's words no longer save an entry no title of the game confirms: refused,
    # with the line to name if it is a ruling after all
    with pytest.raises(UnknownShape, match="its entry uses none of the game's terms") as refused:
        read_text(A_TIMING_RULE)
    assert "no title on it is a card or topic of the game" in str(refused.value)
    assert "{line: 3, head: true}" in str(refused.value)
    named = read_text(A_TIMING_RULE, heads={3: None})
    assert [e.title for e in named.entries] == ["Timing of a Play"]


def test_the_same_rule_under_a_title_the_game_knows_is_read():
    # A known topic's title confirms the page: its vocabulary is not weighed
    document = read_text(A_TIMING_RULE.replace("Timing of a Play", "playing a card"))
    assert [e.title for e in document.entries] == ["playing a card"]
    assert document.entries[0].text.startswith("Below is the timing sequence")
    assert not [w for w in document.warnings if w.doubt]


def test_a_card_review_credited_as_a_card_review_is_no_ruling():
    page = """We Have Engaged the Borg

Battle of Sector 001

Sector 001 Region • Near Earth: Take desperate action to repel relentless adversary.

This Card-Review was written by Matthew Zinno and was published first on the committee site.

The big opening battle of the film is now a mission card, and you can amass your fleet here.
"""
    with pytest.raises(UnknownShape):
        read_text(page)


def test_a_refused_look_alike_is_read_when_a_moderator_names_its_heads():
    with pytest.raises(UnknownShape, match=r"\{line: 5, head: true\}"):
        read_text(DECK_REPORT)
    # the named heads are the moderator's; the page's other heads are read as on any page
    document = read_text(DECK_REPORT, heads={5: None, 7: None})
    assert [e.title for e in document.entries] == [
        "Jean-Luc Picard",
        "Data",
        "Wormhole",
        "Red Alert",
    ]


def test_a_bulleted_list_of_keywords_is_no_entries_even_where_a_card_bears_the_word():
    # Another Star Trek game's keyword list: "Cloaking Device" is also a card of this game
    page = """Each keyword below changes how a ship plays in the other game, as its rules say.

  • Haste – This ship can attack the same turn it is summoned, before any other ship.
  • Stealth – This ship can't be targeted until it decloaks from an action, such as attacking.
  • Cloaking Device – If the ship does not take an action, then it cannot be targeted at all.
"""
    with pytest.raises(UnknownShape):
        read_text(page)


def test_a_card_review_credited_below_the_cards_data_is_no_ruling():
    # The credit comes after a card's data of many lines: the page is still a review
    data = "\n".join(f"Field {n}: value {n}" for n in range(16))
    page = f"""Borg Queen

Borg Queen

"We all originated from lesser species."

{data}

Borg Queen
Borg Queen counts as the matching commander of her ship.

This Card-Review article was written by Evan Lorentz and was published first on the site.

Many fans have debated which actress got the better card, and this one plays differently.
"""
    with pytest.raises(UnknownShape):
        read_text(page)


def _series_faq(label: str) -> str:
    topics = ("Jump Lane Timing", "Moons Without Planets", "Fleet Retreat Rolls")
    lines = ["These questions were asked at least once; the referee's answers are kept here."]
    for number, topic in enumerate(topics, 1):
        lines += [
            f"{label}{number}: {topic}",
            "Can a player's ship that starts its turn beside a jump lane cross it at no cost?",
            f"Answer #{number}:",
            "No. Every crossing costs the player one card from hand, as the ship moves.",
        ]
    return "\n".join(lines) + "\n"  # copied without blank lines, as some forums do


def test_a_series_of_one_numbered_label_is_no_glossary_in_order():
    # "Question #1: …", "Question #2: …" run in their numbers' order and share a letter, as a
    # glossary letter page's terms do; the order of a series confirms no unknown title
    with pytest.raises(UnknownShape, match="no entries found"):
        read_text(_series_faq("Question #"))


def test_a_programs_documentation_of_the_rules_is_refused_as_such():
    # a developer's table mapping the rulebook's terms to a program's names: a table of
    # terms over text, in a glossary's form, but every row names code
    rows = "".join(
        f"| {term} | `{code}`, action `{action}` |\n"
        for term, code, action in [
            ("draw", "drawCard", "moveTop"),
            ("stopped", "CardInstance.stopped", "setStopped"),
            ("shuffle", "shuffleArray", "shuffle"),
            ("turn", "TableState.turn", "nextTurn"),
            ("score", "TableState.score", "adjustScore"),
        ]
    )
    page = f"# Rulebook terms\n\n| Rulebook term | Code |\n|---|---|\n{rows}"
    with pytest.raises(UnknownShape, match="a program's documentation"):
        read_text(page, filename="terms.md")


def test_a_few_code_marks_in_a_rules_page_do_not_refuse_it():
    page = (
        "Dead End – Place on mission. Nullify with `Kevin Uxbridge`.\n\n"
        "Data – Data may not be killed by a dilemma that kills `one personnel`.\n"
    )
    assert [e.title for e in read_text(page).entries] == ["Dead End", "Data"]


@pytest.mark.parametrize(
    ("first", "read"),
    [
        # another game's FAQ, named after one of this game's cards: the page's own title
        ("Red Alert! - Pseudo FAQ v1.3", []),
        # a one-ruling paste: the card's ruling, though its text ends in no full stop
        ("Red Alert! - Plays on table; your ships may not be captured", ["Red Alert!"]),
    ],
)
def test_a_cards_name_over_a_documents_subtitle_at_the_top_is_the_pages_title(first, read):
    page = (
        f"{first}\n\nA Q&A with the designer of the game, who answers the players' questions "
        "about its printed rules and the cards of its first set.\n"
    )
    try:
        titles = [e.title for e in read_text(page).entries]
    except UnknownShape:
        titles = []
    assert titles == read


def test_an_faqs_question_and_answer_marks_head_no_entries():
    # "Q - …" / "A - …" read as "Title - text" heads: the card Q, and an "A" (another
    # game's FAQ on building an outpost); the marks name no card, so no shape's read stands
    page = "Outpost FAQ - Frequently Asked Questions\n\n" + "".join(
        f"Q - {question}\nA - {answer}\n\n"
        for question, answer in [
            ("What is an Outpost?", "A station the players build on a planet of their own."),
            ("Where is an Outpost deployed?", "At the warp point of a planet in your space."),
            ("Can we blow up an Outpost?", "No, an outpost may not be destroyed by a ship."),
        ]
    )
    with pytest.raises(UnknownShape, match="marks"):
        read_text(page)


def test_the_card_q_heads_its_own_entry_among_others():
    page = (
        "Q – Q is a card that plays on a mission; a dilemma may not be played under it.\n\n"
        "Q-Flash – The Q-Flash is a side deck of Q-related dilemmas.\n\n"
        "Q's Tent – You may download one card from the Q's Tent side deck each turn.\n"
    )
    assert [e.title for e in read_text(page).entries] == ["Q", "Q-Flash", "Q's Tent"]


def test_a_card_programs_deck_export_is_refused_and_its_counts_offered_as_no_heads():
    # a LackeyCCG deck file: a count, a tab, the card; a card's own title holds a dash
    cards = [
        "Alidar Jarok",
        "Get It Done",
        "Koral",
        "Vash",
        "Science Vessel",
        "Tallera",
        "Armus - Skin of Evil",
        'Birth of "Junior"',
        "Radioactive Garbage Scow",
        "Virus",
        "Assign Mission Specialists",
        "Captain's Holiday",
    ]
    page = "\n".join(f"{1 + n % 2}\t{card}" for n, card in enumerate(cards))
    page = page.replace("\n2\tScience Vessel", "\nMissions:\n1\tScience Vessel") + "\n"
    with pytest.raises(UnknownShape) as refused:
        read_text(page)
    assert "Lines that open like an entry" not in str(refused.value)


def test_another_games_glossary_is_refused_though_some_titles_are_any_games_words():
    # "Ability" and "Action" are titles the project knows (2E's); the entries use none of
    # this game's terms
    page = (
        "Glossary\n\n"
        "Ability - The area on a playing card that may be activated during the proper phase. "
        "It sometimes costs something, as the card will say, and may be used every turn.\n\n"
        "Absorb - When a wall or any other unit has a shield helper icon, it cannot be hurt "
        "for as many points as the number printed beside that icon on the card.\n\n"
        "Act of God Card - A type of card that changes play in one or more areas of the map "
        "because of a calamity. When one is drawn it is played at once and all play stops "
        "until it is resolved; nothing beats this card, ever.\n\n"
        "Action - What an effect will do. Typically found on tactics cards, actions happen "
        "instantly, and the last action played trumps any earlier one, which is normal.\n\n"
        "Active Effect - Something happening in the game that affects a turn or the turn "
        "after it. Usually it is negated when the turn ends during the resolve phase of the "
        "round, unless the card that caused it says that it lasts longer than that.\n"
    )
    with pytest.raises(UnknownShape, match="does not read as the Star Trek CCG's rules"):
        read_text(page)


def test_another_games_short_terminology_list_is_refused():
    page = (
        "Glossary of game terminology\n\n"
        "Battle Calculation – attack and defense compared when a unit card is triggered\n\n"
        "Conversion – When a unit card is defeated and its ownership changes to the other side\n\n"
        "Active Hand – A player's currently drawn and playable cards, held until they are used.\n\n"
        "Mulligan – A player can replace some cards in their hand at the start of their turn.\n"
    )
    with pytest.raises(UnknownShape, match="does not read as the Star Trek CCG's rules"):
        read_text(page)


def test_a_deck_list_whose_entries_end_no_sentence_is_refused():
    # a deck list as openCards prints it: section lines over card names with their set
    # numbers; read by its forms, its "entries" hold names, never a sentence (a ship's
    # initials end none: "U.S.S. Enterprise-J")
    page = (
        "Burn the Turn | openCards\n\nBurn the Turn\n\n"
        "This Deck was built by a staff writer and was published first on the committee's "
        "site.\n\nDeck listing:\n\nDilemma pile (36):\n\n"
        "planet\nHard Time (6 P 6)\nspace\nNight Terrors (14 U 9)\n\n"
        "space – Outclassed (8 R 13)\nPersonal Duty (1 R 42)\ndual\n\n"
        "dual – Skeleton Crew (3 U 28)\nThe Dal'Rok (13 R 20)\nTimescape (2 C 25)\n\n"
        "planet – Old Differences (14 C 10)\nU.S.S. Enterprise-J (14 R 43)\n\n"
        "Draw deck (51):\n\nEvent – Energize (13 U 27)\nNo Kill I (12 R 14)\n"
    )
    with pytest.raises(UnknownShape, match="looks like a list"):
        read_text(page)


def test_rulings_of_which_one_ends_no_sentence_are_read():
    page = (
        'Liberty – The class has been changed to "Condor Class" and the Staffing to [Maq] [Maq]\n\n'
        "Lore Returns – When you play this event on a ship, your Rogue Borg take control of "
        "that ship, regardless of staffing or leader requirements.\n\n"
        "matching commander – A personnel is a matching commander for a ship if either card "
        "both names the other in lore and states that the personnel is its commander.\n"
    )
    assert [e.title for e in read_text(page).entries] == [
        "Liberty",
        "Lore Returns",
        "matching commander",
    ]


@pytest.mark.parametrize("apostrophe", ["'", "’"])
def test_a_games_term_counts_in_a_possessive_however_its_apostrophe_is_typed(apostrophe):
    # The only term of the game in the entry is a possessive: a straight apostrophe, as a
    # moderator's keyboard types it, counts as much as the typeset one
    page = A_TIMING_RULE.replace(
        "using the game text that allows the play", f"using the mission{apostrophe}s game text"
    )
    document = read_text(page)
    assert [e.title for e in document.entries] == ["Timing of a Play"]


def test_a_posts_byline_is_not_offered_as_a_head():
    # a forum post copied with its byline: the refusal offers the post's heading over prose
    # as a head a moderator may name, never the line that names its writer
    page = (
        "Rules Questions\n"
        "By KazonPADD (Paddy Tye)\n"
        "Some players asked me how a download works when the deck holds no copy of the card "
        "named, so here is what the rulebook and the Glossary say about it, in plain words.\n"
        "\n"
        "Downloads From an Empty Deck\n"
        "When you download a card and your deck holds no copy of it, you may look through the "
        "deck anyway and then shuffle it, as the rules for a download require.\n"
    )
    with pytest.raises(UnknownShape) as refused:
        read_text(page)
    listed = str(refused.value).split("Lines that open like an entry")[1]
    assert "line 5: Downloads From an Empty Deck" in listed
    assert "KazonPADD" not in listed


def test_a_refusal_says_which_listed_heads_the_project_knows():
    # A monthly rules article's headings under its byline: a card's name (Assimilate
    # Species, a 1E card) and a heading of the article's own. Neither is taken, and the
    # refusal does not claim the project knows neither: it names the card's as known.
    page = (
        "Rules Update, May 2024\n"
        "by James Heaney, Rules Manager (1E)\n"
        "This month, all we really did was answer questions that we were asked, so I will "
        "follow a question and answer format instead of my usual rambling.\n"
        "\n"
        "Assimilate Species\n"
        "Several players asked how a battle it starts ends, and we looked at the history of "
        "the card before we settled what the bottom line should be this month.\n"
        "\n"
        "Downloads From an Empty Deck\n"
        "The season starts soon, and the organisers have asked for the rulings in advance "
        "so that every judge can read them before the first event of the year.\n"
    )
    with pytest.raises(UnknownShape) as refused:
        read_text(page)
    listed = str(refused.value).split("Lines that open like an entry")[1]
    assert "line 5: Assimilate Species (a title the project knows)\n" in listed
    assert "line 8: Downloads From an Empty Deck\n" in listed
    assert "the project knows no such title" not in str(refused.value)


POLL = """Did you find this article useful?

Very useful
6
50%
Mixed - Lots I still don't understand
No votes
0%
Not useful - my head hurts...
1
8%

By a member

Actions and Timing

It the Star Trek universe the action can come thick and fast, but how is this managed?
"""


def test_a_forum_polls_options_are_no_entries():
    # Each option of a poll stands over its votes and its share; an option in a dash's form
    # ("Mixed - Lots I still don't understand") was read as an entry titled "Mixed".
    with pytest.raises(UnknownShape):
        read_text(POLL, "post.txt")


def test_a_dash_entry_over_numbers_that_are_no_poll_is_still_read():
    # a count alone under an entry is no poll without its share under it
    page = POLL.replace("50%", "fifty").replace("0%", "none").replace("8%", "eight")
    titles = [e.title for e in read_text(page, "post.txt").entries]
    assert "Mixed" in titles


OTHER_GAMES_ANSWERS = " ".join(
    [
        "When a player casts a spell card, that card goes on the stack and each other player "
        "may respond with a card of their own before it resolves.",
        "A player who controls a creature card may attack with it during their combat step, "
        "and the defending player chooses which of their creature cards block.",
        "If a card tells a player to draw cards, that player draws them one at a time from the "
        "top of their library, and may look at them.",
    ]
    * 4
)


def test_a_page_without_heads_or_the_games_terms_is_refused_as_perhaps_another_games():
    # Another game's rulings speak of cards and players as this game's do; with no head the
    # reader takes, the refusal says what tells them apart: none of the game's terms.
    with pytest.raises(UnknownShape, match="another game's rules") as refused:
        read_text(f"Official answers for the card game\n\n{OTHER_GAMES_ANSWERS}\n", "faq.txt")
    assert "none of the game's terms" in str(refused.value)
    # the same prose on the game's own subject is an article, said as before
    own = OTHER_GAMES_ANSWERS.replace("spell card", "dilemma").replace("creature", "personnel")
    with pytest.raises(UnknownShape, match="a preamble or an article"):
        read_text(f"Official answers for the card game\n\n{own}\n", "faq.txt")
