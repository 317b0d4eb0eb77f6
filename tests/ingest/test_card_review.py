"""Issue 38: card lists change too. Re-importing the card lists flags, for a moderator's
review, every ruling that mentions a card whose text changed."""

from __future__ import annotations

from pathlib import Path

from bot.ingest.importer import changed_cards, print_report, run_import, to_review
from bot.models import Card

LACKEY = Path(__file__).resolve().parents[3] / "shared" / "cards"


def _card(text: str, type_: str = "Mission") -> Card:
    return Card(
        id="2e-brute-force", edition="2E", title="Brute Force", subtitle=None, type=type_, text=text
    )


def test_a_card_whose_text_or_type_changed_is_found_and_its_rulings_listed():
    before = [_card("Score 5 points.")]
    assert changed_cards(before, [_card("Score 5 points.")]) == {}
    assert changed_cards(before, [_card("Score 10 points.")]) == {"2e-brute-force": "Brute Force"}
    assert changed_cards(before, [_card("Score 5 points.", "Event")]) == {
        "2e-brute-force": "Brute Force"
    }
    records = [
        {"id": "a", "title": "Kor", "mentions": [{"type": "card", "card_ids": ["2e-brute-force"]}]},
        {"id": "b", "title": "other", "mentions": [{"type": "term", "topic": "2e-skills"}]},
    ]
    assert to_review(records, {"2e-brute-force": "Brute Force"}) == [("a", "Kor", ["Brute Force"])]


def test_reimporting_card_lists_flags_rulings_of_changed_cards(data_copy, capsys):
    # The stored index says Brute Force once read otherwise: the fresh lists change its text.
    index = data_copy / "cards" / "2e.yaml"
    text = index.read_text(encoding="utf-8")
    old = "  text: When you complete this mission, if each of your personnel at this mission is a"
    assert old in text
    index.write_text(text.replace(old, "  text: Formerly, if each of your personnel is a", 1))
    reports = {r.document.id: r for r in run_import(data_copy, cards_dir=LACKEY)}
    flagged = {entry_id: cards for r in reports.values() for entry_id, _, cards in r.review}
    assert flagged and all(cards == ["Brute Force"] for cards in flagged.values())
    assert any(entry_id.startswith("2e-crd-2011-10-05:") for entry_id in flagged)
    print_report(list(reports.values()))
    assert "review (card text changed: Brute Force)" in capsys.readouterr().out
