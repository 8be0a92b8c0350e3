"""The configuration file and the `REFEREE_*` environment variables: the options that every
cron line of a game master repeats (`--games`, `--smtp`, `--from`, the league folder ...)
said once.

Precedence, highest first: the command line, then an environment variable (`REFEREE_GAMES`),
then the file, then the command's own default. The file is `config.toml` in the user's
configuration folder (`platformdirs`: `~/.config/referee/config.toml` on Linux), or the file
that `REFEREE_CONFIG` names (`REFEREE_CONFIG=` with nothing: no file). A missing file is no
error, unless `REFEREE_CONFIG` names it.

The file is only read for the commands that take one of its settings (`mail`, `play`,
`reveal`, `league ...`) and by `referee config`: `check` and the other record commands never
look for it.
A secret (`smtp-password`) is read from the file only when nobody but its owner can read it
(mode 0600); otherwise every command that reads the file refuses, saying why (exit 2). A
file, or a folder holding it, that someone else can change (group- or other-writable, or
owned by another user than the caller or root) is refused whole, secret or not, as ssh
refuses such a file (docs/config.md); a FIFO there is refused without waiting on it.

Relative paths in the file are relative to the file's folder, and `~` is the home folder;
those of the environment are used as they are (relative to the working folder).
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from referee.cli.app import WAIT_DEFAULT
from referee.errors import UsageError

CONFIG_VARIABLE = "REFEREE_CONFIG"
MAX_BYTES = 64 * 1024
"""A configuration file is read within this bound (a real one is a few hundred bytes)."""


@dataclass(frozen=True)
class Setting:
    key: str
    """The key in config.toml; the environment variable is REFEREE_ and it upper-cased, - as _."""
    kind: str
    """"path", "text", "flag" (true or false) or "seconds" (a number)."""
    targets: tuple[tuple[str, ...], ...]
    """Where it goes: the command's path then the parameter's name (("mail", "receive", "games_dir"))."""
    help: str
    secret: bool = False
    default: str = ""
    """What the command does without it, as `referee config` and its help say it ("" for nothing)."""

    @property
    def variable(self) -> str:
        return "REFEREE_" + self.key.upper().replace("-", "_")

    @property
    def option(self) -> str:
        """How the command line says it: --smtp, or the folder argument DIR (league, games), or the mailbox URL."""
        if self.key in ("league", "games"):
            return "DIR" if self.key == "league" else "GAMES"
        return "URL" if self.key == "imap" else f"--{self.key}"


SENDER_DEFAULT = "referee@HOSTNAME"
"""What mails come from without --from: `referee@` and this machine's name."""
OUTBOX_DEFAULT = "GAMES/outbox"
"""Where `mail` writes answers without --outbox: the outbox folder of the game folder."""


def _mail(*commands: str, name: str) -> tuple[tuple[str, ...], ...]:
    """The parameter `name` of each `referee mail` subcommand named."""
    return tuple(("mail", command, name) for command in commands)


_GATEWAY = ("receive", "imap")
"""The subcommands that play messages (and take every setting of the gateway)."""
_SENDING = (*_GATEWAY, "flush")
"""Those that send answers."""
_LEAGUE_FOLDER = tuple(("league", command, "folder") for command in ("pair", "status", "standings", "site", "tick"))

