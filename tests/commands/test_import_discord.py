"""/ruling-admin import through the fake Discord: the shared preview (shape, encoding,
warnings first, every entry with its status), and a second click to import over warnings."""

import pytest

from tests.commands.helpers import admin
from tests.fakediscord import payloads

HOME = payloads.GUILD_ID

# Two rulings in the shape of the committee's 2E rulings feed
# (http://www.trekcc.org/2e/rulings.php), saved in cp1252 and cut off mid-sentence (a warning).
FEED = (
    "Second Edition rulings\n"
    "\n"
    "Bynars\u2019 Weapon 2017-03-01\n"
    "Bynars\u2019 Weapon can be used on a ship that is not in combat.\n"
    "\n"
    "Crisis 2016-11-02\n"
    "When Crisis is used, the dilemma is placed under the\n"
).encode("cp1252")


def _custom_id(components: list[dict], prefix: str) -> str:
    return next(
        c["custom_id"]
        for row in components
        for c in row["components"]
        if c["custom_id"].startswith(prefix)
    )


async def _import(fake_discord, options: dict, **attachments: tuple[str, bytes]):
    """/ruling-admin import with ``attachments`` (field: (file name, bytes)), as a moderator
    sends it: the interaction and the preview (or refusal) it is answered with."""
    files = {field: fake_discord.attachment(*file) for field, file in attachments.items()}
    ix = admin("import", options, attachments=files)
    await fake_discord.interact(ix)
    followup = await fake_discord.wait_for_request(
        lambda r: r.method == "POST" and r.path.endswith(ix["token"]), timeout=20
    )
    return ix, followup


async def _click(fake_discord, custom_id: str, message: dict):
    return await fake_discord.interact(
        payloads.button_click(
            custom_id,
            message,
            guild_id=HOME,
            user=payloads.MOD_USER,
            member_roles=[payloads.MOD_ROLE_ID],
        )
    )


async def test_import_with_warnings_takes_a_second_click(fake_discord, running, live):
    async with running(live):
        ix, followup = await _import(
            fake_discord, {"edition": "2E"}, document=("rulings.txt", FEED)
        )
        embeds = followup.json["embeds"]
        summary = embeds[0]["description"]
        assert "shape **rulings-feed** · encoding **cp1252**" in summary
        assert "2E · rulings feed · undated · official" in summary
        warnings = summary.split("**⚠ Warnings (notes: confirming takes a second click):**\n")[1]
        assert warnings.startswith("line 6: the last entry 'Crisis' ends mid-sentence")
        entries = embeds[1]["description"].splitlines()
        assert entries == [
            "`🆕 new` **Bynars’ Weapon** (2017-03-01) — 13 words: Bynars’ Weapon can be used "
            "on a ship …",
            "`🆕 new` **Crisis** (2016-11-02) — 10 words: When Crisis is used, the dilemma is "
            "placed …",
        ]
        # Every entry, warning and diff is in the attached text, whatever fits in the embeds.
        (listing,) = followup.files
        assert listing["filename"] == "import-preview.txt"
        text = listing["data"].decode("utf-8")
        assert "Warnings:\n  line 6: the last entry 'Crisis' ends mid-sentence" in text
        assert "  new       Bynars’ Weapon (2017-03-01) — 13 words: Bynars’ Weapon" in text
        assert "  new       Crisis (2016-11-02) — 10 words: When Crisis is used" in text
        message = fake_discord.original_message(ix["token"])
        first = await _click(
            fake_discord, _custom_id(followup.json["components"], "ra:ok:"), message
        )
        data = first.body["data"]
        assert data["content"].startswith("⚠ This document has 1 warning(s)")
        assert live.change_log(5) == []  # the first click changed nothing
        again = _custom_id(data["components"], "ra:ok:")
        labels = [c["label"] for row in data["components"] for c in row["components"]]
        assert labels == ["Import despite warnings", "Cancel"]
        done = await _click(fake_discord, again, message)
    assert done.body["data"]["content"].startswith("Done:")
    answer = live.show("Crisis", edition="2E")[0]
    assert answer["date"] == "2016-11-02"  # the ruling's own date, not one for the upload
    assert live.change_log(1)[0]["action"] == "import"


