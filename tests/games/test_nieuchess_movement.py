"""The Nieuchess movement searches over sets of hexes (`hexsets.py`) and their shortcuts
(the free shortest line, the kept zones of control) answer exactly as a plain search over
the neighbour tables that follows the rule text step by step."""

from __future__ import annotations

import random

import pytest

from referee.games.api import IllegalActionError
from referee.games.nieuchess.board import BOARD, INDEX, NAMES, SIZE
from referee.games.nieuchess.hexsets import (
    CUBE,
    _disk,
    hexset,
    hot_line_in_order,
    in_reach,
    lens,
    members,
    path_facts,
    spread,
)
from referee.games.nieuchess.movement import MAX_STEPS, Field

HOT_LINE = [h for h in range(SIZE) if BOARD.hot[h]]


# -- a plain reference: the rule text as a breadth-first search over hexes ------------------


def zone_of(field: Field, side: int) -> set[int]:
    return {n for h in field.pawns(side) for n in BOARD.neighbours[h]}


def reference_destinations(field: Field, side: int, origin: int) -> set[int]:
    """At most 5 ordinary steps: into non-gray hexes that hold no enemy pawn; the first hex
    in the enemy zone of control stops the pawn; an own pawn may be passed through unless
    it stands in that zone. Then a ride along the hot line from the origin or from an
    empty, uncontrolled hot-line hex the steps end on, through empty hexes, stopping in
    the enemy zone."""
    occupant, zone = field.occupant, zone_of(field, 1 - side)
    found: set[int] = set()
    seen, frontier = {origin}, [origin]
    rides = [origin] if BOARD.hot[origin] else []
    for _ in range(MAX_STEPS):
        following = []
        for hex_ in frontier:
            for n in BOARD.neighbours[hex_]:
                if n in seen or not BOARD.passable[n]:
                    continue
                seen.add(n)
                holder = occupant[n]
                if holder and holder != side + 1:
                    continue
                if holder:
                    if n not in zone:
                        following.append(n)
                    continue
                found.add(n)
                if n not in zone:
                    following.append(n)
                    if BOARD.hot[n]:
                        rides.append(n)
        frontier = following
    ridden = set(rides)
    todo = list(rides)
    while todo:
        for n in BOARD.neighbours[todo.pop()]:
            if not BOARD.hot[n] or n in ridden or (occupant[n] and n != origin):
                continue
            found.add(n)
            if n not in zone:
                ridden.add(n)
                todo.append(n)
    found.discard(origin)
    return found


def random_field(rng: random.Random, crowd: int, near_line: bool) -> Field:
    """Up to `crowd` pawns a side on passable hexes; with `near_line`, most of them within
    a few files of the hot line, so that rides meet pawns and zones."""
    field = Field()
    passable = [h for h in range(SIZE) if BOARD.passable[h]]
    around = [h for h in passable if abs(h % 25 - 12) <= 3]
    free = set(passable)
    for side in (0, 1):
        for _ in range(rng.randint(1, crowd)):
            pool = around if near_line and rng.random() < 0.8 else passable
            hex_ = rng.choice(pool)
            if hex_ in free:
                free.discard(hex_)
                field.put(hex_, side)
    return field


POSITIONS = [(seed, crowd, near) for seed in range(15) for crowd, near in ((20, False), (20, True), (6, True))]


@pytest.mark.parametrize(("seed", "crowd", "near_line"), POSITIONS)
def test_destinations_and_reaches_answer_as_the_plain_search(seed: int, crowd: int, near_line: bool) -> None:
    rng = random.Random(seed)
    field = random_field(rng, crowd, near_line)
    for side in (0, 1):
        for origin in field.pawns(side):
            expected = reference_destinations(field, side, origin)
            assert set(field.destinations(side, origin)) == expected, NAMES[origin]
            # Every hex within 5 steps, the whole hot line, and some hexes anywhere.
            targets = set(members(_disk(origin, MAX_STEPS))) | set(HOT_LINE) | set(rng.sample(range(SIZE), 40))
            for target in targets:
                if target != origin:
                    assert field.reaches(side, origin, target) == (target in expected), (NAMES[origin], NAMES[target])


@pytest.mark.parametrize(("seed", "crowd", "near_line"), POSITIONS[::3])
def test_a_step_moves_exactly_where_the_search_reaches(seed: int, crowd: int, near_line: bool) -> None:
    """`step` (the quick way of a move in the destination form) moves a pawn to every hex
    the plain search reaches and to no other, exactly as `shift` does, and leaves the
    field untouched otherwise: along a free shortest line, by a detour, by a ride."""
    rng = random.Random(seed)
    field = random_field(rng, crowd, near_line)
    taken = 0
    for side in (0, 1):
        for origin in list(members(field.held[0] | field.held[1])):
            expected = reference_destinations(field, side, origin) if field.occupant[origin] == side + 1 else set()
            targets = set(members(_disk(origin, MAX_STEPS))) | set(HOT_LINE) | set(rng.sample(range(SIZE), 20))
            for target in targets:
                before = field.copy()
                moved = field.step(side, origin, target)
                assert moved == (target in expected), (NAMES[origin], NAMES[target])
                if not moved:
                    assert (field.occupant, field.held) == (before.occupant, before.held)
                    assert field.zone(0) == before.zone(0) and field.zone(1) == before.zone(1)
                    continue
                taken += 1
                before.shift(origin, target, side)
                assert (field.occupant, field.held) == (before.occupant, before.held)
                assert field.zone(side) == hexset(zone_of(field, side))
                field.shift(target, origin, side)  # back, for the next target
    assert taken