SETTINGS: tuple[Setting, ...] = (
    Setting("games", "path", _mail(*_SENDING, "check", "log", "add-player", name="games_dir"), "mail: the game folder"),
    Setting(
        "outbox",
        "path",
        _mail(*_SENDING, name="outbox"),
        "mail: where answers wait as .eml files",
        default=OUTBOX_DEFAULT,
    ),
    Setting("keys", "path", _mail(*_GATEWAY, name="keys"), "mail: the GM's seed files KEYS/ID.key"),
    Setting(
        "smtp", "text", (*_mail(*_SENDING, name="smtp"), ("league", "tick", "smtp")), "mail, league tick: HOST:PORT"
    ),
    Setting(
        "starttls",
        "flag",
        (*_mail(*_SENDING, name="starttls"), ("league", "tick", "starttls")),
        "with smtp: use STARTTLS",
        default="false",
    ),
    Setting(
        "smtp-user", "text", (*_mail(*_SENDING, name="smtp_user"), ("league", "tick", "smtp_user")), "with smtp: log in"
    ),
    Setting("smtp-password", "text", (), "the password of smtp-user (file mode 0600 only)", secret=True),
    Setting(
        "from",
        "text",
        (*_mail(*_SENDING, name="sender"), ("league", "tick", "sender"), ("league", "pair", "sender")),
        "the address mails come from",
        default=SENDER_DEFAULT,
    ),
    Setting("gm", "text", _mail(*_GATEWAY, name="gm"), "mail: the GM's address, copied on every answer"),
    Setting("imap", "text", _mail("imap", name="url"), "mail: the mailbox to read, imaps://USER@HOST[:PORT]/MAILBOX"),
    Setting("imap-password-file", "path", _mail("imap", name="imap_password_file"), "with imap: the password's file"),
    Setting("imap-password", "text", (), "the IMAP password (file mode 0600 only)", secret=True),
    Setting(
        "log-file",
        "path",
        _mail(*_SENDING, "log", name="log_file"),
        "mail: a JSON line per message handled, also there",
    ),
    Setting(
        "trust-authserv", "text", _mail(*_GATEWAY, name="trust_authserv"), "mail: the provider's authserv-id to trust"
    ),
    Setting(
        "wait",
        "seconds",
        (*_mail(*_GATEWAY, "add-player", name="wait"), ("play", "wait"), ("reveal", "wait")),
        "seconds to wait for a busy game",
        default=f"{WAIT_DEFAULT:g}",
    ),
    Setting("league", "path", _LEAGUE_FOLDER, "league pair|status|standings|site|tick: the league folder DIR"),
)
BY_KEY = {setting.key: setting for setting in SETTINGS}


@dataclass
class Value:
    setting: Setting
    value: str | bool | float | None = None
    source: str = "default"
    """"default", "env REFEREE_X" or "file"."""


@dataclass
class Config:
    path: Path | None
    """The file looked for (None: REFEREE_CONFIG is empty)."""
    named_by: str
    """"REFEREE_CONFIG" or "default location"."""
    exists: bool = False
    values: dict[str, Value] = field(default_factory=dict)

    def default_map(self) -> dict[str, object]:
        """Click's default_map: the values in force, nested by command (the command line overrides them)."""
        found: dict[str, object] = {}
        for entry in self.values.values():
            if entry.value is None:
                continue
            for target in entry.setting.targets:
                table = found
                for word in target[:-1]:
                    table = table.setdefault(word, {})  # type: ignore[assignment]
                table[target[-1]] = entry.value
        return found


def _expanded(text: str, where: str) -> Path:
    """`~` and `~USER` expanded; UsageError for a user this machine does not know (pathlib's
    RuntimeError, which would be a traceback)."""
    try:
        return Path(text).expanduser()
    except RuntimeError:
        user = text[1:].split("/", 1)[0]
        raise UsageError(f"{where}: {text}: no user {user}" if user else f"{where}: {text}: no home folder") from None


def config_path() -> tuple[Path | None, str]:
    named = os.environ.get(CONFIG_VARIABLE)
    if named is not None:
        return (_expanded(named, CONFIG_VARIABLE) if named.strip() else None), CONFIG_VARIABLE
    from platformdirs import user_config_path

    return user_config_path("referee") / "config.toml", "default location"


def _read(path: Path) -> tuple[dict[str, object], os.stat_result]:
    """The file's TOML and its status. Opened without waiting (`O_NONBLOCK`: a FIFO there
    is refused, never waited on), following links (a dotfile manager's link to a regular
    file is common), then `fstat`: a regular file only, one nobody else may change
    (`_guarded`), read within MAX_BYTES. Raises UsageError."""
    import tomllib

    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror or error}") from None
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise UsageError(f"{path}: it is {_kind(status.st_mode)}, not a regular file: not a configuration file")
        _guarded(path, status)
        data = b""
        while len(data) <= MAX_BYTES:
            piece = os.read(descriptor, MAX_BYTES + 1 - len(data))
            if not piece:
                break
            data += piece
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror or error}") from None
    finally:
        os.close(descriptor)
    if len(data) > MAX_BYTES:
        raise UsageError(f"{path}: longer than {MAX_BYTES} bytes, not a configuration file")
    try:
        return tomllib.loads(data.decode("utf-8")), status
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as error:
        raise UsageError(f"{path}: not TOML: {error}") from None


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    return "a socket" if stat.S_ISSOCK(mode) else "a device"


