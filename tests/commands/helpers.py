"""Payload helpers shared by the Discord tests."""

import re

from tests.fakediscord import payloads


def admin(
    path: str,
    options=None,
    *,
    user=None,
    roles=(payloads.MOD_ROLE_ID,),
    guild=payloads.GUILD_ID,
    **kwargs,
):
    """A /ruling-admin interaction, by default from a home-server moderator."""
    return payloads.slash_command(
        f"ruling-admin {path}", options, guild_id=guild, user=user or payloads.MOD_USER, member_roles=roles,
        permissions=payloads.MODERATOR_PERMISSIONS | payloads.EVERYONE_PERMISSIONS,
        command_guild_id=None if kwargs.get("dm") else guild, **kwargs,
    )  # fmt: skip


_HEADING = re.compile(r"^\*\*[^*\n]+\*\*(?: \[[12]E\]| \(continued\)|: [^\n]*)?$")


# The answer layout (issue 35): each block is a bold heading line, then one source line.
def blocks(description: str) -> list[tuple[str, list[str], str]]:
    """An answer page's blocks: (heading, its source lines, its text)."""
    out: list[tuple[str, list[str], list[str]]] = []
    for line in description.split("\n"):
        if _HEADING.match(line):
            out.append((line, [], []))
        elif out and line.startswith("*From ") and line.endswith("*"):
            out[-1][1].append(line[len("*From ") : -1])
        elif out:
            out[-1][2].append(line)
    return [(head, sources, "\n".join(text).strip()) for head, sources, text in out]


def sources(description: str) -> list[str]:
    """Every source line of an answer page, in order."""
    return [source for _, found, _ in blocks(description) for source in found]


async def reply_data(fake, payload: dict, timeout: float = 20) -> dict:
    """What the user finally sees of an interaction's reply: the response, or the follow-up
    of a deferred one (a slow lookup defers so as never to miss Discord's 3 s)."""
    callback = await fake.interact(payload, timeout)
    if callback.body.get("type") == 5:
        await fake.wait_for_request(
            lambda r: r.method in ("POST", "PATCH") and payload["token"] in r.path
            and "/webhooks/" in r.path, timeout,
        )  # fmt: skip
        return fake.original_message(payload["token"]) or {}
    return callback.body["data"]
