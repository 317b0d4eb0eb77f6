"""A small, strict fake Discord (REST API v10 + gateway) on 127.0.0.1 for end-to-end tests.

The real discord.py bot logs into it and connects to it; the test pushes raw gateway
payloads and asserts on the exact JSON the bot sends back. Use it through the pytest
fixtures in ``tests/fakediscord/plugin.py``::

    from tests.fakediscord import payloads
    from tests.fakediscord.plugin import run_bot

    async def test_ping(fake_discord):
        bot = make_bot()                                   # your real Bot / Client
        async with run_bot(bot, fake_discord):             # login + connect + READY
            interaction = payloads.slash_command("ping", {"word": "x"}, member_roles=[...])
            callback = await fake_discord.interact(interaction)   # dispatch + first callback
            await fake_discord.dispatch("MESSAGE_CREATE", payloads.dm_message("hi"))
            echo = await fake_discord.wait_for_request(lambda r: r.path.endswith("/messages"))
        assert callback.status == 200
        assert callback.body == {"type": 4, "data": {"content": "pong", ...}}  # body: no nonce

Other handles: ``fake.requests`` / ``fake.errors`` / ``fake.unexpected`` (``Request``
records), ``callbacks_for(id)``, ``followups_for(token)``, ``original_message(token)``
(feed it to ``payloads.button_click``), ``fake.messages``, ``fake.commands``,
``fake.identify`` / ``fake.intents``. Configure guilds, bot user or token with
``FakeDiscord(...)`` keyword arguments (the ``fake_discord_options`` fixture).

What it enforces, like Discord: bodies over the message/embed/component/choice limits
are refused with 400/50035 (``limits.py``); a second callback to one interaction gets
400/40060; unknown interactions 404/10062; follow-ups before an acknowledgement
404/10015; empty messages 400/50006; unknown routes 404 (recorded in ``unexpected``);
events the identified intents would not deliver are dropped, and guild message content
is blanked without the message-content intent. Every 4xx is kept in ``fake.errors``
and the fixture fails the test on any it did not ``pop_errors()``.
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import web
from multidict import CIMultiDict

from . import limits, payloads

log = logging.getLogger(__name__)

API_PREFIX = "/api/v10"

# Gateway intents the fake honours when deciding what to deliver.
GUILD_MEMBERS = 1 << 1
GUILD_MESSAGES = 1 << 9
GUILD_MESSAGE_REACTIONS = 1 << 10
DIRECT_MESSAGES = 1 << 12
DIRECT_MESSAGE_REACTIONS = 1 << 13
MESSAGE_CONTENT = 1 << 15
PRESENCES = 1 << 8
PRIVILEGED = GUILD_MEMBERS | PRESENCES | MESSAGE_CONTENT

LOADING = 1 << 7  # message flag: a deferred "is thinking..." message

# Which callback types Discord accepts for each interaction type.
_CALLBACKS_FOR = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}


def strip_nonce(body: Any) -> Any:
    """A copy of a message body without the random `nonce`/`enforce_nonce` keys."""
    if not isinstance(body, dict):
        return body
    return {k: v for k, v in body.items() if k not in ("nonce", "enforce_nonce")}


@dataclass
class Request:
    """One HTTP request the bot made, with what the fake answered."""

    method: str
    path: str  # without the /api/v10 prefix, e.g. "/channels/123/messages"
    query: dict[str, str]
    json: Any  # the parsed JSON body (or the payload_json part of a multipart body)
    files: list[dict[str, Any]]
    headers: dict[str, str]
    status: int = 0
    response: Any = None

    @property
    def body(self) -> Any:
        """The JSON body without the random nonce, for comparing."""
        return strip_nonce(self.json)

    def __repr__(self) -> str:
        return f"<Request {self.method} {self.path} -> {self.status} {json.dumps(self.json)[:300]}>"


class DiscordError(Exception):
    """Raised by a route to answer with Discord's JSON error shape."""

    def __init__(self, status: int, code: int, message: str, errors: dict | None = None):
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def body(self) -> dict:
        data: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors is not None:
            data["errors"] = self.errors
        return data


def _invalid(problems: list[limits.Problem]) -> DiscordError:
    return DiscordError(400, 50035, "Invalid Form Body", limits.discord_errors(problems))


def _truthy(value: str | None) -> bool:
    return (value or "").lower() in ("1", "true")


@dataclass
class _Interaction:
    payload: dict
    created: float
    callback_type: int | None = None
    original_id: str | None = None
    followup_ids: list[str] = field(default_factory=list)


Handler = Callable[..., Awaitable[tuple[int, Any]]]


