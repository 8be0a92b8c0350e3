"""Nieuchess battles in a live game (PLAY.md §1.5-1.6, §3): battle parts written onto the
battle that awaits them, refusals when something awaited comes from someone else, and
secret dice: `new --secret`, salts, `play --seed-file`, `reveal`, and `check` after it."""

from __future__ import annotations

import hashlib
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from referee.games.randomness import Dice, effective_seed
from referee.live.play import UsageError, read_key
from referee.live.play.secret import new_secret, reveal
from tests.helpers.cli import invoke
from tests.helpers.play import play
from tests.helpers.process import run_referee

POSITION = "R:j20,k21,a1 B:j21,x30 to:R"
PHYSICAL = f'[Game "nieuchess"]\n[Position "{POSITION}"]\n\n'
EXAMPLE_HASH = "sha256:50d858e0985ecc7f60418aaf0cc5ab587f42c2570a884095a9e8ccacd0f6545c"
SECRET = f'[Game "nieuchess"]\n[SeedHash "{EXAMPLE_HASH}"]\n[Position "{POSITION}"]\n\n'
SALTED = (
    f'[Game "nieuchess"]\n[SeedHash "{EXAMPLE_HASH}"]\n[RedSalt "ann-7"]\n[BlueSalt "bo 42"]\n'
    f'[Position "{POSITION}"]\n\n'
)


def game(tmp_path: Path, text: str, name: str = "game.rgn") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def key(tmp_path: Path, seed: str = "example") -> Path:
    path = tmp_path / "game.key"
    path.write_text(seed + "\n")
    return path


def last_line(path: Path) -> str:
    return path.read_text().rstrip("\n").splitlines()[-1]


# -- battle parts (physical dice) ---------------------------------------------------


def test_a_roll_and_a_choice_arrive_one_at_a_time_and_are_written_on_the_battle(tmp_path: Path) -> None:
    path = game(tmp_path, PHYSICAL)
    declared = play(path, "j20+k21xj21")
    assert declared.exit_code == 0 and declared.verdict["pending"] == "roll"
    assert last_line(path) == "1. R: j20+k21xj21"
    rolled = play(path, "#2", as_side="Red")
    assert rolled.exit_code == 0 and rolled.verdict["pending"] == "choice"
    assert last_line(path) == "1. R: j20+k21xj21#2=DB2"
    chosen = play(path, "(j21-i22-i23)", as_side="Red")
    assert chosen.exit_code == 0 and chosen.verdict["pending"] is None
    assert last_line(path) == "1. R: j20+k21xj21#2=DB2(j21-i22-i23)"
    assert "Blue's pawn retreats j21-i22-i23" in chosen.events
    at_once = game(tmp_path, PHYSICAL, "at-once.rgn")
    play(at_once, "j20+k21xj21#2(j21-i22-i23)")
    assert at_once.read_text() == path.read_text()


def test_the_defender_chooses_the_attackers_retreat_after_ab2(tmp_path: Path) -> None:
    path = game(tmp_path, PHYSICAL)
    play(path, "j20+k21xj21#1")
    assert play(path, "(j20-j19-j18,k21-l21-l20)", as_side="Red").error == "Blue is to move, not Red"
    chosen = play(path, "(j20-j19-j18,k21-l21-l20)", as_side="Blue")
    assert chosen.exit_code == 0
    assert last_line(path) == "1. R: j20+k21xj21#1=AB2(j20-j19-j18,k21-l21-l20)"


def test_an_exchange_choice_is_written_on_the_battle(tmp_path: Path) -> None:
    path = game(tmp_path, PHYSICAL)
    play(path, "j20+k21xj21#5")
    assert play(path, "(-j20,-j21)").exit_code == 0
    assert last_line(path) == "1. R: j20+k21xj21#5=EX(-j20,-j21)"


def test_a_part_that_nothing_awaits_or_that_does_not_fit_is_refused(tmp_path: Path) -> None:
    path = game(tmp_path, PHYSICAL)
    assert "nothing awaits" in (play(path, "#2").error or "")
    play(path, "j20+k21xj21#2")
    before = path.read_text()
    refused = play(path, "#3")
    assert refused.exit_code == 1 and "does not give" in (refused.error or "")
    assert path.read_text() == before


