"""Moderator safety through the fake Discord: long rulings edited without loss, alias
re-points previewed and confirmed, unknown documents refused, retired rulings in /history,
reports only in the moderators' channel, replies and announcements inside Discord's limits,
and previews that are the answer users then get."""

import pytest

from bot.answers.moderation import Moderator
from commands import limits
from tests.commands.helpers import admin, blocks
from tests.commands.helpers import sources as source_lines
from tests.commands.test_moderation_discord import (
    ADD_VALUES,
    EPHEMERAL,
    confirm_id,
    open_modal_and_submit,
)
from tests.fakediscord import payloads

HOME = payloads.GUILD_ID
PUBLIC_CHANNEL = payloads.CHANNEL_ID
MODS_CHANNEL = "1300000000000000077"
MARY = Moderator("101", "Mod Mary")
AS_MOD = {"guild_id": HOME, "user": payloads.MOD_USER, "member_roles": [payloads.MOD_ROLE_ID]}


@pytest.fixture
def fake_discord_options():
    channels = [
        payloads.text_channel(PUBLIC_CHANNEL, "general"),
        payloads.text_channel(MODS_CHANNEL, "moderators", position=1),
    ]
    return {"guilds": [payloads.guild(channels=channels)]}


def channel_option(channel: str) -> dict:
    resolved = {**payloads.text_channel(channel), "permissions": str(payloads.EVERYONE_PERMISSIONS)}
    return {
        "options": [{"name": "channel", "type": 7, "value": channel}],
        "resolved": {"channels": {channel: resolved}},
    }


async def announce_in(fake, channel: str) -> None:
    option = channel_option(channel)
    await fake.interact(
        payloads.slash_command(
            "announcements",
            option["options"],
            guild_id=HOME,
            permissions=payloads.MANAGE_GUILD,
            resolved=option["resolved"],
        )  # fmt: skip
    )


async def confirm(fake, preview_request) -> dict:
    message = fake.original_message(preview_request.path.split("/")[3])
    click = payloads.button_click(confirm_id(preview_request.body), message, **AS_MOD)
    return (await fake.interact(click)).body


def posts_to(fake, channel: str) -> list[dict]:
    return [
        r.json
        for r in fake.requests
        if r.method == "POST" and r.path == f"/channels/{channel}/messages"
    ]


# ------------------------------------------------------------------ 1. long rulings
LONG_TEXT = "\n\n".join(
    f"Paragraph {n}: the tribble ruling says that every tribble multiplies at the start of "
    f"each turn, and this sentence is here to make the ruling long ({n})." * 3
    for n in range(1, 16)
)


async def test_a_long_ruling_is_not_opened_in_the_form_and_is_edited_whole_by_file(
    fake_discord, running, live
):
    assert len(LONG_TEXT) > limits.TEXT_INPUT_VALUE
    change = live.add_ruling(
        MARY, title="Tribble Timing", edition="2E", kind="rule", text=LONG_TEXT,
        document="2e-crd-2014-07-07",
    )  # fmt: skip
    entry = next(op["id"] for op in change["ops"] if op["kind"] == "entry")
    edited = LONG_TEXT.replace("Paragraph 15:", "Paragraph fifteen:") + "\n\nA last paragraph."
    async with running(live):
        refused = await fake_discord.interact(admin("edit", {"query": entry}))
        upload = fake_discord.attachment("tribble.txt", edited.encode("utf-8"))
        preview = await fake_discord.interact(
            admin("edit", {"query": entry}, attachments={"text_file": upload})
        )
        done = await confirm(fake_discord, preview)
    assert refused.body["type"] == 4  # a message, not the modal that would cut it
    assert refused.body["data"]["flags"] & EPHEMERAL
    assert f"This ruling is {len(LONG_TEXT):,} characters" in refused.body["data"]["content"]
    assert "nothing was cut or changed" in refused.body["data"]["content"]
    (sent,) = refused.files
    assert sent["data"].decode("utf-8") == LONG_TEXT  # the whole text, to edit and upload
    assert preview.body["data"]["content"].startswith("Preview")
    assert done["data"]["content"].startswith("Done:")
    assert live.show(entry)[0]["text"] == edited.strip()  # every character kept
    assert len(live.show(entry)[0]["text"]) > limits.TEXT_INPUT_VALUE


async def test_a_short_ruling_opens_in_the_form_with_its_whole_text(fake_discord, running, live):
    answer = live.show("cost reduction")[0]
    async with running(live):
        modal = await fake_discord.interact(admin("edit", {"query": answer["id"]}))
    assert modal.body["type"] == 9
    values = [
        c.get("component", c.get("components", [{}])[0]).get("value")
        for c in modal.body["data"]["components"]
    ]
    assert answer["text"] in values


