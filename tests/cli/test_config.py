"""The configuration file (config.toml) and the REFEREE_* variables: the command line beats
the environment, the environment beats the file, the file beats the default; `referee
config` says which is in force; a secret is read only from a file of mode 0600."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli import config
from referee.cli.entry import wants_config
from referee.judge.errors import UsageError
from tests.conftest import EXAMPLES


def _referee(
    *args: str, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "referee", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        check=False,
    )


def _settings(shown: str) -> dict[str, dict[str, object]]:
    settings = json.loads(shown)["settings"]
    assert isinstance(settings, dict)
    return settings


@pytest.fixture
def league(tmp_path: Path) -> Path:
    """A league of two players, ready for `status`."""
    folder = tmp_path / "autumn"
    assert _referee("league", "init", str(folder), "--game", "numica", "--players", "2").returncode == 0
    for address, name in (("ann@example.org", "Ann"), ("bo@example.org", "Bo")):
        assert _referee("league", "add", str(folder), address, "--name", name).returncode == 0
    return folder


def test_the_league_folder_comes_from_the_command_line_then_the_environment_then_the_file(
    tmp_path: Path, league: Path
) -> None:
    file = tmp_path / "config.toml"
    file.write_text('league = "autumn"\n')  # relative to the file's folder
    env = {"REFEREE_CONFIG": str(file)}
    from_file = _referee("league", "status", "--json", env=env, cwd=EXAMPLES)
    assert from_file.returncode == 0, from_file.stderr
    elsewhere = {**env, "REFEREE_LEAGUE": str(tmp_path / "nowhere")}
    from_env = _referee("league", "status", env=elsewhere)
    assert from_env.returncode == 2 and str(tmp_path / "nowhere") in from_env.stderr
    from_line = _referee("league", "status", "--json", str(league), env=elsewhere)
    assert from_line.returncode == 0, from_line.stderr
    assert from_line.stdout == from_file.stdout
    without = _referee("league", "status", env={"REFEREE_CONFIG": ""})
    assert without.returncode == 2 and "DIR" in without.stderr


def test_mail_takes_its_options_from_the_file(tmp_path: Path) -> None:
    file = tmp_path / "config.toml"
    file.write_text(f'games = "{tmp_path / "no-such-folder"}"\nfrom = "gm@example.org"\n')
    done = _referee("mail", env={"REFEREE_CONFIG": str(file)})
    assert done.returncode == 2
    assert done.stderr.splitlines() == [f"referee: mail: --games {tmp_path / 'no-such-folder'}: no such folder"]
    overridden = _referee("mail", "--games", str(tmp_path / "other"), env={"REFEREE_CONFIG": str(file)})
    assert str(tmp_path / "other") in overridden.stderr


def test_referee_config_shows_each_value_and_its_source(tmp_path: Path) -> None:
    file = tmp_path / "config.toml"
    file.write_text('games = "~/games"\nsmtp = "localhost:25"\nstarttls = true\nwait = 3\n')
    env = {"REFEREE_CONFIG": str(file), "REFEREE_SMTP": "mail.example.org:587", "HOME": str(tmp_path)}
    shown = _referee("config", "--json", env=env)
    assert shown.returncode == 0, shown.stderr
    settings = _settings(shown.stdout)
    assert settings["games"] == {
        "value": str(tmp_path / "games"),
        "set": True,
        "source": "file",
        "variable": "REFEREE_GAMES",
        "option": "--games",
    }
    assert (settings["smtp"]["value"], settings["smtp"]["source"]) == ("mail.example.org:587", "env REFEREE_SMTP")
    assert (settings["starttls"]["value"], settings["wait"]["value"]) == (True, 3.0)
    assert (settings["from"]["value"], settings["from"]["source"]) == (None, "default")
    text = _referee("config", env=env).stdout.splitlines()
    assert text[0] == f"config file: {file} (read; REFEREE_CONFIG)"
    rows = [re.split(r"  +", line) for line in text[1:]]
    assert ["smtp", "mail.example.org:587", "[env REFEREE_SMTP]"] in rows
    assert ["from", "-", "[default]"] in rows
    assert ["games", str(tmp_path / "games"), "[file]"] in rows
    assert len({line.rindex("  [") for line in text[1:]}) == 1  # in columns


def test_the_default_file_is_in_the_users_configuration_folder(tmp_path: Path) -> None:
    folder = tmp_path / "xdg" / "referee"
    folder.mkdir(parents=True)
    (folder / "config.toml").write_text('gm = "gm@example.org"\n')
    env = {name: value for name, value in os.environ.items() if name != "REFEREE_CONFIG"}
    env["XDG_CONFIG_HOME"] = str(tmp_path / "xdg")
    done = subprocess.run(
        [sys.executable, "-m", "referee", "config", "--json"], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)
    assert shown["file"] == str(folder / "config.toml")
    assert shown["settings"]["gm"]["value"] == "gm@example.org"


def test_a_secret_in_a_file_others_can_read_is_refused(tmp_path: Path) -> None:
    file = tmp_path / "config.toml"
    file.write_text('smtp = "localhost:25"\nsmtp-user = "gm"\nsmtp-password = "s3cret"\n')
    file.chmod(0o644)
    for args in (["config"], ["league", "tick", str(tmp_path)], ["mail", "--flush"]):
        done = _referee(*args, env={"REFEREE_CONFIG": str(file)})
        assert done.returncode == 2, args
        assert done.stderr.splitlines() == [
            f"referee: {file} holds smtp-password but others can read it (mode 0644): "
            f"chmod 600 {file}, or give the secret in REFEREE_SMTP_PASSWORD"
        ]
        assert "s3cret" not in done.stdout + done.stderr
    file.chmod(0o600)
    shown = _referee("config", env={"REFEREE_CONFIG": str(file)})
    assert shown.returncode == 0, shown.stderr
    assert re.search(r"^smtp-password +\(set, not shown\) +\[file\]$", shown.stdout, re.MULTILINE)
    assert "s3cret" not in shown.stdout


def test_the_files_password_reaches_the_mailer_unless_the_environment_has_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = tmp_path / "config.toml"
    file.write_text('smtp = "localhost:25"\nsmtp-password = "from-file"\n')
    file.chmod(0o600)
    monkeypatch.setenv("REFEREE_CONFIG", str(file))
    # set, then removed: so that monkeypatch removes what apply() sets, whatever it was before
    monkeypatch.setenv("REFEREE_SMTP_PASSWORD", "")
    monkeypatch.delenv("REFEREE_SMTP_PASSWORD")
    defaults = config.apply()
    assert defaults == {"mail": {"smtp": "localhost:25"}, "league": {"tick": {"smtp": "localhost:25"}}}
    assert os.environ["REFEREE_SMTP_PASSWORD"] == "from-file"
    monkeypatch.setenv("REFEREE_SMTP_PASSWORD", "from-env")
    config.apply()
    assert os.environ["REFEREE_SMTP_PASSWORD"] == "from-env"


def test_the_password_test_leaves_the_environment_as_it_found_it() -> None:
    assert "REFEREE_SMTP_PASSWORD" not in os.environ  # runs after the test above, in file order


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('gamez = "x"\n', 'unknown setting "gamez"'),
        ("games = \n", "not TOML"),
        ('starttls = "maybe"\n', "starttls is true or false"),
        ("wait = -1\n", "wait is a number of seconds"),
        ("games = 3\n", "games is a non-empty string"),
        ("x" * (config.MAX_BYTES + 1), f"longer than {config.MAX_BYTES} bytes"),
        # Found by the fuzzer (tests/fuzz/crashes/config): a traceback each, before.
        ('outbox = "~nobody-such/out"\n', "outbox: ~nobody-such/out: no user nobody-such"),
        ("wait = 1" + "0" * 400 + "\n", "wait is a number of seconds"),
    ],
)
def test_a_bad_file_is_one_line_and_exit_2(tmp_path: Path, text: str, said: str) -> None:
    file = tmp_path / "config.toml"
    file.write_text(text)
    done = _referee("league", "status", str(tmp_path), env={"REFEREE_CONFIG": str(file)})
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1 and said in done.stderr, done.stderr


def test_bad_environment_values_and_a_missing_named_file_are_usage_errors(tmp_path: Path) -> None:
    done = _referee("config", env={"REFEREE_CONFIG": "", "REFEREE_STARTTLS": "perhaps"})
    assert done.returncode == 2 and "REFEREE_STARTTLS: starttls is true or false" in done.stderr
    missing = _referee("mail", env={"REFEREE_CONFIG": str(tmp_path / "absent.toml")})
    assert missing.returncode == 2 and f"cannot read {tmp_path / 'absent.toml'}" in missing.stderr
    nobody = _referee("config", env={"REFEREE_CONFIG": "~nobody-such/config.toml"})
    assert nobody.returncode == 2 and nobody.stderr.splitlines() == [
        "referee: REFEREE_CONFIG: ~nobody-such/config.toml: no user nobody-such"
    ], nobody.stderr


def test_record_commands_never_read_the_file(tmp_path: Path) -> None:
    file = tmp_path / "config.toml"
    file.write_text("not toml at all [\n")
    done = _referee("check", str(EXAMPLES / "nika-won.rgn"), env={"REFEREE_CONFIG": str(file)})
    assert done.returncode == 0, done.stderr
    assert not wants_config(["check", "mail"])
    assert not wants_config(["--version"])
    assert wants_config(["league", "tick", "x"])


def test_flags_and_numbers_from_the_environment() -> None:
    loaded = config.load({"REFEREE_STARTTLS": "yes", "REFEREE_WAIT": "2.5"})
    assert loaded.values["starttls"].value is True and loaded.values["wait"].value == 2.5
    with pytest.raises(UsageError):
        config.load({"REFEREE_WAIT": "soon"})


def test_each_secret_is_the_variable_its_reader_reads() -> None:
    from referee.live.mail.delivery import PASSWORD_VARIABLE
    from referee.live.mail.imap import PASSWORD_ENV

    assert config.BY_KEY["smtp-password"].variable == PASSWORD_VARIABLE
    assert config.BY_KEY["imap-password"].variable == PASSWORD_ENV
    assert [setting.key for setting in config.SETTINGS if setting.secret] == ["smtp-password", "imap-password"]