@pytest.mark.parametrize(("seed", "crowd", "near_line"), POSITIONS[::2])
def test_a_ride_to_a_hex_starts_where_the_line_read_hex_by_hex_says(seed: int, crowd: int, near_line: bool) -> None:
    """On the map's hot line, in board order, a ride's sources are found between the stops
    either side of the target; they are those the reading hex by hex finds, and the origin
    rides to the target exactly when the reading meets it."""
    assert hot_line_in_order()
    field = random_field(random.Random(seed), crowd, near_line)
    for side in (0, 1):
        for origin in field.pawns(side):
            for target in HOT_LINE:
                if not field.occupant[target]:
                    found = field._ride_sources(side, origin, target)
                    assert found == field._ride_reading(side, origin, target), (NAMES[origin], NAMES[target])


def test_a_ride_goes_along_the_line_and_stops_in_the_enemy_zone() -> None:
    field = Field()
    m5, m20, m28, m29 = (INDEX[name] for name in ("m5", "m20", "m28", "m29"))
    field.put(m5, 0)
    field.put(INDEX["n29"], 1)  # its zone covers m28, m29 and m30 (odd-r neighbours)
    assert field.reaches(0, m5, m20)
    assert field.reaches(0, m5, m28)
    assert not field.reaches(0, m5, m29)
    assert reference_destinations(field, 0, m5) == set(field.destinations(0, m5))


# -- the tables -------------------------------------------------------------------------


def test_spread_gives_every_neighbour_of_every_hex() -> None:
    for hex_ in range(SIZE):
        assert set(members(spread(1 << hex_))) == set(BOARD.neighbours[hex_])
    sample = random.Random(1).sample(range(SIZE), 60)
    assert set(members(spread(hexset(sample)))) == {n for h in sample for n in BOARD.neighbours[h]}


def test_members_lists_a_set_in_board_order() -> None:
    sample = random.Random(2).sample(range(SIZE), 50)
    assert list(members(hexset(sample))) == sorted(sample)


def test_near_holds_the_hexes_within_five_steps() -> None:
    rng = random.Random(3)
    for origin in rng.sample(range(SIZE), 40):
        within = {h for h in range(SIZE) if BOARD.distance(origin, h) <= MAX_STEPS}
        assert set(members(_disk(origin, MAX_STEPS))) == within
        assert {h for h in range(SIZE) if in_reach(origin, h)} == within


def test_the_lens_holds_the_hexes_on_the_shortest_lines() -> None:
    rng = random.Random(4)
    for _ in range(300):
        a, b = rng.randrange(SIZE), rng.randrange(SIZE)
        d = BOARD.distance(a, b)
        on_lines = {n for n in range(SIZE) if BOARD.distance(a, n) + BOARD.distance(n, b) == d}
        assert set(members(lens(a, b))) == on_lines
    assert len(CUBE) == SIZE


def test_steps_on_the_map_are_as_short_as_the_distance_within_five() -> None:
    """The shortcut relies on it: between two hexes at most 5 apart, some shortest line of
    steps stays on the map (so the lens's on-map hexes hold a whole path)."""
    for origin in range(SIZE):
        steps, frontier = {origin: 0}, [origin]
        for count in range(1, MAX_STEPS + 1):
            frontier = [n for h in frontier for n in BOARD.neighbours[h] if n not in steps]
            for n in frontier:
                steps.setdefault(n, count)
        assert {h for h, d in steps.items()} == set(members(_disk(origin, MAX_STEPS)))
        assert all(BOARD.distance(origin, h) == d for h, d in steps.items())


# -- the kept zones of control --------------------------------------------------------------


def test_kept_zones_follow_every_change_and_copies_stay_apart() -> None:
    rng = random.Random(5)
    field = random_field(rng, 20, False)
    for _ in range(200):
        side = rng.randrange(2)
        assert field.zone(1 - side) == hexset(zone_of(field, 1 - side))
        twin = field.copy()
        pawns = field.pawns(side)
        empty = [h for h in range(SIZE) if BOARD.passable[h] and not field.occupant[h]]
        choice = rng.randrange(3)
        if choice == 0 and pawns:
            field.shift(rng.choice(pawns), rng.choice(empty), side)
        elif choice == 1 and pawns:
            field.lift(rng.choice(pawns), side)
        else:
            field.put(rng.choice(empty), side)
        for either in (0, 1):
            assert field.zone(either) == hexset(zone_of(field, either))
            assert field.held[either] == hexset(h for h in range(SIZE) if field.occupant[h] == either + 1)
        assert twin.held != field.held
        assert all(twin.zone(s) == hexset(zone_of(twin, s)) for s in (0, 1))


