"""A strict fake Discord (REST v10 + gateway on 127.0.0.1) for end-to-end bot tests.

See ``server.py`` for how a test uses it; fixtures live in ``plugin.py``.
"""

from .server import FakeDiscord, Request, strip_nonce

__all__ = ["FakeDiscord", "Request", "strip_nonce"]