def test_a_long_preview_stays_inside_discord_limits():
    """Hundreds of entries and warnings: every embed within Discord's limits, warnings first,
    and what did not fit is counted, never silently dropped."""
    from bot.answers.imports import ImportPreview
    from commands import limits
    from commands.render_admin import import_embeds

    entries = [
        {
            "title": f"entry {n} " + "x" * 80,
            "date": "2030-01-01",
            "status": ("new", "changed", "unchanged", "older")[n % 4],
            "words": 300,
            "first_words": "When a player names a number, he or …",
            "diff": ("[-old-] {+new+} " * 200) if n % 4 == 1 else None,
            "text": "t",
            "kind": "rule",
        }
        for n in range(600)
    ]
    preview = ImportPreview(
        document={
            "id": "2e-crd-2030-01-01",
            "title": "T" * 300,
            "edition": "2E",
            "kind": "current rulings",
            "date": "2030-01-01",
            "official": True,
            "shape": "crd-2e-text",
            "encoding": "utf-16",
        },  # fmt: skip
        entries=entries,
        warnings=[{"line": n, "message": "w" * 150} for n in range(200)],
    )
    embeds = [e.to_dict() for e in import_embeds(preview)]
    assert len(embeds) <= limits.EMBEDS_PER_MESSAGE
    total = sum(len(e.get("title", "")) + len(e.get("description", "")) for e in embeds)
    assert total <= limits.EMBED_TOTAL
    assert all(len(e.get("description", "")) <= limits.EMBED_DESCRIPTION for e in embeds)
    assert all(len(e.get("title", "")) <= limits.EMBED_TITLE for e in embeds)
    head = embeds[0]["description"]
    assert "Warnings: 200" in head and "line 0: www" in head
    assert head.rstrip().endswith("more warnings")
    assert embeds[1]["title"] == "Entries"
    assert (
        "more entries (every entry is in the attached import-preview.txt)"
        in embeds[1]["description"]
    )
    assert "more changed entries (diffs not shown)" in embeds[-1]["description"]


@pytest.mark.parametrize(("words", "said"), [(1, "1 word:"), (2, "2 words:")])
def test_an_entrys_length_is_said_the_same_in_discord_and_the_listing(words, said):
    from bot.answers.imports import ImportPreview
    from commands.render_admin import import_embeds

    entry = {"title": "BATTLE", "date": None, "status": "new", "words": words, "diff": None}
    entry |= {"first_words": "AFFILIATIO", "text": "AFFILIATIO", "kind": "rule"}
    document = {"id": "1e-x", "title": "x", "edition": "1E", "kind": "current rulings"}
    document |= {"date": None, "official": True, "shape": "general", "encoding": "utf-8"}
    preview = ImportPreview(document=document, entries=[entry], warnings=[])
    listed = import_embeds(preview)[1].description
    assert f"**BATTLE** — {said} AFFILIATIO" in listed
    assert f"BATTLE — {said} AFFILIATIO" in preview.as_text(100)


# The committee's 2E ruling page as a browser copies it: the site's menu line first, then
# the ruling (shared/sources/examples, "Set Up"), its cards, and the site's footer.
PASTED_PAGE = (
    "What's New Dashboard Articles Forums Chat Room Achievements Tournaments Player Map "
    "The Promenade Volunteers About Us Site Index\n"
    "Second Edition\n\n"
    "Set Up 2016-09-19\n\n"
    "When this event's text is used on a random selection involving more than one personnel, "
    "the player using Set Up chooses one personnel to be included in the selection.\n\n"
    "Applicable Cards:\nSet Up\n\n"
    "Star Trek in all forms is copyright and trademark of CBS Paramount Studios which has no "
    "affiliation with trekcc.org or The Continuing Committee.\n"
)


async def test_a_pasted_ruling_page_gets_the_same_preview(fake_discord, running, live):
    from tests.commands.test_moderation_discord import text_inputs

    async with running(live):
        opened = await fake_discord.interact(admin("import", {"edition": "2E"}))
        assert opened.body["type"] == 9, opened.body  # a modal: paste the page's text
        modal = opened.body["data"]
        fields = text_inputs(modal)
        submit = payloads.modal_submit(
            modal["custom_id"],
            {fields["Page text (as copied)"]: PASTED_PAGE},
            guild_id=HOME,
            user=payloads.MOD_USER,
            member_roles=[payloads.MOD_ROLE_ID],
        )
        await fake_discord.interact(submit)
        followup = await fake_discord.wait_for_request(
            lambda r: r.method == "POST" and r.path.endswith(submit["token"]), timeout=20
        )
        embeds = followup.json["embeds"]
        assert "shape **single-ruling-page** · encoding **utf-8**" in embeds[0]["description"]
        (entry,) = embeds[1]["description"].splitlines()
        assert entry.startswith("`🆕 new` **Set Up** (2016-09-19) — 29 words: When this event")
        assert "What's New" not in embeds[1]["description"]  # the menu line is no title
        (listing,) = followup.files
        assert "page chrome before the ruling" in listing["data"].decode("utf-8")
        assert live.change_log(5) == []  # nothing changes before Confirm


