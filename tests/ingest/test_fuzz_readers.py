"""Issue 36, finding 1: no reader or parser runs away on adversarial text.

A seeded set of 1,000 generated documents (repeated pieces the readers' patterns look for,
and the lines reported to freeze the bot: "  |" segments, long runs of spaces, a line of
"|" and spaces as long as a line may be) goes through every shape's detect and parse, every
bundled parser, the whole reader, and the text helpers. Each call must raise nothing but a
refusal, and use under a second of CPU (a linear call takes milliseconds; the runaway
patterns took seconds at 22 segments and days at 40). The work runs in a child process, so
a runaway cannot hang the suite: a call that reports nothing for a minute fails the test.
"""

from __future__ import annotations

import multiprocessing
from multiprocessing import connection

from tests.ingest import fuzz_readers

CPU_BOUND = 1.0  # seconds of CPU one call may use: far above any linear call
SILENCE = 60.0  # seconds without any report before the child is taken for stuck
WORKERS = 2


def _collect(first: int, step: int):
    context = multiprocessing.get_context("spawn")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=fuzz_readers.run, args=(send, first, step), daemon=True)
    child.start()
    send.close()
    return child, receive


def test_every_reader_and_parser_stays_bounded_on_adversarial_documents():
    workers = [_collect(first, WORKERS) for first in range(WORKERS)]
    calls, slow, errors, documents = 0, [], [], set()
    # Both children's reports are read as they come: a child whose pipe is not drained
    # blocks once the pipe is full, and the two would run one after the other.
    current = {receive: None for _, receive in workers}
    try:
        while current:
            ready = connection.wait(list(current), SILENCE)
            if not ready:
                raise AssertionError(f"no progress for {SILENCE:.0f} s in {list(current.values())}")
            for receive in ready:
                message = receive.recv()
                if message[0] == "finished":
                    del current[receive]
                    continue
                if message[0] == "start":
                    current[receive] = message[1:]
                    continue
                _, label, name, cpu, error = message
                calls += 1
                documents.add(label)
                if cpu >= CPU_BOUND:
                    slow.append(f"{name} on {label}: {cpu:.2f} s CPU")
                if error:
                    errors.append(f"{name} on {label}:\n{error}")
    finally:
        for child, _ in workers:
            child.kill()
            child.join()
    assert len(documents) >= fuzz_readers.DOCUMENTS + 10
    assert calls >= len(documents) * 20
    assert not slow, "\n".join(slow)
    assert not errors, "\n\n".join(errors[:5])