def test_more_actions_after_something_awaited_from_someone_else_are_refused_whole(tmp_path: Path) -> None:
    path = game(tmp_path, PHYSICAL)
    play(path, "j20+k21xj21")
    before = path.read_text()
    refused = play(path, "B: x30-x28")
    assert refused.exit_code == 1 and path.read_text() == before
    assert refused.error is not None and "awaits the roll of the battle j20+k21xj21" in refused.error
    assert "from Red's physical dice" in refused.error
    choice = play(path, "#1 B: x30-x28")  # AB2: the choice is Blue's, the turn goes on past it
    assert choice.exit_code == 1 and "from Blue" in (choice.error or "") and path.read_text() == before
    assert play(path, "#1").exit_code == 0  # what precedes the awaited choice may be submitted alone


def test_a_submission_leaving_a_battle_unresolved_mid_text_is_refused(tmp_path: Path) -> None:
    path = game(tmp_path, PHYSICAL)
    refused = play(path, "j20+k21xj21 B: x30-x28")
    assert refused.exit_code == 1 and "from Red's physical dice" in (refused.error or "")
    assert "submit what comes before it alone" in (refused.error or "")


# -- secret dice --------------------------------------------------------------------


def test_the_key_draws_the_roll_and_writes_roll_and_result(tmp_path: Path) -> None:
    path, seed = game(tmp_path, SECRET), read_key(key(tmp_path))
    assert Dice("example").roll() == 6
    declared = play(path, "j20+k21xj21")
    assert declared.verdict["pending"] == "roll" and "the seed is secret" in declared.next
    resolved = play(path, None, seed=seed)
    assert resolved.exit_code == 0 and resolved.written
    assert last_line(path) == "1. R: j20+k21xj21#6=AE"
    assert "die 6" in resolved.events
    assert resolved.verdict["rolls_as_given"] is True  # the file still holds no seed


def test_with_the_key_at_hand_a_battle_is_rolled_at_once(tmp_path: Path) -> None:
    path, seed = game(tmp_path, SECRET), read_key(key(tmp_path))
    assert play(path, "j20+k21xj21", seed=seed).exit_code == 0
    assert last_line(path) == "1. R: j20+k21xj21#6=AE"


def test_salts_change_the_dice_as_random_md_says(tmp_path: Path) -> None:
    effective = effective_seed("example", [("Red", "ann-7"), ("Blue", "bo 42")])
    assert effective == "example\x1fRed=ann-7\x1fBlue=bo 42"
    dice = Dice(effective)
    assert [dice.roll() for _ in range(20)] == [int(d) for d in "5 2 2 1 2 6 5 2 3 2 4 3 4 3 5 2 5 1 6 2".split()]
    blue = Dice(effective_seed("example", [("Blue", "bo 42")]))
    assert [blue.roll() for _ in range(20)] == [int(d) for d in "5 4 6 3 6 1 1 6 3 2 2 6 5 6 2 4 5 3 5 4".split()]
    path, seed = game(tmp_path, SALTED), read_key(key(tmp_path))
    result = play(path, "j20+k21xj21", seed=seed)  # die 5 at 2-1: an exchange, the attacker chooses
    assert result.exit_code == 0 and result.verdict["pending"] == "choice"
    assert last_line(path) == "1. R: j20+k21xj21#5=EX"
    assert play(path, "(-k21,-j21)").exit_code == 0
    assert last_line(path) == "1. R: j20+k21xj21#5=EX(-k21,-j21)"


def test_play_writes_salts_before_the_first_roll_only(tmp_path: Path) -> None:
    path, seed = game(tmp_path, SECRET), read_key(key(tmp_path))
    assert play(path, None, salts=[("B", "bo 42"), ("red", "ann-7")]).exit_code == 0
    text = path.read_text()
    assert '[RedSalt "ann-7"]' in text and '[BlueSalt "bo 42"]' in text
    assert play(path, None, salts=[("Red", "again")]).error == "Red has already given its salt"
    play(path, "j20+k21xj21", seed=seed)
    assert last_line(path) == "1. R: j20+k21xj21#5=EX"  # the salted stream
    other = game(tmp_path, SECRET, "other.rgn")
    play(other, "j20+k21xj21", seed=seed)
    assert "first roll has been drawn" in (play(other, None, salts=[("Blue", "late")]).error or "")
    with pytest.raises(UsageError):
        play(other, None, salts=[("Green", "x")])
    nika = game(tmp_path, '[Game "nika"]\n', "nika.rgn")
    assert "draws no dice" in (play(nika, None, salts=[("Athens", "x")]).error or "")


