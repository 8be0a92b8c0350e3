"""`referee league site DIR -o OUT` (LEAGUE.md §5): the pages and the feed of a generated
season, checked by a strict HTML parser (html5lib) and an XML parser; the standings are
the numbers of `league standings`; the rebuild is incremental (an unchanged league writes
nothing, one changed game only the pages that show it); hostile texts change no page."""

from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import html5lib
import pytest

from referee.league.site import build
from referee.live.play import submit
from tests.helpers.cli import invoke
from tests.helpers.site_season import one_move, season, write_league

ATOM = "{http://www.w3.org/2005/Atom}"
PLAYERS = [("Ann", "ann@x.org"), ("Bo", "bo@x.org"), ("Cy", "cy@x.org"), ("Di", "di@x.org"), ("Ed", "ed@x.org")]
HOSTILE = '<script>window.pwned=1</script> <!--<script> "><img src=x onerror="window.pwned=1"> ]]> </title> &amp; x'
BIDI = "\u202eevil\u2066x\u2069\u202c"


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = write_league(tmp_path_factory.mktemp("season") / "autumn", PLAYERS)
    season(folder, 5)
    return folder


@pytest.fixture
def copy(league: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(league, tmp_path / "autumn"))


def parse(text: str) -> Any:
    """The page parsed by html5lib in strict mode: any parse error fails."""
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    return parser.parse(text)


def pages(out: Path) -> Iterator[Path]:
    yield from sorted(out.glob("*.html"))


def snapshot(out: Path) -> dict[str, tuple[int, int]]:
    return {path.name: (path.stat().st_ino, path.stat().st_mtime_ns) for path in out.iterdir()}


def run(*args: str) -> tuple[int, str, str]:
    result = invoke("league", *args)
    return result.exit_code, result.stdout, result.stderr


