"""The running bot beats while connected to the fake Discord, and says so when it stops."""

import asyncio

from bot import heartbeat


async def test_the_bot_beats_while_connected_and_stops_unhealthy(running, rulings):
    path = heartbeat.path_for(rulings.store.path)
    path.unlink(missing_ok=True)
    async with running():
        # on_ready writes the first beat as a task of its own: wait for it, within bounds.
        for _ in range(400):
            if heartbeat.check(path).healthy:
                break
            await asyncio.sleep(0.05)
        found = heartbeat.check(path)
        assert found.healthy, found.reason
        assert found.beat["connected"] is True
    found = heartbeat.check(path)
    assert not found.healthy and "not connected" in found.reason