class FakeDiscord:
    """The fake. Start with ``await fake.start()`` (the fixture does it), stop with ``stop()``."""

    def __init__(
        self,
        *,
        bot: dict | None = None,
        guilds: list[dict] | None = None,
        token: str | None = None,
        privileged_intents: int = PRIVILEGED,
        heartbeat_interval_ms: int = 41250,
        callback_deadline: float | None = 3.0,
    ) -> None:
        self.bot_user = bot or payloads.bot_user()
        self.application_id: str = self.bot_user["id"]
        self.guilds: list[dict] = (
            guilds if guilds is not None else [payloads.guild(bot_id=self.application_id)]
        )
        self.token = token  # None: accept any token, but one must be sent
        self.privileged_intents = privileged_intents
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.callback_deadline = callback_deadline

        # What tests look at.
        self.requests: list[Request] = []
        self.errors: list[Request] = []  # every 4xx the fake answered
        self.unexpected: list[Request] = []  # requests to routes the fake does not know
        self.gateway_problems: list[str] = []  # unknown ops, binary frames ...
        self.dropped: list[tuple[str, dict]] = []  # events the bot's intents would not get
        self.logged_errors: list[logging.LogRecord] = []  # filled by the pytest plugin
        self.identify: dict | None = None
        self.intents: int | None = None
        self.gateway_query: dict[str, str] = {}
        self.presence_updates: list[dict] = []
        self.messages: dict[str, dict] = {}
        self.commands: list[dict] = []
        self.guild_commands: dict[str, list[dict]] = {}
        self.modals: dict[str, dict] = {}
        self.interactions: dict[str, _Interaction] = {}
        self.ready = asyncio.Event()
        self.files: dict[str, bytes] = {}  # attachment id -> bytes served by the fake CDN

        self._tokens: dict[str, _Interaction] = {}
        self._users: dict[str, dict] = {self.application_id: self.bot_user}
        self._channels: dict[str, dict] = {}
        self._dm_by_user: dict[str, dict] = {}
        for g in self.guilds:
            for c in g.get("channels", []):
                self._channels[c["id"]] = {**c, "guild_id": g["id"]}
            for m in g.get("members", []):
                self._users[m["user"]["id"]] = m["user"]
        self._command_ids: dict[tuple, str] = {}
        self._waiters: list[tuple[Callable[[Request], bool], asyncio.Future]] = []
        self._ws: web.WebSocketResponse | None = None
        self._seq = 0
        self._send_lock = asyncio.Lock()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._routes = self._build_routes()

    # --- lifecycle ------------------------------------------------------------------

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    @property
    def guild(self) -> dict:
        """The first configured guild (GUILD_CREATE payload)."""
        return self.guilds[0]

    async def start(self) -> FakeDiscord:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/cdn/attachments/{aid}/{filename}", self._cdn)
        app.router.add_route("*", "/{tail:.*}", self._http)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def stop(self) -> None:
        if self._ws is not None and not self._ws.closed:
            await self._ws.close(code=1000)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        for _, fut in self._waiters:
            fut.cancel()

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # --- test API ---------------------------------------------------------------------

    def attachment(self, filename: str, content: bytes, content_type: str = "text/plain") -> dict:
        """An attachment object whose file the fake's CDN serves (for attachment options)."""
        att = payloads.attachment(filename, size=len(content), content_type=content_type)
        url = f"http://127.0.0.1:{self.port}/cdn/attachments/{att['id']}/{filename}"
        self.files[att["id"]] = content
        return {**att, "url": url, "proxy_url": url}

    async def _cdn(self, request: web.Request) -> web.Response:
        content = self.files.get(request.match_info["aid"])
        if content is None:
            return web.Response(status=404)
        return web.Response(body=content, content_type="application/octet-stream")

    @property
    def connected(self) -> bool:
        return self._ws is not None and not self._ws.closed

    async def dispatch(self, event: str, data: dict) -> bool:
        """Push a DISPATCH to the connected bot. False if its intents would drop the event."""
        if not self.connected:
            raise RuntimeError("no bot is connected to the fake gateway")
        data = copy.deepcopy(data)
        self._learn(data)
        if event == "INTERACTION_CREATE":
            self._register_interaction(data)
        else:
            delivered = self._filter_by_intents(event, data)
            if delivered is None:
                self.dropped.append((event, data))
                log.warning(
                    "fake discord: dropping %s, the bot did not identify with its intent", event
                )
                return False
            data = delivered
        await self._send_dispatch(event, data)
        return True

    async def interact(self, payload: dict, timeout: float = 5) -> Request:
        """Dispatch an INTERACTION_CREATE and return the bot's first callback request."""
        await self.dispatch("INTERACTION_CREATE", payload)
        return await self.wait_for_callback(payload["id"], timeout=timeout)

    async def wait_for_callback(self, interaction_id: str, timeout: float = 5) -> Request:
        path = re.compile(rf"^/interactions/{interaction_id}/[^/]+/callback$")
        return await self.wait_for_request(
            lambda r: r.method == "POST" and bool(path.match(r.path)), timeout
        )

    async def wait_for_request(
        self, predicate: Callable[[Request], bool], timeout: float = 5
    ) -> Request:
        """The first recorded request matching `predicate`, waiting up to `timeout` seconds."""
        for r in self.requests:
            if predicate(r):
                return r
        fut: asyncio.Future[Request] = asyncio.get_running_loop().create_future()
        entry = (predicate, fut)
        self._waiters.append(entry)
        try:
            return await asyncio.wait_for(fut, timeout)
        except TimeoutError:
            seen = "\n  ".join(map(repr, self.requests)) or "(none)"
            raise AssertionError(
                f"no matching request within {timeout}s; requests so far:\n  {seen}"
            ) from None
        finally:
            if entry in self._waiters:
                self._waiters.remove(entry)

    def callbacks_for(self, interaction_id: str | int) -> list[Request]:
        """Every callback POST for one interaction (refused ones included; see `.status`)."""
        prefix = f"/interactions/{interaction_id}/"
        return [r for r in self.requests if r.method == "POST" and r.path.startswith(prefix)]

    def followups_for(self, token: str) -> list[Request]:
        """Every follow-up POST made with an interaction token."""
        path = f"/webhooks/{self.application_id}/{token}"
        return [r for r in self.requests if r.method == "POST" and r.path == path]

    def original_message(self, token: str) -> dict | None:
        """The message an interaction's response created or updated (its @original)."""
        inter = self._tokens.get(token)
        if inter is None or inter.original_id is None:
            return None
        return self.messages.get(inter.original_id)

    def channel_messages(self, channel_id: str | int) -> list[dict]:
        return [m for m in self.messages.values() if m["channel_id"] == str(channel_id)]

    def pop_errors(self) -> list[Request]:
        """Return and forget the recorded 4xx answers (for tests that provoke them)."""
        errors, self.errors = self.errors, []
        # Unknown routes are 4xx too: popping acknowledges them as well.
        self.unexpected = [r for r in self.unexpected if all(r is not e for e in errors)]
        return errors

    # --- gateway ----------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self.gateway_query = dict(request.query)
        if request.query.get("encoding", "json") != "json":
            await ws.close(code=4002, message=b"only encoding=json is served")
            return ws
        if self._ws is not None and not self._ws.closed:
            await self._ws.close(code=4000)
        self._ws, self._seq = ws, 0
        self.ready.clear()
        # discord.py asks for compress=zlib-stream, but it only decompresses *binary*
        # frames; text frames are parsed as JSON directly, so plain text is served.
        await self._send(
            ws,
            {
                "op": 10,
                "d": {"heartbeat_interval": self.heartbeat_interval_ms},
                "s": None,
                "t": None,
            },
        )
        try:
            async for msg in ws:
                if msg.type == aiohttp.WSMsgType.TEXT:
                    await self._gateway_op(ws, json.loads(msg.data))
                elif msg.type == aiohttp.WSMsgType.BINARY:
                    self.gateway_problems.append(
                        "binary frame received; the fake expects JSON text"
                    )
        finally:
            if self._ws is ws:
                self._ws = None
        return ws

    async def _gateway_op(self, ws: web.WebSocketResponse, msg: dict) -> None:
        op, d = msg.get("op"), msg.get("d")
        if op == 1:
            await self._send(ws, {"op": 11, "d": None, "s": None, "t": None})
        elif op == 2:
            await self._identify(ws, d)
        elif op == 3:
            self.presence_updates.append(d)
        elif op == 6:
            # No sessions to resume here: tell the bot to identify afresh.
            await self._send(ws, {"op": 9, "d": False, "s": None, "t": None})
        elif op == 8:
            await self._member_chunk(d)
        elif op == 4:
            pass  # voice state updates are irrelevant to the fake
        else:
            self.gateway_problems.append(f"unknown gateway op {op!r}: {msg!r}")

    async def _identify(self, ws: web.WebSocketResponse, d: dict) -> None:
        self.identify = d
        token = d.get("token")
        if not token or (self.token is not None and token != self.token):
            await ws.close(code=4004, message=b"Authentication failed.")
            return
        self.intents = d.get("intents")
        if self.intents is None:
            await ws.close(code=4013, message=b"Invalid intent(s).")
            return
        if self.intents & PRIVILEGED & ~self.privileged_intents:
            await ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        ready = {
            "v": 10,
            "user": self.bot_user,
            "user_settings": {},
            "guilds": [{"id": g["id"], "unavailable": True} for g in self.guilds],
            "session_id": "fakesession" + payloads.snowflake(),
            "resume_gateway_url": self.gateway_url,
            "session_type": "normal",
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "application": {"id": self.application_id, "flags": self._application_flags()},
            "_trace": ["fake-discord"],
        }
        if d.get("shard") is not None:
            ready["shard"] = d["shard"]
        await self._send_dispatch("READY", ready)
        for g in self.guilds:
            await self._send_dispatch("GUILD_CREATE", g)
        self.ready.set()

    async def _member_chunk(self, d: dict) -> None:
        guild = next((g for g in self.guilds if g["id"] == str(d.get("guild_id"))), None)
        members = guild["members"] if guild else []
        if d.get("user_ids"):
            wanted = {str(u) for u in d["user_ids"]}
            members = [m for m in members if m["user"]["id"] in wanted]
        elif d.get("query"):
            members = [
                m for m in members if m["user"]["username"].lower().startswith(d["query"].lower())
            ]
        chunk = {
            "guild_id": str(d.get("guild_id")),
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if d.get("nonce") is not None:
            chunk["nonce"] = d["nonce"]
        await self._send_dispatch("GUILD_MEMBERS_CHUNK", chunk)

    async def _send(self, ws: web.WebSocketResponse, msg: dict) -> None:
        await ws.send_str(json.dumps(msg))

    async def _send_dispatch(self, event: str, data: dict) -> None:
        ws = self._ws
        if ws is None or ws.closed:
            raise RuntimeError("no bot is connected to the fake gateway")
        # The lock keeps `s` increasing in the order frames actually go out.
        async with self._send_lock:
            self._seq += 1
            await self._send(ws, {"op": 0, "s": self._seq, "t": event, "d": data})

    def _application_flags(self) -> int:
        # GATEWAY_GUILD_MEMBERS_LIMITED | GATEWAY_MESSAGE_CONTENT_LIMITED | APPLICATION_COMMAND_BADGE
        return (1 << 15) | (1 << 19) | (1 << 23)

    def _learn(self, data: dict) -> None:
        """Remember users and channels an event mentions, so later REST calls find them."""
        for key in ("author", "user"):
            u = data.get(key)
            if isinstance(u, dict) and "id" in u:
                self._users.setdefault(u["id"], u)
        m = data.get("member")
        if isinstance(m, dict) and isinstance(m.get("user"), dict):
            self._users.setdefault(m["user"]["id"], m["user"])
        ch = data.get("channel")
        if isinstance(ch, dict) and "id" in ch:
            self._channels.setdefault(ch["id"], ch)
        cid = data.get("channel_id")
        if (
            cid
            and cid not in self._channels
            and "guild_id" not in data
            and isinstance(data.get("author"), dict)
        ):
            # A DM message: Discord would know this DM channel.
            self._channels[cid] = payloads.dm_channel(data["author"], cid)

    def _register_interaction(self, data: dict) -> None:
        if str(data.get("application_id")) != self.application_id:
            raise ValueError(
                f"interaction application_id {data.get('application_id')} is not the bot's {self.application_id}"
            )
        t = data.get("type")
        if t in (2, 4):
            self._check_known_command(data)
        if t == 3:
            self._check_component(data)
        inter = _Interaction(payload=data, created=time.monotonic())
        self.interactions[data["id"]] = inter
        self._tokens[data["token"]] = inter

    def _check_known_command(self, data: dict) -> None:
        # Discord only sends interactions for registered commands. Until the test
        # registers some, any name is allowed (bots should not sync on every start).
        cmd = data.get("data") or {}
        scope = self.commands + self.guild_commands.get(str(data.get("guild_id")), [])
        if not self.commands and not any(self.guild_commands.values()):
            return
        if not any(
            c["name"] == cmd.get("name") and c.get("type", 1) == cmd.get("type", 1) for c in scope
        ):
            known = sorted(c["name"] for c in scope)
            raise ValueError(
                f"command {cmd.get('name')!r} is not registered here; registered: {known}"
            )

    def _check_component(self, data: dict) -> None:
        # A click can only hit a component that is on the message.
        message = self.messages.get(str((data.get("message") or {}).get("id")))
        if message is None:
            return
        custom_id = (data.get("data") or {}).get("custom_id")
        if custom_id not in set(_custom_ids(message.get("components") or [])):
            raise ValueError(
                f"message {message['id']} has no component with custom_id {custom_id!r}"
            )

    def _filter_by_intents(self, event: str, data: dict) -> dict | None:
        intents = self.intents or 0
        in_guild = "guild_id" in data
        if event.startswith("MESSAGE_REACTION_"):
            need = GUILD_MESSAGE_REACTIONS if in_guild else DIRECT_MESSAGE_REACTIONS
        elif event.startswith("MESSAGE_"):
            need = GUILD_MESSAGES if in_guild else DIRECT_MESSAGES
        elif event.startswith("GUILD_MEMBER_"):
            need = GUILD_MEMBERS
        elif event == "PRESENCE_UPDATE":
            need = PRESENCES
        else:
            return data
        if not intents & need:
            return None
        if (
            event in ("MESSAGE_CREATE", "MESSAGE_UPDATE")
            and in_guild
            and not intents & MESSAGE_CONTENT
        ):
            mentioned = any(u.get("id") == self.application_id for u in data.get("mentions") or [])
            own = (data.get("author") or {}).get("id") == self.application_id
            if not (mentioned or own):
                data = {**data, "content": "", "embeds": [], "attachments": [], "components": []}
                data.pop("poll", None)
        return data

    # --- HTTP -------------------------------------------------------------------------

    def _build_routes(self) -> list[tuple[str, re.Pattern, Handler, bool]]:
        s = r"(?P<%s>\d+)"
        tok = r"(?P<token>[^/]+)"
        wh = rf"/webhooks/{s % 'app'}/{tok}"
        msg = wh + r"/messages/(?P<message>@original|\d+)"
        table: list[tuple[str, str, Handler, bool]] = [
            ("GET", "/users/@me", self._get_me, True),
            ("POST", "/users/@me/channels", self._open_dm, True),
            ("GET", "/oauth2/applications/@me", self._get_application, True),
            ("GET", "/gateway", self._get_gateway, False),
            ("GET", "/gateway/bot", self._get_gateway_bot, True),
            ("PUT", rf"/applications/{s % 'app'}/commands", self._put_commands, True),
            ("GET", rf"/applications/{s % 'app'}/commands", self._get_commands, True),
            (
                "PUT",
                rf"/applications/{s % 'app'}/guilds/{s % 'guild'}/commands",
                self._put_commands,
                True,
            ),
            (
                "GET",
                rf"/applications/{s % 'app'}/guilds/{s % 'guild'}/commands",
                self._get_commands,
                True,
            ),
            ("POST", rf"/interactions/{s % 'interaction'}/{tok}/callback", self._callback, False),
            ("POST", wh, self._followup, False),
            ("GET", msg, self._get_webhook_message, False),
            ("PATCH", msg, self._edit_webhook_message, False),
            ("DELETE", msg, self._delete_webhook_message, False),
            ("POST", rf"/channels/{s % 'channel'}/messages", self._channel_message, True),
        ]
        return [(m, re.compile(f"^{p}$"), h, auth) for m, p, h, auth in table]

    async def _http(self, request: web.Request) -> web.StreamResponse:
        path = request.path
        if path.startswith(API_PREFIX):
            path = path[len(API_PREFIX) :]
        rec = Request(request.method, path, dict(request.query), None, [], dict(request.headers))
        try:
            rec.json, rec.files = await _read_body(request)
            if not request.path.startswith(API_PREFIX + "/"):
                raise DiscordError(404, 0, "404: Not Found")
            status, body = await self._route(request, rec)
        except DiscordError as e:
            status, body = e.status, e.body()
        rec.status, rec.response = status, body
        self._record(rec)
        if body is None:
            # Discord sends 204 without a Content-Type; with "application/json" discord.py
            # would try to parse the empty body.
            return web.Response(status=status)
        # Exactly "application/json": discord.py compares the header verbatim, and
        # aiohttp's json_response would append "; charset=utf-8".
        headers = CIMultiDict({"Content-Type": "application/json"})
        return web.Response(status=status, body=json.dumps(body).encode(), headers=headers)

    async def _route(self, request: web.Request, rec: Request) -> tuple[int, Any]:
        allowed = False
        for method, pattern, handler, auth in self._routes:
            match = pattern.match(rec.path)
            if not match:
                continue
            allowed = True
            if method != rec.method:
                continue
            if auth:
                self._check_auth(request)
            return await handler(rec, **match.groupdict())
        self.unexpected.append(rec)
        if allowed:
            raise DiscordError(405, 0, "405: Method Not Allowed")
        raise DiscordError(404, 0, "404: Not Found")

    def _check_auth(self, request: web.Request) -> None:
        header = request.headers.get("Authorization", "")
        token = header.removeprefix("Bot ")
        if (
            not header.startswith("Bot ")
            or not token
            or (self.token is not None and token != self.token)
        ):
            raise DiscordError(401, 0, "401: Unauthorized")

    def _record(self, rec: Request) -> None:
        self.requests.append(rec)
        if 400 <= rec.status < 500:
            self.errors.append(rec)
        for predicate, fut in list(self._waiters):
            if not fut.done() and predicate(rec):
                fut.set_result(rec)

    # --- routes: login ------------------------------------------------------------------

    async def _get_me(self, rec: Request) -> tuple[int, Any]:
        return 200, self.bot_user

    async def _get_application(self, rec: Request) -> tuple[int, Any]:
        owner = payloads.user(payloads.OWNER_ID, "owner")
        return 200, {
            "id": self.application_id,
            "name": self.bot_user["username"],
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "bot_public": False,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": owner,
            "team": None,
            "flags": self._application_flags(),
            "bot": self.bot_user,
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "approximate_guild_count": len(self.guilds),
            "integration_types_config": {"0": {}},
        }

    async def _get_gateway(self, rec: Request) -> tuple[int, Any]:
        return 200, {"url": self.gateway_url}

    async def _get_gateway_bot(self, rec: Request) -> tuple[int, Any]:
        return 200, {
            "url": self.gateway_url,
            "shards": 1,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 14400000,
                "max_concurrency": 1,
            },
        }

    # --- routes: commands -----------------------------------------------------------------

    def _check_app(self, app: str) -> None:
        if app != self.application_id:
            raise DiscordError(403, 50001, "Missing Access")

    def _check_guild(self, guild: str | None) -> None:
        if guild is not None and guild not in {g["id"] for g in self.guilds}:
            raise DiscordError(403, 50001, "Missing Access")

    async def _put_commands(
        self, rec: Request, app: str, guild: str | None = None
    ) -> tuple[int, Any]:
        self._check_app(app)
        self._check_guild(guild)
        problems = limits.command_problems(rec.json)
        if problems:
            raise _invalid(problems)
        stored = []
        for cmd in rec.json:
            t = cmd.get("type", 1)
            # Discord keeps a command's id when it is overwritten with the same name and type.
            cid = self._command_ids.setdefault((guild, cmd["name"], t), payloads.snowflake())
            full = {
                "id": cid,
                "application_id": self.application_id,
                "version": payloads.snowflake(),
                "type": t,
                "description": "",
                "default_member_permissions": None,
                "nsfw": False,
                **copy.deepcopy(cmd),
            }
            if guild is not None:
                full["guild_id"] = guild
            stored.append(full)
        if guild is None:
            self.commands = stored
        else:
            self.guild_commands[guild] = stored
        return 200, stored

    async def _get_commands(
        self, rec: Request, app: str, guild: str | None = None
    ) -> tuple[int, Any]:
        self._check_app(app)
        self._check_guild(guild)
        return 200, self.commands if guild is None else self.guild_commands.get(guild, [])

    # --- routes: interactions -------------------------------------------------------------

    def _interaction(self, interaction_id: str, token: str) -> _Interaction:
        inter = self.interactions.get(interaction_id)
        if inter is None or inter.payload["token"] != token:
            raise DiscordError(404, 10062, "Unknown interaction")
        return inter

    async def _callback(self, rec: Request, interaction: str, token: str) -> tuple[int, Any]:
        inter = self._interaction(interaction, token)
        if inter.callback_type is not None:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        age = time.monotonic() - inter.created
        if self.callback_deadline is not None and age > self.callback_deadline:
            # Discord forgets interactions not answered within 3 seconds.
            raise DiscordError(404, 10062, "Unknown interaction")
        body = rec.json
        if not isinstance(body, dict):
            raise _invalid([limits.Problem((), "MODEL_TYPE_CONVERT", "Must be an object")])
        cb_type = body.get("type")
        allowed = set(_CALLBACKS_FOR.get(inter.payload["type"], set()))
        if inter.payload["type"] == 5 and "message" not in inter.payload:
            allowed -= {6, 7}  # only a modal opened from a component can update that message
        if cb_type not in allowed:
            problem = limits.Problem(
                ("type",),
                "INTERACTION_CALLBACK_TYPE_INVALID",
                f"Callback type {cb_type!r} is not valid for interaction type {inter.payload['type']}",
            )
            raise _invalid([problem])
        problems = limits.callback_problems(body)
        if problems:
            raise _invalid(problems)
        data = body.get("data") or {}
        if cb_type == 4 and limits.is_empty_message(data) and not rec.files:
            raise DiscordError(400, 50006, "Cannot send an empty message")

        message: dict | None = None
        channel_id = inter.payload.get("channel_id") or inter.payload.get("channel", {}).get("id")
        if cb_type == 4:
            message = self._new_message(data, channel_id, rec, inter=inter)
        elif cb_type == 5:
            flags = LOADING | ((data.get("flags") or 0) & limits.EPHEMERAL)
            message = self._new_message(
                {"content": "", "flags": flags}, channel_id, rec, inter=inter
            )
        elif cb_type in (6, 7):
            message = self.messages.get(str(inter.payload.get("message", {}).get("id")))
            if message is None:
                message = copy.deepcopy(inter.payload.get("message"))
                if message is not None:
                    self.messages[message["id"]] = message
            if cb_type == 7 and message is not None:
                self._apply_edit(message, data, rec)
        elif cb_type == 9:
            self.modals[data["custom_id"]] = data
        inter.callback_type = cb_type
        if message is not None:
            inter.original_id = message["id"]

        if not _truthy(rec.query.get("with_response")):
            return 204, None
        flags = (message or {}).get("flags", 0)
        response: dict[str, Any] = {
            "interaction": {
                "id": interaction,
                "type": inter.payload["type"],
                "activity_instance_id": None,
                "response_message_id": message["id"] if message and cb_type in (4, 5, 7) else None,
                "response_message_loading": cb_type == 5,
                "response_message_ephemeral": bool(flags & limits.EPHEMERAL),
            }
        }
        if cb_type in (4, 5, 7) and message is not None:
            response["resource"] = {"type": cb_type, "message": message}
        return 200, response

    def _webhook(self, app: str, token: str) -> _Interaction:
        inter = self._tokens.get(token)
        if app != self.application_id or inter is None:
            raise DiscordError(404, 10015, "Unknown Webhook")
        if inter.callback_type is None or inter.callback_type == 8:
            # Follow-ups and edits need an acknowledged interaction.
            raise DiscordError(404, 10015, "Unknown Webhook")
        return inter

    def _webhook_target(self, inter: _Interaction, message: str) -> dict:
        mid = inter.original_id if message == "@original" else message
        if (
            mid is None
            or (mid != inter.original_id and mid not in inter.followup_ids)
            or mid not in self.messages
        ):
            raise DiscordError(404, 10008, "Unknown Message")
        return self.messages[mid]

    async def _followup(self, rec: Request, app: str, token: str) -> tuple[int, Any]:
        inter = self._webhook(app, token)
        body = rec.json if isinstance(rec.json, dict) else {}
        problems = limits.message_problems(body)
        if problems:
            raise _invalid(problems)
        if limits.is_empty_message(body) and not rec.files:
            raise DiscordError(400, 50006, "Cannot send an empty message")
        original = self.messages.get(inter.original_id or "")
        if original is not None and original.get("flags", 0) & LOADING:
            # The first follow-up after a deferral replaces the "thinking" message.
            self._apply_edit(original, body, rec)
            message = original
        else:
            channel_id = inter.payload.get("channel_id")
            message = self._new_message(body, channel_id, rec, inter=inter)
            inter.followup_ids.append(message["id"])
        if not _truthy(rec.query.get("wait")):
            return 204, None
        return 200, message

    async def _get_webhook_message(
        self, rec: Request, app: str, token: str, message: str
    ) -> tuple[int, Any]:
        return 200, self._webhook_target(self._webhook(app, token), message)

    async def _edit_webhook_message(
        self, rec: Request, app: str, token: str, message: str
    ) -> tuple[int, Any]:
        target = self._webhook_target(self._webhook(app, token), message)
        body = rec.json if isinstance(rec.json, dict) else {}
        problems = limits.message_problems(body)
        if problems:
            raise _invalid(problems)
        self._apply_edit(target, body, rec)
        return 200, target

    async def _delete_webhook_message(
        self, rec: Request, app: str, token: str, message: str
    ) -> tuple[int, Any]:
        target = self._webhook_target(self._webhook(app, token), message)
        del self.messages[target["id"]]
        return 204, None

    # --- routes: channels and DMs ----------------------------------------------------------

    async def _channel_message(self, rec: Request, channel: str) -> tuple[int, Any]:
        if channel not in self._channels:
            raise DiscordError(404, 10003, "Unknown Channel")
        body = rec.json if isinstance(rec.json, dict) else {}
        problems = limits.message_problems(body)
        if body.get("flags", 0) & limits.EPHEMERAL:
            problems.append(
                limits.Problem(
                    ("flags",), "MESSAGE_FLAGS_INVALID", "Channel messages cannot be ephemeral"
                )
            )
        if problems:
            raise _invalid(problems)
        if limits.is_empty_message(body) and not rec.files:
            raise DiscordError(400, 50006, "Cannot send an empty message")
        message = self._new_message(body, channel, rec)
        if body.get("nonce") is not None:
            message["nonce"] = body["nonce"]
        if body.get("message_reference"):
            message["message_reference"] = body["message_reference"]
            message["type"] = 19
        return 200, message

    async def _open_dm(self, rec: Request) -> tuple[int, Any]:
        recipient = str((rec.json or {}).get("recipient_id"))
        who = self._users.get(recipient)
        if who is None or recipient == self.application_id:
            raise DiscordError(400, 50033, "Invalid Recipient(s)")
        channel = self._dm_by_user.get(recipient)
        if channel is None:
            channel = payloads.dm_channel(who)
            self._dm_by_user[recipient] = channel
            self._channels[channel["id"]] = channel
        return 200, channel

    # --- messages -------------------------------------------------------------------------

    def _new_message(
        self, body: dict, channel_id: str, rec: Request, *, inter: _Interaction | None = None
    ) -> dict:
        message = {
            "id": payloads.snowflake(),
            "type": 0,
            "channel_id": str(channel_id),
            "author": self.bot_user,
            "content": body.get("content") or "",
            "timestamp": payloads.timestamp(),
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": _attachments(rec),
            "embeds": copy.deepcopy(body.get("embeds") or []),
            "components": copy.deepcopy(body.get("components") or []),
            "pinned": False,
            "flags": body.get("flags") or 0,
        }
        if inter is not None:
            p = inter.payload
            who = p.get("user") or (p.get("member") or {}).get("user")
            message["webhook_id"] = self.application_id
            message["application_id"] = self.application_id
            message["type"] = 20 if p["type"] == 2 and inter.callback_type is None else 0
            message["interaction_metadata"] = {
                "id": p["id"],
                "type": p["type"],
                "user": who,
                "authorizing_integration_owners": p.get("authorizing_integration_owners", {}),
            }
        self.messages[message["id"]] = message
        return message

    def _apply_edit(self, message: dict, body: dict, rec: Request) -> None:
        for key in ("content", "embeds", "components"):
            if key in body:
                message[key] = (
                    copy.deepcopy(body[key])
                    if body[key] is not None
                    else ([] if key != "content" else "")
                )
        if "attachments" in body or rec.files:
            message["attachments"] = _attachments(rec)
        if "flags" in body and body["flags"] is not None:
            message["flags"] = (message.get("flags", 0) & limits.EPHEMERAL) | body["flags"]
        message["flags"] = message.get("flags", 0) & ~LOADING
        message["edited_timestamp"] = payloads.timestamp()