def test_a_wrong_key_is_refused_and_nothing_written(tmp_path: Path) -> None:
    path = game(tmp_path, SECRET)
    play(path, "j20+k21xj21")
    before = path.read_text()
    result = play(path, None, seed="not-the-seed")
    assert result.exit_code == 1 and "does not match this game's SeedHash" in (result.error or "")
    assert path.read_text() == before
    cli = invoke("play", str(path), "--seed-file", str(key(tmp_path, "wrong")))
    assert cli.exit_code == 1


def test_without_the_key_a_player_cannot_write_a_roll_in_a_secret_game(tmp_path: Path) -> None:
    path = game(tmp_path, SECRET)
    refused = play(path, "j20+k21xj21#4")
    assert refused.exit_code == 1 and "dice are secret" in (refused.error or "")
    play(path, "j20+k21xj21")
    assert play(path, "#4").exit_code == 1


def test_with_the_key_a_written_roll_must_be_the_streams(tmp_path: Path) -> None:
    path, seed = game(tmp_path, SECRET), read_key(key(tmp_path))
    drawn = play(path, "j20+k21xj21", seed=seed, dry_run=True)
    assert drawn.exit_code == 0 and not drawn.written
    die = next(event for event in drawn.events if event.startswith("die ")).split()[1]
    before = path.read_text()
    for roll in "123456":
        if roll != die:
            refused = play(path, f"j20+k21xj21#{roll}", seed=seed)
            assert refused.exit_code == 1 and f"the die of this battle is {die}" in (refused.error or "")
            assert path.read_text() == before
    written = play(path, f"j20+k21xj21#{die}", seed=seed)
    assert written.exit_code == 0 and f"j20+k21xj21#{die}=" in path.read_text()


def test_a_roll_in_the_record_must_be_the_streams_when_the_key_is_given(tmp_path: Path) -> None:
    path, seed = game(tmp_path, SECRET.replace("\n\n", "\n\n1. R: j20+k21xj21#4=DB2(j21-i22-i23)\n")), "example"
    assert play(path, "B: x30-x28").exit_code == 0  # rolls as given while the seed is secret
    refused = play(path, "R: a1-b1", seed=seed)
    assert refused.exit_code == 1 and "the die of this battle is 6" in (refused.error or "")


def test_nothing_awaiting_the_key_is_refused(tmp_path: Path) -> None:
    path = game(tmp_path, SECRET)
    result = play(path, None, seed="example")
    assert result.exit_code == 1 and "nothing awaits the game master's key" in (result.error or "")


def test_reveal_adds_the_seed_and_check_verifies_every_roll(tmp_path: Path) -> None:
    path = game(tmp_path, SALTED)
    key_file = key(tmp_path)
    play(path, "j20+k21xj21", seed="example")
    play(path, "(-k21,-j21) B: x30-x28")
    assert invoke("reveal", str(path), "--seed-file", str(tmp_path / "nope.key")).exit_code == 2
    wrong = invoke("reveal", str(path), "--seed-file", str(key(tmp_path, "other")))
    assert wrong.exit_code == 1 and "Seed " not in path.read_text()
    key_file.write_text("example\n")
    before = path.read_text()
    refused = invoke("reveal", str(path), "--seed-file", str(key_file))
    assert refused.exit_code == 1 and "every future die predictable" in refused.output and "--force" in refused.output
    assert path.read_text() == before, "an ongoing game's seed is not revealed without --force"
    revealed = invoke("reveal", str(path), "--seed-file", str(key_file), "--force")
    assert revealed.exit_code == 0, revealed.output
    text = path.read_text()
    assert '[Seed "example"]' in text and f'[SeedHash "{EXAMPLE_HASH}"]' in text
    checked = invoke("check", "--json", str(path))
    assert checked.exit_code == 0 and '"rolls_as_given": false' in checked.output
    path.write_text(text.replace("#5=EX", "#4=DB2"))
    tampered = invoke("check", str(path))
    assert tampered.exit_code == 1 and "the die of this battle is 5" in tampered.output
    path.write_text(text.replace('[RedSalt "ann-7"]', '[RedSalt "ann-8"]'))
    assert invoke("check", str(path)).exit_code == 1  # the salts are verified too
    path.write_text(text.replace('[Seed "example"]', '[Seed "exampel"]'))
    assert "does not match the SeedHash" in invoke("check", str(path)).output


