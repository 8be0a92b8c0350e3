"""Reading a well-formed record the quick way, for checking it: no record model at all.

`scan(text, dialects)` reads one record's text (LF line ends) and gives its game, its tags
and, in record order, only what a referee replays: a `Label` for each turn, each action as
the game's own value, `DRAW` for a `draw`. Comments and glyphs are passed over and no
position is kept, so reading costs one regular-expression match per token and nothing is
built per token but the action (each game's `parse_action` keeps the actions it has built).

It reads a subset of what `notation.reader` reads, and reads it the same way: anything it
does not read for certain (text that is not RGN, a repeated tag, a glyph standing apart
from its action, an action its game cannot build) gives None, and the caller reads the
record with the full reader, which says where the text stops being RGN and why. So a
record is read quickly only when the full reader would read it without complaint, into
the same tags, labels and actions.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from itertools import repeat
from operator import itemgetter

from referee.notation.dialect import Dialect
from referee.notation.lexicon import round_value
from referee.notation.reader import DialectLookup, game_dialect, tag_section
from referee.notation.scanned import DRAW, Body, Item, Label, Scanned, body_of, comment_text, joined_parts, joined_texts
from referee.notation.scanner import scanner

LABEL_CACHE = 4096
"""Labels kept per game, by their text as written with their round number (any mix of
capitals reads the same)."""

ACTION_CACHE = 1 << 16
"""With `keep`, actions (and numbered labels) kept per game with their canonical text, by their text as written."""

KEPT_DIGITS = 3
"""Round numbers (`12.`, `12. R:` written as one word `12.R:`) are kept as words up to
this many digits: beyond, a long record's numbers, one a round, would cost the caches
more than the record itself (issue 34); such a word is read by the token reader."""

JOINED = 4096
"""With `keep`, the canonical text's parts joined at a time (`Body.joined`)."""

WORDS_CHUNK = 1 << 14
"""A move text is split into words this many characters at a time or so (cut before a
line that begins with a label), since a word takes many times its characters' memory."""

CUT_LINES = 64
"""Lines looked at after a piece of that size for one that begins with a label."""

_UNKNOWN, _TURN, _ACTION, _END = 0, ord("T"), ord("a"), ord("e")
"""The kind of a word (`_Reader.words`): not read alone, a label, an action, `draw`."""


def scan(text: str, dialects: DialectLookup, keep: bool = False, joined: bool = True) -> Scanned | None:
    """The record in `text` read the quick way, or None when the full reader must read it.

    With `keep`, the move text's canonical text is read too (`Scanned.body`), comments and
    glyphs kept, so that the record's canonical text can be written
    (`notation.writer.canonical_pieces`); `joined`: its parts joined some thousand at a time
    (`Body.joined`)."""
    opened = game_dialect(text, dialects)
    if opened is None:
        return None
    game, dialect = opened
    section = tag_section(text)
    if section is None:
        return None
    read_tags, body_start = section
    tags = {name: value for name, value, _ in read_tags}
    if len(tags) < len(read_tags):
        return None  # a repeated tag: the full reader says where
    reader = _Reader.of(dialect, keep)
    read = reader.words(text, body_start, keep, JOINED if joined else 0)
    if read is not None:
        return Scanned(game, tags, read[0], read[1])
    read = reader.read(text, body_start, JOINED if joined else 0)  # (a comment, a long text ...)
    return None if read is None else Scanned(game, tags, read[0], read[1])