def test_every_page_parses_strictly_and_the_feed_is_atom(league: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    code, text, err = run("site", str(league), "-o", str(out))
    assert code == 0, err
    assert text.startswith(f"{out}: 33 written, 0 removed, 0 unchanged")  # 32 pages and league-archive.zip
    names = {path.name for path in pages(out)}
    assert names == (
        {"index.html"}
        | {f"round-{n}.html" for n in range(1, 6)}
        | {f"player-{n}.html" for n in range(1, 6)}
        | {f"r{r}-t{t}{s}.html" for r in range(1, 6) for t in (1, 2) for s in ("", "-replay")}
    )
    for path in pages(out):
        tree = parse(path.read_text(encoding="utf-8"))
        assert tree.find(".//meta[@name='viewport']") is not None, path.name
        for link in tree.iter("a"):
            href = link.get("href")
            assert href and "/" not in href and ":" not in href, f"{path.name}: {href} is not a relative link"
            assert (out / href).is_file(), f"{path.name}: {href} does not resolve"
    feed = ElementTree.parse(out / "feed.xml").getroot()
    assert feed.tag == f"{ATOM}feed"
    for child in ("id", "title", "updated", "author"):
        assert feed.find(f"{ATOM}{child}") is not None, child
    entries = feed.findall(f"{ATOM}entry")
    assert len(entries) == 9, "one entry per finished game"
    for entry in entries:
        assert entry.findtext(f"{ATOM}id", "").startswith("urn:uuid:")
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", entry.findtext(f"{ATOM}updated", ""))
        link = entry.find(f"{ATOM}link")
        assert link is not None and (out / link.get("href", "")).is_file()
    ids = [entry.findtext(f"{ATOM}id") for entry in entries]
    assert len(set(ids)) == len(ids)


def test_the_index_shows_the_numbers_of_league_standings(league: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(league, out)
    code, text, _ = run("standings", str(league))
    assert code == 0
    expected = [line.split() for line in text.splitlines()[2:]]
    tree = parse((out / "index.html").read_text(encoding="utf-8"))
    shown = [
        ["".join(cell.itertext()).strip() for cell in row.findall("td")]
        for row in tree.iterfind(".//table[@class='standings']/tbody/tr[@class='standing']")
    ]
    assert shown == expected and len(shown) == len(PLAYERS)
    current = tree.findall(".//table[@class='games']/tbody/tr[@class='game']")
    assert [row.get("data-game") for row in current] == ["r5-t1", "r5-t2"], "the current round"


def test_a_players_chart_has_a_point_per_finished_game(league: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(league, out)
    code, text, _ = run("standings", str(league), "--json")
    rows = {row["address"]: row for row in json.loads(text)["rows"]}
    for number, (_, address) in enumerate(PLAYERS, start=1):
        tree = parse((out / f"player-{number}.html").read_text(encoding="utf-8"))
        points = tree.findall(".//{http://www.w3.org/2000/svg}circle[@class='point']") or tree.findall(
            ".//circle[@class='point']"
        )
        assert len(points) == rows[address]["games"]
        if points:
            last = float(points[-1].get("data-rating"))
            assert last == pytest.approx(rows[address]["rating"], abs=1e-4), "the last point is the table's rating"


def test_an_unchanged_league_writes_nothing(league: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(league, out)
    before = snapshot(out)
    built = build(league, out)
    assert built.written == () and built.removed == () and built.unchanged == 33
    assert snapshot(out) == before, "no file touched, the manifest included"
    code, text, _ = run("site", str(league), "-o", str(out))
    assert code == 0 and "0 written, 0 removed, 33 unchanged" in text
    assert snapshot(out) == before


def test_one_changed_game_rewrites_only_the_pages_that_show_it(copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(copy, out)
    before = snapshot(out)
    one_move(copy / "r5-t2.rgn")
    built = build(copy, out)
    shows_it = {"r5-t2.html", "r5-t2-replay.html", "round-5.html", "index.html", "league-archive.zip"}
    assert set(built.written) == shows_it, "a move: the game, its round, the index's current round, the archive"
    after = snapshot(out)
    assert {name for name in before if before[name] != after[name]} == shows_it | {".referee-site.json"}
    done = submit(copy / "r5-t2.rgn", "resign")
    assert done.exit_code == 0, done.text()
    built = build(copy, out)
    assert {"r5-t2.html", "feed.xml", "index.html", "round-5.html", "player-1.html"} <= set(built.written)
    assert not {name for name in built.written if re.fullmatch(r"r[1-4]-t\d(-replay)?\.html", name)}


def test_a_removed_game_loses_its_pages(copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(copy, out)
    (copy / "r5-t2.rgn").unlink()
    built = build(copy, out)
    assert set(built.removed) == {"r5-t2.html", "r5-t2-replay.html"}
    assert not (out / "r5-t2.html").exists()
    for path in pages(out):
        parse(path.read_text(encoding="utf-8"))
        assert 'href="r5-t2.html"' not in path.read_text(encoding="utf-8")


def hostile_league(folder: Path) -> Path:
    """A league whose every text field holds hostile strings: league.toml's name and a tag,
    players' names (as far as league.toml allows), and in the records: a side's name with
    bidi controls (a player from outside the league), a tag, a comment, and a malformed game whose text is markup."""
    head = f'name = {json.dumps(HOSTILE)}\ngame = "pikemen"\nplayers = 2\n[tags]\nSite = {json.dumps(HOSTILE)}\n'
    names = [("Ann & 'Co' ]]", "ann@x.org"), ("Bo &amp", "bo@x.org"), ("Cy", "cy@x.org"), ("Di", "di@x.org")]
    write_league(folder, names, head)
    season(folder, 2, turns=3)
    path = folder / "r1-t1.rgn"
    text = path.read_text(encoding="utf-8")
    red = re.search(r'\[Red "(?:[^"\\]|\\.)*<([^>]+)>"\]', text)  # (a name may stand quoted: \"...\")
    assert red is not None
    quoted = HOSTILE.replace("\\", "\\\\").replace('"', '\\"')
    text = text.replace(red.group(0), f'[Red "{BIDI} <mallory@evil.test>"]')  # a seat changed by hand
    text = text.replace('[Round "1"]', f'[Round "1"]\n[Annotator "{quoted} {BIDI}"]', 1)
    text = re.sub(r"(\n1\. R: \S+)", lambda m: m.group(1) + " {" + HOSTILE + " " + BIDI + "}", text, count=1)
    path.write_text(text, encoding="utf-8")
    broken = folder / "r1-t2.rgn"
    broken.write_text(broken.read_text(encoding="utf-8") + f"\n{HOSTILE}\n", encoding="utf-8")
    return folder


def test_hostile_texts_change_no_page(tmp_path: Path) -> None:
    folder = hostile_league(tmp_path / "evil")
    out = tmp_path / "site"
    code, _, err = run("site", str(folder), "-o", str(out))
    assert code == 1 and "r1-t2" in err, "the malformed game is named, and the site still made"
    assert "r1-t1" not in err, "the game with hostile comments and tags is still legal"
    for path in pages(out):
        text = path.read_text(encoding="utf-8")
        tree = parse(text)
        replay = path.name.endswith("-replay.html")
        scripts = list(tree.iter("script"))
        assert len(scripts) == (2 if replay else 0), path.name
        if replay:
            assert scripts[0].get("type") == "application/json"
        for element in tree.iter():
            assert element.tag not in ("img", "iframe", "object", "embed"), path.name
            assert not [name for name in element.attrib if name.lower().startswith("on")], path.name
        title = tree.findtext(".//title")
        if not replay:
            assert title is not None and title.startswith(HOSTILE), path.name
            heading = "".join(tree.find(".//h1").itertext())
            if path.name == "player-1.html":
                assert heading == "Ann & 'Co' ]]"
            elif not path.name.startswith("player-"):
                assert heading.startswith(HOSTILE), path.name
        assert "@x.org" not in text, f"{path.name}: no e-mail address is published"
    game = parse((out / "r1-t1.html").read_text(encoding="utf-8"))
    names = ["".join(bdi.itertext()) for bdi in game.iter("bdi")]
    assert BIDI in names, "a name with bidi controls is shown, isolated in <bdi>"
    replay = (out / "r1-t1-replay.html").read_text(encoding="utf-8")
    back = parse(replay).find(".//header/nav/a")
    assert back is not None and back.get("href") == "r1-t1.html", "the replay page links back to its game's page"
    data = json.loads(parse(replay).find(".//script[@id='data']").text)
    assert ["Annotator", f"{HOSTILE} {BIDI}"] in data["tags"], "the hostile tag is shown as text"
    broken = parse((out / "r1-t2.html").read_text(encoding="utf-8"))
    assert "malformed" in "".join(broken.find(".//p[@class='status']").itertext())
    feed = ElementTree.parse(out / "feed.xml").getroot()
    assert feed.findtext(f"{ATOM}title") == f"{HOSTILE}: results"


def test_site_usage_errors(league: Path, tmp_path: Path) -> None:
    code, _, err = run("site", str(tmp_path / "nowhere"), "-o", str(tmp_path / "out"))
    assert code == 2 and "league.toml" in err and err.count("\n") == 1
    code, _, err = run("site", str(league), "-o", str(league))
    assert code == 2 and "a folder of its own" in err
    code, _, err = run("site", str(league))
    assert code == 2 and "-o" in err
    (tmp_path / "file").write_text("x", encoding="utf-8")
    code, _, err = run("site", str(league), "-o", str(tmp_path / "file"))
    assert code == 2 and "cannot make" in err and "Traceback" not in err


def test_a_build_that_fails_halfway_leaves_whole_pages_and_the_next_one_repairs_it(
    copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from referee.league.site import builder as module

    out = tmp_path / "site"
    build(copy, out)
    before = {path.name: path.read_bytes() for path in out.iterdir()}
    one_move(copy / "r5-t2.rgn")
    real = module.write_page
    calls: list[str] = []

    def failing(path: Path, text: str) -> None:
        calls.append(path.name)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        real(path, text)

    monkeypatch.setattr(module, "write_page", failing)
    code, _, err = run("site", str(copy), "-o", str(out))
    assert code == 2 and "cannot write" in err and "No space left on device" in err
    assert len(calls) == 3 and ".referee-site.json" not in calls, "the manifest is written last"
    now = {path.name: path.read_bytes() for path in out.iterdir()}
    assert set(now) == set(before), "no temporary file is left"
    assert now[calls[2]] == before[calls[2]], "the page that failed is the old one, whole"
    for name in calls[:2]:
        parse(now[name].decode("utf-8"))
    monkeypatch.setattr(module, "write_page", real)
    built = build(copy, out)
    assert set(built.written) == {"r5-t2.html", "r5-t2-replay.html", "round-5.html", "index.html", "league-archive.zip"}
    assert build(copy, out).written == ()


def test_the_site_writes_through_the_stores_seam_and_a_full_disk_there_is_one_line(copy: Path, tmp_path: Path) -> None:
    import errno

    from referee.store import ops as seam

    out = tmp_path / "site"
    build(copy, out)
    before = {path.name: path.read_bytes() for path in out.iterdir()}
    one_move(copy / "r5-t2.rgn")
    renamed: list[str] = []

    class FullDisk(seam.FileOps):
        def replace(self, source: Path, target: Path) -> None:
            renamed.append(target.name)
            if len(renamed) == 2:
                raise OSError(errno.ENOSPC, "No space left on device")
            super().replace(source, target)

    plain = seam.install(FullDisk())
    try:
        code, _, err = run("site", str(copy), "-o", str(out))
    finally:
        seam.install(plain)
    assert len(renamed) == 2, "every page is renamed into place through referee.store.ops"
    assert code == 2 and err.count("\n") == 1 and f"cannot write {out / renamed[1]}: No space left on device" in err
    now = {path.name: path.read_bytes() for path in out.iterdir()}
    assert set(now) == set(before), "no temporary file is left"
    assert now[renamed[1]] == before[renamed[1]], "the page that failed is the old one, whole"
    assert set(build(copy, out).written) >= {renamed[1]}


def test_the_replay_page_shows_every_comment_and_stamp_at_its_step(league: Path) -> None:
    from referee.judge.core.adjudicate import adjudicate, read_source
    from referee.pictures import replay_page

    text = (league / "r4-t1.rgn").read_text(encoding="utf-8")
    first, second = re.findall(r"\n1\. R: (\S+)\nB: (\S+)", text)[0]
    text = text.replace(f"\n1. R: {first}\n", f"\n1. R: {{opening}} {first} {{[%at 2026-12-02T12:00:00Z Red]}}\n", 1)
    text = text.replace(f"\nB: {second}\n", f"\nB: {second}\n{{between turns}}\n", 1)
    replay = adjudicate(read_source(text.encode("utf-8"))[0], "r4-t1.rgn", keep_steps=True)
    assert replay.verdict.status == "finished"
    data = json.loads(parse(replay_page(replay)).find(".//script[@id='data']").text)
    notes = [step.get("c", []) for step in data["steps"]]
    assert notes[1] == ["opening", "[%at 2026-12-02T12:00:00Z Red]"], "a stamp is shown at the action it closes"
    assert notes[2] == ["between turns"]
    assert sum(len(found) for found in notes) == 3


def test_the_clock_of_a_timed_game_is_shown_from_the_verdicts_clock_field() -> None:
    """TIME.md §5's `clock` object as the game page and the round pages show it (drawn from
    the documented shape: the clocks are built on another branch)."""
    from referee.league.results import GameResult, Seat
    from referee.league.site import pages

    game = GameResult("r1-t1", 1, 1, "ongoing", (Seat(("Red",), "a@x.org", "Ann"),), "Blue to move", to_move="Blue")
    clock = {
        "control": "3d+1d/5d",
        "as_of": "2026-12-06T12:00:00Z",
        "running": "Blue",
        "remaining": {"Red": 324000, "Blue": 21600},
        "deadline": "2026-12-06T18:00:00Z",
        "flagged": None,
    }
    item = pages.SiteGame(game, clock, 0)
    assert pages.deadline_text(item) == "2026-12-06 18:00 UTC"
    table = parse(f"<!DOCTYPE html><title>t</title>{pages._clock_table(clock)}")
    rows = {row.find("th").text: "".join(row.find("td").itertext()) for row in table.iter("tr")}
    assert rows == {
        "control": "3d+1d/5d",
        "Red": "3d 18h 00m",
        "Blue": "6h 00m (running)",
        "deadline": "2026-12-06 18:00 UTC",
        "as of": "2026-12-06 12:00 UTC",
    }
    flagged = pages.SiteGame(game, {**clock, "flagged": "Blue"}, 0)
    assert pages.deadline_text(flagged) == "2026-12-06 18:00 UTC (Blue: time ran out)"
    assert pages.deadline_text(pages.SiteGame(game, None, 0)) == "—", "an untimed game has no deadline"


def test_a_tampered_manifest_never_removes_a_file_outside_the_site(copy: Path, tmp_path: Path) -> None:
    """OUT is not trusted: a manifest listing `../victim`, an absolute path or a name the
    build does not make costs nothing outside the build's own pages."""
    out = tmp_path / "deep" / "site"
    build(copy, out)
    victims = [tmp_path / "victim.txt", tmp_path / "deep" / "victim.txt", tmp_path / "absolute.txt"]
    for victim in victims:
        victim.write_text("precious")
    (out / "notes.txt").write_text("the webmaster's")
    manifest = json.loads((out / ".referee-site.json").read_text())
    manifest["pages"].update(
        {"../../victim.txt": "x", "../victim.txt": "x", str(victims[2]): "x", "notes.txt": "x", "/": "x", "..": "x"}
    )
    (out / ".referee-site.json").write_text(json.dumps(manifest))
    built = build(copy, out)
    assert all(victim.read_text() == "precious" for victim in victims)
    assert (out / "notes.txt").read_text() == "the webmaster's"
    assert not any("/" in name or name in ("..", "notes.txt") for name in built.removed)


def _linked(copy: Path, tmp_path: Path, *pages: str) -> tuple[Path, Path]:
    """The site of `copy` built, then each of its `pages` replaced by a link to a file
    outside it that says "precious": the site's folder and that file."""
    out = tmp_path / "site"
    build(copy, out)
    outside = tmp_path / "outside.html"
    outside.write_text("precious")
    for name in pages:
        (out / name).unlink()
        (out / name).symlink_to(outside)
    return out, outside


def test_a_link_in_the_site_is_replaced_not_followed(copy: Path, tmp_path: Path) -> None:
    out, outside = _linked(copy, tmp_path, "index.html", "round-5.html")
    one_move(copy / "r5-t2.rgn")  # round 5 and the index are written again
    build(copy, out)
    assert outside.read_text() == "precious"
    for name in ("index.html", "round-5.html"):
        assert not (out / name).is_symlink() and "<html" in (out / name).read_text()


def test_an_unchanged_page_that_became_a_link_is_written_again(copy: Path, tmp_path: Path) -> None:
    out, outside = _linked(copy, tmp_path, "player-1.html")
    built = build(copy, out)
    assert "player-1.html" in built.written and not (out / "player-1.html").is_symlink()
    assert outside.read_text() == "precious"


def test_a_killed_builds_temporary_files_are_cleaned_by_the_next(copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(copy, out)
    leftovers = [".index.html.tmp-0a1b2c3d", ".r5-t2-replay.html.tmp-deadbeef", ".referee-site.json.tmp-00ff00ff"]
    for name in leftovers:
        (out / name).write_text("half a page")
    (out / ".notes.txt.tmp-12345678").write_text("not the build's")
    build(copy, out)
    assert not any((out / name).exists() for name in leftovers)
    assert (out / ".notes.txt.tmp-12345678").exists()


def test_names_with_colons_and_braces_reach_the_manifest_unchanged(tmp_path: Path) -> None:
    """A name the address parser would misread bare (`Ann: the great`) is written quoted
    in the side tag; every seat of the site's manifest, and each page, holds it unchanged."""
    names = [("Ann: the great", "ann@x.org"), ("Bo {x}", "bo@x.org"), ("{Cy}: [c]", "cy@x.org"), ("Di", "di@x.org")]
    folder = write_league(tmp_path / "named", names)
    season(folder, 1, ongoing=0)
    out = tmp_path / "site"
    build(folder, out)
    manifest = json.loads((out / ".referee-site.json").read_text())
    seats = {seat[1]: seat[2] for game in manifest["games"].values() for seat in game["result"]["seats"]}
    assert seats == {address: name for name, address in names}
    page = (out / "index.html").read_text()
    assert all(html_escape(name) in page for name, _ in names)


def html_escape(text: str) -> str:
    import html

    return html.escape(text, quote=False)


def test_the_player_pages_say_one_game_one_point_one_bye_in_the_singular(tmp_path: Path) -> None:
    """Ann beats Bo in round 1 while Cy has the bye: each page counts in words that agree
    with their number ("1 point from 1 game", "1 bye"), as the index does ("1 game finished")."""
    from tests.helpers.league import make_league

    folder = tmp_path / "lg"
    make_league(
        folder,
        "--game",
        "pikemen",
        "--players",
        "2",
        "--rounds",
        "1",
        names="Ann Bo Cy",
        pair_at="2026-12-01T12:00:00Z",
    )
    game = next(folder.glob("r1-t*.rgn"))
    assert invoke("play", str(game), "resign")[0] == 0
    out = tmp_path / "site"
    assert invoke("league", "site", str(folder), "-o", str(out))[0] == 0
    texts = {path.name: re.sub(r"<[^>]+>", "", path.read_text(encoding="utf-8")) for path in out.glob("*.html")}
    metas = [line for text in texts.values() for line in text.splitlines() if line.startswith("rank ")]
    assert len(metas) == 3, metas
    assert any("1 point from 1 game (1 won, 0 drawn, 0 lost, 0 byes)" in line for line in metas), metas
    assert any("0 points from 1 game (0 won, 0 drawn, 1 lost, 0 byes)" in line for line in metas), metas
    assert any("from 0 games (0 won, 0 drawn, 0 lost, 1 bye)" in line for line in metas), metas
    assert "1 game finished, 0 ongoing" in texts["index.html"]
    assert not re.search(r"\b1 (games|points|byes)\b", "\n".join(texts.values()))


def test_a_player_withdrawn_before_a_round_has_no_bye_on_the_site(tmp_path: Path) -> None:
    """Issue 45.3: the site's rounds read their byes where the standings count them, so a
    player withdrawn before a round was paired is shown no bye in it (it showed "Bye: Cy, Di")."""
    from tests.helpers.league import START, make_league

    folder = tmp_path / "lg"
    make_league(folder, "--game", "nika", "--players", "2", "--pairing", "swiss", "--rounds", "3", pair_at=START)
    for game in ("r1-t1", "r1-t2"):
        assert submit(folder / f"{game}.rgn", "resign").exit_code == 0
    assert run("withdraw", str(folder), "di@example.org", "--now", "2026-12-02T12:00:00Z")[0] == 0
    code, out, err = run("pair", str(folder), "--now", "2026-12-02T13:00:00Z", "--json")
    assert code == 0, err
    paired = json.loads(out)
    assert len(paired["byes"]) == 1 and "di@example.org" not in paired["byes"]
    table = json.loads(run("standings", str(folder), "--json")[1])
    byes = {row["player"]: row["byes"] for row in table["rows"]}
    assert byes["Di"] == 0 and sum(byes.values()) == 1
    (holder,) = [name for name, count in byes.items() if count]
    out_dir = tmp_path / "site"
    assert run("site", str(folder), "-o", str(out_dir))[0] == 0
    for page in ("index.html", "round-2.html"):
        text = (out_dir / page).read_text(encoding="utf-8")
        shown = re.findall(r'<p class="byes">Bye: (.*?)</p>', text)
        assert len(shown) == 1, page
        names = re.sub(r"<[^>]+>", "", shown[0]).split(", ")
        assert names == [holder], (page, names)


def test_a_manifest_with_a_status_that_is_no_verdicts_has_its_game_read_again(copy: Path, tmp_path: Path) -> None:
    """A game's status is one of the verdict's (`Status`): a manifest that gives another word
    (tampered, or from another version) is not believed; the game is judged again."""
    out = tmp_path / "site"
    first = build(copy, out)
    manifest = json.loads((out / ".referee-site.json").read_text())
    status = manifest["games"]["r1-t1"]["result"]["status"]
    manifest["games"]["r1-t1"]["result"]["status"] = "won"
    (out / ".referee-site.json").write_text(json.dumps(manifest))
    built = build(copy, out)
    assert [game.game for game in built.bad] == [game.game for game in first.bad]
    assert json.loads((out / ".referee-site.json").read_text())["games"]["r1-t1"]["result"]["status"] == status
