"""Look at the bot's replies as a user does: a command for the team, not part of the suite.

    .venv/bin/python -m tests.look_harness [OUT_DIR]

Runs a fixed set of lookups through the real bot on the fake Discord (tests/fakediscord/),
draws every reply (content, embeds, buttons, menus) as an HTML page styled like Discord's
dark theme, and, where Debian's Chromium is installed (``apt-get install chromium``), as
PNGs at phone (400 px) and desktop (900 px) widths. It also opens the first best match of
each miss with its button, as a user would. ``OUT_DIR/index.html`` lists every reply.
"""

from __future__ import annotations

import asyncio
import html
import re
import shutil
import subprocess
import sys
from pathlib import Path

import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.answers.service import Rulings
from bot.settings import Settings
from bot.store.state import State
from commands.app import RulingsBot
from tests.fakediscord import payloads
from tests.fakediscord.plugin import run_bot
from tests.fakediscord.server import FakeDiscord

GUILD = payloads.GUILD_ID
WAIT = 60
WIDTHS = {"phone": 400, "desktop": 900}
# (name, command, options): the seed examples, the cases, a miss, cards, DMs.
LOOKUPS = [
    ("ruling-reattempt", "ruling", {"query": "Can I reattempt a mission on the same turn?"}),
    ("ruling-attempting-missions", "ruling", {"query": "attempting missions"}),
    ("ruling-aborting", "ruling", {"query": "aborting missions"}),
    ("ruling-random-selection", "ruling", {"query": "random selection", "edition": "2E"}),
    ("ruling-matching-commander", "ruling", {"query": "matching commander", "edition": "1E"}),
    ("ruling-ktc", "ruling", {"query": "KTC"}),
    ("ruling-skills-composed", "ruling", {"query": "skills", "edition": "2E"}),
    ("ruling-stopped-base-missing", "ruling", {"query": "stopped", "edition": "1E"}),
    (
        "ruling-as-of",
        "ruling",
        {"query": "attempting missions", "edition": "2E", "as_of": "2012-01-01"},
    ),
    ("ruling-kira", "ruling", {"query": "Kira Nerys"}),
    ("ruling-two-rulings", "ruling", {"query": "matching commander vs facility commander"}),
    ("ruling-nothing", "ruling", {"query": "xyzzy plugh"}),
    ("card-tama", "card", {"name": "Tama"}),
    ("card-data-2e", "card", {"name": "Data", "edition": "2E"}),
    ("history-mission", "history", {"query": "mission", "edition": "1E"}),
    ("dm-stopped", "dm", {"text": "stopped 1E"}),
    ("dm-question", "dm", {"text": "Can an Away Team abort a mission attempt?"}),
]


# ------------------------------------------------------------------------- drawing
def _inline(text: str) -> str:
    """Discord's inline Markdown, enough to look at: bold, italics, links, code."""
    text = html.escape(text, quote=False)
    text = re.sub(r"\[([^\]\n]{1,300})\]\((https?://[^)\s]{1,500})\)", r'<a href="\2">\1</a>', text)
    text = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)
    text = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?!\w)", r"<i>\1</i>", text)
    return re.sub(r"`([^`\n]{1,200})`", r"<code>\1</code>", text)


def markdown(text: str) -> str:
    out, quote = [], []
    for line in (text or "").split("\n"):
        if line.startswith(">"):
            quote.append(_inline(line[1:].lstrip()))
            continue
        if quote:
            out.append('<div class="quote">' + "<br>".join(quote) + "</div>")
            quote = []
        if line.startswith("-# "):
            out.append(f'<div class="sub">{_inline(line[3:])}</div>')
        elif re.match(r"^\s*[-•]\s", line):
            out.append(f'<div class="li">• {_inline(line.lstrip()[2:])}</div>')
        else:
            out.append(f"<div>{_inline(line) or '&nbsp;'}</div>")
    if quote:
        out.append('<div class="quote">' + "<br>".join(quote) + "</div>")
    return "\n".join(out)