def test_after_the_reveal_play_writes_the_rolls_the_seed_gives(tmp_path: Path) -> None:
    path = game(tmp_path, SECRET)
    assert reveal(path, "example").exit_code == 1, "ongoing: refused without force"
    assert reveal(path, "example", force=True).written
    assert play(path, "j20+k21xj21").exit_code == 0
    assert last_line(path) == "1. R: j20+k21xj21#6=AE"


# -- new --secret -------------------------------------------------------------------


def test_new_secret_writes_a_fresh_key_0600_and_its_hash(tmp_path: Path) -> None:
    key_file = tmp_path / "game.key"
    result = invoke("new", "nieuchess", "--secret", str(key_file), "--tag", "Red=Ann")
    assert result.exit_code == 0, result.output
    seed = read_key(key_file)
    assert re.fullmatch(r"[0-9a-f]{32}", seed)  # 128 bits from `secrets`, as hex
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert key_file.read_text() == seed + "\n"
    digest = hashlib.sha256(seed.encode()).hexdigest()
    assert f'[SeedHash "sha256:{digest}"]' in result.output
    assert "[Seed " not in result.output and seed not in result.output
    again = invoke("new", "nieuchess", "--secret", str(key_file))
    assert again.exit_code == 2 and "never overwritten" in again.output
    assert read_key(key_file) == seed
    other = invoke("new", "nieuchess", "--secret", str(tmp_path / "other.key"))
    assert read_key(tmp_path / "other.key") != seed and other.exit_code == 0


def test_new_secret_refusals_create_no_key(tmp_path: Path) -> None:
    key_file = tmp_path / "k.key"
    for arguments in (
        ["new", "nika", "--secret", str(key_file)],
        ["new", "nieuchess", "--secret", str(key_file), "--seed", "x"],
        ["new", "nieuchess", "--salt", "Red=x"],
        ["new", "nieuchess", "--secret", str(key_file), "--salt", "Green=x"],
    ):
        assert invoke(*arguments).exit_code == 2, arguments
        assert not key_file.exists()


def test_new_numica_secret_deals_the_tiles_of_the_salted_seed(tmp_path: Path) -> None:
    fresh = invoke("new", "numica", "--seed", "example").output
    text = new_secret(fresh, tmp_path / "n.key", ["Red=ann-7", "B=bo 42"], "example")
    assert '[Tiles "4224231515K143523K2B4X121534RKK231R11BB3B33551K2411X3224XR54RXXK"]' in text
    assert '[RedSalt "ann-7"]' in text and '[BlueSalt "bo 42"]' in text and "[Seed " not in text
    path = game(tmp_path, text, "numica.rgn")
    assert invoke("check", str(path)).exit_code == 0
    assert reveal(path, "example", force=True).exit_code == 0
    assert invoke("check", str(path)).exit_code == 0  # tiles verified against seed and salts
    assert "referee new" in (play(path, None, salts=[("Red", "x")]).error or "")


