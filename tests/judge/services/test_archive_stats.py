"""`referee stats`: records by game and status, results, lengths and the dice audit."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from referee.judge.services.archive_stats import MIN_ROLLS, DiceAudit, chi_square_p
from tests.conftest import EXAMPLES
from tests.helpers.cli import invoke


def _survival_by_integration(x: float) -> float:
    """P(X >= x) for chi-square with 5 degrees of freedom, by integrating its density (Simpson)."""

    def density(t: float) -> float:
        return t**1.5 * math.exp(-t / 2) / (2**2.5 * math.gamma(2.5)) if t > 0 else 0.0

    steps, top = 20000, x + 200.0
    width = (top - x) / steps
    total = density(x) + density(top)
    total += sum((4 if i % 2 else 2) * density(x + i * width) for i in range(1, steps))
    return total * width / 3


@pytest.mark.parametrize("x", [0.0, 0.5, 1.7, 4.35, 9.24, 11.0705, 15.0863, 20.5, 40.0])
def test_chi_square_p_value_for_five_degrees_of_freedom(x: float) -> None:
    assert chi_square_p(x) == pytest.approx(_survival_by_integration(x), abs=1e-7)


def test_known_critical_values() -> None:
    assert chi_square_p(11.0705) == pytest.approx(0.05, abs=1e-5)
    assert chi_square_p(15.0863) == pytest.approx(0.01, abs=1e-5)
    assert chi_square_p(0.0) == 1.0


def test_a_loaded_die_is_flagged_and_a_fair_one_is_not() -> None:
    fair, loaded, few = DiceAudit(), DiceAudit(), DiceAudit()
    for die in [1, 2, 3, 4, 5, 6] * 20:
        fair.add(die, False)
    for die in [6] * 40 + [1, 2, 3, 4, 5] * 8:
        loaded.add(die, True)
    for die in [6] * (MIN_ROLLS - 1):
        few.add(die, False)
    assert fair.chi_square == 0 and fair.p_value == 1.0 and not fair.unfair
    assert loaded.rolls == 80 and loaded.as_given == 80
    assert loaded.p_value is not None and loaded.p_value < 0.01 and loaded.unfair
    assert few.p_value is None and not few.unfair  # too few rolls for the test


def _unseeded(tmp_path: Path) -> tuple[Path, dict[str, list[int]]]:
    """The example game twice, without its seed: every die is taken as written. Returns the
    file and the dice each side wrote, read from its text."""
    text = (EXAMPLES / "nieuchess-finished.rgn").read_text()
    text = re.sub(r'\[Seed "[^"]*"\]\n', "", text)
    written: dict[str, list[int]] = {"Red": [], "Blue": []}
    for line in text.splitlines():
        label = re.match(r"(?:\d+\. )?([RB])\+?:", line)
        if label:
            written["Red" if label.group(1) == "R" else "Blue"] += [int(d) for d in re.findall(r"#(\d)", line)]
    path = tmp_path / "unseeded.rgn"
    path.write_text(text + "\n" + text + "\n" + (EXAMPLES / "numica-finished.rgn").read_text())
    return path, {side: dice * 2 for side, dice in written.items()}


def test_stats_json_counts_the_dice_each_side_wrote(tmp_path: Path) -> None:
    path, written = _unseeded(tmp_path)
    result = invoke("stats", "--json", str(path))
    assert result.exit_code == 0, result.output
    fields = json.loads(result.stdout)
    assert fields["records"] == 3
    nieuchess = fields["games"]["nieuchess"]
    assert nieuchess["statuses"] == {"finished": 2} and nieuchess["wins"] == {"Red": 2}
    for side, dice in written.items():
        audit = nieuchess["dice"][side]
        assert audit["rolls"] == len(dice) >= MIN_ROLLS
        assert audit["faces"] == {str(face): dice.count(face) for face in range(1, 7)}
        assert audit["as_given"] == len(dice)
        expected = len(dice) / 6
        chi = sum((dice.count(face) - expected) ** 2 / expected for face in range(1, 7))
        assert audit["chi_square"] == pytest.approx(chi, abs=1e-4)
        assert audit["p_value"] == pytest.approx(chi_square_p(chi), abs=1e-6)
        assert audit["unfair"] == (chi_square_p(chi) < 0.01)
    assert fields["games"]["numica"]["dice"] == {}


def test_stats_by_status_results_and_lengths(tmp_path: Path) -> None:
    files = [str(EXAMPLES / name) for name in ("nika-won.rgn", "nika-drawn.rgn", "numica-ongoing.rgn")]
    files.append(str(EXAMPLES / "broken" / "nika-illegal.rgn"))
    checked = [json.loads(line) for line in invoke("check", "--json", *files).stdout.splitlines()]
    result = invoke("stats", "--json", *files)
    assert result.exit_code == 1  # an illegal record: the exit status of check
    nika = json.loads(result.stdout)["games"]["nika"]
    assert nika["statuses"] == {"finished": 2, "illegal": 1}
    won = next(v for v in checked if v["source"].endswith("nika-won.rgn"))
    drawn = next(v for v in checked if v["source"].endswith("nika-drawn.rgn"))
    assert nika["wins"] == dict.fromkeys(sorted(won["winners"]), 1) and nika["draws"] == 1
    assert nika["reasons"] == {won["reason"]: 1, drawn["reason"]: 1} or won["reason"] == drawn["reason"]
    lengths = sorted([won["turns"], drawn["turns"]])
    assert nika["turns"] == {"records": 2, "min": lengths[0], "median": sum(lengths) / 2, "max": lengths[1]}


def test_stats_text_flags_nothing_on_the_example_and_reports_rolls_as_written(tmp_path: Path) -> None:
    path, written = _unseeded(tmp_path)
    result = invoke("stats", str(path))
    assert result.exit_code == 0
    assert f"dice Red: {len(written['Red'])} rolls (" in result.stdout
    assert f"{len(written['Blue'])} rolls taken as written (no seed in the record)" in result.stdout
    assert "turns: min " in result.stdout


def test_stats_of_a_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    result = invoke("stats", str(tmp_path / "none.rgn"))
    assert result.exit_code == 2 and "cannot read" in result.stderr