def _embed(embed: dict) -> str:
    colour = f"#{embed.get('color', 0x4E5058):06x}"
    parts = []
    if embed.get("title"):
        title = _inline(embed["title"])
        if embed.get("url"):
            title = f'<a href="{html.escape(embed["url"])}">{title}</a>'
        parts.append(f'<div class="etitle">{title}</div>')
    if embed.get("description"):
        parts.append(f'<div class="edesc">{markdown(embed["description"])}</div>')
    for field in embed.get("fields", []):
        parts.append(
            f'<div class="field"><div class="fname">{_inline(field["name"])}</div>'
            f"<div>{markdown(field['value'])}</div></div>"
        )
    if embed.get("footer"):
        parts.append(f'<div class="footer">{html.escape(embed["footer"]["text"])}</div>')
    return f'<div class="embed" style="border-left-color:{colour}">{"".join(parts)}</div>'


def _components(rows: list[dict]) -> str:
    out = []
    styles = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "secondary"}
    for row in rows:
        items = []
        for c in row.get("components", []):
            if c["type"] == 2:
                disabled = " disabled" if c.get("disabled") else ""
                items.append(
                    f'<span class="btn {styles.get(c.get("style"), "secondary")}{disabled}">'
                    f"{html.escape(c.get('label') or '')}</span>"
                )
            elif c["type"] == 3:
                options = "".join(
                    f"<li><b>{html.escape(o['label'])}</b>"
                    + (
                        f"<br><small>{html.escape(o['description'])}</small>"
                        if o.get("description")
                        else ""
                    )
                    + "</li>"
                    for o in c.get("options", [])
                )
                items.append(
                    f'<div class="select"><div class="ph">{html.escape(c.get("placeholder") or "Select")} ▾</div>'
                    '<div class="closed">closed until tapped; it holds:</div>'
                    f'<ul class="opts">{options}</ul></div>'
                )
        out.append(f'<div class="row">{"".join(items)}</div>')
    return "".join(out)


STYLE = """
body{background:#313338;color:#dbdee1;font:15px/1.375 "gg sans","Noto Sans",Helvetica,Arial,sans-serif;margin:0;padding:12px}
.msg{display:flex;gap:12px;margin-bottom:18px}.av{width:40px;height:40px;border-radius:50%;background:#5865f2;flex:none}
.name{color:#f2f3f5;font-weight:600}.tag{background:#5865f2;color:#fff;font-size:10px;border-radius:3px;padding:0 4px;margin-left:4px}
.ask{color:#949ba4;font-size:13px;margin-bottom:2px}.body{min-width:0;flex:1}
.embed{background:#2b2d31;border-left:4px solid;border-radius:4px;padding:8px 16px 16px 12px;margin-top:4px;max-width:520px}
.etitle{color:#00a8fc;font-weight:600;margin:8px 0}.etitle a{color:#00a8fc;text-decoration:none}
.edesc{font-size:14px}.field{margin-top:8px;font-size:14px}.fname{font-weight:600;color:#f2f3f5}
.footer{font-size:12px;color:#949ba4;margin-top:8px}.quote{border-left:4px solid #4e5058;padding-left:12px;margin:2px 0}
.sub{font-size:12px;color:#949ba4}.li{padding-left:8px}a{color:#00a8fc}
.row{display:flex;flex-wrap:wrap;gap:8px;margin-top:8px}
.btn{padding:2px 16px;min-height:32px;line-height:32px;border-radius:3px;color:#fff;font-size:14px;font-weight:500}
.primary{background:#5865f2}.secondary{background:#4e5058}.success{background:#248046}.danger{background:#da373c}
.disabled{opacity:.5}.select{background:#1e1f22;border-radius:4px;padding:8px;width:100%;max-width:520px}
.ph{color:#949ba4}.closed{font-size:11px;color:#6d6f78;margin-top:4px}.opts{margin:6px 0 0;padding-left:18px;font-size:13px;color:#b5bac1}
code{background:#1e1f22;padding:0 3px;border-radius:3px}
"""


def page(asked: str, message: dict) -> str:
    content = markdown(message.get("content") or "")
    embeds = "".join(_embed(e) for e in message.get("embeds", []))
    components = _components(message.get("components", []))
    ephemeral = " · only you can see this" if (message.get("flags") or 0) & 64 else ""
    return (
        f'<!doctype html><meta charset="utf-8"><style>{STYLE}</style>'
        f'<div class="ask">{html.escape(asked)}</div><div class="msg"><div class="av"></div>'
        f'<div class="body"><span class="name">Rulings</span><span class="tag">APP</span>'
        f'<span class="ask">{ephemeral}</span>{content}{embeds}{components}</div></div>'
    )


