"""/ruling-admin through the fake Discord: only the home server's moderators change rulings."""

import shutil
from pathlib import Path

import pytest
import yaml

from bot.answers.service import Rulings
from tests.commands.helpers import admin, blocks, reply_data
from tests.commands.helpers import sources as source_lines
from tests.fakediscord import payloads

HOME = payloads.GUILD_ID
OTHER = "1200000000000000099"
OTHER_MOD_ROLE = "1400000000000000099"
EPHEMERAL = 1 << 6
ROOT = Path(__file__).resolve().parents[2]
OTHER_MOD = payloads.user("1500000000000000099", "other-moderator")


@pytest.fixture
def fake_discord_options():
    other = payloads.guild(
        OTHER,
        "Other Guild",
        channels=[payloads.text_channel("1300000000000000099", guild_id=OTHER)],
        roles=[
            payloads.role(
                OTHER, "@everyone", permissions=payloads.EVERYONE_PERMISSIONS, guild_id=OTHER
            ),
            payloads.role(
                OTHER_MOD_ROLE,
                "Moderator",
                permissions=payloads.MODERATOR_PERMISSIONS,
                guild_id=OTHER,
            ),
        ],
        members=[payloads.member(OTHER_MOD, [OTHER_MOD_ROLE])],
    )
    return {"guilds": [payloads.guild(), other]}


def text_inputs(modal: dict) -> dict[str, str]:
    """Label -> custom id of every text input in a modal (rows or labels)."""
    found: dict[str, str] = {}

    def walk(component: dict, label: str | None = None) -> None:
        if component.get("type") == 4:
            found[component.get("label") or label] = component["custom_id"]
        for child in component.get("components", []):
            walk(child, component.get("label", label))
        if "component" in component:
            walk(component["component"], component.get("label", label))

    for row in modal["components"]:
        walk(row)
    return found


async def open_modal_and_submit(fake, interaction: dict, values: dict[str, str], **kwargs) -> dict:
    callback = await fake.interact(interaction)
    assert callback.body["type"] == 9, callback.body
    modal = callback.body["data"]
    ids = text_inputs(modal)
    submit = payloads.modal_submit(
        modal["custom_id"], {ids[k]: v for k, v in values.items()}, **kwargs
    )
    return (await fake.interact(submit)).body


def confirm_id(body: dict) -> str:
    return next(
        c["custom_id"]
        for row in body["data"]["components"]
        for c in row["components"]
        if c["custom_id"].startswith("ra:ok:")
    )


ADD_VALUES = {
    "Title": "Tribble Timing",
    "Ruling text": "Tribbles multiply at the start of each turn.",
    "Document (id or title)": "new: Moderator Clarifications",
    "Document date (YYYY-MM-DD)": "2026-11-01",
    "Aliases, comma separated": "TT, tribble clock",
}


async def test_home_moderator_adds_with_preview_then_confirm(fake_discord, running, live):
    async with running(live):
        preview = await open_modal_and_submit(
            fake_discord, admin("add", {"edition": "2E"}), ADD_VALUES,
            guild_id=HOME, user=payloads.MOD_USER, member_roles=[payloads.MOD_ROLE_ID],
        )  # fmt: skip
        assert preview["type"] == 4 and preview["data"]["flags"] & EPHEMERAL
        assert preview["data"]["embeds"][0]["title"] == "Tribble Timing [2E]"
        assert live.show("tribble timing")[0] is None  # nothing changed before Confirm
        message = fake_discord.original_message(fake_discord.requests[-1].path.split("/")[3])
        done = await fake_discord.interact(
            payloads.button_click(
                confirm_id(preview),
                message,
                guild_id=HOME,
                user=payloads.MOD_USER,
                member_roles=[payloads.MOD_ROLE_ID],
            )
        )
        assert done.body["type"] == 7 and done.body["data"]["content"].startswith("Done: **#1**")
        answer = await fake_discord.interact(
            payloads.slash_command("ruling", {"query": "TT"}, guild_id=OTHER, user=OTHER_MOD)
        )
        choices = await fake_discord.interact(
            payloads.autocomplete(
                "ruling", {"query": "tribble"}, focused="query", guild_id=OTHER, user=OTHER_MOD
            )
        )
    # Every server sees it at once, without a restart.
    assert (
        blocks(answer.body["data"]["embeds"][0]["description"])[0][2]
        == "Tribbles multiply at the start of each turn."
    )
    assert any(c["name"] == "Tribble Timing (2E)" for c in choices.body["data"]["choices"])
    assert live.change_log(1)[0]["moderator_id"] == payloads.MOD_USER_ID


