"""Who plays whom (LEAGUE.md §3): Berger round robins, balanced groups, Swiss rounds.

Players are numbered 1, 2, ... in `league.toml` order; a round is tables of player numbers
by seat (seat 1 first) and the players with a bye. Everything here is a pure function of
its arguments: the groups' choices draw from the seeded stream of RANDOM.md keyed by the
league's name, so a schedule can always be recomputed.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from referee.games.randomness import SeedStream

GROUP_ATTEMPTS = 4
"""Seeded greedy starts tried per round of groups (the most even one is kept)."""
SEASON_STEPS = 20000
"""Swaps drawn in the search for the most even season of groups."""
MAX_HALVINGS = 11
"""A worse swap whose gain halves the chance more often than this is never taken."""


def _worse_allowed(stream: SeedStream, gain: int, step: int) -> bool:
    """Whether the search takes a swap that raises the cost by `gain` (an even number) at
    `step`: with the chance 2^(-gain/2) times the square of the share of the search still
    to run (so it cools towards the end), drawn in whole numbers only, so that every
    machine makes the same season."""
    halvings = gain // 2
    left = (SEASON_STEPS - step) * 1024 // SEASON_STEPS
    return halvings <= MAX_HALVINGS and stream.below((1 << 20) << halvings) < left * left


@dataclass(frozen=True)
class Table:
    """One game of a round: `number` (1, 2, ...) and the player numbers by seat."""

    number: int
    seats: tuple[int, ...]

    def __repr__(self) -> str:
        return f"Table({self.number}, {'-'.join(map(str, self.seats))})"


@dataclass(frozen=True)
class Round:
    """One round: its tables and the players with a bye (`bye_scores`: whether a bye is worth a point)."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()
    bye_scores: bool = True

    def __repr__(self) -> str:
        tables = " ".join("-".join(map(str, table.seats)) for table in self.tables)
        byes = f", byes {','.join(map(str, self.byes))}" if self.byes else ""
        return f"Round({self.number}: {tables}{byes})"


# -- Berger tables (FIDE Handbook C.05, Annex 1) --------------------------------------------


def cycle_rounds(count: int) -> int:
    """Rounds of one round-robin cycle of `count` players (an odd count plays a dummy)."""
    return count - 1 if count % 2 == 0 else count


def berger_pairs(size: int, round_number: int) -> tuple[tuple[int, int], ...]:
    """The pairs (first seat, second seat) of round `round_number` of the Berger table for
    an even `size` of numbers, board 1 first.

    The published tables follow one rule: the numbers 1 .. size-1 turn round a circle, each
    round moving on by size/2, and `size` stays on board 1, taking the second seat in odd
    rounds and the first in even ones. Round 1 is 1-size, 2-(size-1), 3-(size-2), ..."""
    if size < 2 or size % 2:
        raise ValueError(f"a Berger table has an even number of players, not {size}")
    if not 1 <= round_number < size:
        raise ValueError(f"a Berger table of {size} has rounds 1 to {size - 1}, not {round_number}")
    half, circle = size // 2, size - 1
    shift = (round_number - 1) * half
    partner = shift % circle + 1
    pairs = [(partner, size) if round_number % 2 else (size, partner)]
    for board in range(2, half + 1):
        first = (shift + board - 1) % circle + 1
        second = (shift - board + 1) % circle + 1
        pairs.append((first, second))
    return tuple(pairs)


def round_robin(count: int, round_number: int, double: bool = False) -> Round:
    """Round `round_number` of a (double) round robin of `count` players: Berger tables;
    the second cycle of a double round robin swaps the seats. With an odd count the
    dummy (number count+1) gives its opponent a bye that scores nothing."""
    size = count + count % 2
    cycle = size - 1
    last = cycle * (2 if double else 1)
    if not 1 <= round_number <= last:
        raise ValueError(f"this round robin has rounds 1 to {last}, not {round_number}")
    second_cycle = round_number > cycle
    pairs = berger_pairs(size, round_number - cycle if second_cycle else round_number)
    tables: list[Table] = []
    byes: list[int] = []
    for first, second in pairs:
        if second_cycle:
            first, second = second, first
        if size > count and size in (first, second):
            byes.append(second if first == size else first)
            continue
        tables.append(Table(len(tables) + 1, (first, second)))
    return Round(round_number, tuple(tables), tuple(byes), bye_scores=False)