class _Reader:
    """The quick reader of one game's move text."""

    def __init__(self, dialect: Dialect, keep: bool = False) -> None:
        self.keep = keep
        # The tokens of the one scanner (`notation.scanner`), told apart by their kind
        # (`Match.lastindex`, None for the end of the text): a label is read with its round
        # number (`head`) and its turn's first action (`first`, `first_glyph`) when the text
        # goes on with one. A kind not read here (a round number alone, a glyph standing
        # apart, a time-out, which the clock judges, text that is no token) gives None: the
        # full reader reads the record.
        tokens = scanner(dialect)
        self.tokens, self.word = tokens.tokens, tokens.word
        self.word_head, self.word_draw, self.word_action = tokens.word_head, tokens.word_draw, tokens.word_action
        self.action, self.glyph, self.head, self.draw = tokens.action, tokens.glyph, tokens.head, tokens.draw
        self.first, self.first_glyph = tokens.first, tokens.first_glyph
        self.number, self.label = tokens.number, tokens.label
        self.comment, self.line = tokens.comment, tokens.line
        self.notes = {self.comment, self.line}
        self.parse_action = dialect.parse_action
        self.sides = dialect.labels
        self.labels: dict[str, Label] = {}
        self.short = dialect.short_labels
        self.actions: dict[str, tuple[object, str]] = {}  # with `keep`: each action and its canonical text
        self.numbered: dict[str, tuple[Label, str]] = {}  # with `keep`: label and its text, by its head as written
        # `words`: each word read alone (white space around it), by its text: its item (labels
        # and actions only: `draw` is not there), its kind and its canonical text; a word is
        # learnt when first met (`_learn`).
        # With `keep`, `word_items` holds only the words written as the canonical form writes
        # them, `word_all` every label and action; without, they are one table.
        self.word_items: dict[str, Item] = {}
        self.word_all = self.word_items if not keep else {}
        self.word_kinds: dict[str, int] = {}
        self.word_texts: dict[str, str] = {}
        self.spanning = dialect.spanning_words

    @staticmethod
    @cache
    def of(dialect: Dialect, keep: bool = False) -> _Reader:
        return _Reader(dialect, keep)

    def read(self, text: str, pos: int, join: int = 0) -> tuple[list[Item], Body | None] | None:
        """The quick reader's loop over the tokens of the move text from `pos` (the one
        scanner's, `notation.scanner`): its
        labels, actions and draws, and in the mode `keep` (this reader's) its canonical
        text too (`Body`, its parts joined `join` at a time at the turns, when not 0);
        None when the full reader must read it (not RGN, a number alone, a time-out, which
        the clock judges, an action outside a turn).

        The two modes read the same tokens, told apart by their kinds (by `Match.lastindex`),
        refuse the same and open a turn at the same places, each in a loop of its own (so
        that no token asks which mode it is read in). Without `keep` (`_read_items`), each
        label and action is read into its item (`parse_action`'s cache, `labels`); with it
        (`_read_kept`), into its item and its canonical text (`actions`, `numbered`),
        gathered as `notation.writer.write` writes a record: a turn on a line of its own,
        its words (label, actions with their glyphs, braced comments) one space apart, a `;`
        comment one space after the words before it, ending its line, the next word at the
        start of the next line; `draw` and comments between turns on lines of their own."""
        if self.keep:
            return self._read_kept(text, pos, join)
        items = self._read_items(text, pos)
        return None if items is None else (items, None)

    def _read_items(self, text: str, pos: int) -> list[Item] | None:
        """`read` without `keep`: the items alone."""
        labels, parse_action = self.labels, self.parse_action
        action, glyph, head, first, first_glyph = self.action, self.glyph, self.head, self.first, self.first_glyph
        draw, notes = self.draw, self.notes
        items: list[Item] = []
        append = items.append
        in_turn = False
        for token in self.tokens(text, pos):
            kind = token.lastindex
            if kind == action or kind == glyph:  # an action (with its glyph)
                if not in_turn:
                    return None
                try:
                    append(parse_action(token[action]))
                except ValueError:
                    return None
            elif kind == first or kind == first_glyph or kind == head:  # a label (and its turn's first action)
                in_turn = True
                written = token[head]
                label = labels.get(written) or self._label(written, token["label"], token["number"])
                if label is None:
                    return None
                append(label)
                if kind != head:  # the first action, read as the next token would read it
                    try:
                        append(parse_action(token[first]))
                    except ValueError:
                        return None
            elif kind == draw:
                append(DRAW)
                in_turn = False
            elif kind is not None and kind not in notes:  # (a comment is passed over)
                return None  # not RGN, a number alone, a time-out (judged by the clock): the full reader reads it
            # else the end of the text
        return items

    def _read_kept(self, text: str, pos: int, join: int) -> tuple[list[Item], Body | None] | None:
        """`read` with `keep`: the items and the canonical text."""
        actions = self.actions
        action, glyph, head, first, first_glyph = self.action, self.glyph, self.head, self.first, self.first_glyph
        draw, notes, line = self.draw, self.notes, self.line
        items: list[Item] = []
        append = items.append
        parts: list[str] = []
        chunks: list[str] = []
        plain = True
        in_turn = False
        fresh = False  # inside a turn, after a `;` comment: the next word starts a line
        for token in self.tokens(text, pos):
            kind = token.lastindex
            if kind == action or kind == glyph:  # an action (with its glyph)
                if not in_turn:
                    return None
                written = token[action]
                known = actions.get(written) or self._action(written)
                if known is None:
                    return None
                append(known[0])
                if kind == action:
                    word = known[1]
                else:
                    word, plain = known[1] + token[glyph], False
                if fresh:
                    word, fresh = word[1:], False
                parts.append(word)
            elif kind == first or kind == first_glyph or kind == head:  # a label (and its turn's first action)
                in_turn = True
                if fresh:  # the turn before ends with its `;` comment: not with its newline
                    parts[-1], fresh = parts[-1][:-1], False
                turn_plain = self._kept_turn(token, kind, append, parts, chunks, join)
                if turn_plain is None:
                    return None
                plain &= turn_plain
            elif kind == draw:
                append(DRAW)
                in_turn = False
                if fresh:
                    parts[-1], fresh = parts[-1][:-1], False
                parts.append("\ndraw")
            elif kind in notes:  # a comment: passed over, but for its canonical text
                note, fresh = comment_text(kind == line, token[kind], in_turn, fresh)
                parts.append(note)
                plain = False
            elif kind is not None:
                return None  # not RGN, a number alone, a time-out (judged by the clock): the full reader reads it
            # else the end of the text
        return items, body_of(parts, chunks, fresh, join, plain)

    def _kept_turn(
        self,
        token: re.Match[str],
        kind: int,
        append: Callable[[Item], None],
        parts: list[str],
        chunks: list[str],
        join: int,
    ) -> bool | None:
        """For `read` with `keep`: a label (and its turn's first action, read as the next
        token would read it), its items appended, its canonical text added to `parts`
        (those before it joined into `chunks` first, `join` at a time); whether it holds no
        glyph, or None when it is not read here."""
        head = token[self.head]
        found = self.numbered.get(head) or self._numbered(head, token[self.number], token[self.label])
        if found is None:
            return None
        append(found[0])
        if join and len(parts) >= join:  # (a whole number of turns)
            chunks.append("".join(parts))
            parts.clear()
        parts.append(found[1])
        if kind == self.head:
            return True
        written = token[self.first]
        known = self.actions.get(written) or self._action(written)
        if known is None:
            return None
        append(known[0])
        if kind == self.first:
            parts.append(known[1])
            return True
        parts.append(known[1] + token[self.first_glyph])
        return False

    def words(self, text: str, pos: int, keep: bool, join: int) -> tuple[list[Item], Body | None] | None:
        """`read` (with `keep`, its Body too) the quickest way, for a move text with no
        comment (most are): split at white space into words, each word's item and canonical
        text looked up by the word, learnt the first time it is met (`_learn`). A round
        number is joined to its label first ("1. R:" is the word "1.R:", which reads the
        same). None when the text is not read this way: a comment, a character outside
        ASCII, a long text, an action before any label or after `draw`; then `read` reads
        it (and finds what it finds). Lines with a word not read alone (one after which an
        action spans words, a glyph, anything else) are read by `read`, a turn at a time
        (`_segments`).

        A word is read alone as the token reader reads it in its place: a token never
        spans white space but a comment (not here), a round number and its label (joined)
        and an action after a spanning word (read by the token reader), and white space
        ends every token but a label, which the token reader reads the same whatever
        follows it. So the items are the same (tests/notation/test_quick_scan.py)."""
        if len(text) - pos > WORDS_CHUNK:
            return self._long_words(text, pos, keep, join)
        moves = text[pos:]
        if not _wordy(moves):
            return None
        written = moves
        if ". " in moves:
            moves = moves.replace(". ", ".")
        read = self._chunk(
            moves.split(), keep, join, written if keep and join else None
        )  # nearly every record: one piece
        if read is None:
            return None
        return read[0], Body(read[1], bool(join), True, read[2]) if keep else None

    def _long_words(self, text: str, pos: int, keep: bool, join: int) -> tuple[list[Item], Body | None] | None:
        """`words` for a long move text (from `pos` in `text`), read a piece of some
        `WORDS_CHUNK` characters at a time, each cut before a turn (`_cut`): no copy of the
        whole move text is made (each would cost the record's size again, issue 34), each
        piece's round numbers are joined to their labels on their own (a piece ends with a
        line, so no `. ` spans two pieces)."""
        items: list[Item] = []
        parts: list[str] = []
        start = pos
        while start < len(text):
            end = self._cut(text, start + WORDS_CHUNK)
            if end is None:
                return None
            piece = text[start:end]
            if not _wordy(piece):
                return None
            if ". " in piece:
                piece = piece.replace(". ", ".")
            read = self._chunk(piece.split(), keep, join)
            if read is None:
                return None
            items += read[0]
            parts += read[1]
            start = end
        return items, Body(parts, bool(join), True) if keep else None

    def _cut(self, moves: str, at: int) -> int | None:
        """Where a piece of `moves` (as written: its round numbers not yet joined to their
        labels) read as words may end, at or after `at`: the start of a line that begins
        with a label (a turn is never cut, nor an action that spans words),
        or the end. None when no such line comes soon enough (the token reader reads the
        text then)."""
        limit = at + 2 * WORDS_CHUNK  # (a piece at most three times the size)
        for _ in range(CUT_LINES):
            newline = moves.find("\n", at)
            if newline < 0:
                return len(moves) if len(moves) <= limit else None
            at = newline + 1
            if at > limit:
                return None
            first = moves[at : at + 64].replace(". ", ".").split(None, 1)
            if first:
                if first[0] not in self.word_kinds:
                    self._learn(first[0])
                if self.word_kinds.get(first[0]) == _TURN:
                    return at
        return None

    def _chunk(
        self, words: list[str], keep: bool, join: int, written: str | None = None
    ) -> tuple[list[Item], list[str], bool] | None:
        """The items of a piece of a move text read as words, and with `keep` its canonical
        text (one part when `join`, else a part per word). The words are looked up in the
        word tables with one `itemgetter` (a third faster than `map` over `__getitem__`):
        their items first, a table of labels and actions only, so that a piece of labels
        and actions alone (nearly every one) is read with one lookup a word; a piece with
        a word that is neither (`draw`, a word not read alone, one not learnt yet) is read
        by its words' kinds (`_chunk_mapped`).

        With `keep`, that first table holds only the words written as the canonical form
        writes them (`_learn`): when the piece `written` is given and every word is there,
        its text is the piece itself, stripped (`Body.written`: the third value), and its
        words' texts are not looked up and joined."""
        if len(words) < 2:  # (an itemgetter of one word gives its value alone, of none fails)
            return self._chunk_mapped(words, keep, join)
        look = itemgetter(*words)
        try:
            items: list[Item] = list(look(self.word_items))
        except KeyError:  # words met for the first time, or neither labels nor actions (nor canonical, with `keep`)
            found = self._all_items(look) if keep else None
            if found is None:
                for word in set(words).difference(self.word_kinds):
                    self._learn(word)
                return self._chunk_mapped(words, keep, join)
            items, written = found, None
        if items[0].__class__ is not Label:
            return None  # an action before any label: the token reader says so
        if not keep:
            return items, [], False
        if written is not None:
            return items, ["\n" + written.strip()], True
        return items, joined_texts(look(self.word_texts), join), False

    def _all_items(self, look: Callable[[dict[str, Item]], tuple[Item, ...]]) -> list[Item] | None:
        """With `keep`, the items of a piece's words among all labels and actions learnt
        (`word_all`), or None when one is not there."""
        try:
            return list(look(self.word_all))
        except KeyError:
            return None

    def _chunk_mapped(self, words: list[str], keep: bool, join: int) -> tuple[list[Item], list[str], bool] | None:
        """`_chunk` by the words' kinds, word by word (a word forgotten since it was learnt
        is not read alone)."""
        kinds = bytes(map(self.word_kinds.get, words, repeat(_UNKNOWN)))
        if _UNKNOWN in kinds:
            return self._segments(words, kinds, keep, join)
        if kinds[:1] == b"a" or b"ea" in kinds:
            return None
        items: list[Item] = list(map(self.word_all.get, words, repeat(DRAW)))  # (`draw`: not in the table)
        if not keep:
            return items, [], False
        return items, joined_texts(map(self.word_texts.__getitem__, words), join), False

    def _segments(
        self, words: list[str], kinds: bytes, keep: bool, join: int
    ) -> tuple[list[Item], list[str], bool] | None:
        """`words` for a move text some of whose words are not read alone: the turns that
        hold such a word (from their label up to the next label) are read by `read`, their
        words joined by single spaces (which reads as the text does: only a comment or a
        line comment, not here, reads white space otherwise), the other words as they are."""
        items: list[Item] = []
        parts: list[str] = []
        done = 0
        at = kinds.find(_UNKNOWN)
        while True:
            start = len(words) if at < 0 else max(done, kinds.rfind(_TURN, done, at))
            if start > done:  # words read alone: from a label (or the start) to a label
                known = kinds[done:start]
                if known[0] == _ACTION or b"ea" in known:
                    return None
                items += map(self.word_all.get, words[done:start], repeat(DRAW))
                if keep:
                    parts += map(self.word_texts.__getitem__, words[done:start])
            if at < 0:
                break
            end = kinds.find(_TURN, at + 1)
            if end < 0:
                end = len(words)
            text = " ".join(words[start:end])
            read = self.read(text, 0)
            if read is None or (read[1] is not None and not read[1].plain):
                return None
            items += read[0]
            if read[1] is not None:
                parts += read[1].parts
            done = end
            at = kinds.find(_UNKNOWN, end)
        return items, (joined_parts(parts, join) if keep else []), False

    def _learn(self, word: str) -> None:
        """Learn how the word `word` reads alone: as the token reader reads it (a label
        with its round number, `draw`, an action of the game, in that order), or that it
        is not read alone."""
        read = self._alone(word)
        if read is None:
            return  # a round number past 999 (with its label or not): not kept, left to the token reader
        found, kind = read
        if len(self.word_kinds) >= ACTION_CACHE:
            self.word_items.clear()
            self.word_all.clear()
            self.word_kinds.clear()
            self.word_texts.clear()
        if found is None:
            self.word_kinds[word] = _UNKNOWN
            return
        if kind != _END:  # (labels and actions only: `_chunk`)
            self.word_all[word] = found[0]
            if not self.keep or found[1] == ("\n" + word.replace(".", ". ", 1) if kind == _TURN else " " + word):
                self.word_items[word] = found[0]  # (with `keep`, only a word written as the canonical form writes it)
        self.word_kinds[word] = kind
        if self.keep:  # (the canonical texts only where they are written)
            self.word_texts[word] = found[1]

    def _alone(self, word: str) -> tuple[tuple[Item, str] | None, int] | None:
        """How the word `word` reads alone (`_learn`): its item and canonical text (None
        when it is not read alone) and its kind; None when it is not to be kept at all."""
        if word.lower() in self.spanning:
            return None, _UNKNOWN
        if "." in word and len(word.partition(".")[0]) > KEPT_DIGITS:
            return None
        token = self.word(word)
        kind = None if token is None or ("." in word and token.lastindex != self.word_head) else token.lastindex
        if kind == self.word_head:
            return self._numbered(word, token["number"], token["label"]), _TURN  # type: ignore[index]
        if kind == self.word_draw:
            return (DRAW, "\ndraw"), _END
        if kind != self.word_action:  # not one token (a round number not before a label ...)
            return None, _UNKNOWN
        try:
            action = self.parse_action(word)
        except ValueError:
            return None, _UNKNOWN
        return (
            action,
            " " + str(action) if self.keep else "",
        ), _ACTION  # (not kept in `actions` too: the token reader's cache)

    def _action(self, written: str) -> tuple[object, str] | None:
        """The action written `written` and its canonical text after a space, now cached;
        None when the game cannot build it."""
        try:
            action = self.parse_action(written)
        except ValueError:
            return None
        if len(self.actions) >= ACTION_CACHE:
            self.actions.clear()
        known = self.actions[written] = (action, " " + str(action))
        return known

    def _numbered(self, head: str, number: str | None, written: str) -> tuple[Label, str] | None:
        """The label written `written` after the round number `number` (if any), `head` as
        a whole, and its canonical text on a new line, now cached by `head`."""
        label = self.labels.get(written) or self._label(written, written, None)
        if label is None:
            return None
        canonical = self.short[label.side] + ("+" if label.step else "") + ":"
        if number is not None:
            label = Label(label.side, label.step, round_value(number))
            canonical = f"{label.number}. {canonical}"
        if len(self.numbered) >= LABEL_CACHE:  # (a long record's round numbers: as many as its rounds)
            self.numbered.clear()
        found = self.numbered[head] = (label, "\n" + canonical)
        return found

    def _label(self, written: str, label: str, number: str | None) -> Label | None:
        """The label written `written` (its round number and colon included: `label` and
        `number` are its parts), now cached."""
        bare = label[:-1].rstrip("+")
        side = self.sides.get(bare.lower())
        if side is None:
            return None
        if len(self.labels) >= LABEL_CACHE:
            self.labels.clear()
        read = Label(side, label[:-1] != bare, None if number is None else round_value(number))
        self.labels[written] = read
        return read


def _wordy(moves: str) -> bool:
    """Whether `words` may read the move text `moves`: ASCII, no comment, and no character
    that `str.split` takes for white space but the token reader does not."""
    if not moves.isascii() or "{" in moves or ";" in moves:
        return False
    return not ("\x1c" in moves or "\x1d" in moves or "\x1e" in moves or "\x1f" in moves)


__all__ = ["DRAW", "Body", "Item", "Label", "Scanned", "scan"]
