"""A moderator change updates the index topic by topic; the result must answer exactly as an
index built whole from the same store, after every kind of change."""

from bot.answers.lookups import Answers
from bot.answers.moderation import Moderator
from bot.answers.service import Rulings

MARY = Moderator("101", "Mod Mary")


def _answers_alike(live: Rulings, queries: list[str]) -> None:
    updated = live._answers
    whole = Answers(live.store)
    try:
        assert len(updated.index) == len(whole.index)
        assert [t.entry for t in updated.index.catalog.current_targets()] == [
            t.entry for t in whole.index.catalog.current_targets()
        ]
        for query in queries:
            for edition in (None, "1E", "2E"):
                ours = updated.index.search(query, edition=edition, limit=10, thorough=True)
                theirs = whole.index.search(query, edition=edition, limit=10, thorough=True)
                assert (ours.confident, [(h.target.entry, h.score) for h in ours.hits]) == (
                    theirs.confident,
                    [(h.target.entry, h.score) for h in theirs.hits],
                ), (query, edition)
                # Autocomplete orders equally good names by where they sit in the index, which
                # an update changes; what is offered must be the same.
                offered = updated.index.suggest(query, edition=edition)
                expected = whole.index.suggest(query, edition=edition)
                if len(expected) < 25:
                    assert sorted(offered) == sorted(expected), (query, edition)
                else:
                    assert len(offered) == 25 and offered[:3] == expected[:3], (query, edition)
    finally:
        whole.readers.close()


def _updated_in_place(live: Rulings, before: Answers) -> bool:
    """True when the generation was made by updating ``before`` (not rebuilt whole)."""
    return live._answers is not before and live._answers.builder is before.builder


def test_each_kind_of_change_is_an_update_that_answers_as_a_whole_build(live):
    queries = [
        "tribble timing", "tt", "trib", "tribbles multiply", "matching commander", "match",
        "mc", "klingon tea ceremony", "ktc", "stopped", "mission attempt", "borg",
        "quark's bar", "sisko", "how many copies of a card may my deck hold",
    ]  # fmt: skip

    before = live._answers
    added = live.add_ruling(
        MARY, title="Tribble Timing", edition="2E", kind="rule", aliases=["TT"],
        text="Tribbles multiply at the start of each turn.",
        document="Moderator Clarifications", date="2026-11-01", new_document=True,
    )  # fmt: skip
    assert added and _updated_in_place(live, before)
    _answers_alike(live, queries)

    entry = live.show("tribble timing")[0]["id"]
    before = live._answers
    version = live.editable_entry(entry)["version"]
    live.edit_ruling(MARY, entry, version, title="Tribble Breeding Timing")
    assert _updated_in_place(live, before)
    assert live.show("tribble breeding timing")[0]["id"] == entry
    _answers_alike(live, [*queries, "tribble breeding timing", "breeding"])

    topic = live.store.entry(entry)["topic"]
    before = live._answers
    live.add_alias(MARY, "Furry Trouble", topic)
    assert _updated_in_place(live, before)
    assert live.show("furry trouble")[0]["id"] == entry
    _answers_alike(live, [*queries, "furry trouble", "furry"])

    before = live._answers
    live.remove_alias(MARY, "Furry Trouble", topic)
    assert _updated_in_place(live, before)
    _answers_alike(live, [*queries, "furry trouble", "furry"])

    commander = live.show("matching commander", edition="1E")[0]["id"]
    before = live._answers
    retired = live.retire_ruling(MARY, commander, "test")
    assert _updated_in_place(live, before)
    _answers_alike(live, [*queries, "matching"])

    before = live._answers
    live.revert_change(MARY, retired["id"], "undo")
    assert _updated_in_place(live, before)
    assert live.show("matching commander", edition="1E")[0]["id"] == commander
    _answers_alike(live, queries)


def test_readers_of_the_previous_generation_are_not_disturbed(live):
    before = live._answers
    found = before.index.search("ktc", limit=5)
    live.add_ruling(
        MARY, title="KTC Timing", edition="2E", kind="rule", aliases=[],
        text="A new ruling that claims the initialism.",
        document="Moderator Clarifications", date="2026-11-01", new_document=True,
    )  # fmt: skip
    live.add_alias(MARY, "KTC", "2e-ktc-timing", repoint=True)
    assert live._answers.index.search("ktc", limit=5).hits[0].target.topic == "2e-ktc-timing"
    again = before.index.search("ktc", limit=5)
    assert [(h.target.entry, h.score) for h in again.hits] == [
        (h.target.entry, h.score) for h in found.hits
    ]
    assert "2e-ktc-timing" not in before.index.by_topic
    assert "2e-ktc-timing" in live._answers.index.by_topic


def test_a_change_made_by_another_process_is_also_an_update(store_copy, tmp_path, data_copy):
    writer, reader = Rulings.open(store_copy, data_copy), Rulings.open(store_copy, data_copy)
    try:
        before = reader._answers
        writer.add_ruling(
            MARY, title="Tribble Timing", edition="2E", kind="rule", aliases=[],
            text="Tribbles multiply.", document="Moderator Clarifications", date="2026-11-01", new_document=True,
        )  # fmt: skip
        assert reader.refresh_if_changed()
        assert _updated_in_place(reader, before)
        assert reader.show("tribble timing")[0]["text"] == "Tribbles multiply."
        _answers_alike(reader, ["tribble timing", "tribble", "ktc"])
    finally:
        writer.close()
        reader.close()


def test_lookups_run_in_parallel_with_changes_without_errors(live):
    """Readers on their own connections, a writer swapping generations: no answer fails."""
    import threading

    errors: list[BaseException] = []
    stop = threading.Event()
    queries = ["matching commander", "ktc", "borg", "how do I win", "quark", "tribble"]

    def read(number: int) -> None:
        try:
            while not stop.is_set():
                query = queries[number % len(queries)]
                live.show(query)
                live.search(query)
                live.history(query)
                live.card("Quark")
                live.snippets(["1e-crd-2014-11-03:matching-commander"])
                number += 1
        except BaseException as error:  # noqa: BLE001 - any failure is the finding
            errors.append(error)

    readers = [threading.Thread(target=read, args=(n,)) for n in range(6)]
    for thread in readers:
        thread.start()
    try:
        added = live.add_ruling(
            MARY, title="Tribble Timing", edition="2E", kind="rule", aliases=[],
            text="Version 0.", document="Moderator Clarifications", date="2026-11-01", new_document=True,
        )  # fmt: skip
        assert added
        entry = live.show("tribble timing")[0]["id"]
        for number in range(1, 8):
            version = live.editable_entry(entry)["version"]
            live.edit_ruling(MARY, entry, version, text=f"Version {number}.")
            assert live.show("tribble timing")[0]["text"] == f"Version {number}."
    finally:
        stop.set()
        for thread in readers:
            thread.join()
    assert errors == []
