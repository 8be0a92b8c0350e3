"""One record replayed to its verdict (NOTATION.md §5-6): the verdict's values, the
replay through the engine and its loop, tag values, the clock's walk (TIME.md), the turn
token (PLAY.md §2), the forms an action is accepted in, did-you-mean, and the words."""