def screenshot(html_path: Path, png: Path, width: int, chars: int) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        return
    height = max(500, int(chars * (0.62 if width < 500 else 0.3)) + 450)
    subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         f"--window-size={width},{height}", f"--screenshot={png}", html_path.as_uri()],
        check=False, capture_output=True, timeout=120,
    )  # fmt: skip


# ------------------------------------------------------------------------- driving
async def _reply(fake: FakeDiscord, payload: dict) -> dict:
    """The reply as the user finally sees it: the response, or the follow-up of a deferral."""
    callback = await fake.interact(payload, WAIT)
    if callback.body.get("type") in (5, 6):
        await fake.wait_for_request(
            lambda r: r.method in ("POST", "PATCH") and payload["token"] in r.path, WAIT
        )
        return fake.original_message(payload["token"]) or {}
    return callback.body.get("data") or {}


async def _dm(fake: FakeDiscord, text: str) -> dict:
    before = len(fake.requests)  # the reply is a channel message posted after this
    await fake.dispatch("MESSAGE_CREATE", payloads.dm_message(text))
    sent = await fake.wait_for_request(
        lambda r: r.method == "POST" and r.path.endswith("/messages")
        and fake.requests.index(r) >= before, WAIT,
    )  # fmt: skip
    return sent.json


async def run(out: Path) -> list[tuple[str, str, dict]]:
    fake = FakeDiscord()
    await fake.start()
    old = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = fake.api_base, yarl.URL(fake.gateway_url)
    rulings, state = Rulings.open(), State(":memory:")
    settings = Settings(token="x.y.z", message_content_intent=True, cooldown_per_minute=500)
    replies: list[tuple[str, str, dict]] = []
    try:
        async with run_bot(RulingsBot(rulings, state, settings), fake, timeout=WAIT) as bot:
            await bot.tree.sync()
            for name, command, options in LOOKUPS:
                if command == "dm":
                    message = await _dm(fake, options["text"])
                    replies.append((name, f"DM: {options['text']}", message))
                    continue
                asked = f"/{command} " + " ".join(f"{k}:{v}" for k, v in options.items())
                payload = payloads.slash_command(command, options, guild_id=GUILD)
                message = await _reply(fake, payload)
                replies.append((name, asked, message))
                opened = _first_best_match(message)
                if opened and command == "ruling":
                    original = fake.original_message(payload["token"]) or message
                    click = payloads.button_click(opened, original, guild_id=GUILD)
                    replies.append(
                        (f"{name}-opened", f"{asked} → Open 1", await _reply(fake, click))
                    )
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = old
        await fake.stop()
        state.close()
        rulings.close()
    return replies


def _first_best_match(message: dict) -> str | None:
    for row in message.get("components", []):
        for c in row.get("components", []):
            if c.get("custom_id", "").startswith("rb:"):
                return c["custom_id"]
    return None


def main(argv: list[str]) -> int:
    out = Path(argv[0] if argv else "look-out")
    out.mkdir(parents=True, exist_ok=True)
    replies = asyncio.run(run(out))
    links = []
    for name, asked, message in replies:
        path = out / f"{name}.html"
        path.write_text(page(asked, message), encoding="utf-8")
        chars = (
            len(message.get("content") or "")
            + sum(
                len(e.get("description") or "") + sum(len(f["value"]) for f in e.get("fields", []))
                for e in message.get("embeds", [])
            )
            + 120 * sum(len(r.get("components", [])) for r in message.get("components", []))
        )
        for label, width in WIDTHS.items():
            screenshot(path, out / f"{name}-{label}.png", width, chars)
        links.append(f'<li><a href="{name}.html">{html.escape(asked)}</a></li>')
    (out / "index.html").write_text(
        f'<!doctype html><meta charset="utf-8"><ul>{"".join(links)}</ul>', encoding="utf-8"
    )
    print(f"{len(replies)} replies drawn in {out}/ (index.html)")
    return 0


if __name__ == "__main__":
    discord.utils.setup_logging()
    sys.exit(main(sys.argv[1:]))
