"""The bench's corpora at every size (`referee.bench.generated`, issue 52): distinct records,
reproducible, kept in a cache that is read back, rebuilt when its key changes, and never
left half-written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.bench import generated
from referee.bench.generated import Corpus, Store, cache_folder, chess_pgn, chess_pgns, corpora, pgns, play_sizes


def _records(corpus: Corpus) -> list[str]:
    return ["[Game" + part for part in corpus.data.decode("utf-8").split("[Game")[1:]]


def _quiet(line: str) -> None:
    raise AssertionError(f"no progress expected: {line}")


@pytest.mark.parametrize("game", ["numica", "pikemen", "nika"])
def test_each_size_is_as_many_times_the_actions_in_distinct_records_the_smaller_its_start(game: str) -> None:
    sized = play_sizes(game, 150, "distinct", "purposeful", [3, 1], _quiet, 60.0)
    assert list(sized) == [1, 3]
    one, three = _records(sized[1]), _records(sized[3])
    assert sized[1].actions >= 150 and sized[3].actions >= 450
    assert (len(one), len(three)) == (sized[1].records, sized[3].records)
    assert len(set(three)) == len(three) > len(one)  # no record twice: not the 1x records repeated
    assert three[: len(one)] == one and sized[3].data.startswith(sized[1].data[:-1])
    moves = [record.split("\n\n", 1)[1] for record in three]
    assert len(set(moves)) == len(moves)  # distinct games, not only distinct Seed tags


def test_the_1x_corpus_is_the_playouts_it_was_before_and_every_size_is_reproducible() -> None:
    from referee.bench.corpora import shaped_play

    sized = play_sizes("numica", 200, "again", "short", [1, 2], _quiet, 60.0)
    texts, made = [], 0
    while made < 200:
        played = shaped_play("numica", None, f"again-numica-{len(texts)}", "short")
        texts.append(played.text)
        made += played.actions
    assert sized[1].data == ("\n".join(texts) + "\n").encode("utf-8") and sized[1].actions == made
    assert play_sizes("numica", 200, "again", "short", [2], _quiet, 60.0)[2] == sized[2]
    assert corpora("numica", 200, "again", "short", [1, 2], Store(None), _quiet) == sized
    from referee.bench.chess import playouts

    assert playouts("numica", 200, "again", "short") == sized[1]  # the 1x corpus by its old name


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The seeds played from now on."""
    seeds: list[str] = []
    real = generated.shaped_play

    def counting(game: str, players: int | None, seed: str, shape: str = "short") -> object:
        seeds.append(seed)
        return real(game, players, seed, shape)

    monkeypatch.setattr(generated, "shaped_play", counting)
    return seeds


def test_the_cache_is_read_back_instead_of_playing_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(tmp_path / "cache")
    seeds = _counted(monkeypatch)
    first = corpora("pikemen", 200, "kept", "short", [1, 2], store, _quiet)
    assert seeds and len(list((tmp_path / "cache").glob("pikemen-short-*x-*.corpus"))) == 2
    played = len(seeds)
    assert played == first[2].records  # one pass for both sizes
    again = corpora("pikemen", 200, "kept", "short", [2, 1], store, _quiet)
    assert len(seeds) == played and again == first
    assert corpora("pikemen", 200, "kept", "short", [1], store, _quiet) == {1: first[1]}
    assert len(seeds) == played


def test_the_cache_is_rebuilt_when_its_key_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(tmp_path)
    seeds = _counted(monkeypatch)
    first = corpora("numica", 100, "key", "short", [1], store, _quiet)
    changes = [
        lambda: corpora("numica", 100, "other", "short", [1], store, _quiet),  # seed
        lambda: corpora("numica", 100, "key", "purposeful", [1], store, _quiet),  # shape
        lambda: corpora("numica", 101, "key", "short", [1], store, _quiet),  # 1x actions
        lambda: corpora("numica", 100, "key", "short", [2], store, _quiet),  # size
        lambda: corpora("pikemen", 100, "key", "short", [1], store, _quiet),  # game
    ]
    for change in changes:
        before = len(seeds)
        change()
        assert len(seeds) > before
    for name, value in (("GENERATOR", "changed"), ("sources_digest", lambda game: "edited sources")):
        with monkeypatch.context() as patched:
            patched.setattr(generated, name, value)
            before = len(seeds)
            assert corpora("numica", 100, "key", "short", [1], store, _quiet) == first
            assert len(seeds) > before  # played again, not read
    corpora("numica", 100, "key", "short", [1], store, _quiet)  # its entry was replaced: kept again
    before = len(seeds)
    corpora("numica", 100, "key", "short", [1], store, _quiet)
    assert len(seeds) == before  # read back
    assert len(list(tmp_path.glob("*.corpus"))) == 4  # one a label: numica short 1x and 2x, purposeful; pikemen


def test_the_sources_digest_follows_the_game_and_its_code() -> None:
    digests = {game: generated.sources_digest(game) for game in ("nika", "numica", "pikemen", "nieuchess")}
    assert len(set(digests.values())) == 4
    assert generated.sources_digest("nika") == digests["nika"]


