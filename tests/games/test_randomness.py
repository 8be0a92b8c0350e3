"""The seeded stream against the test vectors of RANDOM.md §5."""

import pytest

from referee.games.randomness import Dice, SeedStream, effective_seed, salt_tag, seed_hash, shuffled

STANDARD = "1" * 11 + "2" * 10 + "3" * 9 + "4" * 8 + "5" * 7 + "K" * 6 + "X" * 5 + "R" * 4 + "B" * 4
WARPSPAWN = "1" * 12 + "2" * 10 + "3" * 10 + "4" * 8 + "K" * 6 + "X" * 6 + "R" * 6 + "B" * 6


def dice(seed: str, count: int) -> list[int]:
    stream = Dice(seed)
    return [stream.roll() for _ in range(count)]


def test_seed_hash_of_example() -> None:
    assert seed_hash("example") == "sha256:50d858e0985ecc7f60418aaf0cc5ab587f42c2570a884095a9e8ccacd0f6545c"


def test_first_twenty_dice() -> None:
    assert dice("example", 20) == [6, 6, 3, 5, 3, 3, 1, 4, 3, 6, 1, 1, 4, 2, 6, 4, 3, 3, 1, 2]
    assert dice("pbem-2026-0001", 20) == [1, 2, 5, 2, 1, 5, 6, 6, 3, 4, 2, 6, 4, 6, 4, 2, 2, 1, 4, 4]


def test_tile_shuffles() -> None:
    assert "".join(shuffled(STANDARD, "example")) == (
        "122234412K15K541K312BR552B3R51X45B42X4K33R4333XK222XR1XB1K341151"
    )
    assert "".join(shuffled(WARPSPAWN, "example")) == (
        "122224312X14XK31X312BBK42B3RK1R4KB41X4X33B4333RX222RR1RB1K3411K1"
    )
    assert "".join(shuffled(STANDARD, "pbem-2026-0001")) == (
        "521B235X24XX3353435KRXRX1251K1K123R51424K1314B115K2B42242BK3R143"
    )


def test_a_copied_stream_continues_identically() -> None:
    stream = Dice("example")
    stream.roll()
    twin = stream.copy()
    assert [stream.roll() for _ in range(12)] == [twin.roll() for _ in range(12)]


def test_an_unrolled_die_is_rolled_again_the_same_at_every_place_of_the_stream() -> None:
    # Every roll of the first 20 taken back once (the blocks of eight words included:
    # the eighth, ninth and seventeenth rolls refill them) gives the same dice in order.
    plain = Dice("s3cret")
    expected = [plain.roll() for _ in range(20)]
    dice = Dice("s3cret")
    got = []
    for _ in range(20):
        first = dice.roll()
        dice.unroll()
        assert dice.rolled == len(got)
        again = dice.roll()
        assert again == first
        got.append(again)
    assert got == expected and dice.rolled == 20


def test_below_rejects_the_partial_range() -> None:
    """below(n) never returns n or more, and with n = 2**31 + 1 rejects most words."""
    stream = SeedStream("example", "dice")
    values = [stream.below(2**31 + 1) for _ in range(50)]
    assert all(0 <= value <= 2**31 for value in values)


def test_salted_streams() -> None:
    both = effective_seed("example", [("Red", "ann-7"), ("Blue", "bo 42")])
    assert both == "example\x1fRed=ann-7\x1fBlue=bo 42"
    assert dice(both, 20) == [5, 2, 2, 1, 2, 6, 5, 2, 3, 2, 4, 3, 4, 3, 5, 2, 5, 1, 6, 2]
    assert "".join(shuffled(STANDARD, both)) == "4224231515K143523K2B4X121534RKK231R11BB3B33551K2411X3224XR54RXXK"
    blue = effective_seed("example", [("Blue", "bo 42")])
    assert dice(blue, 20) == [5, 4, 6, 3, 6, 1, 1, 6, 3, 2, 2, 6, 5, 6, 2, 4, 5, 3, 5, 4]
    assert salt_tag("Blue") == "BlueSalt"


def _shuffled_by_stream(count: int, seed: str, purpose: str) -> list[int]:
    """RANDOM.md §3 word for word: for i from n-1 down to 1, swap i and below(i+1)."""
    stream = SeedStream(seed, purpose)
    result = list(range(count))
    for i in range(count - 1, 0, -1):
        j = stream.below(i + 1)
        result[i], result[j] = result[j], result[i]
    return result


def test_shuffled_is_the_stream_shuffle_at_every_size() -> None:
    """The shuffle draws its words in blocks ahead: the same permutation as drawing them
    one by one, for sizes around the block size and beyond the table of limits (256)."""
    for count in (*range(0, 70), 255, 256, 257, 300):
        for seed in ("example", "pbem-2026-0001"):
            assert shuffled(range(count), seed, "tiles") == _shuffled_by_stream(count, seed, "tiles"), count


def test_shuffled_draws_again_after_a_rejected_word(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rejected word (rare: a chance of n in 2**32) is followed by more draws, hashing
    more blocks when needed: shown by rejecting half the words, as below(2**31 + 1) would."""
    import referee.games.randomness as randomness

    monkeypatch.setattr(randomness, "_LIMITS", [0] + [2**31] * 256)
    monkeypatch.setattr(randomness, "_none_rejected", lambda digests, count: False)  # (true of real limits only)

    def by_half(count: int, seed: str) -> list[int]:
        stream, result = SeedStream(seed, "tiles"), list(range(count))
        for i in range(count - 1, 0, -1):
            word = stream.word()
            while word >= 2**31:
                word = stream.word()
            j = word % (i + 1)
            result[i], result[j] = result[j], result[i]
        return result

    for count in (2, 9, 17, 64, 100):
        assert shuffled(range(count), "example") == by_half(count, "example")


def test_a_word_without_three_top_bytes_0xff_is_taken_by_every_draw_of_a_shuffle() -> None:
    """What the shuffle's shortcut rests on (`_none_rejected`): every limit of below(n) for n
    up to 256 is above the words whose top three bytes are not all 0xFF, and the shortcut
    is taken only when no three bytes 0xFF stand in a row."""
    import referee.games.randomness as randomness

    assert all(limit > 0xFFFFFEFF for limit in randomness._LIMITS[1:])
    assert randomness._SURELY_TAKEN == 0xFFFFFF00
    assert randomness._none_rejected(bytes(range(256)), 64)
    assert not randomness._none_rejected(b"\x00\xff\xff\xff\x00", 64)
    assert not randomness._none_rejected(b"\x00" * 32, 257)
