"""The configuration file (config.toml) and the REFEREE_* variables: the command line beats
the environment, the environment beats the file, the file beats the default; `referee
config` says which is in force; a secret is read only from a file of mode 0600."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from referee.cli import config_file
from referee.cli.entry import wants_config
from referee.errors import UsageError
from referee.live.mail import default_sender
from tests.conftest import EXAMPLES
from tests.helpers.process import run_referee


def _settings(shown: str) -> dict[str, dict[str, object]]:
    settings = json.loads(shown)["settings"]
    assert isinstance(settings, dict)
    return settings


@pytest.fixture
def league(tmp_path: Path) -> Path:
    """A league of two players, ready for `status`."""
    folder = tmp_path / "autumn"
    assert run_referee("league", "init", str(folder), "--game", "numica", "--players", "2").returncode == 0
    for address, name in (("ann@example.org", "Ann"), ("bo@example.org", "Bo")):
        assert run_referee("league", "add", str(folder), address, "--name", name).returncode == 0
    return folder


def test_the_league_folder_comes_from_the_command_line_then_the_environment_then_the_file(
    tmp_path: Path, league: Path
) -> None:
    file = tmp_path / "config.toml"
    file.write_text('league = "autumn"\n')  # relative to the file's folder
    env = {"REFEREE_CONFIG": str(file)}
    from_file = run_referee("league", "status", "--json", env=env, cwd=EXAMPLES)
    assert from_file.returncode == 0, from_file.stderr
    elsewhere = {**env, "REFEREE_LEAGUE": str(tmp_path / "nowhere")}
    from_env = run_referee("league", "status", env=elsewhere)
    assert from_env.returncode == 2 and str(tmp_path / "nowhere") in from_env.stderr
    from_line = run_referee("league", "status", "--json", str(league), env=elsewhere)
    assert from_line.returncode == 0, from_line.stderr
    assert from_line.stdout == from_file.stdout
    without = run_referee("league", "status", env={"REFEREE_CONFIG": ""})
    assert without.returncode == 2 and "DIR" in without.stderr


def test_mail_takes_its_options_from_the_file(tmp_path: Path) -> None:
    file = tmp_path / "config.toml"
    file.write_text(f'games = "{tmp_path / "no-such-folder"}"\nfrom = "gm@example.org"\n')
    done = run_referee("mail", "receive", env={"REFEREE_CONFIG": str(file)})
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"referee: mail: the games folder {tmp_path / 'no-such-folder'}: no such folder"
    ]
    overridden = run_referee("mail", "receive", str(tmp_path / "other"), env={"REFEREE_CONFIG": str(file)})
    assert str(tmp_path / "other") in overridden.stderr


def test_referee_config_shows_each_value_and_its_source(tmp_path: Path) -> None:
    file = tmp_path / "config.toml"
    file.write_text('games = "~/games"\nsmtp = "localhost:25"\nstarttls = true\nwait = 3\n')
    env = {"REFEREE_CONFIG": str(file), "REFEREE_SMTP": "mail.example.org:587", "HOME": str(tmp_path)}
    shown = run_referee("config", "--json", env=env)
    assert shown.returncode == 0, shown.stderr
    settings = _settings(shown.stdout)
    assert settings["games"] == {
        "value": str(tmp_path / "games"),
        "set": True,
        "source": "file",
        "variable": "REFEREE_GAMES",
        "option": "GAMES",
        "default": None,
    }
    assert (settings["smtp"]["value"], settings["smtp"]["source"]) == ("mail.example.org:587", "env REFEREE_SMTP")
    assert (settings["starttls"]["value"], settings["wait"]["value"]) == (True, 3.0)
    assert (settings["from"]["value"], settings["from"]["source"]) == (None, "default")
    text = run_referee("config", env=env).stdout.splitlines()
    assert text[0] == f"config file: {file} (read; REFEREE_CONFIG)"
    rows = [re.split(r"  +", line) for line in text[1:]]
    assert ["smtp", "mail.example.org:587", "[env REFEREE_SMTP]"] in rows
    assert ["from", default_sender(), "[default: referee@HOSTNAME]"] in rows
    assert ["games", str(tmp_path / "games"), "[file]"] in rows
    assert len({line.rindex("  [") for line in text[1:]}) == 1  # in columns


def test_the_default_file_is_in_the_users_configuration_folder(tmp_path: Path) -> None:
    folder = tmp_path / "xdg" / "referee"
    folder.mkdir(parents=True)
    (folder / "config.toml").write_text('gm = "gm@example.org"\n')
    env = {name: value for name, value in os.environ.items() if name != "REFEREE_CONFIG"}
    env["XDG_CONFIG_HOME"] = str(tmp_path / "xdg")
    done = run_referee("config", "--json", environ=env)
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)
    assert shown["file"] == str(folder / "config.toml")
    assert shown["settings"]["gm"]["value"] == "gm@example.org"


def test_a_secret_in_a_file_others_can_read_is_refused(tmp_path: Path) -> None:
    file = tmp_path / "config.toml"
    file.write_text('smtp = "localhost:25"\nsmtp-user = "gm"\nsmtp-password = "s3cret"\n')
    file.chmod(0o644)
    for args in (["config"], ["league", "tick", str(tmp_path)], ["mail", "flush"]):
        done = run_referee(*args, env={"REFEREE_CONFIG": str(file)})
        assert done.returncode == 2, args
        assert done.stderr.splitlines() == [
            f"referee: {file} holds smtp-password but others can read it (mode 0644): "
            f"chmod 600 {file}, or give the secret in REFEREE_SMTP_PASSWORD"
        ]
        assert "s3cret" not in done.stdout + done.stderr
    file.chmod(0o600)
    shown = run_referee("config", env={"REFEREE_CONFIG": str(file)})
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
    defaults = config_file.apply()
    sent = {"smtp": "localhost:25"}
    assert defaults == {"mail": {"receive": sent, "imap": sent, "flush": sent}, "league": {"tick": sent}}
    assert os.environ["REFEREE_SMTP_PASSWORD"] == "from-file"
    monkeypatch.setenv("REFEREE_SMTP_PASSWORD", "from-env")
    config_file.apply()
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
        ("x" * (config_file.MAX_BYTES + 1), f"longer than {config_file.MAX_BYTES} bytes"),
        # Found by the fuzzer (tests/fuzz/crashes/config): a traceback each, before.
        ('outbox = "~nobody-such/out"\n', "outbox: ~nobody-such/out: no user nobody-such"),
        ("wait = 1" + "0" * 400 + "\n", "wait is a number of seconds"),
    ],
)
def test_a_bad_file_is_one_line_and_exit_2(tmp_path: Path, text: str, said: str) -> None:
    file = tmp_path / "config.toml"
    file.write_text(text)
    done = run_referee("league", "status", str(tmp_path), env={"REFEREE_CONFIG": str(file)})
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1 and said in done.stderr, done.stderr


def test_bad_environment_values_and_a_missing_named_file_are_usage_errors(tmp_path: Path) -> None:
    done = run_referee("config", env={"REFEREE_CONFIG": "", "REFEREE_STARTTLS": "perhaps"})
    assert done.returncode == 2 and "REFEREE_STARTTLS: starttls is true or false" in done.stderr
    missing = run_referee("mail", env={"REFEREE_CONFIG": str(tmp_path / "absent.toml")})
    assert missing.returncode == 2 and f"cannot read {tmp_path / 'absent.toml'}" in missing.stderr
    nobody = run_referee("config", env={"REFEREE_CONFIG": "~nobody-such/config.toml"})
    assert nobody.returncode == 2 and nobody.stderr.splitlines() == [
        "referee: REFEREE_CONFIG: ~nobody-such/config.toml: no user nobody-such"
    ], nobody.stderr


def test_record_commands_never_read_the_file(tmp_path: Path) -> None:
    file = tmp_path / "config.toml"
    file.write_text("not toml at all [\n")
    done = run_referee("check", str(EXAMPLES / "nika-won.rgn"), env={"REFEREE_CONFIG": str(file)})
    assert done.returncode == 0, done.stderr
    assert not wants_config(["check", "mail"])
    assert not wants_config(["--version"])
    assert wants_config(["league", "tick", "x"])


def test_flags_and_numbers_from_the_environment() -> None:
    loaded = config_file.load({"REFEREE_STARTTLS": "yes", "REFEREE_WAIT": "2.5"})
    assert loaded.values["starttls"].value is True and loaded.values["wait"].value == 2.5
    with pytest.raises(UsageError):
        config_file.load({"REFEREE_WAIT": "soon"})


def test_each_secret_is_the_variable_its_reader_reads() -> None:
    from referee.live.mail.delivery import PASSWORD_VARIABLE
    from referee.live.mail.imap import PASSWORD_ENV

    assert config_file.BY_KEY["smtp-password"].variable == PASSWORD_VARIABLE
    assert config_file.BY_KEY["imap-password"].variable == PASSWORD_ENV
    assert [setting.key for setting in config_file.SETTINGS if setting.secret] == ["smtp-password", "imap-password"]


def test_a_setting_left_unset_shows_the_default_the_command_takes_and_whence() -> None:
    """`wait` and `from` have defaults (10 s, referee@HOSTNAME): shown as such, not as `-`;
    the outbox follows the game folder. The defaults are the commands' own."""
    import click
    import typer

    from referee.cli.main import app

    file = EXAMPLES / "config" / "autumn.toml"
    done = run_referee("config", env={"REFEREE_CONFIG": str(file), "REFEREE_FROM": ""})
    rows = {row[0]: row[1:] for row in (re.split(r"  +", line) for line in done.stdout.splitlines()[1:])}
    assert rows["wait"] == ["10", "[default]"]
    assert rows["starttls"] == ["false", "[default]"]
    assert rows["outbox"] == ["/srv/games/outbox", "[default: GAMES/outbox]"]
    assert rows["from"] == ["referee@example.org", "[file]"]
    bare = run_referee("config", "--json", env={"REFEREE_CONFIG": ""})
    settings = _settings(bare.stdout)
    assert (settings["wait"]["value"], settings["wait"]["default"], settings["from"]["default"]) == (
        None,
        "10",
        default_sender(),
    )
    assert settings["games"]["default"] == "-" and settings["outbox"]["default"] == "GAMES/outbox"
    root = typer.main.get_command(app)
    assert isinstance(root, click.Group)
    mail = root.commands["mail"]
    assert isinstance(mail, click.Group)
    commands = [root.commands["play"], root.commands["reveal"], *(mail.commands[name] for name in ("receive", "imap"))]
    for found in commands:
        wait = next(param for param in found.params if param.name == "wait")
        assert f"{wait.default:g}" == settings["wait"]["default"], found.name