async def test_member_without_the_role_is_refused_everywhere(fake_discord, running, live):
    async with running(live):
        refused = await fake_discord.interact(
            admin("add", {"edition": "2E"}, user=payloads.USER, roles=())
        )
        # A modal submit or button forged by a non-moderator is refused too.
        preview = await open_modal_and_submit(
            fake_discord, admin("add", {"edition": "2E"}), ADD_VALUES,
            guild_id=HOME, user=payloads.MOD_USER, member_roles=[payloads.MOD_ROLE_ID],
        )  # fmt: skip
        message = fake_discord.original_message(fake_discord.requests[-1].path.split("/")[3])
        click = await fake_discord.interact(
            payloads.button_click(confirm_id(preview), message, guild_id=HOME, user=payloads.USER)
        )
        modal = await fake_discord.interact(admin("add", {"edition": "2E"}))
        ids = text_inputs(modal.body["data"])
        forged = await fake_discord.interact(
            payloads.modal_submit(
                modal.body["data"]["custom_id"],
                {ids[k]: v for k, v in ADD_VALUES.items()},
                guild_id=HOME,
                user=payloads.USER,
            )
        )
    for callback in (refused, click, forged):
        assert callback.body["data"]["flags"] & EPHEMERAL
        assert (
            callback.body["data"]["content"]
            == "Only rulings moderators of the home server can do this."
        )
    assert live.change_log(5) == []


async def test_other_servers_and_dms_cannot_reach_it(fake_discord, running, live):
    async with running(live):
        with pytest.raises(ValueError, match="not registered here"):  # Discord would not deliver it
            await fake_discord.interact(
                admin(
                    "add", {"edition": "2E"}, user=OTHER_MOD, roles=(OTHER_MOD_ROLE,), guild=OTHER
                )
            )
        with pytest.raises(ValueError, match="not registered here"):
            await fake_discord.interact(payloads.slash_command("ruling-admin log", dm=True))
        # A component forged from another server is refused at run time.
        preview = await open_modal_and_submit(
            fake_discord, admin("add", {"edition": "2E"}), ADD_VALUES,
            guild_id=HOME, user=payloads.MOD_USER, member_roles=[payloads.MOD_ROLE_ID],
        )  # fmt: skip
        message = fake_discord.original_message(fake_discord.requests[-1].path.split("/")[3])
        forged = await fake_discord.interact(
            payloads.button_click(
                confirm_id(preview),
                message,
                guild_id=OTHER,
                user=OTHER_MOD,
                member_roles=[OTHER_MOD_ROLE],
            )
        )
    assert (
        forged.body["data"]["content"] == "Only rulings moderators of the home server can do this."
    )
    assert live.change_log(5) == []


async def test_stale_edit_is_refused_with_who_changed_it(fake_discord, running, live):
    entry = live.show("cost reduction")[0]["id"]
    second_mod = payloads.user("1500000000000000003", "second-mod")
    async with running(live):
        previews = []
        for user in (payloads.MOD_USER, second_mod):
            previews.append(
                await open_modal_and_submit(
                    fake_discord,
                    admin("edit", {"query": entry}, user=user),
                    {"Ruling text": f"Edited by {user['username']}."},
                    guild_id=HOME,
                    user=user,
                    member_roles=[payloads.MOD_ROLE_ID],
                )  # fmt: skip
            )
            previews[-1]["message"] = fake_discord.original_message(
                fake_discord.requests[-1].path.split("/")[3]
            )
        results = []
        for preview, user in zip(previews, (payloads.MOD_USER, second_mod), strict=True):
            click = payloads.button_click(
                confirm_id(preview),
                preview["message"],
                guild_id=HOME,
                user=user,
                member_roles=[payloads.MOD_ROLE_ID],
            )
            results.append((await fake_discord.interact(click)).body["data"]["content"])
    assert results[0].startswith("Done:")
    assert results[1].lower().startswith("not changed: changed meanwhile by moderator")
    assert live.show(entry)[0]["text"] == "Edited by moderator."


