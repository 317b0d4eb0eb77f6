"""Sweeps: probes built from the bundled names, and what counts as a wrong confident answer."""

import json
import random

from bot.search.evaluate import Ranked
from bot.search.hits import Target
from bot.search.sweep import card_probes, one_typo, sweep, title_probes


def _target(topic: str, title: str, edition: str = "1E") -> Target:
    return Target(topic, topic, title, edition, "rule", "Glossary", None)


def test_one_typo_changes_one_letter_of_the_longest_word_and_is_seeded():
    typed = one_typo("matching commander", random.Random(3))
    assert typed is not None and typed.startswith("matching ") and typed != "matching commander"
    assert abs(len(typed) - len("matching commander")) <= 1
    assert typed == one_typo("matching commander", random.Random(3))  # the seed decides
    assert one_typo("Q's Tent", random.Random(1)) is None  # no word long enough to tell


def test_title_probes_ask_each_title_with_its_edition_and_without():
    probes = title_probes(
        [_target("1e-matching-commander", "matching commander")], random.Random(1)
    )
    assert [p.edition for p in probes] == ["1E", None]
    assert all(p.wants == {"1e-matching-commander"} for p in probes)
    assert probes[0].query == probes[1].query != "matching commander"


def test_a_card_probe_accepts_the_card_its_namesake_and_the_rulings_about_either():
    cards = [_target("1e-evek", "Evek"), _target("2e-evek", "Evek", "2E"), _target("1e-odo", "Odo")]
    about = {"2e-evek": {"2e-playing-a-card"}}
    probes = card_probes(cards, about, random.Random(1), in_question=True, sample=3)
    evek = next(p for p in probes if "Evek" in p.query)
    assert evek.wants == {"1e-evek", "2e-evek", "2e-playing-a-card"}
    assert next(p for p in probes if "Odo" in p.query).wants == {"1e-odo"}


def test_a_sweep_counts_confident_answers_and_lists_those_not_asked_for():
    titles = [_target("1e-dilemma-resolution", "dilemma resolution"), _target("1e-borg", "Borg starship")]  # fmt: skip
    probes = title_probes(titles, random.Random(1))
    asked = {next(iter(p.wants)): p.query for p in probes}  # probes come in topic order
    resolution, borg = asked["1e-dilemma-resolution"], asked["1e-borg"]
    card = Ranked(["1e-borg-ship-card"], [], confident=True, covers={"1e-borg-ship-card": {"1e-borg"}})  # fmt: skip

    def ask(query, edition):
        if query == resolution:  # right with its edition, confidently wrong without
            return Ranked(["1e-dilemma-resolution" if edition else "1e-missions"], [], True)
        return card if query == borg else Ranked([], [], False)

    found = sweep(probes, ask)
    assert found["probes"] == 4 and found["confident"] == 4
    assert found["wrong"] == [{"query": resolution, "edition": None, "got": ["1e-missions"]}]


def test_rulings_eval_sweep_reports_the_three_sweeps(store_copy, capsys):
    from bot.cli.main import main

    assert main(["--db", str(store_copy), "eval", "--sweep", "--json", "--seed", "2"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["seed"] == 2
    assert set(report["sweeps"]) == {
        "titles with a typo", "card names with a typo", "card names in a question",
    }  # fmt: skip
    for found in report["sweeps"].values():
        assert 0 < found["confident"] <= found["probes"]
        assert len(found["wrong"]) <= found["confident"]
