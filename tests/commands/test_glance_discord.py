"""The answer at a glance in Discord (issue 35), end to end on the fake: a best match's
button opens its ruling at its part, a forged one opens it plainly, and a slow lookup is
deferred rather than left to expire."""

import asyncio
import threading

from commands import limits as commands_limits
from commands import render
from tests.commands.helpers import blocks, reply_data
from tests.fakediscord import limits, payloads

GUILD = payloads.GUILD_ID
SHIPPED_DEFER_AFTER = commands_limits.DEFER_AFTER  # read before any fixture sets the tests' own
WAIT = 20


def _buttons(data: dict) -> list[dict]:
    return [c for row in data.get("components", []) for c in row.get("components", [])]


async def test_a_best_match_opens_at_its_part_and_a_forged_one_plainly(fake_discord, running):
    async with running():
        ix = payloads.slash_command("ruling", {"query": "aborting missions"}, guild_id=GUILD)
        miss = await reply_data(fake_discord, ix, WAIT)
        (first, *_), *_ = [blocks(miss["embeds"][0]["description"])]
        button = next(c for c in _buttons(miss) if c.get("custom_id", "").startswith("rb:"))
        message = fake_discord.original_message(ix["token"])
        opened = await reply_data(
            fake_discord, payloads.button_click(button["custom_id"], message, guild_id=GUILD)
        )
        prefix, vis, start, length, check, target = button["custom_id"].split(":", 5)
        forged_id = ":".join(
            [prefix, vis, start, length, "0000" if check != "0000" else "ffff", target]
        )
        # A hand-made click (a modified client sends any custom id): the stored message is
        # given the forged id, as the fake only lets a message's own components be clicked.
        stored = fake_discord.messages[message["id"]]
        for component in _buttons(stored):
            if component.get("custom_id") == button["custom_id"]:
                component["custom_id"] = forged_id
        forged = await reply_data(
            fake_discord, payloads.button_click(forged_id, stored, guild_id=GUILD)
        )
    # Opened: the ruling's first page starts with the very part the miss showed, under the
    # same document, then the rest.
    heading, cited, part = blocks(opened["embeds"][0]["description"])[0]
    assert heading == "**The part that answers**"
    assert cited == first[1]
    shown = part.replace("> ", "").replace(">", "").split()
    assert " ".join(first[2].replace("> ", "").split()[:12]) in " ".join(shown)
    assert limits.validate_message(opened) == []
    # A custom id is untrusted: one whose check fails opens the ruling without a part.
    assert forged["embeds"][0]["title"] == opened["embeds"][0]["title"]
    assert blocks(forged["embeds"][0]["description"])[0][0] != "**The part that answers**"


async def test_a_slow_lookup_is_deferred_then_answered(fake_discord, running, rulings, monkeypatch):
    release = threading.Event()
    original = rulings.show

    def slow_show(*args, **kwargs):
        release.wait(WAIT)  # held until the test has seen the deferral
        return original(*args, **kwargs)

    monkeypatch.setattr(rulings, "show", slow_show)
    async with running():
        monkeypatch.setattr(commands_limits, "DEFER_AFTER", SHIPPED_DEFER_AFTER)
        ix = payloads.slash_command("ruling", {"query": "KTC"}, guild_id=GUILD)
        callback = await fake_discord.interact(ix, WAIT)
        assert callback.body["type"] == 5  # "thinking…": Discord's 3 s are kept
        release.set()
        await fake_discord.wait_for_request(
            lambda r: r.method == "POST" and ix["token"] in r.path and "/webhooks/" in r.path,
            WAIT,
        )
        await asyncio.sleep(0)
    answered = fake_discord.original_message(ix["token"])
    assert answered["embeds"][0]["title"] == "Klingon Tea Ceremony [2E]"


LOOKED_UP = [
    {"query": "Can I reattempt a mission on the same turn?"},  # a part from the Glossary
    {"query": "skills", "edition": "2E"},  # a composed rule: CRD and Rulebook parts
    {"query": "attempting missions", "edition": "2E"},  # numbered steps over pages
    {"query": "Tama"},  # a card and the ruling that names it
]


async def test_every_page_gives_each_block_one_source_line_and_fits_a_phone(fake_discord, running):
    async with running():
        for options in LOOKED_UP:
            ix = payloads.slash_command("ruling", options, guild_id=GUILD)
            data = await reply_data(fake_discord, ix, WAIT)
            seen = [data]
            message = fake_discord.original_message(ix["token"])
            for _ in range(20):  # every page, by its Next button
                nxt = next((c for c in _buttons(message) if c.get("label") == "Next ▶"), None)
                if nxt is None or nxt.get("disabled"):
                    break
                click = payloads.button_click(nxt["custom_id"], message, guild_id=GUILD)
                seen.append(await reply_data(fake_discord, click, WAIT))
                message = fake_discord.original_message(click["token"])
            for number, page in enumerate(seen):
                assert limits.validate_message(page) == []
                description = page["embeds"][0]["description"]
                found = blocks(description)
                assert found, (options, number)
                for heading, cited, text in found:
                    assert len(cited) == 1, (options, number, heading, cited)
                    assert "Editing instructions" not in text
                # About two phone screens; the first page also holds the part that answers.
                most = render.ANSWER_PAGE_MOST + (900 if number == 0 else 0)
                assert len(description) <= most, (options, number, len(description))
            if len(seen) > 1:  # the footer says only where the reader is
                footer = seen[0]["embeds"][0]["footer"]["text"]
                assert footer.startswith(f"Page 1/{len(seen)}") and "Document" not in footer