# -- groups for games of 3-4 players --------------------------------------------------------


@dataclass
class Tally:
    """Running counts over a season: meetings of each pair, seats of each player, byes."""

    meetings: dict[tuple[int, int], int]
    seats: dict[tuple[int, int], int]
    byes: dict[int, int]
    firsts: dict[int, int]

    @classmethod
    def empty(cls) -> Tally:
        return cls({}, {}, {}, {})

    def met(self, a: int, b: int) -> int:
        return self.meetings.get((min(a, b), max(a, b)), 0)

    def add(self, played: Round) -> None:
        for table in played.tables:
            for a, b in itertools.combinations(table.seats, 2):
                key = (min(a, b), max(a, b))
                self.meetings[key] = self.meetings.get(key, 0) + 1
            for seat, player in enumerate(table.seats, start=1):
                self.seats[(player, seat)] = self.seats.get((player, seat), 0) + 1
            self.firsts[table.seats[0]] = self.firsts.get(table.seats[0], 0) + 1
        for player in played.byes:
            self.byes[player] = self.byes.get(player, 0) + 1


@functools.lru_cache(maxsize=8)
def groups(count: int, per_game: int, rounds: int, name: str) -> tuple[Round, ...]:
    """A season of `rounds` rounds of tables of `per_game` players among `count` players.

    Each round the `count % per_game` players left over get a bye. The tables are first
    made round by round, greedily: the byes to those with the fewest so far, then the best
    of GROUP_ATTEMPTS seeded splits, each with the fewest repeated meetings so far. Then
    the whole season is improved by annealing: two players of one round change places
    (between two tables, or between a table and the byes) when that lowers the sum over
    all pairs of players of the square of their meetings (the meetings' total being fixed,
    this makes them as even as it can) without making byes less even. Last, round by
    round, each table's seats are chosen so that every player sits in every seat as evenly
    as possible. Every choice is drawn from the seeded stream keyed by `name` (RANDOM.md),
    so the season is a function of its arguments alone (and kept: the placing ranges ask
    for it once per round still to pair)."""
    if count < per_game:
        raise ValueError(f"{count} players cannot fill a table of {per_game}")
    tally = Tally.empty()
    season: list[list[list[int]]] = []
    for number in range(1, rounds + 1):
        stream = SeedStream(name, f"league groups {count}x{per_game} round {number}")
        split, byes = _group_split(count, per_game, tally, stream)
        tally.add(Round(number, tuple(Table(0, tuple(table)) for table in split), byes))
        season.append([*split, list(byes)])  # the last group of a round: its byes
    _search_season(season, count, SeedStream(name, f"league season {count}x{per_game}"))
    tally = Tally.empty()
    played_rounds: list[Round] = []
    for number, groups_of_round in enumerate(season, start=1):
        stream = SeedStream(name, f"league seats {count}x{per_game} round {number}")
        ordered = sorted(groups_of_round[:-1], key=min)
        tables = tuple(Table(index, _seating(table, tally, stream)) for index, table in enumerate(ordered, start=1))
        played = Round(number, tables, tuple(sorted(groups_of_round[-1])), bye_scores=True)
        tally.add(played)
        played_rounds.append(played)
    return _even_seats(played_rounds, SeedStream(name, f"league seat search {count}x{per_game}"))


