"""How surely the reader names a card by its game text (a card page copied from below the
card's name), on the shipped card lists themselves:

    .venv/bin/python -m tests.ingest.card_text_check [--cards 600] [--seed 7]

For a sample of cards with six or more words of text, a page printing a line of lore and
the card's text is read twice: with every shipped card to compare with (the card should be
named: right, none, or another card), and with the card left out, as for a card newer than
the shipped list (nothing should be named; another card named is a wrong title, which the
reader's doubt on each such entry leaves to a moderator).
"""

from __future__ import annotations

import argparse
import random

from bot.ingest.cards import load_card_index
from bot.ingest.dataset import default_data_dir
from bot.ingest.reader.card_text import card_by_text, card_texts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=600)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    cards = [
        card
        for edition in ("1e", "2e")
        for card in load_card_index(default_data_dir() / "cards" / f"{edition}.yaml")
        if card.text and len(card.text.split()) >= 6
    ]
    keys, titles = card_texts()
    counts = dict(right=0, none=0, other=0, absent_none=0, absent_other=0)
    for card in random.Random(args.seed).sample(cards, min(args.cards, len(cards))):
        text = card.text.replace("{", "").replace("}", "")
        rows = [(1, "A line of the card's lore, as the page prints it."), (3, text)]
        page = "\n".join(line for _, line in rows)
        named = card_by_text(rows, page)
        key = "none" if named is None else "right" if named[1] == card.title else "other"
        counts[key] += 1
        kept = [i for i, t in enumerate(titles) if card.title not in t.split("\t")]
        without = ([keys[i] for i in kept], [titles[i] for i in kept])
        named = card_by_text(rows, page, without)
        counts["absent_none" if named is None else "absent_other"] += 1
        if named is not None:
            print(f"  left out {card.title!r}: named {named[1]!r}")
    sampled = counts["right"] + counts["none"] + counts["other"]
    print(
        f"{sampled} cards: named right {counts['right']}, none {counts['none']}, another "
        f"{counts['other']}; left out of the list: none {counts['absent_none']}, another "
        f"card {counts['absent_other']} (each with a doubt)"
    )


if __name__ == "__main__":
    main()
