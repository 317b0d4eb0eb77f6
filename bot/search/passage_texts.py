"""The passages' texts, compressed in blocks: at 100,000 entries their 400,000 strings held
80 MB, a fifth of the process. A text is read only for a hit or a passage of one topic (a
few per question), so unpacking its block (about 20 µs) is paid a few times per answer."""

from __future__ import annotations

import zlib
from array import array

BLOCK = 32  # passages a block holds: small enough to unpack per read, big enough to pack well
LEVEL = 6  # zlib's default: level 1 packs a quarter worse for a second less at 100,000
UNPACKED = 64  # blocks kept unpacked (about 10 KB each): a question's hits span a few dozen


class PassageTexts:
    """Every passage's text by its number, appended in order; a removed one reads None.
    Whole blocks are compressed bytes (shared by copies: they never change); the last,
    filling, block is kept as strings."""

    __slots__ = ("_blocks", "_ends", "_tail", "_live", "_unpacked")

    def __init__(self) -> None:
        self._blocks: list[bytes] = []
        self._ends = array("I")  # each text's end in its block's UTF-8 bytes
        self._tail: list[str] = []
        self._live = bytearray()  # 1: the passage is held, 0: removed
        self._unpacked: dict[int, bytes] = {}  # the blocks read last, unpacked

    def __len__(self) -> int:
        return len(self._live)

    def __getstate__(self) -> tuple:
        return (self._blocks, self._ends, self._tail, self._live)

    def __setstate__(self, state: tuple) -> None:
        self._blocks, self._ends, self._tail, self._live = state
        self._unpacked = {}

    def live(self, slot: int) -> bool:
        return bool(self._live[slot])

    def __getitem__(self, slot: int) -> str | None:
        if not self._live[slot]:
            return None
        block, at = divmod(slot, BLOCK)
        if block == len(self._blocks):
            return self._tail[at]
        unpacked = self._unpacked.get(block)
        if unpacked is None:
            unpacked = zlib.decompress(self._blocks[block])
            if len(self._unpacked) >= UNPACKED:
                self._unpacked = {}  # a new dict: a reader in another thread keeps its own
            self._unpacked[block] = unpacked
        start = self._ends[slot - 1] if at else 0
        return unpacked[start : self._ends[slot]].decode()

    def append(self, text: str) -> None:
        self._tail.append(text)
        self._live.append(1)
        if len(self._tail) == BLOCK:
            packed = bytearray()
            for held in self._tail:
                packed += held.encode()
                self._ends.append(len(packed))
            self._blocks.append(zlib.compress(packed, LEVEL))
            self._tail = []

    def remove(self, slot: int) -> None:
        self._live[slot] = 0

    def copy(self) -> PassageTexts:
        clone = PassageTexts()
        clone._blocks = list(self._blocks)
        clone._ends = array("I", self._ends)
        clone._tail = list(self._tail)
        clone._live = bytearray(self._live)
        return clone