async def test_an_uploaded_text_must_be_text(fake_discord, running, live):
    entry = live.show("cost reduction")[0]["id"]
    async with running(live):
        pdf = fake_discord.attachment("ruling.pdf", b"%PDF-1.4", "application/pdf")
        wrong = await fake_discord.interact(
            admin("edit", {"query": entry}, attachments={"text_file": pdf})
        )
        binary = fake_discord.attachment("ruling.txt", b"\xff\xfe\x00bad")
        garbled = await fake_discord.interact(
            admin("edit", {"query": entry}, attachments={"text_file": binary})
        )
    assert wrong.body["data"]["content"] == "Not changed: The text file must be .txt or .md."
    assert garbled.body["data"]["content"] == "Not changed: The text file is not UTF-8 text."
    assert live.change_log(5) == []


# ------------------------------------------------------------------ 2. alias re-points
async def test_repointing_an_alias_needs_a_preview_and_confirm(fake_discord, running, live):
    async with running(live):
        asked = await fake_discord.interact(
            admin("alias add", {"query": "2e-stopped", "alias": "KTC"})
        )
        before = await fake_discord.interact(
            payloads.slash_command("ruling", {"query": "KTC"}, guild_id=HOME)
        )
        done = await confirm(fake_discord, asked)
        after = await fake_discord.interact(
            payloads.slash_command("ruling", {"query": "KTC"}, guild_id=HOME)
        )
    data = asked.body["data"]
    assert data["flags"] & EPHEMERAL
    assert data["content"].startswith(
        "“KTC” already leads to **Klingon Tea Ceremony** in every server. "
        "Re-point it to **stopped**?"
    )
    assert data["embeds"][0]["title"] == "stopped [2E]"  # where it will lead
    assert before.body["data"]["embeds"][0]["title"] == "Klingon Tea Ceremony [2E]"
    assert (
        done["data"]["content"].startswith("Done:")
        and "KTC → 2e-stopped" in done["data"]["content"]
    )
    assert after.body["data"]["embeds"][0]["title"] == "stopped [2E]"


async def test_cancelling_a_repoint_changes_nothing(fake_discord, running, live):
    async with running(live):
        asked = await fake_discord.interact(
            admin("alias add", {"query": "2e-stopped", "alias": "KTC"})
        )
        message = fake_discord.original_message(asked.path.split("/")[3])
        cancel = next(
            c["custom_id"]
            for row in asked.body["data"]["components"]
            for c in row["components"]
            if c["custom_id"].startswith("ra:no:")
        )
        cancelled = await fake_discord.interact(payloads.button_click(cancel, message, **AS_MOD))
    assert cancelled.body["data"]["content"] == "Cancelled: nothing changed."
    assert live.change_log(5) == [] and live.show("KTC")[0]["title"] == "Klingon Tea Ceremony"


async def test_a_new_alias_is_added_at_once(fake_discord, running, live):
    async with running(live):
        done = await fake_discord.interact(
            admin("alias add", {"query": "2e-stopped", "alias": "frozen card"})
        )
    assert done.body["data"]["content"].startswith("Done:")
    assert live.show("frozen card")[0]["title"] == "stopped"


# ------------------------------------------------------------------ 3. unknown documents
@pytest.mark.parametrize(
    ("document", "suggested"),
    [("Moderator Clarificatons", None), ("2e-crd-2014-7-07", "(2e-crd-2014-07-07)")],
)
async def test_an_unknown_document_is_refused_with_suggestions(
    fake_discord, running, live, document, suggested
):
    values = {**ADD_VALUES, "Document (id or title)": document, "Document date (YYYY-MM-DD)": ""}
    async with running(live):
        refused = await open_modal_and_submit(
            fake_discord, admin("add", {"edition": "2E"}), values, **AS_MOD
        )
    content = refused["data"]["content"]
    assert content.startswith(f"Not changed: There is no document “{document}”.")
    assert "components" not in refused["data"] or not refused["data"]["components"]  # no Confirm
    if suggested:
        assert "Did you mean:" in content and suggested in content
    assert live.change_log(5) == []
    assert live.store.db.execute(
        "SELECT count(*) FROM documents WHERE origin = 'moderator'"
    ).fetchone() == (0,)


