"""Harness `config`: a configuration file through the loader of referee/cli/config_file.py, as
every command that takes a setting reads it (`REFEREE_CONFIG` naming the file), twice: the
file private (mode 0600) and readable by others (0644); then what `referee config` and
`--json` print of it, and Click's default map.

A defect: any exception but the loader's `UsageError` (one line, exit 2), a secret shown by
`referee config` or its JSON, or a secret accepted from a file that others can read."""

from __future__ import annotations

import json
import os

from tests.fuzz.guard import Defect, Sandbox

_state: dict[str, object] = {}


def setup() -> None:
    if "sandbox" not in _state:
        sandbox = Sandbox("config")
        folder = sandbox.root / "home" / ".config" / "referee"
        folder.mkdir(parents=True)
        _state["sandbox"], _state["path"] = sandbox, folder / "config.toml"


def _load_once(path: str, mode: int) -> None:
    from referee.cli import config_file
    from referee.errors import UsageError

    os.chmod(path, mode)
    try:
        loaded = config_file.load({})
    except UsageError:
        return
    rows = config_file.lines(loaded)[1:]
    fields = json.loads(json.dumps(config_file.as_json(loaded)))["settings"]
    loaded.default_map()
    for row, (key, entry) in zip(rows, loaded.values.items(), strict=True):
        if not entry.setting.secret or entry.value is None:
            continue
        if mode & 0o077:
            raise Defect(f"{key} accepted from a file of mode {mode:04o}")
        if fields[key]["value"] is not None or "(set, not shown)" not in row:
            raise Defect(f"referee config shows the secret {key}: {row!r}")


def TestOneInput(data: bytes) -> None:  # noqa: N802 - the name atheris and libFuzzer call
    setup()
    from referee.cli import config_file

    sandbox, path = _state["sandbox"], _state["path"]
    assert isinstance(sandbox, Sandbox)
    path.write_bytes(data)  # type: ignore[attr-defined]
    saved = os.environ.get(config_file.CONFIG_VARIABLE)
    os.environ[config_file.CONFIG_VARIABLE] = str(path)
    try:
        with sandbox.guarded():
            for mode in (0o600, 0o644):
                _load_once(str(path), mode)
    finally:
        if saved is None:
            os.environ.pop(config_file.CONFIG_VARIABLE, None)
        else:
            os.environ[config_file.CONFIG_VARIABLE] = saved