def _field(modal: dict) -> tuple[str, str]:
    """The custom id and pre-filled value of a modal's one text input."""
    found = []

    def walk(component: dict) -> None:
        if component.get("type") == 4:
            found.append((component["custom_id"], component.get("value", "")))
        for child in component.get("components", []):
            walk(child)
        if "component" in component:
            walk(component["component"])

    for row in modal["components"]:
        walk(row)
    (field,) = found
    return field


async def _fix(fake_discord, components: list[dict], message: dict, edit):
    """Click Fix… under ``message``, and submit its form with ``edit`` applied to the
    drafted corrections: the form, and the reply (a new preview or a refusal)."""
    opened = await _click(fake_discord, _custom_id(components, "ra:fix:"), message)
    assert opened.body["type"] == 9, opened.body  # a modal: the corrections, drafted
    custom_id, draft = _field(opened.body["data"])
    submit = payloads.modal_submit(
        opened.body["data"]["custom_id"],
        {custom_id: edit(draft)},
        guild_id=HOME,
        user=payloads.MOD_USER,
        member_roles=[payloads.MOD_ROLE_ID],
    )
    answered = await fake_discord.interact(submit)
    if answered.body["type"] == 4:  # refused at once (nothing chosen): no new preview
        return draft, answered.body["data"], submit
    followup = await fake_discord.wait_for_request(
        lambda r: r.method == "POST" and r.path.endswith(submit["token"]), timeout=20
    )
    return draft, followup.json, submit


async def test_a_preview_with_doubts_is_fixed_in_place_not_clicked_away(
    fake_discord, running, live
):
    page = b"Phantom Heading - Some text under an unknown head nobody has seen.\n"
    options = {"edition": "1E", "kind": "glossary"}
    async with running(live):
        ix, followup = await _import(fake_discord, options, document=("page.txt", page))
        summary = followup.json["embeds"][0]["description"]
        warnings = summary.split(
            "**⚠ Warnings: 1 doubt(s) block confirming until the entries are corrected "
            "(Fix doubts… below):**\n"
        )[1]
        assert warnings.startswith("line 1: DOUBT: entry 'Phantom Heading'")
        assert "second click" not in summary  # a doubt is never clicked away
        components = followup.json["components"]
        labels = [c["label"] for row in components for c in row["components"]]
        assert labels == ["Fix doubts…", "Confirm", "Cancel"]
        message = fake_discord.original_message(ix["token"])
        clicked = await _click(fake_discord, _custom_id(components, "ra:ok:"), message)
        content = clicked.body["data"]["content"]
        assert content.startswith("⚠ Not imported: 1 doubt(s) about entry boundaries")
        assert "**Fix doubts…**" in content
        assert live.change_log(5) == []
        # The draft proposes the fix, commented out: submitted unread, it fixes nothing.
        draft, refused, _ = await _fix(fake_discord, components, message, lambda d: d)
        assert "# DOUBT at line 1: entry 'Phantom Heading'" in draft
        assert "\n#- {line: 1, confirm: true}  # right as read\n" in draft
        assert refused["content"].startswith("Corrections not read: no correction chosen")
        assert live.change_log(5) == []
        # Chosen (the "#" removed), the page is read again from the kept upload.
        chose = lambda d: d.replace("#- {line: 1, confirm", "- {line: 1, confirm")  # noqa: E731
        again_draft, fixed, submit = await _fix(fake_discord, components, message, chose)
        assert again_draft == draft  # the form opens as it was drafted
        assert "DOUBT" not in fixed["embeds"][0]["description"]
        assert "`🆕 new` **Phantom Heading**" in fixed["embeds"][1]["description"]
        assert not any(
            c["custom_id"].startswith("ra:fix:")
            for row in fixed["components"]
            for c in row["components"]
        )
        # The first preview is spent: its buttons no longer act.
        for button in ("ra:fix:", "ra:ok:"):
            stale = await _click(fake_discord, _custom_id(components, button), message)
            assert "expired or was already used" in stale.body["data"]["content"]
        done = await _click(
            fake_discord,
            _custom_id(fixed["components"], "ra:ok:"),
            fake_discord.original_message(submit["token"]),
        )
        assert done.body["data"]["content"].startswith("Done:")  # no note left: one click
    assert live.change_log(1)[0]["action"] == "import"
    assert live.show("Phantom Heading", edition="1E")[0]["title"] == "Phantom Heading"


