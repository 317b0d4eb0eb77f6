"""Issue 36, finding 8: Discord edges, through the real client against the fake Discord.

/ruling-admin is registered hidden from members; a forged report button for a ruling that
does not exist is refused; "help" DMs share the lookups' flood guard; a modal field past its
length is refused by the bot too; a forged page id with a bad date is refused cleanly.
"""

from __future__ import annotations

import asyncio
import copy
import os
import signal

import discord

from tests.commands.helpers import admin
from tests.commands.test_moderation_discord import ADD_VALUES, text_inputs
from tests.fakediscord import payloads
from tests.ingest.test_isolated_import import FEED, _reader_workers

HOME = payloads.GUILD_ID
EPHEMERAL = 1 << 6
WAIT = 20  # the machine is shared: generous waits, they only matter when something is wrong


def _posts(fake) -> list:
    return [r for r in fake.requests if r.method == "POST" and r.path.endswith("/messages")]


def _forged(message: dict, custom_id: str) -> dict:
    """The message as a tampered client describes it: another id, a button of its making."""
    forged = copy.deepcopy(message)
    forged["id"] = payloads.snowflake()
    forged["components"] = [
        {"type": 1, "components": [{"type": 2, "style": 2, "label": "x", "custom_id": custom_id}]}
    ]
    return forged


async def _answer(fake, query: str = "KTC") -> dict:
    ix = payloads.slash_command("ruling", {"query": query}, guild_id=HOME)
    await fake.interact(ix)
    return fake.original_message(ix["token"])


async def test_ruling_admin_is_registered_hidden_from_ordinary_members(fake_discord, running):
    async with running():
        pass
    (command,) = [c for c in fake_discord.guild_commands[HOME] if c["name"] == "ruling-admin"]
    wanted = discord.Permissions(manage_messages=True).value
    assert int(command["default_member_permissions"]) == wanted
    assert not int(payloads.EVERYONE_PERMISSIONS) & wanted  # members lack it: not listed
    assert all(c["name"] != "ruling-admin" for c in fake_discord.commands)  # not global


async def test_a_forged_report_button_for_no_ruling_is_refused(fake_discord, running, state):
    async with running():
        message = await _answer(fake_discord)
        click = await fake_discord.interact(
            payloads.button_click(
                "rr:2e-no-such-document:no-such-ruling",
                _forged(message, "rr:2e-no-such-document:no-such-ruling"),
                guild_id=HOME,
            )
        )
    assert click.body["type"] == 4  # a message, not the report form
    assert click.body["data"]["flags"] & EPHEMERAL
    assert "does not exist" in click.body["data"]["content"]
    assert state.reports() == []


async def test_help_dms_are_limited_like_lookups(fake_discord, running, settings):
    settings.cooldown_per_minute = 2
    async with running():
        for _ in range(6):
            await fake_discord.dispatch("MESSAGE_CREATE", payloads.dm_message("help"))
        for _ in range(int(WAIT / 0.05)):
            if len(_posts(fake_discord)) >= 3:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(1.0)  # room for the replies that must not come
    sent = _posts(fake_discord)
    helps = [r for r in sent if "Send me a term" in (r.json.get("content") or "")]
    told = [r for r in sent if (r.json.get("content") or "").startswith("Slow down")]
    assert len(helps) == 2
    assert len(told) == 1
    assert len(sent) == 3


async def test_a_report_longer_than_its_field_is_refused(fake_discord, running, state):
    async with running():
        message = await _answer(fake_discord)
        button = next(
            c["custom_id"]
            for row in message["components"]
            for c in row["components"]
            if c["custom_id"].startswith("rr:")
        )
        modal = await fake_discord.interact(payloads.button_click(button, message, guild_id=HOME))
        field = modal.body["data"]["components"][0]
        text_input = field.get("component") or field["components"][0]
        refused = await fake_discord.interact(
            payloads.modal_submit(
                modal.body["data"]["custom_id"],
                {text_input["custom_id"]: "x" * 10_000},
                guild_id=HOME,
            )
        )
    assert refused.body["data"]["flags"] & EPHEMERAL
    assert "holds 10,000 characters; it may hold 1,000" in refused.body["data"]["content"]
    assert state.reports() == []