def test_engaged_pawns_are_those_next_to_an_enemy() -> None:
    rng = random.Random(6)
    for _ in range(50):
        field = random_field(rng, 20, True)
        for side in (0, 1):
            ours = {h for h in field.pawns(side) if h in zone_of(field, 1 - side)}
            theirs = {h for h in field.pawns(1 - side) if h in zone_of(field, side)}
            assert field.engaged(side) == (hexset(ours), hexset(theirs))
            assert field.in_contact(side) == bool(ours)


@pytest.mark.parametrize(("seed", "crowd", "near_line"), POSITIONS[::2])
def test_a_path_written_hex_by_hex_leads_to_every_destination_and_checks_out(
    seed: int, crowd: int, near_line: bool
) -> None:
    """`Field.path` (the long form of a move) finds a path to exactly the hexes the plain
    search reaches, and the explicit path's check accepts each one."""
    rng = random.Random(seed)
    field = random_field(rng, crowd, near_line)
    rides = 0
    for side in (0, 1):
        for origin in field.pawns(side):
            expected = reference_destinations(field, side, origin)
            for target in set(members(_disk(origin, MAX_STEPS))) | set(HOT_LINE):
                if target == origin:
                    continue
                path = field.path(side, origin, target)
                assert (path is not None) == (target in expected), (NAMES[origin], NAMES[target])
                if path is not None:
                    assert (path[0], path[-1]) == (origin, target)
                    field.check_path(side, path)  # raises when it breaks a rule
                    rides += len(path) > MAX_STEPS + 1
    assert rides or not near_line or crowd < 20


def _wander(rng: random.Random, field: Field, side: int) -> list[int]:
    """A path of neighbouring hexes from one of the side's pawns (along the hot line half
    the time), now and then with a step that is not to a neighbour."""
    path = [rng.choice(field.pawns(side))]
    for _ in range(rng.randint(1, 14)):
        here = path[-1]
        choices = BOARD.hot_steps[here] if BOARD.hot[here] and rng.random() < 0.7 else BOARD.neighbours[here]
        path.append(rng.choice(choices) if choices and rng.random() < 0.97 else rng.randrange(SIZE))
    return path


@pytest.mark.parametrize(("seed", "crowd", "near_line"), POSITIONS)
def test_following_a_path_in_one_pass_answers_as_checking_it(seed: int, crowd: int, near_line: bool) -> None:
    """`follow` (the quick way of a path written hex by hex) makes exactly the moves whose
    path `check_path` accepts, as `shift` does, and changes nothing otherwise."""
    rng = random.Random(seed)
    field = random_field(rng, crowd, near_line)
    taken = 0
    for _ in range(400):
        side = rng.randrange(2)
        path = _wander(rng, field, side)
        if rng.random() < 0.3:  # paths that start on the line and ride it
            line = [h for h in field.pawns(side) if BOARD.hot[h]]
            if line:
                path = [rng.choice(line)]
                while len(path) < 12 and BOARD.hot_steps[path[-1]]:
                    path.append(rng.choice(BOARD.hot_steps[path[-1]]))
        try:
            field.check_path(side, path)
            legal = path[-1] != path[0]
        except IllegalActionError:
            legal = False
        before = field.copy()
        facts = path_facts(tuple(path))
        assert (facts is not None and field.follow(side, tuple(path), facts)) == legal, [NAMES[h] for h in path]
        if legal:
            taken += 1
            before.shift(path[0], path[-1], side)
            assert (field.occupant, field.held) == (before.occupant, before.held)
            field.shift(path[-1], path[0], side)
        else:
            assert (field.occupant, field.held) == (before.occupant, before.held)
    assert taken


@pytest.mark.parametrize("blocker", [1, 3, 4, 5, 6])
def test_following_a_ride_past_an_own_pawn_answers_as_checking_it(blocker: int) -> None:
    """Ordinary steps may pass an own pawn, a ride may not: a pawn at the sixth hex of the
    path (the last a ride can start from) blocks it, one within the steps before does not."""
    chain = [next(h for h in HOT_LINE if len(BOARD.hot_steps[h]) == 1)]
    while len(chain) < 11:
        chain.append(next(h for h in BOARD.hot_steps[chain[-1]] if h not in chain))
    field = Field()
    field.put(chain[0], 0)
    field.put(chain[blocker], 0)
    try:
        field.check_path(0, chain)
        legal = True
    except IllegalActionError:
        legal = False
    assert legal == (blocker < MAX_STEPS)
    assert field.follow(0, tuple(chain), path_facts(tuple(chain)) or (0, 0, 0)) == legal


def test_the_tables_built_at_import_in_look_ups_equal_those_built_step_by_step() -> None:
    from referee.games.nieuchess import board, hexsets

    assert board.BOARD.neighbours == tuple(board._adjacent(h) for h in range(board.SIZE))
    # the disk of any radius (a map edge cuts some of them)
    for steps in (0, 1, 2, 5, 7, 40):
        assert all(hexsets._disk(h, steps) == hexsets._within(h, steps) for h in range(0, board.SIZE, 7))