def _even_seats(season: list[Round], stream: SeedStream) -> tuple[Round, ...]:
    """Seats made even over the season by annealing as for the tables: SEASON_STEPS times,
    two seats of a table drawn from `stream` are swapped when that does not raise the sum
    of squared seat counts of the players (or, with a chance that falls to nothing, even
    when it does); the best seating met is kept."""
    seating = [[list(table.seats) for table in played.tables] for played in season]
    spots = [(r, t) for r, tables in enumerate(seating) for t in range(len(tables))]
    counts: dict[tuple[int, int], int] = {}
    for tables in seating:
        for table in tables:
            for seat, player in enumerate(table):
                counts[(player, seat)] = counts.get((player, seat), 0) + 1
    cost = sum(value * value for value in counts.values())
    best, best_cost = [[list(table) for table in tables] for tables in seating], cost
    for step in range(SEASON_STEPS if spots else 0):
        r, t = spots[stream.below(len(spots))]
        table = seating[r][t]
        i = stream.below(len(table))
        j = (i + 1 + stream.below(len(table) - 1)) % len(table)
        a, b = table[i], table[j]
        # a moves from seat i to j, b from j to i
        gain = 2 * (counts.get((a, j), 0) - counts[(a, i)] + counts.get((b, i), 0) - counts[(b, j)] + 2)
        if gain <= 0 or _worse_allowed(stream, gain, step):
            counts[(a, i)] -= 1
            counts[(b, j)] -= 1
            counts[(a, j)] = counts.get((a, j), 0) + 1
            counts[(b, i)] = counts.get((b, i), 0) + 1
            table[i], table[j] = b, a
            cost += gain
            if cost < best_cost:
                best, best_cost = [[list(table) for table in tables] for tables in seating], cost
    return tuple(
        Round(
            played.number,
            tuple(Table(table.number, tuple(seats)) for table, seats in zip(played.tables, tables, strict=True)),
            played.byes,
            played.bye_scores,
        )
        for played, tables in zip(season, best, strict=True)
    )


def _meetings(season: list[list[list[int]]], count: int) -> list[list[int]]:
    met = [[0] * (count + 1) for _ in range(count + 1)]
    for groups_of_round in season:
        for table in groups_of_round[:-1]:
            for a, b in itertools.combinations(table, 2):
                met[a][b] += 1
                met[b][a] += 1
    return met


def _byes(season: list[list[list[int]]], count: int) -> list[int]:
    """How many byes each player (1 to `count`) has in the season: each round's last group."""
    byes = [0] * (count + 1)
    for groups_of_round in season:
        for player in groups_of_round[-1]:
            byes[player] += 1
    return byes


def _swap_gain(met: list[list[int]], one: list[int], two: list[int], i: int, j: int, bye: bool) -> int:
    """The change of the season's sum of squared meetings if one[i] and two[j] change
    places (`bye`: `two` is the round's byes, where nobody meets). The two never meet
    either way, so their own pair is left out."""
    a, b = one[i], two[j]
    gain = _move_gain(met, one, a, b)
    if not bye:
        gain += _move_gain(met, two, b, a)
    return gain


def _move_gain(met: list[list[int]], group: list[int], leaving: int, coming: int) -> int:
    """The change of the sum of squared meetings with the rest of `group` when `coming`
    takes the place of `leaving` there."""
    return sum(2 - 2 * met[leaving][q] + 2 * met[coming][q] for q in group if q != leaving)


def _swap(met: list[list[int]], one: list[int], two: list[int], i: int, j: int, bye: bool) -> None:
    a, b = one[i], two[j]
    _move(met, one, a, b)
    if not bye:
        _move(met, two, b, a)
    one[i], two[j] = b, a


def _move(met: list[list[int]], group: list[int], leaving: int, coming: int) -> None:
    """The meetings once `coming` takes the place of `leaving` in `group`: `leaving` no
    longer meets the rest of it, `coming` does."""
    for q in group:
        if q != leaving:
            met[leaving][q] -= 1
            met[q][leaving] -= 1
            met[coming][q] += 1
            met[q][coming] += 1