# ------------------------------------------------------------------ 4. retired in /history
async def test_a_retired_ruling_is_found_by_name_in_history(fake_discord, running, live):
    live.retire_ruling(MARY, live.show("KTC")[0]["id"], "superseded by card text")
    async with running(live):
        found = await fake_discord.interact(
            payloads.slash_command("history", {"query": "Klingon Tea Ceremony"}, guild_id=HOME)
        )
    embed = found.body["data"]["embeds"][0]
    assert embed["title"] == "History: Klingon Tea Ceremony [2E]"
    # Labelled as its answer labels it, with the reason, under its document.
    assert embed["description"].startswith(
        "**Retired**: superseded by card text\n*From Second Edition Current Rulings"
    )


# ------------------------------------------------------------------ 5. reports
async def report(fake, text: str) -> None:
    ix = payloads.slash_command("ruling", {"query": "KTC"}, guild_id=HOME)
    answer = await fake.interact(ix)
    button = next(
        c["custom_id"]
        for row in answer.body["data"]["components"]
        for c in row["components"]
        if c["custom_id"].startswith("rr:")
    )
    modal = await fake.interact(
        payloads.button_click(button, fake.original_message(ix["token"]), guild_id=HOME)
    )
    field = modal.body["data"]["components"][0]
    text_input = field.get("component") or field["components"][0]
    thanks = await fake.interact(
        payloads.modal_submit(
            modal.body["data"]["custom_id"], {text_input["custom_id"]: text}, guild_id=HOME
        )
    )
    assert thanks.body["data"]["content"].startswith("Thank you: report #")


async def test_reports_go_only_to_the_moderators_channel(fake_discord, running, live, state):
    async with running(live):
        await announce_in(fake_discord, PUBLIC_CHANNEL)
        await report(fake_discord, "Before any reports channel: stays in the queue.")
        option = channel_option(MODS_CHANNEL)
        chosen = await fake_discord.interact(
            admin("reports-channel", option["options"], resolved=option["resolved"])
        )
        await report(fake_discord, "The second scenario is unclear.")
        posted = await fake_discord.wait_for_request(
            lambda r: r.method == "POST" and r.path == f"/channels/{MODS_CHANNEL}/messages"
        )
    assert chosen.body["data"]["content"].startswith(f"Reports will be posted in <#{MODS_CHANNEL}>")
    assert posted.json["content"] == (
        "Report #2 on 2e-crd-2011-10-05:klingon-tea-ceremony: The second scenario is unclear."
    )
    assert posts_to(fake_discord, PUBLIC_CHANNEL) == []  # never the announcement channel
    assert [r["text"] for r in state.reports()] == [
        "The second scenario is unclear.",
        "Before any reports channel: stays in the queue.",
    ]


async def test_the_reports_channel_is_for_moderators_only(fake_discord, running, live, state):
    option = channel_option(MODS_CHANNEL)
    async with running(live):
        refused = await fake_discord.interact(
            admin(
                "reports-channel",
                option["options"],
                resolved=option["resolved"],
                user=payloads.USER,
                roles=(),
            )  # fmt: skip
        )
    assert (
        refused.body["data"]["content"] == "Only rulings moderators of the home server can do this."
    )
    assert state.reports_channel(int(HOME)) is None


# ------------------------------------------------------------------ 6. limits
async def test_a_2100_character_title_reverts_with_reply_and_announcement(
    fake_discord, running, live
):
    title = "Tribble " * 262 + "Timing"
    assert len(title) >= 2100
    added = live.add_ruling(
        MARY, title=title, edition="2E", kind="rule", text="Tribbles multiply.",
        document="2e-crd-2014-07-07",
    )  # fmt: skip
    entry = next(op["id"] for op in added["ops"] if op["kind"] == "entry")
    async with running(live):
        await announce_in(fake_discord, PUBLIC_CHANNEL)
        reply = await fake_discord.interact(admin("revert", {"change": added["id"]}))
        announced = await fake_discord.wait_for_request(
            lambda r: r.method == "POST" and r.path == f"/channels/{PUBLIC_CHANNEL}/messages"
        )
    assert live.show(entry)[0] is None or live.show(entry)[0]["id"] != entry  # committed
    assert live.change_log(1)[0]["reverts"] == added["id"]
    content = reply.body["data"]["content"]
    assert reply.status < 300 and content.startswith("Done: **#2**")
    assert len(content) <= limits.MESSAGE_CONTENT and content.endswith("…")
    assert announced.status == 200 and announced.json["content"].startswith(
        "Rulings updated: revert #1 add: Tribble Tribble"
    )
    assert len(announced.json["content"]) <= limits.MESSAGE_CONTENT


