"""The referee: adjudication of records and the `referee` command line.

One import package from three folders (docs/architecture.md, "One package from three
folders"): this one, and the repository's top-level notation/ and games/, which an
installed wheel holds as referee/notation and referee/games. Run from a source checkout
(`python -m referee` in a clone, or an editable install), this package finds those two
here, in the checkout it was imported from, by the one name each has."""

from __future__ import annotations


def _find_checkout_subpackages() -> None:
    import os
    import sys
    from importlib.machinery import ModuleSpec
    from importlib.util import spec_from_file_location

    here = os.path.dirname(os.path.abspath(__file__))
    if os.path.isdir(os.path.join(here, "games")):
        return  # an installed wheel: referee/games and referee/notation are real folders here
    top = os.path.dirname(here)
    folders = {
        f"referee.{name}": os.path.join(top, name)
        for name in ("notation", "games")
        if os.path.isfile(os.path.join(top, name, "__init__.py"))
    }

    class CheckoutFinder:
        """Finds referee.notation and referee.games in the checkout beside this folder."""

        @classmethod
        def find_spec(cls, name: str, path: object = None, target: object = None) -> ModuleSpec | None:
            folder = folders.get(name)
            if folder is None:
                return None
            return spec_from_file_location(
                name, os.path.join(folder, "__init__.py"), submodule_search_locations=[folder]
            )

    if folders:
        sys.meta_path.insert(0, CheckoutFinder)


_find_checkout_subpackages()
