"""/ruling-admin import through the fake Discord: the shared preview (shape, encoding,
warnings first, every entry with its status), and a second click to import over warnings."""

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


async def test_import_with_warnings_takes_a_second_click(fake_discord, running, fresh):
    async with running(fresh):
        attachment = fake_discord.attachment("rulings.txt", FEED)
        ix = admin("import", {"edition": "2E"}, attachments={"document": attachment})
        await fake_discord.interact(ix)
        followup = await fake_discord.wait_for_request(
            lambda r: r.method == "POST" and r.path.endswith(ix["token"]), timeout=20
        )
        embeds = followup.json["embeds"]
        summary = embeds[0]["description"]
        assert "shape **rulings-feed** · encoding **cp1252**" in summary
        assert "2E · rulings feed · undated · official" in summary
        warnings = summary.split("**⚠ Warnings (confirming takes a second click):**\n")[1]
        assert warnings.startswith("line 6: the last entry 'Crisis' ends mid-sentence")
        entries = embeds[1]["description"].splitlines()
        assert entries == [
            "`🆕 new` **Bynars’ Weapon** (2017-03-01) — 13 words: Bynars’ Weapon can be used "
            "on a ship …",
            "`🆕 new` **Crisis** (2016-11-02) — 10 words: When Crisis is used, the dilemma is "
            "placed …",
        ]
        message = fake_discord.original_message(ix["token"])
        first = await _click(
            fake_discord, _custom_id(followup.json["components"], "ra:ok:"), message
        )
        data = first.body["data"]
        assert data["content"].startswith("⚠ This document has 1 warning(s)")
        assert fresh.change_log(5) == []  # the first click changed nothing
        again = _custom_id(data["components"], "ra:ok:")
        labels = [c["label"] for row in data["components"] for c in row["components"]]
        assert labels == ["Import despite warnings", "Cancel"]
        done = await _click(fake_discord, again, message)
    assert done.body["data"]["content"].startswith("Done:")
    answer = fresh.show("Crisis", edition="2E")[0]
    assert answer["date"] == "2016-11-02"  # the ruling's own date, not one for the upload
    assert fresh.change_log(1)[0]["action"] == "import"