async def test_a_2100_character_title_added_by_confirm_replies_and_announces(
    fake_discord, running, live
):
    # The modal keeps titles to 200 characters; a title this long comes from the CLI or an
    # import. The Confirm path (here a retire) clamps like the slash path above.
    title = "Tribble " * 262 + "Timing"
    added = live.add_ruling(
        MARY, title=title, edition="2E", kind="rule", text="Tribbles multiply.",
        document="2e-crd-2014-07-07",
    )  # fmt: skip
    entry = next(op["id"] for op in added["ops"] if op["kind"] == "entry")
    async with running(live):
        await announce_in(fake_discord, PUBLIC_CHANNEL)
        retire = await fake_discord.interact(
            admin("retire", {"query": entry, "reason": "too long a title"})
        )
        done = await confirm(fake_discord, retire)
        announced = await fake_discord.wait_for_request(
            lambda r: r.method == "POST" and r.path == f"/channels/{PUBLIC_CHANNEL}/messages"
        )
    assert live.change_log(1)[0]["action"] == "retire"
    assert done["data"]["content"].startswith("Done:")
    assert len(done["data"]["content"]) <= limits.MESSAGE_CONTENT
    assert announced.json["content"].startswith("Rulings updated: retire Tribble")
    assert len(announced.json["content"]) <= limits.MESSAGE_CONTENT


# ------------------------------------------------------------------ 7. previews
async def test_the_edit_preview_is_byte_for_byte_the_answer_users_then_see(
    fake_discord, running, live
):
    entry = live.show("cost reduction")[0]["id"]
    async with running(live):
        preview_body = await open_modal_and_submit(
            fake_discord, admin("edit", {"query": entry}),
            {"Ruling text": "Costs drop by one, never below zero."}, **AS_MOD,
        )  # fmt: skip
        preview = fake_discord.requests[-1]
        await confirm(fake_discord, preview)
        seen = await fake_discord.interact(
            payloads.slash_command("ruling", {"query": entry}, guild_id=HOME)
        )
    assert preview_body["data"]["embeds"] == seen.body["data"]["embeds"]
    assert (
        blocks(seen.body["data"]["embeds"][0]["description"])[0][2]
        == "Costs drop by one, never below zero."
    )


async def test_the_add_preview_is_byte_for_byte_the_answer_users_then_see(
    fake_discord, running, live
):
    values = {
        **ADD_VALUES,
        "Document (id or title)": "2e-crd-2014-07-07",
        "Document date (YYYY-MM-DD)": "",
    }
    async with running(live):
        preview_body = await open_modal_and_submit(
            fake_discord, admin("add", {"edition": "2E"}), values, **AS_MOD
        )
        preview = fake_discord.requests[-1]
        await confirm(fake_discord, preview)
        entry = live.show("tribble timing")[0]["id"]
        seen = await fake_discord.interact(
            payloads.slash_command("ruling", {"query": entry}, guild_id=HOME)
        )
    embeds = preview_body["data"]["embeds"]
    assert embeds == seen.body["data"]["embeds"]
    rendered = str(embeds)
    assert "undated" not in rendered and "(new)" not in rendered
    # The source line names the document and its date (its title holds it), as users read
    # them, and no status: it is simply the version in force.
    document = live.documents[entry.split(":")[0]]
    assert source_lines(embeds[0]["description"]) == [document["title"]]


async def test_the_retire_preview_is_the_retired_answer(fake_discord, running, live):
    ktc = live.show("KTC")[0]["id"]
    async with running(live):
        retire = await fake_discord.interact(admin("retire", {"query": ktc, "reason": "gone"}))
        await confirm(fake_discord, retire)
        seen = await fake_discord.interact(
            payloads.slash_command("ruling", {"query": ktc}, guild_id=HOME)
        )
    assert retire.body["data"]["embeds"] == seen.body["data"]["embeds"]
    source = source_lines(seen.body["data"]["embeds"][0]["description"])[0]
    assert source.endswith(" · retired: gone")


async def test_aliases_in_the_form_may_not_move_another_rulings_alias(fake_discord, running, live):
    entry = live.show("cost reduction")[0]["id"]
    async with running(live):
        refused = await open_modal_and_submit(
            fake_discord, admin("edit", {"query": entry}),
            {"Aliases, comma separated": "cheaper, KTC"}, **AS_MOD,
        )  # fmt: skip
    assert refused["data"]["content"].startswith(
        "Not changed: “KTC” already leads to Klingon Tea Ceremony"
    )
    assert refused["data"]["content"].endswith("Use `/ruling-admin alias add` to move it.")
    assert live.change_log(5) == [] and live.show("KTC")[0]["title"] == "Klingon Tea Ceremony"