async def test_a_corrections_file_still_fixes_a_doubt_on_upload(fake_discord, running, live):
    page = b"Phantom Heading - Some text under an unknown head nobody has seen.\n"
    options = {"edition": "1E", "kind": "glossary"}
    fixes = ("fixes.yaml", b"- {line: 1, confirm: true}\n")
    async with running(live):
        again, followup = await _import(
            fake_discord, options, document=("page.txt", page), corrections=fixes
        )
        assert "DOUBT" not in followup.json["embeds"][0]["description"]
        message = fake_discord.original_message(again["token"])
        done = await _click(
            fake_discord, _custom_id(followup.json["components"], "ra:ok:"), message
        )
        assert done.body["data"]["content"].startswith("Done:")
    assert live.change_log(1)[0]["action"] == "import"


UPDATE = (
    b"Rules Update, May 2030\n\nby A. Writer, Rules Manager\n\n"
    b"This month we looked at two questions that players asked at the regional.\n\n"
    b"Beaming Between Ships\n\nA player may beam personnel between two of his ships.\n"
)


async def test_a_refused_page_says_why_once_and_offers_its_heads(fake_discord, running, live):
    """A page the reader finds no ruling on: the reader's refusal, under one "Not imported:"
    (not a second word of its own), with the lines it would not take; **Name heads…** offers
    them, commented out, and the page is read again with those the moderator chose."""
    async with running(live):
        ix, followup = await _import(
            fake_discord, {"edition": "1E"}, document=("update.txt", UPDATE)
        )
        content = followup.json["content"]
        assert content.startswith("Not imported: update.txt: no entries found: ")
        assert content.lower().count("imported") == 1 and "Not read" not in content
        assert "line 7: Beaming Between Ships" in content
        assert not followup.json.get("embeds")
        components = followup.json["components"]
        labels = [c["label"] for row in components for c in row["components"]]
        assert labels == ["Name heads…", "Cancel"]
        message = fake_discord.original_message(ix["token"])
        chose = lambda d: d.replace("#- {line: 7, head: Beaming", "- {line: 7, head: Beaming")  # noqa: E731
        draft, preview, _ = await _fix(fake_discord, components, message, chose)
        assert "\n#- {line: 7, head: Beaming Between Ships}\n" in draft
        (entry,) = preview["embeds"][1]["description"].splitlines()
        assert entry.startswith("`🆕 new` **Beaming Between Ships**")
        assert live.change_log(5) == []  # nothing changes before Confirm


async def test_corrections_that_fail_are_offered_again_as_written(fake_discord, running, live):
    async with running(live):
        ix, followup = await _import(
            fake_discord, {"edition": "1E"}, document=("update.txt", UPDATE)
        )
        message = fake_discord.original_message(ix["token"])
        wrong = lambda d: d + "- {line: 99, head: true}\n"  # noqa: E731
        _, refused, submit = await _fix(fake_discord, followup.json["components"], message, wrong)
        assert "line 99" in refused["content"]
        labels = [c["label"] for row in refused["components"] for c in row["components"]]
        assert labels == ["Fix…", "Cancel"]
        again = fake_discord.original_message(submit["token"])
        kept, _, _ = await _fix(fake_discord, refused["components"], again, lambda d: d)
        assert kept.endswith("- {line: 99, head: true}\n")  # what was written, not a new draft
        # A corrections file attached to the upload that cannot be applied opens the same way.
        fixes = ("fixes.yaml", b"- {line: 99, head: true}\n")
        ix, attached = await _import(
            fake_discord, {"edition": "1E"}, document=("update.txt", UPDATE), corrections=fixes
        )
        assert "line 99" in attached.json["content"]
        message = fake_discord.original_message(ix["token"])
        kept, _, _ = await _fix(fake_discord, attached.json["components"], message, lambda d: d)
        assert "# Chosen before:\n- {line: 99, head: true}\n" in kept
    assert live.change_log(5) == []