async def test_import_preview_confirm_and_revert(fake_discord, running, tmp_path, data_dir):
    copy = tmp_path / "old"
    shutil.copytree(data_dir, copy)
    registry = copy / "documents.yaml"
    raw = yaml.safe_load(registry.read_text(encoding="utf-8"))
    raw["documents"] = [d for d in raw["documents"] if d["id"] != "2e-crd-2014-07-07"]
    registry.write_text(yaml.safe_dump(raw, sort_keys=False), encoding="utf-8")
    (copy / "entries" / "2e-crd-2014-07-07.yaml").unlink()
    old = Rulings.open(tmp_path / "old.sqlite3", copy)
    content = (ROOT / "rulings_data" / "sources" / "2e-current-rulings-2014-07-07.txt").read_bytes()
    try:
        async with running(old):
            attachment = fake_discord.attachment("crd-2014.txt", content)
            options = {
                "title": "Second Edition Current Rulings Document (7 July 2014)",
                "edition": "2E",
                "date": "2014-07-07",
            }
            ix = admin("import", options, attachments={"document": attachment})
            await fake_discord.interact(ix)
            followup = await fake_discord.wait_for_request(  # parsing a whole document:
                lambda r: r.method == "POST" and r.path.endswith(ix["token"]),  # slow when
                timeout=20,  # the machine is loaded (the answer was deferred at once)
            )
            embeds = followup.json["embeds"]
            summary = embeds[0]["description"]
            assert "shape **crd-2e-text** · encoding **utf-8**" in summary
            assert "New: 2 · Changed:" in summary and "Warnings: 0" in summary
            listing = {  # every entry: status, title, length and first words
                line.split("**")[1]: line.split("`")[1]
                for line in embeds[1]["description"].splitlines()
            }
            assert {t for t, status in listing.items() if status.endswith(" new")} == {
                "exchange",
                "not in play",
            }
            assert listing["attempting missions"].endswith("changed")
            assert listing["abilities"].endswith("unchanged")
            assert any(
                e["title"].startswith("Changed:") and "{+" in e["description"] for e in embeds
            )
            message = fake_discord.original_message(ix["token"])
            done = await fake_discord.interact(
                payloads.button_click(
                    next(
                        c["custom_id"]
                        for r in followup.json["components"]
                        for c in r["components"]
                        if c["custom_id"].startswith("ra:ok:")
                    ),
                    message,
                    guild_id=HOME,
                    user=payloads.MOD_USER,
                    member_roles=[payloads.MOD_ROLE_ID],
                )  # fmt: skip
            )
            assert done.body["data"]["content"].startswith("Done:")
            # The first lookup after a change rebuilds, so it may be deferred: the reply is
            # the response or the deferral's follow-up.
            newer = await reply_data(
                fake_discord,
                payloads.slash_command(
                    "ruling", {"query": "attempting missions", "edition": "2E"}, guild_id=HOME
                ),
            )
            change_id = old.change_log(1)[0]["id"]
            await fake_discord.interact(admin("revert", {"change": change_id}))
            older = await reply_data(
                fake_discord,
                payloads.slash_command(
                    "ruling", {"query": "attempting missions", "edition": "2E"}, guild_id=HOME
                ),
            )
    finally:
        old.close()

    def source(data):
        return source_lines(data["embeds"][0]["description"])[0]

    assert source(newer).startswith("Second Edition Current Rulings Document (7 July 2014)")
    assert source(older).startswith("Second Edition Current Rulings Document (5 October 2011)")


async def test_import_refuses_wrong_type(fake_discord, running, live):
    async with running(live):
        attachment = fake_discord.attachment("crd.zip", b"PK\x03\x04 zipped", "application/zip")
        ix = admin(
            "import",
            {"title": "x", "edition": "2E", "date": "2030-01-01"},
            attachments={"document": attachment},
        )
        await fake_discord.interact(ix)
        followup = await fake_discord.wait_for_request(
            lambda r: r.method == "POST" and r.path.endswith(ix["token"]), timeout=20
        )
    assert (
        "ZIP archive or Word/OpenDocument file: save it as plain text" in (followup.json["content"])
    )
    assert live.change_log(5) == []