def _search_season(season: list[list[list[int]]], count: int, stream: SeedStream) -> None:
    """Improve the season in place by annealing: SEASON_STEPS times, two players of one
    round drawn from `stream` (of two tables, or of a table and the byes) change places
    when that does not raise the cost, or, with a chance that shrinks as the search goes
    on, even when it does; the best season met is kept. The cost is the sum of squared
    meetings plus, weighted far above it, the sum of squared byes."""
    rounds = [groups_of_round for groups_of_round in season if len(groups_of_round) - (not groups_of_round[-1]) > 1]
    if not rounds:
        return
    met, byes = _meetings(season, count), _byes(season, count)
    weight = 4 * count * count * len(season)  # more than any change of meetings can gain
    cost = sum(met[a][b] ** 2 for a, b in itertools.combinations(range(1, count + 1), 2))
    cost += weight * sum(value * value for value in byes)
    best, best_cost = [[list(group) for group in groups_of_round] for groups_of_round in season], cost
    for step in range(SEASON_STEPS):
        groups_of_round = rounds[stream.below(len(rounds))]
        used = len(groups_of_round) if groups_of_round[-1] else len(groups_of_round) - 1
        first = stream.below(used)
        second = (first + 1 + stream.below(used - 1)) % used
        first, second = min(first, second), max(first, second)  # the byes, if drawn, are `second`
        one, two = groups_of_round[first], groups_of_round[second]
        bye = second == len(groups_of_round) - 1
        i, j = stream.below(len(one)), stream.below(len(two))
        gain = _swap_gain(met, one, two, i, j, bye)
        if bye:
            gain += weight * (2 * byes[one[i]] + 1 + 1 - 2 * byes[two[j]])
        allowed = gain <= 0 or _worse_allowed(stream, gain, step)
        if allowed:
            if bye:
                byes[one[i]] += 1
                byes[two[j]] -= 1
            _swap(met, one, two, i, j, bye)
            cost += gain
            if cost < best_cost:
                best = [[list(group) for group in groups_of_round] for groups_of_round in season]
                best_cost = cost
    season[:] = best
    _descend(season, count, weight)


def _descend(season: list[list[list[int]]], count: int, weight: int) -> None:
    """Take every swap that lowers the cost, in order, until none does (a local minimum)."""
    met, byes = _meetings(season, count), _byes(season, count)
    improved = True
    while improved:
        improved = False
        for groups_of_round in season:
            last = len(groups_of_round) - 1
            for first, second in itertools.combinations(range(len(groups_of_round)), 2):
                bye = second == last
                for i, j in itertools.product(range(len(groups_of_round[first])), range(len(groups_of_round[second]))):
                    one, two = groups_of_round[first], groups_of_round[second]
                    gain = _swap_gain(met, one, two, i, j, bye)
                    if bye:
                        gain += weight * (2 * byes[one[i]] + 2 - 2 * byes[two[j]])
                    if gain < 0:
                        if bye:
                            byes[one[i]] += 1
                            byes[two[j]] -= 1
                        _swap(met, one, two, i, j, bye)
                        improved = True


def _shuffled(items: Sequence[int], stream: SeedStream) -> list[int]:
    order = list(items)
    for index in range(len(order) - 1, 0, -1):
        other = stream.below(index + 1)
        order[index], order[other] = order[other], order[index]
    return order


def _group_split(
    count: int, per_game: int, tally: Tally, stream: SeedStream
) -> tuple[list[list[int]], tuple[int, ...]]:
    players = _shuffled(range(1, count + 1), stream)
    left_over = count % per_game
    byes = tuple(sorted(sorted(players, key=lambda p: tally.byes.get(p, 0))[:left_over]))
    seated = [player for player in players if player not in byes]
    best: list[list[int]] | None = None
    best_cost = 0
    for _ in range(GROUP_ATTEMPTS):
        split = _improved(_greedy(_shuffled(seated, stream), per_game, tally), tally)
        cost = sum(_table_cost(table, tally) for table in split)
        if best is None or cost < best_cost:
            best, best_cost = split, cost
    assert best is not None
    return best, byes


def _table_cost(table: Sequence[int], tally: Tally) -> int:
    return sum((tally.met(a, b) + 1) ** 2 for a, b in itertools.combinations(table, 2))


def _greedy(order: list[int], per_game: int, tally: Tally) -> list[list[int]]:
    tables: list[list[int]] = []
    rest = list(order)
    while rest:
        table = [rest.pop(0)]
        while len(table) < per_game:
            pick = min(rest, key=lambda p: sum((tally.met(p, q) + 1) ** 2 for q in table))
            rest.remove(pick)
            table.append(pick)
        tables.append(table)
    return tables