def _custom_ids(components: list) -> list[str]:
    out = []
    for c in components:
        if not isinstance(c, dict):
            continue
        if c.get("custom_id"):
            out.append(c["custom_id"])
        out += _custom_ids(c.get("components") or [])
        if isinstance(c.get("accessory"), dict):
            out += _custom_ids([c["accessory"]])
    return out


def _attachments(rec: Request) -> list[dict]:
    out = []
    for i, f in enumerate(rec.files):
        aid = payloads.snowflake()
        url = f"https://cdn.discordapp.com/attachments/1/{aid}/{f['filename']}"
        out.append(
            {
                "id": aid,
                "filename": f["filename"] or f"file{i}",
                "size": f["size"],
                "url": url,
                "proxy_url": url,
                "content_type": f.get("content_type"),
            }
        )
    return out


async def _read_body(request: web.Request) -> tuple[Any, list[dict]]:
    """The JSON body, from a JSON request or the `payload_json` part of a multipart one."""
    if request.content_type == "multipart/form-data":
        payload: Any = None
        files: list[dict] = []
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if part.name == "payload_json":
                payload = json.loads(await part.text())
            else:
                data = await part.read()
                files.append(
                    {
                        "name": part.name,
                        "filename": part.filename,
                        "size": len(data),
                        "content_type": part.headers.get("Content-Type"),
                        "data": bytes(data),
                    }
                )
        return payload, files
    raw = await request.read()
    if not raw:
        return None, []
    if request.content_type != "application/json":
        raise DiscordError(400, 50109, "The request body contains invalid JSON.")
    try:
        return json.loads(raw), []
    except ValueError:
        raise DiscordError(400, 50109, "The request body contains invalid JSON.") from None
