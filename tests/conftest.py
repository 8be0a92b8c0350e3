"""Shared fixtures: where the contract's conformance records live."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CONFORMANCE = SHARED / "conformance"
EXAMPLES = ROOT / "examples"