def test_a_run_cut_short_leaves_no_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(tmp_path)

    def interrupted(line: str) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):  # while playing (a progress line every record)
        corpora("numica", 300, "cut", "short", [1, 2], store, interrupted, every=0.0)
    assert list(tmp_path.iterdir()) == []

    def torn(source: str, target: str) -> None:
        raise KeyboardInterrupt

    with monkeypatch.context() as patched, pytest.raises(KeyboardInterrupt):  # written, not yet renamed
        patched.setattr(generated.os, "replace", torn)
        corpora("numica", 300, "cut", "short", [1], store, _quiet)
    assert list(tmp_path.iterdir()) == []
    whole = corpora("numica", 300, "cut", "short", [1], store, _quiet)
    (entry,) = tmp_path.iterdir()
    entry.write_bytes(entry.read_bytes()[:-10])  # a file cut short by other means is not read
    seeds = _counted(monkeypatch)
    assert corpora("numica", 300, "cut", "short", [1], store, _quiet) == whole
    assert seeds and entry.read_bytes().endswith(whole[1].data)


def test_a_leftover_temporary_file_is_no_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(tmp_path)
    whole = corpora("numica", 100, "left", "short", [1], store, _quiet)
    (entry,) = tmp_path.iterdir()
    entry.rename(tmp_path / f".{entry.stem}-x.part")  # as a process killed before its rename leaves it
    seeds = _counted(monkeypatch)
    assert corpora("numica", 100, "left", "short", [1], store, _quiet) == whole and seeds


def test_the_cache_keeps_one_entry_a_label_and_drops_a_killed_runs_old_part(tmp_path: Path) -> None:
    """Bounded: an entry kept replaces the label's older ones (another seed, older sources),
    and a temporary file of that label older than an hour (a run killed while writing) goes;
    a younger one, perhaps another run's being written, stays."""
    store = Store(tmp_path)
    old_part, young_part = tmp_path / ".numica-short-1x-old.part", tmp_path / ".numica-short-1x-new.part"
    old_part.write_bytes(b"half")
    young_part.write_bytes(b"half")
    hour_ago = old_part.stat().st_mtime - generated.STALE_PART - 10
    os.utime(old_part, (hour_ago, hour_ago))
    corpora("numica", 100, "first", "short", [1], store, _quiet)
    corpora("numica", 100, "second", "short", [1], store, _quiet)
    corpora("pikemen", 100, "second", "short", [1], store, _quiet)
    kept = sorted(path.name.rsplit("-", 1)[0] for path in tmp_path.glob("*.corpus"))
    assert kept == ["numica-short-1x", "pikemen-short-1x"]
    assert not old_part.exists() and young_part.exists()
    assert corpora("numica", 100, "second", "short", [1], store, _quiet)  # the one kept is read back


def test_an_entry_without_the_facts_it_needs_is_played_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    store = Store(tmp_path)
    whole = corpora("numica", 100, "facts", "short", [1], store, _quiet)
    (entry,) = tmp_path.iterdir()
    header, data = entry.read_bytes().split(b"\n", 1)
    facts = json.loads(header)
    facts["facts"] = {"records": "many"}
    entry.write_bytes(json.dumps(facts).encode() + b"\n" + data)
    seeds = _counted(monkeypatch)
    assert corpora("numica", 100, "facts", "short", [1], store, _quiet) == whole and seeds


def test_a_long_generation_says_how_it_is_getting_on() -> None:
    heard: list[str] = []
    corpora("numica", 100, "talk", "short", [1, 2], Store(None), heard.append, every=0.0)
    assert heard and all(line.startswith("referee bench: playing numica short records: ") for line in heard)
    assert heard[-1].endswith(" of 200 actions")


def test_the_pgns_are_distinct_games_cut_to_each_count_and_cached(tmp_path: Path) -> None:
    pytest.importorskip("chess", reason="python-chess is not installed: pip install 'referee[bench]'")
    made = chess_pgns([250, 500], "pgn", _quiet)
    assert made[250] == chess_pgn(250, "pgn") and made[500] == chess_pgn(500, "pgn")
    assert made[500][1] == 500 and made[500][0] != "\n".join([made[250][0]] * 2)
    assert made[500][0].startswith(made[250][0].rsplit("\n\n[Event", 1)[0])
    store = Store(tmp_path)
    assert pgns([500, 250], "pgn", store, _quiet) == made
    assert len(list(tmp_path.glob("chess-*.corpus"))) == 2
    for entry in tmp_path.glob("chess-*.corpus"):
        entry.write_bytes(entry.read_bytes().replace(b"[Event", b"[Evenx", 1))  # read back, not played again
    assert pgns([250], "pgn", store, _quiet)[250][0].startswith("[Evenx")


def test_the_cache_folder_follows_xdg_cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_folder() == tmp_path / "referee" / "bench"
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for unset in ("", "relative/cache"):
        monkeypatch.setenv("XDG_CACHE_HOME", unset)
        assert cache_folder() == tmp_path / "home" / ".cache" / "referee" / "bench"


def _bench(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "referee", "bench", *arguments],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        env=os.environ.copy(),
    )


def test_the_bench_keeps_its_corpora_unless_told_not_to(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    arguments = ("--actions", "120", "--runs", "1", "--sizes", "1,2", "--shape", "short", "pikemen")
    done = _bench("--no-cache", *arguments)
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "referee").exists()
    kept = _bench(*arguments)
    assert kept.returncode == 0, kept.stderr
    entries = sorted(path.name.split("-")[:3] for path in (tmp_path / "referee" / "bench").glob("pikemen-*.corpus"))
    assert entries == [["pikemen", "short", "1x"], ["pikemen", "short", "2x"]]
    rows = [line.split()[:5] for line in kept.stdout.splitlines() if line.split()[1:2] in (["1x"], ["2x"])]
    assert rows == [line.split()[:5] for line in done.stdout.splitlines() if line.split()[1:2] in (["1x"], ["2x"])]
    assert [row[1] for row in rows] == ["1x", "1x", "2x", "2x"] and int(rows[2][4]) >= 240
