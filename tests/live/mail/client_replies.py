"""What the tests of replies from real mail clients share (test_replies for plain text,
test_html for HTML only): the folder of samples, each a reply as that client writes it, and
the two moves every sample holds: the new one, and the one in the quote that is never played."""

from __future__ import annotations

from pathlib import Path

SAMPLES = Path(__file__).parent / "samples"
NEW = "d1+d2+d3-W i3-E"
QUOTED = "i1-E d1-E"