async def test_retire_alias_log_and_announcement(fake_discord, running, live, state):
    channel = payloads.CHANNEL_ID
    async with running(live):
        manager = payloads.slash_command(
            "announcements", [{"name": "channel", "type": 7, "value": channel}], guild_id=HOME, permissions=payloads.MANAGE_GUILD,
            resolved={"channels": {channel: {**payloads.text_channel(channel), "permissions": str(payloads.EVERYONE_PERMISSIONS)}}},
        )  # fmt: skip
        await fake_discord.interact(manager)
        alias = await fake_discord.interact(
            admin("alias add", {"query": "matching commander", "alias": "the big chair"})
        )
        assert alias.body["data"]["content"].startswith("Done:")
        ktc = live.show("KTC")[0]["id"]
        retire = await fake_discord.interact(
            admin("retire", {"query": ktc, "reason": "superseded by card text"})
        )
        message = fake_discord.original_message(retire.path.split("/")[3])
        await fake_discord.interact(
            payloads.button_click(
                confirm_id(retire.body),
                message,
                guild_id=HOME,
                user=payloads.MOD_USER,
                member_roles=[payloads.MOD_ROLE_ID],
            )
        )
        announced = await fake_discord.wait_for_request(
            lambda r: r.method == "POST" and r.path == f"/channels/{channel}/messages"
        )
        gone = await fake_discord.interact(
            payloads.slash_command("ruling", {"query": "Klingon Tea Ceremony"}, guild_id=HOME)
        )
        chair = await fake_discord.interact(
            payloads.slash_command("ruling", {"query": "the big chair"}, guild_id=HOME)
        )
        log = await fake_discord.interact(admin("log", {"count": 5}))
    assert announced.json["content"].startswith("Rulings updated: retire Klingon Tea Ceremony")
    # The retired ruling no longer answers (the card of that name may: cards are answers).
    assert not gone.body["data"].get("embeds") or (
        "If a single action downloads" not in gone.body["data"]["embeds"][0]["description"]
    )
    assert chair.body["data"]["embeds"][0]["title"] == "matching commander [1E]"
    lines = log.body["data"]["embeds"][0]["description"]
    assert "retire: Klingon Tea Ceremony (2E) · why: superseded by card text" in lines
    assert "alias add: the big chair" in lines


SUBCOMMANDS = [
    ("add", {"edition": "2E"}),
    ("edit", {"query": "KTC"}),
    ("retire", {"query": "KTC", "reason": "x"}),
    ("alias add", {"query": "KTC", "alias": "tea"}),
    ("alias remove", {"query": "KTC", "alias": "tea"}),
    ("log", None),
    ("revert", {"change": 1}),
    ("stats", None),
    ("reports", None),
]


@pytest.mark.parametrize(("path", "options"), SUBCOMMANDS, ids=[s[0] for s in SUBCOMMANDS])
async def test_every_subcommand_refuses_a_member_without_the_role(
    fake_discord, running, live, path, options
):
    async with running(live):
        callback = await fake_discord.interact(admin(path, options, user=payloads.USER, roles=()))
    assert callback.body["type"] == 4  # no modal, no change
    assert (
        callback.body["data"]["content"]
        == "Only rulings moderators of the home server can do this."
    )
    assert callback.body["data"]["flags"] & EPHEMERAL
    assert live.change_log(5) == []


async def test_import_refused_for_a_member_without_the_role(fake_discord, running, live):
    async with running(live):
        attachment = fake_discord.attachment("crd.txt", b"abilities \xe2\x80\x93 text.")
        callback = await fake_discord.interact(
            admin(
                "import",
                {"title": "x", "edition": "2E", "date": "2030-01-01"},
                user=payloads.USER,
                roles=(),
                attachments={"document": attachment},
            )
        )
    assert (
        callback.body["data"]["content"]
        == "Only rulings moderators of the home server can do this."
    )
