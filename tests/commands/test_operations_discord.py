"""Stats, misses and reports through the fake Discord."""

from tests.commands.helpers import admin
from tests.fakediscord import payloads

HOME = payloads.GUILD_ID
EPHEMERAL = 1 << 6


async def test_stats_show_top_misses_and_one_click_alias(fake_discord, running, live, state):
    async with running(live):
        for query in (
            "KTC",
            "KTC",
            "matchng comander",
            "matching commander vs facility commander",
            "matching commander vs facility commander",
            "qwzxv",
        ):
            await fake_discord.interact(
                payloads.slash_command("ruling", {"query": query}, guild_id=HOME)
            )
        await fake_discord.dispatch(
            "MESSAGE_CREATE", payloads.dm_message("matching commander vs facility commander")
        )
        await fake_discord.wait_for_request(
            lambda r: r.method == "POST" and r.path.endswith("/messages")
        )
        stats = await fake_discord.interact(admin("stats", {"days": 7}))
        fields = {f["name"]: f["value"] for f in stats.body["data"]["embeds"][0]["fields"]}
        assert "7 lookups, 3 answered" in fields["Per day"]
        assert (
            fields["Top queries"].splitlines()[0] == "3 × matching commander vs facility commander"
        )
        assert fields["Top misses (no confident answer)"].splitlines() == [
            "3 × matching commander vs facility commander",
            "1 × qwzxv",
        ]
        select = next(
            c
            for row in stats.body["data"]["components"]
            for c in row["components"]
            if c["custom_id"] == "ral:matching commander vs facility commander"
        )
        message = fake_discord.original_message(stats.path.split("/")[3])
        picked = await fake_discord.interact(
            payloads.select(
                select["custom_id"],
                ["1e-crd-2014-11-03:facility-commander"],
                message,
                guild_id=HOME,
                user=payloads.MOD_USER,
                member_roles=[payloads.MOD_ROLE_ID],
            )  # fmt: skip
        )
        assert picked.body["data"]["content"].startswith("Done:")
        now = await fake_discord.interact(
            payloads.slash_command(
                "ruling", {"query": "matching commander vs facility commander"}, guild_id=HOME
            )
        )
    assert now.body["data"]["embeds"][0]["title"] == "facility commander [1E]"
    stored = state.conn.execute(
        "SELECT command, query, confident FROM lookups ORDER BY rowid"
    ).fetchall()
    assert ("dm", "matching commander vs facility commander", 0) in stored and (
        "ruling",
        "KTC",
        1,
    ) in stored


async def test_report_button_lands_in_the_queue(fake_discord, running, live, state):
    async with running(live):
        ix = payloads.slash_command("ruling", {"query": "KTC"}, guild_id=HOME)
        answer = await fake_discord.interact(ix)
        report_id = next(
            c["custom_id"]
            for row in answer.body["data"]["components"]
            for c in row["components"]
            if c["custom_id"].startswith("rr:")
        )
        message = fake_discord.original_message(ix["token"])
        modal = await fake_discord.interact(
            payloads.button_click(report_id, message, guild_id=HOME)
        )
        assert modal.body["type"] == 9
        field = modal.body["data"]["components"][0]
        text_input = field.get("component") or field["components"][0]
        thanks = await fake_discord.interact(
            payloads.modal_submit(
                modal.body["data"]["custom_id"],
                {text_input["custom_id"]: "The second scenario is unclear."},
                guild_id=HOME,
            )
        )
        assert thanks.body["data"]["content"].startswith("Thank you: report #1")
        queue = await fake_discord.interact(admin("reports"))
        closed = await fake_discord.interact(admin("reports", {"close": 1}))
    listing = queue.body["data"]["embeds"][0]["description"]
    assert "on `2e-crd-2011-10-05:klingon-tea-ceremony`: The second scenario is unclear." in listing
    assert closed.body["data"]["content"] == "Report #1 closed."
    assert state.reports() == []


async def test_stats_need_a_moderator(fake_discord, running, live):
    async with running(live):
        refused = await fake_discord.interact(
            payloads.slash_command(
                "ruling-admin stats", guild_id=HOME, user=payloads.USER, command_guild_id=HOME
            )
        )
    assert refused.body["data"]["flags"] & EPHEMERAL
    assert (
        refused.body["data"]["content"] == "Only rulings moderators of the home server can do this."
    )
