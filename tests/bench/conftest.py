"""Every test under tests/bench is the benchmark's own (corpora built, commands timed against
python-chess and pgn-extract): marked `bench`, so the default run checks behaviour and
`python -m pytest -m bench` (which .ci/run runs) checks the benchmark."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.bench)


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bench's corpora cache (referee.bench.generated) in a folder of the test's own,
    never the user's: the benchmark's children inherit XDG_CACHE_HOME."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