async def test_a_ruling_text_past_discords_4000_never_reaches_the_preview(
    fake_discord, running, live
):
    async with running(live):
        modal = await fake_discord.interact(admin("add", {"edition": "2E"}))
        ids = text_inputs(modal.body["data"])
        values = {**ADD_VALUES, "Ruling text": "Tribbles multiply. " * 530}  # 10,070
        refused = await fake_discord.interact(
            payloads.modal_submit(
                modal.body["data"]["custom_id"],
                {ids[k]: v for k, v in values.items()},
                guild_id=HOME,
                user=payloads.MOD_USER,
                member_roles=[payloads.MOD_ROLE_ID],
            )
        )
    data = refused.body["data"]
    assert data["flags"] & EPHEMERAL
    assert "“Ruling text” holds 10,070 characters; it may hold 4,000" in data["content"]
    assert not data.get("embeds") and not data.get("components")  # no preview, no Confirm


async def test_a_forged_changes_page_with_a_bad_date_is_refused_cleanly(fake_discord, running):
    """The fake fails the test on any error the bot logs: a traceback would fail it."""
    async with running():
        ix = payloads.slash_command(
            "changes", {"since": "2012-01-01", "edition": "2E"}, guild_id=HOME
        )
        await fake_discord.interact(ix)
        message = fake_discord.original_message(ix["token"])
        clicks = []
        for custom_id in ("rp:c:p:2:2E|2012-99-99", "rp:c:p:2:9E|2012-01-01", "rp:n:p:2:XX|a"):
            clicks.append(
                await fake_discord.interact(
                    payloads.button_click(custom_id, _forged(message, custom_id), guild_id=HOME)
                )
            )
    for click in clicks:
        assert click.body["data"]["flags"] & EPHEMERAL
        assert (
            click.body["data"]["content"] == "That page link is not valid: run the command again."
        )


async def test_lookups_answer_while_an_import_is_stuck(fake_discord, running, live, monkeypatch):
    """Issue 36, finding 2, through Discord: the worker reading an upload is frozen (as a
    runaway pattern would leave it); the event loop keeps answering lookups, and the import
    is refused once its deadline passes."""
    monkeypatch.setenv("RULINGS_READ_SECONDS", "5")
    async with running(live):
        await fake_discord.interact(payloads.slash_command("ruling", {"query": "KTC"}))  # warm
        attachment = fake_discord.attachment("hostile.txt", FEED.encode())
        ix = admin("import", {"edition": "2E"}, attachments={"document": attachment})
        deferred = await fake_discord.interact(ix)
        assert deferred.body["type"] == 5
        workers: list[int] = []
        for _ in range(int(WAIT / 0.02)):
            workers = _reader_workers()
            if workers:
                break
            await asyncio.sleep(0.02)
        assert workers, "the upload was read without a worker process"
        os.kill(workers[0], signal.SIGSTOP)
        answers = []
        for query in ("Kira Nerys", "KTC", "mission attempt"):
            answers.append(
                await fake_discord.interact(
                    payloads.slash_command("ruling", {"query": query}, guild_id=HOME)
                )
            )
        stuck = [r for r in fake_discord.requests if r.path.endswith(ix["token"])]
        followup = await fake_discord.wait_for_request(
            lambda r: r.method == "POST" and r.path.endswith(ix["token"]), timeout=WAIT + 10
        )
    assert all(a.body["type"] == 4 and a.body["data"].get("embeds") for a in answers)
    assert stuck == []  # every lookup was answered while the import was still stuck
    assert "longer than 5 s" in followup.json["content"]
    assert workers[0] not in _reader_workers()
