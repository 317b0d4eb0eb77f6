"""Issue 36, finding 1: no reader or parser runs away on adversarial text.

A seeded set of 1,000 generated documents (repeated pieces the readers' patterns look for,
and the lines reported to freeze the bot: "  |" segments, long runs of spaces, a line of
"|" and spaces as long as a line may be) goes through every shape's detect and parse, every
bundled parser, the whole reader, and the text helpers. Each call must raise nothing but a
refusal, and use under a second of CPU (a linear call takes milliseconds; the runaway
patterns took seconds at 22 segments and days at 40). The work runs in a child process, so
a runaway cannot hang the suite: a call that reports nothing for a minute fails the test.

The documents are dealt into four tests (every fourth document each), each with one child
of its own: the suite's workers share them as any other tests, one process to a core,
instead of one worker waiting on a single long test while its two children take both cores.
"""

from __future__ import annotations

import multiprocessing

import pytest

from tests.ingest import fuzz_readers

CPU_BOUND = 1.0  # seconds of CPU one call may use: far above any linear call
SILENCE = 60.0  # seconds without any report before the child is taken for stuck
SHARDS = 4  # the documents dealt into this many tests: documents()[shard::SHARDS]


def test_the_documents_are_every_generated_one_and_every_reported_shape():
    documents = fuzz_readers.documents()
    labels = [label for label, _ in documents]
    assert len(set(labels)) == len(labels) >= fuzz_readers.DOCUMENTS + 10
    # Dealt whole: every document goes to exactly one of the tests below.
    dealt = [label for shard in range(SHARDS) for label, _ in documents[shard::SHARDS]]
    assert sorted(dealt) == sorted(labels)


@pytest.mark.parametrize(
    "shard", range(SHARDS), ids=lambda shard: f"documents {shard + 1} of {SHARDS}"
)
def test_every_reader_and_parser_stays_bounded_on_adversarial_documents(shard):
    context = multiprocessing.get_context("spawn")
    receive, send = context.Pipe(duplex=False)
    current = context.RawArray("i", [-1, -1])  # the call under way: (document, call) index
    child = context.Process(
        target=fuzz_readers.run, args=(send, shard, SHARDS, current), daemon=True
    )
    child.start()
    send.close()
    names, calls, slow, errors, documents = [], 0, [], [], set()
    try:
        while True:
            if not receive.poll(SILENCE):
                document, call = current[:]
                label = fuzz_readers.documents()[document][0] if document >= 0 else None
                stuck = (label, names[call] if call >= 0 else None)
                raise AssertionError(f"no progress for {SILENCE:.0f} s in {stuck}")
            message = receive.recv()
            if message[0] == "finished":
                break
            if message[0] == "calls":
                names = message[1]
                continue
            _, label, report = message
            documents.add(label)
            for name, cpu, error in report:
                calls += 1
                if cpu >= CPU_BOUND:
                    slow.append(f"{name} on {label}: {cpu:.2f} s CPU")
                if error:
                    errors.append(f"{name} on {label}:\n{error}")
    finally:
        child.kill()
        child.join()
    assert documents == {label for label, _ in fuzz_readers.documents()[shard::SHARDS]}
    assert calls >= len(documents) * 20
    assert not slow, "\n".join(slow)
    assert not errors, "\n\n".join(errors[:5])