def test_the_seed_never_appears_in_any_output_before_the_reveal(tmp_path: Path) -> None:
    """A whole game master session through the real command, every output and error
    collected: the seed is nowhere until `reveal`, and only in the record after it."""
    key_file = tmp_path / "game.key"
    path = tmp_path / "game.rgn"
    outputs: list[str] = []

    def referee(*arguments: str, stdin: str | None = None) -> int:
        done = run_referee(*arguments, input=stdin, cwd=tmp_path, env={"COLUMNS": "200"})
        outputs.extend((done.stdout, done.stderr))
        return done.returncode

    new = subprocess.run(
        [
            sys.executable,
            "-m",
            "referee",
            "new",
            "nieuchess",
            "--secret",
            str(key_file),
            "--tag",
            f"Position={POSITION}",
        ],
        capture_output=True,
        text=True,
    )
    outputs.extend((new.stdout, new.stderr))
    path.write_text(new.stdout)
    seed = read_key(key_file)
    assert referee("play", str(path), "--salt", "Red=ann", "--salt", "Blue=bo", "--seed-file", str(key_file)) == 0
    assert referee("play", str(path), "j20+k21xj21", "--as", "Red", "--json") == 0
    assert referee("play", str(path), "--seed-file", str(key_file)) == 0
    referee("play", str(path), "j20+k21xj21#9", "--seed-file", str(key_file))
    referee("play", str(path), "--seed-file", str(tmp_path / "missing.key"))
    referee("moves", str(path))
    referee("show", "--json", str(path))
    referee("check", "--json", str(path))
    referee("replay", str(path))
    for output in outputs:
        assert seed not in output
    assert seed not in path.read_text()
    assert referee("reveal", str(path), "--seed-file", str(key_file), "--force") in (0, 1)
    assert f'[Seed "{seed}"]' in path.read_text()
    assert referee("check", str(path)) == 0


def test_as_the_attacker_may_not_write_the_defenders_retreat(tmp_path: Path) -> None:
    path = game(tmp_path, PHYSICAL)
    refused = play(path, "j20+k21xj21#1(j20-j19-j18,k21-l21-l20)", as_side="Red")
    assert refused.exit_code == 1 and "chosen by the defender" in (refused.error or "")
    assert play(path, "j20+k21xj21#2(j21-i22-i23)", as_side="Red").exit_code == 0  # DB2: the attacker's choice


def test_the_game_master_resolving_reads_no_moves_from_standard_input(tmp_path: Path) -> None:
    path, key_file = game(tmp_path, SECRET), key(tmp_path)
    play(path, "j20+k21xj21")
    result = invoke("play", str(path), "--seed-file", str(key_file), stdin="B: x30-x28\n")
    assert result.exit_code == 0, result.output
    assert last_line(path) == "1. R: j20+k21xj21#6=AE"
    assert "die 6" in result.output.splitlines()


def test_reveal_json_and_a_second_reveal(tmp_path: Path) -> None:
    path, key_file = game(tmp_path, SECRET), key(tmp_path)
    first = invoke("reveal", "--json", str(path), "--seed-file", str(key_file), "--force")
    assert first.exit_code == 0 and '"written": true' in first.output
    before = path.read_text()
    again = invoke("reveal", str(path), "--seed-file", str(key_file))
    assert again.exit_code == 0 and "already revealed" in again.output and path.read_text() == before


def test_salts_stand_after_the_seed_hash_in_canonical_form(tmp_path: Path) -> None:
    path = game(tmp_path, SECRET)
    play(path, None, salts=[("Blue", "bo"), ("Red", "ann")])
    tags = [line.split()[0][1:] for line in path.read_text().splitlines() if line.startswith("[")]
    assert tags == ["Game", "SeedHash", "RedSalt", "BlueSalt", "Position", "Result"]


def test_a_nieuchess_turn_in_progress_is_continued(tmp_path: Path) -> None:
    path = game(tmp_path, PHYSICAL)
    moved = play(path, "a1-b1")
    assert moved.exit_code == 0 and moved.verdict["pending"] == "battle" and moved.verdict["to_move"] == "Red"
    assert play(path, "j20+k21xj21#2(j21-i22-i23)", as_side="Red").exit_code == 0
    assert last_line(path) == "1. R: a1-b1 j20+k21xj21#2=DB2(j21-i22-i23)"
    assert play(path, "R: a1-c1").exit_code == 1  # Blue has the move: Red's turn is closed


def test_a_key_file_holds_one_line(tmp_path: Path) -> None:
    path = tmp_path / "k.key"
    path.write_text("seed text\n\n")
    assert read_key(path) == "seed text"
    for bad in ("", "\n", "one\ntwo\n"):
        path.write_text(bad)
        with pytest.raises(UsageError, match="one line"):
            read_key(path)
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(UsageError, match="not UTF-8"):
        read_key(path)
