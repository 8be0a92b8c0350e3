"""The seeded stream of RANDOM.md: reproducible dice and tile shuffles, checkable by hand
with a SHA-256 tool. Game randomness comes only from here, never from `random`."""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Mapping, Sequence
from operator import mod
from typing import TypeVar

T = TypeVar("T")

_SPAN = 2**32
"""How many values a word takes."""
_WORDS = struct.Struct(">8I")
"""A SHA-256 digest read as eight big-endian 32-bit words."""


class SeedStream:
    """32-bit words from SHA-256(seed 0x00 purpose 0x00 k) for k = 0, 1, 2, ...

    Its whole state is the count of words drawn, so `copy()` is cheap and exact.
    """

    def __init__(self, seed: str, purpose: str) -> None:
        self.seed = seed
        self.purpose = purpose
        self._prefix = seed.encode("utf-8") + b"\x00" + purpose.encode("utf-8") + b"\x00"
        self._drawn = 0
        self._block: tuple[int, ...] = ()

    def copy(self) -> SeedStream:
        twin = SeedStream.__new__(SeedStream)
        twin.__dict__.update(self.__dict__)
        return twin

    def word(self) -> int:
        index = self._drawn % 8
        if index == 0:
            self._refill()
        self._drawn += 1
        return self._block[index]

    def below(self, n: int) -> int:
        """A uniform integer in 0..n-1, by rejection of the top partial range."""
        limit = _SPAN - _SPAN % n
        while True:
            index = self._drawn % 8  # `word()` inlined: a shuffle draws a word per tile
            if index == 0:
                self._refill()
            self._drawn += 1
            w = self._block[index]
            if w < limit:
                return w % n

    def _refill(self) -> None:
        """The next block of eight words, SHA-256 of the prefix and the block's number."""
        digest = hashlib.sha256(self._prefix + str(self._drawn // 8).encode("ascii")).digest()
        self._block = _WORDS.unpack(digest)


class Dice:
    """The i-th die of a game is 1 + below(6) from the `dice` stream."""

    def __init__(self, seed: str) -> None:
        self._stream = SeedStream(seed, "dice")
        self.rolled = 0
        self._before: tuple[int, int, tuple[int, ...]] | None = None

    def copy(self) -> Dice:
        twin = Dice.__new__(Dice)
        twin._stream = self._stream.copy()
        twin.rolled = self.rolled
        twin._before = None
        return twin

    def roll(self) -> int:
        stream = self._stream
        self._before = (self.rolled, stream._drawn, stream._block)  # (for `unroll`)
        self.rolled += 1
        return 1 + stream.below(6)

    def unroll(self) -> None:
        """Take the last roll back: the dice stand as before it (a battle refused after
        its roll leaves the game as it was, without a copy of the dice at every roll)."""
        before = self._before
        assert before is not None, "unroll follows a roll"
        self.rolled, self._stream._drawn, self._stream._block = before
        self._before = None


def shuffled(items: Sequence[T], seed: str, purpose: str = "tiles") -> list[T]:
    """The Fisher-Yates shuffle of RANDOM.md §3: for i from n-1 down to 1, swap i and below(i+1)."""
    # `SeedStream.below` written out (a record's tiles draw some 63 words, one per tile):
    # the blocks of words the draws need are hashed up front, and more only after a
    # rejection, which is rare (a chance of n in 2**32 a draw).
    prefix = seed.encode("utf-8") + b"\x00" + purpose.encode("utf-8") + b"\x00"
    result = list(items)
    count = len(result)
    if count < 2:
        return result
    digests = _digests(prefix, 0, (count + 6) // 8)
    if _none_rejected(digests, count):  # the usual case: draw k takes word k
        draws = map(mod, _words(digests), range(count, 1, -1))  # word % (i + 1) for each i in turn
        for i, j in zip(range(count - 1, 0, -1), draws, strict=False):
            result[i], result[j] = result[j], result[i]
        return result
    words = list(_words(digests))
    limits = _LIMITS if count < len(_LIMITS) else [0, *(_SPAN - _SPAN % n for n in range(1, count + 1))]
    drawn = 0
    for i in range(count - 1, 0, -1):
        w = words[drawn]
        drawn += 1
        while w >= limits[i + 1]:  # rejected: draw again
            if len(words) - drawn < i:  # room for this draw and the i - 1 after it
                words += _words(_digests(prefix, len(words) // 8, 1))
            w = words[drawn]
            drawn += 1
        j = w % (i + 1)
        result[i], result[j] = result[j], result[i]
    return result


_LIMITS = [_SPAN - _SPAN % n for n in range(1, 257)]
_LIMITS.insert(0, 0)
"""For n up to 256, the words below which `SeedStream.below(n)` takes a word (index n)."""

_SURELY_TAKEN = _SPAN - 256
"""Every word below it is taken by below(n) for any n up to 256: its limit, 2**32 less
2**32 mod n (which is under n), is above it. Such a word's top three bytes are not all 0xFF."""


def _none_rejected(digests: bytes, count: int) -> bool:
    """Whether no word of `digests` can be rejected by the draws of a shuffle of `count`
    items, told from the bytes without reading the words: no three bytes 0xFF in a row, so
    every word is below `_SURELY_TAKEN`. (Three such bytes across two words, or a word
    that would be taken all the same, only cost the exact loop.)"""
    return count <= 256 and b"\xff\xff\xff" not in digests


_NUMBERS = [str(number).encode("ascii") for number in range(32)]
"""The first blocks' numbers as the stream hashes them."""

_BLOCK_WORDS = [struct.Struct(f">{8 * count}I") for count in range(len(_NUMBERS) + 1)]
"""Reads `count` digests as their words, for the counts of `_NUMBERS`."""


def _digests(prefix: bytes, first: int, count: int) -> bytes:
    """The digests of `count` blocks of a stream from block `first` on (see `SeedStream`):
    the prefix hashed once, each block's number added to a copy of that hash (a new hash
    object from scratch costs more than a copy of one)."""
    if first + count <= len(_NUMBERS):
        numbers = _NUMBERS[first : first + count]
    else:
        numbers = [str(first + k).encode("ascii") for k in range(count)]
    hashed = hashlib.sha256(prefix)
    digests = []
    for number in numbers:
        block = hashed.copy()
        block.update(number)
        digests.append(block.digest())
    return b"".join(digests)


def _words(digests: bytes) -> tuple[int, ...]:
    """The 32-bit words of whole digests, big-endian."""
    count = len(digests) // 32
    reader = _BLOCK_WORDS[count] if count < len(_BLOCK_WORDS) else struct.Struct(f">{8 * count}I")
    words: tuple[int, ...] = reader.unpack(digests)
    return words


def seed_hash(seed: str) -> str:
    """The `SeedHash` commitment of a seed: sha256:<hex of its UTF-8 bytes>."""
    return "sha256:" + hashlib.sha256(seed.encode("utf-8")).hexdigest()


SALT_SEPARATOR = "\x1f"


def salt_tag(side: str) -> str:
    """The tag that holds a side's salt (RANDOM.md §4): the side's long name and `Salt`."""
    return f"{side}Salt"


def effective_seed(seed: str, salts: Sequence[tuple[str, str]]) -> str:
    """The seed that names every stream of a salted record (RANDOM.md §4).

    `salts` holds (side, salt) pairs for the sides that have one, in the order the game
    lists its sides; the `SeedHash` still commits to `seed` alone.
    """
    return seed + "".join(f"{SALT_SEPARATOR}{side}={salt}" for side, salt in salts)


def record_salts(tags: Mapping[str, str], sides: Sequence[str]) -> list[tuple[str, str]]:
    """The (side, salt) pairs a record's tags hold, in the order of `sides`."""
    return [(side, tags[salt_tag(side)]) for side in sides if tags.get(salt_tag(side))]