def _guarded(path: Path, status: os.stat_result) -> None:
    """Refuse a file that someone else could change, as ssh refuses such a file: one that
    its group or others may write, or owned by another user than the caller (root's own
    file aside), and so too the folder holding it (and, for a link, the folder holding the
    file it names). Whoever can change it can point `smtp` or `imap` at their own host,
    which then receives the password from the environment, so it is refused whether or not
    it holds a secret. A folder writable by all but sticky (`/tmp`) is no such danger: only
    a file's owner may replace a file there. Raises UsageError saying why and the fix."""
    me = os.geteuid()
    if status.st_uid not in (me, 0):
        raise UsageError(
            f"{path} belongs to another user (uid {status.st_uid}), who could point it at any host: "
            f"use a configuration file of your own"
        )
    mode = stat.S_IMODE(status.st_mode)
    if mode & 0o022:
        who = _who(mode)
        raise UsageError(
            f"{path} may be changed by {who} (mode {mode:04o}), who could point it at any host: chmod go-w {path}"
        )
    folders = [path.absolute().parent]
    real = Path(os.path.realpath(path)).parent
    if real not in folders:
        folders.append(real)
    for folder in folders:
        try:
            held = os.stat(folder)
        except OSError:  # pragma: no cover - the file was just opened in it
            continue
        bits = stat.S_IMODE(held.st_mode)
        if held.st_uid not in (me, 0):
            raise UsageError(
                f"{path}: its folder {folder} belongs to another user (uid {held.st_uid}), who could replace "
                f"the file: keep the configuration in a folder of your own"
            )
        if bits & 0o022 and not bits & stat.S_ISVTX:
            raise UsageError(
                f"{path}: its folder {folder} may be changed by {_who(bits)} (mode {bits:04o}), who could "
                f"replace the file: chmod go-w {folder}"
            )


def _who(mode: int) -> str:
    both = mode & 0o020 and mode & 0o002
    return "its group and others" if both else "its group" if mode & 0o020 else "others"


def _checked(setting: Setting, raw: object, where: str, base: Path | None) -> str | bool | float:
    if setting.kind == "flag":
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, str) and raw.strip().lower() in ("1", "true", "yes", "on", "0", "false", "no", "off"):
            return raw.strip().lower() in ("1", "true", "yes", "on")
        raise UsageError(f"{where}: {setting.key} is true or false, not {raw!r}")
    if setting.kind == "seconds":
        try:
            seconds = float(raw) if isinstance(raw, (int, float, str)) and not isinstance(raw, bool) else -1.0
        except (ValueError, OverflowError):  # OverflowError: a TOML integer past a float's range
            seconds = -1.0
        if not 0 <= seconds < float("inf"):
            raise UsageError(f"{where}: {setting.key} is a number of seconds, not {raw!r}")
        return seconds
    if not isinstance(raw, str) or not raw.strip() or "\0" in raw:
        raise UsageError(f"{where}: {setting.key} is a non-empty string, not {raw!r}")
    if setting.kind == "path":
        path = _expanded(raw, f"{where}: {setting.key}")
        return str(base / path if base is not None and not path.is_absolute() else path)
    return raw


def _private(status: os.stat_result) -> bool:
    return status.st_mode & 0o077 == 0


