"""`python -m referee` and the installed `referee` command: `referee --version` is answered
here, before the commands are imported (a few milliseconds); everything else goes to
`referee.cli.main`."""

from __future__ import annotations

import sys
from typing import NoReturn


def main() -> NoReturn:
    """Entry point of the installed `referee` command (and of `python -m referee`)."""
    if sys.argv[1:] == ["--version"]:
        sys.exit(_version())
    from referee.cli import main as run

    run()


def _version() -> int:
    """`referee --version` without the commands; a closed or failing standard output is one
    line and exit 2, as for every command (`referee.cli.entry`)."""
    from referee.version import version_text

    if sys.stdout is None:
        sys.stderr.write("referee: standard output is closed: the output would be lost\n")
        return 2
    try:
        sys.stdout.write(version_text() + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        return 2
    except OSError as error:
        import os

        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)
        sys.stderr.write(f"referee: cannot write the output: {error.strerror or error}\n")
        return 2
    return 0


if __name__ == "__main__":
    main()
