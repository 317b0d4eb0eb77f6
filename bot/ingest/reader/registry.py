"""The shapes the reader knows, each with its ``detect`` and ``parse``; the best score wins."""

from __future__ import annotations

from bot.ingest.reader import (
    bundled,
    card_page,
    decipher,
    faq,
    feed,
    feed_table,
    general,
    glossary_pdf,
    glossary_table,
    questions,
    rule_history,
    single_ruling,
)
from bot.ingest.reader.model import Shape

FLOOR = 0.3  # a best score below this is no recognised shape

SHAPES: tuple[Shape, ...] = (
    Shape(
        "rulings-feed",
        "the 2E rulings feed: 'Title YYYY-MM-DD' lines, text, 'Example:' paragraphs",
        feed.detect,
        feed.parse,
        own_form=True,
    ),
    Shape(
        "rulings-feed-table",
        "the rulings feed as a table: '| Title | Date | Text |' rows or tab-separated",
        feed_table.detect,
        feed_table.parse,
        own_form=True,
    ),
    Shape(
        "single-ruling-page",
        "one ruling: title, text, 'Example:', 'Applicable Cards:'",
        single_ruling.detect,
        single_ruling.parse,
    ),
    Shape(
        "card-page",
        "a card database's page for one card: '<title> <rarity> card from <set> (<year>)', "
        "the card's text, then 'Rule notes' and the rulings on the card",
        card_page.detect,
        card_page.parse,
        unique_titles=False,  # a card's erratum and its clarification are two rulings
    ),
    Shape(
        "decipher-current-rulings",
        "Decipher-era 1E Current Rulings: 'Rulings Updated MM/DD/YY', 'TITLE - text' entries",
        decipher.detect,
        decipher.parse,
    ),
    Shape(
        "glossary-table",
        "a Glossary page scraped from an HTML table ('|' separator lines or '| Term | Text |')",
        glossary_table.detect,
        glossary_table.parse,
    ),
    Shape(
        "glossary-pdf-page",
        "a page of the Glossary PDF from a flip-book site: '<br />' lines, 'Title – text'",
        glossary_pdf.detect,
        glossary_pdf.parse,
    ),
    Shape(
        "faq",
        "questions and answers: 'TOPIC -- Q: ... A: ...'",
        faq.detect,
        faq.parse,
        unique_titles=False,
    ),
    Shape(
        "rule-history",
        "the committee's history of rule changes: a title, its statement, then "
        "'Original | Superseded' and the documents that made and changed it",
        rule_history.detect,
        rule_history.parse,
        own_form=True,
    ),
    Shape(
        "questions",
        "rulings printed as a question line and its answer (a page that calls itself "
        "rulings or an FAQ)",
        questions.detect,
        questions.parse,
        unique_titles=False,
    ),
    Shape(
        "general",
        "any page whose entries open 'title – text', 'title: text' or with a title line the "
        "project knows (a card, a topic); site menus and link lists are removed",
        general.detect,
        general.parse,
    ),
    Shape(
        "crd-2e-text",
        "the 2E Current Rulings Document as PDF text: 'term – text' entries",
        bundled.detect_crd_2e_text,
        bundled.parse_crd_2e_text,
    ),
    Shape(
        "crd-markdown",
        "a Current Rulings Document in Markdown (1E 'RULINGS – General', 2E '**term** – text')",
        bundled.detect_crd_markdown,
        bundled.parse_crd_markdown,
    ),
    Shape(
        "opencards-terms",
        "the openCards 2E terms overview ('TermTaken from' table, 'Taken from X.' lines)",
        bundled.detect_opencards,
        bundled.parse_opencards,
    ),
)


def by_name(name: str) -> Shape:
    for shape in SHAPES:
        if shape.name == name:
            return shape
    raise KeyError(name)


def ranked(text: str) -> list[tuple[float, Shape]]:
    """Every shape scoring at least :data:`FLOOR`, best first (registry order breaks ties)."""
    scores = [(shape.detect(text), -index, shape) for index, shape in enumerate(SHAPES)]
    scores.sort(key=lambda item: (item[0], item[1]), reverse=True)
    return [(score, shape) for score, _, shape in scores if score >= FLOOR]
