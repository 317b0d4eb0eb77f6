"""The passages' texts read back as written across compressed blocks, removals and copies."""

import pickle

from bot.search.passage_texts import BLOCK, UNPACKED, PassageTexts


def _texts(count: int) -> list[str]:
    return [f"passage {i}: the Borg – assimilate {'é' * (i % 3)}" for i in range(count)]


def test_texts_read_back_across_blocks_and_the_filling_one():
    written = _texts(BLOCK * 2 + 5)
    texts = PassageTexts()
    for text in written:
        texts.append(text)
    assert len(texts) == len(written)
    assert [texts[slot] for slot in range(len(written))] == written
    assert texts[BLOCK + 1] == written[BLOCK + 1]  # another block than the one read last


def test_texts_read_back_in_any_order_past_the_blocks_kept_unpacked():
    # more blocks than are kept unpacked, read forwards, backwards and in strides: every
    # read is the text written, whichever blocks were dropped and unpacked again
    written = _texts(BLOCK * (UNPACKED + 3))
    texts = PassageTexts()
    for text in written:
        texts.append(text)
    order = [*range(len(written)), *reversed(range(len(written)))]
    order += [slot for start in range(BLOCK) for slot in range(start, len(written), BLOCK)]
    assert all(texts[slot] == written[slot] for slot in order)


def test_a_removed_text_reads_none_in_its_own_generation_only():
    written = _texts(BLOCK + 3)
    texts = PassageTexts()
    for text in written:
        texts.append(text)
    copied = texts.copy()
    texts.remove(2)
    texts.remove(BLOCK + 1)
    assert texts[2] is None and not texts.live(2)
    assert texts[BLOCK + 1] is None
    assert copied[2] == written[2] and copied.live(BLOCK + 1)
    copied.append("a new one")
    assert len(texts) == len(written)
    assert copied[len(written)] == "a new one"


def test_texts_survive_a_pickle_round_trip():
    written = _texts(BLOCK + 7)
    texts = PassageTexts()
    for text in written:
        texts.append(text)
    texts.remove(4)
    texts[0]  # a block unpacked and held: not written
    restored = pickle.loads(pickle.dumps(texts))
    assert [restored[slot] for slot in range(len(written))] == [
        None if slot == 4 else text for slot, text in enumerate(written)
    ]