def load(environ: dict[str, str] | None = None) -> Config:
    """The settings in force and where each comes from. Raises UsageError (exit 2) for a
    file that cannot be read, is not TOML, holds an unknown key or a wrong value, or holds
    a secret while others can read it."""
    env = os.environ if environ is None else environ
    path, named_by = config_path()
    config = Config(path, named_by)
    for setting in SETTINGS:
        config.values[setting.key] = Value(setting)
    if path is not None:
        if named_by == CONFIG_VARIABLE or path.exists():
            data, status = _read(path)
            config.exists = True
            for key, raw in data.items():
                found = BY_KEY.get(key)
                if found is None:
                    known = ", ".join(BY_KEY)
                    raise UsageError(f'{path}: unknown setting "{key}" (known: {known})')
                setting = found
                if setting.secret and not _private(status):
                    mode = stat.S_IMODE(status.st_mode)
                    raise UsageError(
                        f"{path} holds {key} but others can read it (mode {mode:04o}): "
                        f"chmod 600 {path}, or give the secret in {setting.variable}"
                    )
                config.values[key] = Value(setting, _checked(setting, raw, str(path), path.absolute().parent), "file")
    for setting in SETTINGS:
        if env.get(setting.variable, "") != "":  # an empty variable is one not set
            value = _checked(setting, env[setting.variable], setting.variable, None)
            config.values[setting.key] = Value(setting, value, f"env {setting.variable}")
    return config


def apply() -> dict[str, object]:
    """At the command line's boundary (`referee.cli.entry`, for the commands that take a
    setting): Click's default_map. A secret of the file (smtp-password) becomes its
    variable (REFEREE_SMTP_PASSWORD), which the mailer reads, for this process when the
    environment does not set it. Raises UsageError."""
    config = load()
    for entry in config.values.values():
        if entry.setting.secret and entry.source == "file" and isinstance(entry.value, str):
            os.environ.setdefault(entry.setting.variable, entry.value)
    return config.default_map()


def effective_default(config: Config, key: str) -> tuple[str, str]:
    """What a setting left unset comes to, and whence: (`10`, `default`), (`referee@gm-box`,
    `default: referee@HOSTNAME`), (`/srv/games/outbox`, `default: GAMES/outbox`); `-` for a
    setting that is nothing unless given (no SMTP server: answers wait in the outbox)."""
    setting = BY_KEY[key]
    if setting.key == "from":
        from referee.live.mail import default_sender  # only for `referee config`

        return default_sender(), f"default: {SENDER_DEFAULT}"
    if setting.key == "outbox":
        games = config.values["games"].value
        where = str(Path(str(games)) / "outbox") if isinstance(games, str) else OUTBOX_DEFAULT
        return where, f"default: {OUTBOX_DEFAULT}"
    return (setting.default or "-"), "default"


def help_text() -> str:
    """The settings as the help of `referee config` lists them, from SETTINGS (so it cannot
    fall behind the table): each key, what it is for, its default."""
    width = max(len(setting.key) for setting in SETTINGS)
    rows = ["\b"]  # Click keeps the lines of this paragraph as they are
    for setting in SETTINGS:
        default = f" (default {setting.default})" if setting.default else ""
        rows.append(f"{setting.key:<{width}}  {setting.help}{default}")
    return "\n".join(rows)


def lines(config: Config) -> list[str]:
    """`referee config`: the file, then each setting, its value and where it comes from."""
    if config.path is None:
        head = f"config file: none ({CONFIG_VARIABLE} is empty)"
    else:
        state = "read" if config.exists else "absent"
        head = f"config file: {config.path} ({state}; {config.named_by})"
    rows: list[tuple[str, str, str]] = []
    for entry in config.values.values():
        setting = entry.setting
        if entry.value is None:
            text, source = effective_default(config, setting.key)
            rows.append((setting.key, text, source))
            continue
        if setting.secret:
            text = "(set, not shown)"
        elif isinstance(entry.value, bool):
            text = "true" if entry.value else "false"
        elif isinstance(entry.value, float):
            text = f"{entry.value:g}"
        else:
            text = str(entry.value)
        rows.append((setting.key, text, entry.source))
    keys = max(len(key) for key, _, _ in rows)
    values = max(len(text) for _, text, _ in rows)
    shown = [head]
    shown += [f"{key:<{keys}}  {text:<{values}}  [{source}]" for key, text, source in rows]
    return shown


def as_json(config: Config) -> dict[str, object]:
    return {
        "file": None if config.path is None else str(config.path),
        "file_read": config.exists,
        "settings": {
            key: {
                "value": None if entry.setting.secret and entry.value is not None else entry.value,
                "set": entry.value is not None,
                "default": effective_default(config, key)[0] if entry.value is None else None,
                "source": entry.source,
                "variable": entry.setting.variable,
                "option": entry.setting.option,
            }
            for key, entry in config.values.items()
        },
    }