def _improved(tables: list[list[int]], tally: Tally) -> list[list[int]]:
    """Swap players between tables while a swap lowers the cost."""
    changed = True
    while changed:
        changed = False
        for first, second in itertools.combinations(range(len(tables)), 2):
            for i, j in itertools.product(range(len(tables[first])), range(len(tables[second]))):
                a, b = tables[first], tables[second]
                before = _table_cost(a, tally) + _table_cost(b, tally)
                a2 = [*a[:i], b[j], *a[i + 1 :]]
                b2 = [*b[:j], a[i], *b[j + 1 :]]
                if _table_cost(a2, tally) + _table_cost(b2, tally) < before:
                    tables[first], tables[second] = a2, b2
                    changed = True
    return tables


def _seating(table: Sequence[int], tally: Tally, stream: SeedStream) -> tuple[int, ...]:
    """The order of seats making each player's seat counts most even (ties drawn)."""
    options = list(itertools.permutations(table))
    start = stream.below(len(options))
    options = options[start:] + options[:start]

    def cost(seats: tuple[int, ...]) -> int:
        return sum((tally.seats.get((player, seat), 0) + 1) ** 2 for seat, player in enumerate(seats, start=1))

    return min(options, key=cost)


# -- Swiss ------------------------------------------------------------------------------------


SWISS_SEARCH_NODES = 200_000
"""The most tables (and byes) the Swiss search tries in one round before it keeps the best
pairing it has met (LEAGUE.md §3 amended; docs/league.md)."""


def swiss(number: int, order: Sequence[int], per_game: int, tally: Tally) -> Round:
    """A Swiss round (LEAGUE.md §3, amended): `order` is the players by points, then rating,
    then league.toml order.

    The first candidate is the greedy one: the first unseated player takes the first seat of
    a new table, which is filled with the next players in order who have met those already
    seated the fewest times; players left over get a bye (1 point). Where that candidate
    repeats a meeting or gives a player a second bye, a depth-first search (`_swiss_search`)
    looks for the first pairing with no repeat, else the one with the fewest repeated
    meetings, then the fewest second byes. Seats follow the order, then the player of the
    table who has sat first the fewest times (the earliest in order on a tie) takes seat 1
    if that is fewer than its holder."""
    position = {player: index for index, player in enumerate(order)}
    split, byes = _swiss_search(list(order), per_game, tally)
    tables: list[Table] = []
    for members in split:
        seats = sorted(members, key=position.__getitem__)
        fewest = min(seats, key=lambda p: (tally.firsts.get(p, 0), position[p]))
        if tally.firsts.get(fewest, 0) < tally.firsts.get(seats[0], 0):
            where = seats.index(fewest)
            seats[0], seats[where] = seats[where], seats[0]
        tables.append(Table(len(tables) + 1, tuple(seats)))
    return Round(number, tuple(tables), tuple(sorted(byes, key=position.__getitem__)), bye_scores=True)


def swiss_cost(split: Sequence[Sequence[int]], byes: Sequence[int], tally: Tally) -> tuple[int, int]:
    """What a Swiss pairing repeats: (pairs of a table who have met before, players given a
    bye who have had one)."""
    repeats = sum(1 for table in split for a, b in itertools.combinations(table, 2) if tally.met(a, b))
    return repeats, sum(1 for player in byes if tally.byes.get(player, 0))


def _greedy_table(rest: Sequence[int], per_game: int, tally: Tally) -> tuple[int, ...]:
    """The first candidate's table for `rest` (in order): rest[0] and the next players who
    have met those already seated the fewest times (the earliest on a tie)."""
    seated = [rest[0]]
    left = list(rest[1:])
    while len(seated) < per_game:
        pick = min(left, key=lambda p: sum(tally.met(p, q) for q in seated))  # min keeps the earliest
        left.remove(pick)
        seated.append(pick)
    return tuple(seated)