def test_every_setting_is_in_the_help_of_referee_config_and_in_docs_config_md() -> None:
    from tests.conftest import ROOT

    shown = run_referee("config", "--help", env={"REFEREE_CONFIG": ""})
    assert shown.returncode == 0, shown.stderr
    listed = {line.split()[0] for line in shown.stdout.splitlines() if line.startswith("  ") and "  " in line[2:]}
    page = (ROOT / "docs" / "config.md").read_text(encoding="utf-8")
    for setting in config_file.SETTINGS:
        assert setting.key in listed, f"{setting.key} is not in referee config --help"
        assert f"| `{setting.key}` |" in page, f"{setting.key} is not in the table of docs/config.md"


def _bounded(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`_referee` under a timeout: a config that blocks is the bug these tests look for."""
    return run_referee(*args, environ=env, timeout=30)


def test_a_fifo_as_the_config_file_is_refused_without_waiting(tmp_path: Path) -> None:
    """Issue 44 item 5: a FIFO at REFEREE_CONFIG, or at the default path, hung every command
    that reads the file, `play --help` too (opened before the regular-file check)."""
    fifo = tmp_path / "config.toml"
    os.mkfifo(fifo)
    said = f"referee: {fifo}: it is a FIFO, not a regular file: not a configuration file\n"
    for args in (["play", "--help"], ["config"], ["mail", "flush"]):
        done = _bounded(*args, env={**os.environ, "REFEREE_CONFIG": str(fifo)})
        assert (done.returncode, done.stderr) == (2, said), args
    folder = tmp_path / "xdg" / "referee"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "config.toml")
    env = {name: value for name, value in os.environ.items() if name != "REFEREE_CONFIG"}
    done = _bounded("play", "--help", env={**env, "XDG_CONFIG_HOME": str(tmp_path / "xdg")})
    assert done.returncode == 2
    assert (
        done.stderr
        == f"referee: {folder / 'config.toml'}: it is a FIFO, not a regular file: not a configuration file\n"
    )


def test_a_config_that_is_a_link_to_a_regular_file_is_read(tmp_path: Path) -> None:
    """A dotfile manager's link: followed, the file it names checked as the file itself."""
    (tmp_path / "dotfiles").mkdir()
    real = tmp_path / "dotfiles" / "referee.toml"
    real.write_text('gm = "gm@example.org"\n')
    link = tmp_path / "config.toml"
    link.symlink_to(real)
    done = _bounded("config", "--json", env={**os.environ, "REFEREE_CONFIG": str(link)})
    assert done.returncode == 0, done.stderr
    assert _settings(done.stdout)["gm"]["value"] == "gm@example.org"
    (tmp_path / "dotfiles").chmod(0o777)  # the folder of the file the link names counts too
    try:
        done = _bounded("config", env={**os.environ, "REFEREE_CONFIG": str(link)})
    finally:
        (tmp_path / "dotfiles").chmod(0o755)
    assert done.returncode == 2
    assert done.stderr == (
        f"referee: {link}: its folder {tmp_path / 'dotfiles'} may be changed by its group and others (mode 0777), "
        f"who could replace the file: chmod go-w {tmp_path / 'dotfiles'}\n"
    )


@pytest.mark.parametrize("secret", [False, True])
@pytest.mark.parametrize(("mode", "who"), [(0o664, "its group"), (0o646, "others"), (0o666, "its group and others")])
def test_a_config_file_others_can_change_is_refused(tmp_path: Path, mode: int, who: str, secret: bool) -> None:
    """Issue 44 item 5: a group- or other-writable file was read when it held no secret,
    yet it can point `smtp` or `imap` at another host, which then gets the password from
    the environment. Refused as ssh refuses such a file, secret or not."""
    file = tmp_path / "config.toml"
    file.write_text('smtp = "evil.example.net:25"\n' + ('smtp-password = "s3cret"\n' if secret else ""))
    file.chmod(mode)
    for args in (["config"], ["league", "tick", str(tmp_path)], ["play", "--help"]):
        done = _bounded(*args, env={**os.environ, "REFEREE_CONFIG": str(file)})
        assert done.returncode == 2, args
        assert done.stderr == (
            f"referee: {file} may be changed by {who} (mode {mode:04o}), who could point it at any host: "
            f"chmod go-w {file}\n"
        )
    file.chmod(0o600 if secret else 0o644)
    assert _bounded("config", env={**os.environ, "REFEREE_CONFIG": str(file)}).returncode == 0


def test_a_config_in_a_folder_others_can_change_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    file = folder / "config.toml"
    file.write_text('gm = "gm@example.org"\n')
    folder.chmod(0o775)
    done = _bounded("config", env={**os.environ, "REFEREE_CONFIG": str(file)})
    assert done.returncode == 2
    assert done.stderr == (
        f"referee: {file}: its folder {folder} may be changed by its group (mode 0775), "
        f"who could replace the file: chmod go-w {folder}\n"
    )
    folder.chmod(0o1777)  # sticky, as /tmp: only the file's owner may replace it there
    done = _bounded("config", env={**os.environ, "REFEREE_CONFIG": str(file)})
    folder.chmod(0o755)
    assert done.returncode == 0, done.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_a_config_file_of_another_user_is_refused(tmp_path: Path) -> None:
    file = tmp_path / "config.toml"
    file.write_text('gm = "gm@example.org"\n')
    os.chown(file, 4321, 4321)
    done = _bounded("config", env={**os.environ, "REFEREE_CONFIG": str(file)})
    assert done.returncode == 2
    assert done.stderr == (
        f"referee: {file} belongs to another user (uid 4321), who could point it at any host: "
        "use a configuration file of your own\n"
    )