def _other_tables(rest: Sequence[int], greedy: tuple[int, ...], tally: Tally) -> Iterator[tuple[int, ...]]:
    """The tables rest[0] may open other than `greedy`: by their repeated meetings, then by
    the order of their players (made only when the search gets this far)."""
    position = {player: index for index, player in enumerate(rest)}
    others = sorted(
        (
            (rest[0], *members)
            for members in itertools.combinations(rest[1:], len(greedy) - 1)
            if set(members) != set(greedy[1:])
        ),
        key=lambda table: (swiss_cost([table], [], tally)[0], [position[p] for p in table]),
    )
    yield from others


def _swiss_search(order: list[int], per_game: int, tally: Tally) -> tuple[list[tuple[int, ...]], list[int]]:
    """The tables (as sets of players, in the order opened) and the byes of a Swiss round.

    Depth first over the players in order: the first unseated player either opens a table,
    with every choice of its other players, the greedy table first and then the others by
    their repeated meetings and then by the order of their players, or (when byes are left
    to give) takes a bye, last. The greedy path is the first candidate; backtracking
    changes the latest choices first, so the lowest-ranked players are moved first. A
    branch whose repeats already reach the best pairing found is cut; the search ends at
    the first pairing with no repeat, or after SWISS_SEARCH_NODES choices, keeping the
    best met (the first candidate at worst)."""
    bye_count = len(order) % per_game
    best: list[tuple[list[tuple[int, ...]], list[int], tuple[int, int]]] = []
    nodes = 0

    def better(cost: tuple[int, int]) -> bool:
        return not best or cost < best[0][2]

    def walk(rest: list[int], tables: list[tuple[int, ...]], byes: list[int], cost: tuple[int, int]) -> bool:
        """False once the search is over (a pairing without repeat, or the bound)."""
        nonlocal nodes
        if len(rest) == bye_count - len(byes):
            byes = byes + rest
            cost = (cost[0], cost[1] + sum(1 for player in rest if tally.byes.get(player, 0)))
            if better(cost):
                best[:] = [(list(tables), byes, cost)]
            return cost != (0, 0)
        first, others = rest[0], rest[1:]
        greedy = _greedy_table(rest, per_game, tally)
        for table in itertools.chain([greedy], _other_tables(rest, greedy, tally)):
            nodes += 1
            step = (cost[0] + swiss_cost([table], [], tally)[0], cost[1])
            if better(step):
                left = [player for player in rest if player not in table]
                if not walk(left, [*tables, table], byes, step):
                    return False
            if nodes >= SWISS_SEARCH_NODES:
                return False
        if len(byes) < bye_count:
            nodes += 1
            step = (cost[0], cost[1] + (1 if tally.byes.get(first, 0) else 0))
            if better(step) and not walk(others, tables, [*byes, first], step):
                return False
        return nodes < SWISS_SEARCH_NODES

    walk(list(order), [], [], (0, 0))
    tables, byes, _ = best[0]
    return tables, byes


def swiss_order(players: Sequence[int], points: Mapping[int, float], ratings: Mapping[int, float]) -> list[int]:
    """Players by points, then rating (both highest first), then league.toml order."""
    return sorted(players, key=lambda p: (-points.get(p, 0.0), -ratings.get(p, 0.0), p))


def evenness(season: Sequence[Round], count: int, per_game: int) -> dict[str, float]:
    """How even a season came out: the spread (most - fewest) of meetings over all pairs,
    of each player's seat counts (worst player), and of byes."""
    tally = Tally.empty()
    for played in season:
        tally.add(played)
    pairs = [tally.met(a, b) for a, b in itertools.combinations(range(1, count + 1), 2)]
    seat_spread = max(
        max(tally.seats.get((p, s), 0) for s in range(1, per_game + 1))
        - min(tally.seats.get((p, s), 0) for s in range(1, per_game + 1))
        for p in range(1, count + 1)
    )
    byes = [tally.byes.get(p, 0) for p in range(1, count + 1)]
    return {
        "meetings_min": min(pairs),
        "meetings_max": max(pairs),
        "seat_spread": seat_spread,
        "byes_spread": max(byes) - min(byes),
    }
