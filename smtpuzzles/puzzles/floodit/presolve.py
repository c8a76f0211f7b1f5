"""Bounds on the optimum of a Flood-It board, found without a solver.

The SMT search is fastest when it starts close to the answer: a strong lower bound
leaves few "no solution in T moves" proofs to make, and a short solution found up
front leaves only the proof one move below it. Both work on flooded sets of the
cluster graph, kept as bitsets (Python ints, bit i = cluster i), because the beam
search below evaluates thousands of them.

- :func:`lower_bound`: Puchert's admissible heuristic.
- :func:`upper_bound`: a beam search scored by moves so far + :func:`lower_bound`.
- :func:`greedy_moves`: a quick playout, the safe fallback.
- :func:`optimum_by_search`: exact A* with the same heuristic (small boards, tests).
- :func:`lower_bound_by_search`: a bounded A* run, a stronger lower bound.
- :func:`shortest_by_search`: a bounded A* run that returns a shortest solution when it
  finishes, which proves the optimum without a solver.

A bitset of cluster i's neighbours is a number as long as i bits, so the bitsets of a
graph take memory quadratic in its clusters. Graphs of more than :data:`BITSET_CLUSTERS`
clusters get the same bound and the greedy playout computed on sets instead (linear in
the graph), and no beam search, which could not finish on them anyway.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections import Counter
from dataclasses import dataclass

from smtpuzzles.puzzles.floodit.model import ClusterGraph

try:  # built from _astar.c at install where a C compiler is at hand
    from smtpuzzles.puzzles.floodit import _astar as COMPILED
except ImportError:  # pragma: no cover - depends on the installation
    COMPILED = None


@dataclass(frozen=True)
class _Bits:
    """The cluster graph as bitsets: what every search here works on."""

    everything: int  #: every cluster
    neighbours: tuple[int, ...]  #: neighbours of cluster i
    of_colour: tuple[int, ...]  #: clusters of colour c
    size: tuple[int, ...]  #: cells in cluster i

    def border(self, flooded: int) -> int:
        """Unflooded clusters adjacent to ``flooded``."""
        return self.spread(flooded) & ~flooded

    def spread(self, clusters: int) -> int:
        """Union of the neighbours of ``clusters``."""
        reached = 0
        neighbours = self.neighbours
        while clusters:
            low = clusters & -clusters
            reached |= neighbours[low.bit_length() - 1]
            clusters ^= low
        return reached

    def cells(self, clusters: int) -> int:
        """Number of cells in ``clusters``."""
        total = 0
        size = self.size
        while clusters:
            low = clusters & -clusters
            total += size[low.bit_length() - 1]
            clusters ^= low
        return total


#: The most clusters the bitset searches take (see the module's notes).
BITSET_CLUSTERS = 20_000

_CACHE: dict[int, tuple[ClusterGraph, _Bits]] = {}


def _bits(g: ClusterGraph) -> _Bits:
    """The bitset view of ``g``, built once per graph object."""
    hit = _CACHE.get(id(g))
    if hit is not None and hit[0] is g:
        return hit[1]
    of_colour = [0] * g.n_colours
    for i, colour in enumerate(g.colours):
        of_colour[colour] |= 1 << i
    bits = _Bits(
        everything=(1 << len(g)) - 1,
        neighbours=tuple(sum(1 << j for j in ns) for ns in g.neighbours),
        of_colour=tuple(m for m in of_colour if m),
        size=tuple(len(cs) for cs in g.cells),
    )
    if len(_CACHE) >= 16:
        _CACHE.clear()
    _CACHE[id(g)] = (g, bits)
    return bits


def _puchert(bits: _Bits, flooded: int, border: int) -> int:
    """Puchert's bound from ``flooded`` (whose border is ``border``), on bitsets.

    Why it is admissible: a colour is only ever removed from the board by moves of
    that colour, so each colour counted in a "complete" step stands for a real move of
    its own; and a colour-blind step only happens when every remaining colour still
    has a cluster beyond the border, so the real game needs at least one move to get
    past that layer too. A relaxation in which one move floods the whole border is
    never slower than the game.
    """
    moves = 0
    everything = bits.everything
    of_colour = bits.of_colour
    neighbours = bits.neighbours
    while flooded != everything:
        outside = everything & ~(flooded | border)
        completed = 0
        count = 0
        for mask in of_colour:  # complete: unflooded clusters all on the border
            if mask & border and not mask & outside:
                completed |= mask & border
                count += 1
        if count:
            moves += count
            absorbed = completed
        elif border:
            moves += 1
            absorbed = border
        else:
            raise ValueError("the flood cannot reach every cluster: is the graph connected?")
        flooded |= absorbed
        while absorbed:  # bits.spread, inlined: this loop is most of every A* search
            low = absorbed & -absorbed
            border |= neighbours[low.bit_length() - 1]
            absorbed ^= low
        border &= ~flooded
    return moves


def lower_bound(g: ClusterGraph, flooded: frozenset[int] | None = None) -> int:
    """Puchert's admissible lower bound on the moves still needed from ``flooded``.

    Repeatedly: if some colours have all their unflooded clusters adjacent to the
    (virtual) flood, count one move per such colour and absorb them all; otherwise
    count one colour-blind move that absorbs every cluster adjacent to the flood.
    Never above the optimum; at least the start cluster's eccentricity and at least
    the number of colours still on the board.
    """
    if len(g) > BITSET_CLUSTERS:
        return _puchert_on_sets(g, {g.start} if flooded is None else set(flooded))
    bits = _bits(g)
    mask = 1 << g.start
    if flooded is not None:
        mask = 0
        for i in flooded:
            if not 0 <= i < len(g):
                raise ValueError(f"no cluster {i}: the graph has clusters 0..{len(g) - 1}")
            mask |= 1 << i
    return _puchert(bits, mask, bits.border(mask))


def _puchert_on_sets(g: ClusterGraph, flooded: set[int]) -> int:
    """:func:`_puchert` on sets and counts: linear in the graph for one whole bound."""
    n = len(g)
    for i in flooded:
        if not 0 <= i < n:
            raise ValueError(f"no cluster {i}: the graph has clusters 0..{n - 1}")
    done = bytearray(n)
    remaining = [0] * g.n_colours  #: unflooded clusters of each colour
    for i, colour in enumerate(g.colours):
        if i in flooded:
            done[i] = 1
        else:
            remaining[colour] += 1
    border: set[int] = set()
    in_border = [0] * g.n_colours
    for i in flooded:
        for j in g.neighbours[i]:
            if not done[j] and j not in border:
                border.add(j)
                in_border[g.colours[j]] += 1
    left = n - len(flooded)
    moves = 0
    while left:
        complete = [c for c in range(g.n_colours) if remaining[c] and remaining[c] == in_border[c]]
        if complete:
            moves += len(complete)
            wanted = set(complete)
            absorbed = [i for i in border if g.colours[i] in wanted]
        elif border:
            moves += 1
            absorbed = list(border)
        else:
            raise ValueError("the flood cannot reach every cluster: is the graph connected?")
        for i in absorbed:
            done[i] = 1
            border.discard(i)
            remaining[g.colours[i]] -= 1
            in_border[g.colours[i]] -= 1
        left -= len(absorbed)
        for i in absorbed:
            for j in g.neighbours[i]:
                if not done[j] and j not in border:
                    border.add(j)
                    in_border[g.colours[j]] += 1
    return moves


def _greedy_on_sets(g: ClusterGraph) -> list[int]:
    """:func:`greedy_moves` on sets and counts: the same moves, linear memory."""
    size = [len(cs) for cs in g.cells]
    done = bytearray(len(g))
    done[g.start] = 1
    border: list[set[int]] = [set() for _ in range(g.n_colours)]
    cells = [0] * g.n_colours  #: cells in the border clusters of each colour

    def reach(i: int) -> None:
        for j in g.neighbours[i]:
            if not done[j] and j not in border[g.colours[j]]:
                border[g.colours[j]].add(j)
                cells[g.colours[j]] += size[j]

    reach(g.start)
    left = len(g) - 1
    moves: list[int] = []
    while left:
        best = max(
            (c for c in range(g.n_colours) if border[c]),
            key=lambda c: (cells[c], len(border[c]), -c),
        )
        absorbed, border[best], cells[best] = border[best], set(), 0
        for i in absorbed:
            done[i] = 1
        left -= len(absorbed)
        for i in absorbed:
            reach(i)
        moves.append(best)
    return moves


def _flood(bits: _Bits, flooded: int, border: int, colour_mask: int) -> tuple[int, int]:
    """Flooded set and border after a move whose colour's clusters are ``colour_mask``."""
    absorbed = border & colour_mask
    flooded |= absorbed
    # Equal-coloured clusters never touch, so one step absorbs all that this move can.
    return flooded, (border | bits.spread(absorbed)) & ~flooded


def _moves_worth_trying(bits: _Bits, flooded: int, border: int) -> list[tuple[int, int]]:
    """The moves the beam tries from a flooded set: ``(index, mask)`` of each colour on
    the border, or only the first colour whose every unflooded cluster is on the border,
    when there is one. (The A* does not use this rule: see :func:`shortest_by_search`.)

    Why that one move is enough: some shortest solution plays it now. Flooding is
    monotone (a larger flooded set stays at least as large after the same move), and
    that colour's clusters can only be taken by a move of its colour, which takes all
    of them at once from here; so moving its first move in any solution to the front
    floods at least as much after every later move, and the solution is no longer.
    """
    outside = ~(flooded | border)
    moves = []
    for i, mask in enumerate(bits.of_colour):
        if border & mask:
            if not mask & outside:
                return [(i, mask)]
            moves.append((i, mask))
    return moves


def _colour_index(g: ClusterGraph) -> list[int]:
    """The colour behind each entry of ``_Bits.of_colour`` (colours in use only)."""
    return sorted(set(g.colours))


def greedy_moves(g: ClusterGraph) -> list[int]:
    """A quick valid playout: each move takes the colour that floods the most cells.

    Ties go to the colour that floods more clusters, then to the smaller colour. Every
    move floods something, so the length is at most the number of clusters minus one;
    a safe horizon for ``solve``.
    """
    if len(g) > BITSET_CLUSTERS:
        return _greedy_on_sets(g)
    bits = _bits(g)
    colours = _colour_index(g)
    flooded = 1 << g.start
    border = bits.border(flooded)
    moves: list[int] = []
    while flooded != bits.everything:
        best = max(
            (i for i, mask in enumerate(bits.of_colour) if border & mask),
            key=lambda i: (
                bits.cells(border & bits.of_colour[i]),
                (border & bits.of_colour[i]).bit_count(),
                -i,
            ),
        )
        flooded, border = _flood(bits, flooded, border, bits.of_colour[best])
        moves.append(colours[best])
    return moves


@dataclass(frozen=True)
class _Node:
    """A beam entry: moves made so far as a linked list back to the start."""

    flooded: int
    border: int
    colour: int  #: index into ``_Bits.of_colour`` of the move that led here
    parent: _Node | None
    area: int = 0  #: cells flooded (kept as it grows: counting them anew costs a loop)


def _path(node: _Node | None, colours: list[int]) -> list[int]:
    moves: list[int] = []
    while node is not None and node.parent is not None:
        moves.append(colours[node.colour])
        node = node.parent
    return moves[::-1]


def upper_bound(g: ClusterGraph, width: int = 20, budget_s: float | None = None) -> list[int]:
    """A valid move sequence from a beam search; its length bounds the optimum above.

    Each depth keeps the ``width`` distinct flooded sets with the least moves so far
    plus :func:`lower_bound`, ties to the larger flooded area. Every move floods at
    least one cluster (no no-op moves). The answer is never longer than
    :func:`greedy_moves`, which is also returned when ``budget_s`` runs out.
    """
    began = time.monotonic()
    best = greedy_moves(g)
    if len(g) > BITSET_CLUSTERS:
        return best
    bits = _bits(g)
    colours = _colour_index(g)
    start = 1 << g.start
    beam = [_Node(start, bits.border(start), -1, None, bits.cells(start))]
    depth = 0
    while beam and depth + 1 < len(best):
        if budget_s is not None and time.monotonic() - began > budget_s:
            break
        depth += 1
        seen: dict[int, tuple[int, int, _Node]] = {}
        for node in beam:
            for i, mask in _moves_worth_trying(bits, node.flooded, node.border):
                flooded, border = _flood(bits, node.flooded, node.border, mask)
                if flooded in seen:
                    continue
                if flooded == bits.everything:
                    return _path(_Node(flooded, border, i, node), colours)
                estimate = _puchert(bits, flooded, border)
                if depth + estimate >= len(best):
                    continue  # cannot beat what we already hold
                area = node.area + bits.cells(flooded & ~node.flooded)
                seen[flooded] = (estimate, -area, _Node(flooded, border, i, node, area))
        ranked = sorted(seen.values(), key=lambda entry: entry[:2])
        beam = [child for _, _, child in ranked[:width]]
    return best


def optimum_by_search(g: ClusterGraph, limit_nodes: int | None = None) -> int | None:
    """The optimum by A* over flooded sets with :func:`lower_bound` as heuristic.

    Exact (the heuristic is admissible; a state reached again more cheaply is
    re-opened, so consistency is not needed). Meant for small boards and as an
    oracle independent of any SMT encoding. Returns ``None`` once more than
    ``limit_nodes`` states have been expanded.
    """
    moves = shortest_by_search(g, limit_nodes).moves
    return None if moves is None else len(moves)


def lower_bound_by_search(
    g: ClusterGraph,
    limit_nodes: int = 2000,
    ceiling: int | None = None,
    budget_s: float | None = None,
) -> int:
    """A lower bound at least :func:`lower_bound`, raised by a bounded A* search.

    While A* runs, some state on an optimal path waits in its queue with its true
    cost so far, so the least ``moves + lower_bound`` in the queue never exceeds the
    optimum. Expanding ``limit_nodes`` states lifts that least value; the optimum
    itself when the search finishes in time. It stops as soon as the bound reaches
    ``ceiling`` (the length of a known solution: then that length is optimal), or
    when ``budget_s`` seconds have passed.
    """
    return shortest_by_search(g, limit_nodes, ceiling, budget_s=budget_s).proven


@dataclass
class SearchResult:
    """What a bounded A* run ended with."""

    moves: list[int] | None  #: a solution below the ceiling (a shortest one unless weighted)
    proven: int  #: a proven lower bound on the optimum (the optimum when ``moves`` is set
    #: by a search that is not weighted)
    expanded: int  #: states expanded
    #: states expanded by their estimate, moves made plus Puchert's bound (index: the
    #: estimate; empty for a weighted search): how the search grew layer by layer
    layers: tuple[int, ...] = ()

    def predicted_below(self, ceiling: int) -> int | None:
        """States an A* that is not weighted expands below ``ceiling``, predicted from
        this one's layers: every layer below ``proven`` is complete and counts as it is;
        each later one grows from the last complete one by the ratio of that one to the
        one before it (or counts what this search expanded there, when that is more).
        None without two complete layers."""
        complete = [n for n in self.layers[: self.proven] if n]
        if len(complete) < 2:
            return None
        ratio = max(1.0, complete[-1] / complete[-2])
        total = float(sum(self.layers[: min(self.proven, ceiling)]))
        size = float(complete[-1])
        for f in range(self.proven, ceiling):
            size *= ratio
            total += max(size, self.layers[f] if f < len(self.layers) else 0)
        return round(total)


def _worth_playing_after(
    bits: _Bits, before: int, before_border: int, colour: int, after: int, after_border: int
) -> int:
    """The colours (a bitmask of ``_Bits.of_colour`` indices) worth playing next from
    ``after``, reached from ``before`` by the move of colour index ``colour``.

    A colour ``d`` is dropped when playing it first (``d`` then ``colour`` from
    ``before``) floods a superset of playing it second, which holds when every
    ``d``-cluster on the border was on the border already; of two moves whose orders
    flood the same set, the order that floods more clusters after its first move is
    kept (on a tie, the lower colour first). Why a search that drops these still finds
    a shortest solution, although a set it merges may be reached by several paths, is
    in the Flood-It guide ("The A* search before Z3").
    """
    kept = (1 << len(bits.of_colour)) - 1
    colour_mask = bits.of_colour[colour]
    added = (after ^ before).bit_count()
    for d, mask in enumerate(bits.of_colour):
        on_border = after_border & mask
        if d == colour or not on_border or on_border & ~before_border:
            continue
        first = on_border.bit_count()
        if (
            first > added
            or (first == added and d < colour)
            or bits.spread(on_border) & colour_mask & ~after
        ):
            kept &= ~(1 << d)
    return kept


def shortest_by_search(
    g: ClusterGraph,
    limit_nodes: int | None = None,
    ceiling: int | None = None,
    *,
    budget_s: float | None = None,
    compiled: bool | None = None,
    limit_states: int | None = None,
    weight: tuple[int, int] = (1, 1),
) -> SearchResult:
    """A* for a shortest solution shorter than ``ceiling`` (the length of one in hand),
    within ``limit_nodes`` expanded states, ``budget_s`` seconds and ``limit_states``
    states kept (which bounds its memory).

    ``moves`` is an optimal solution when the search found one; otherwise ``proven`` is
    the lower bound the search reached (``ceiling`` itself when it proved that nothing
    shorter exists). States whose estimate reaches ``ceiling`` are never queued.

    Moves that only reorder two moves into a worse order are skipped
    (:func:`_worth_playing_after`). A flooded set keeps the union of what every
    shortest path found to it leaves worth playing, and is expanded again for colours
    that a later path adds: a path-dependent pruning is only safe with merged states
    that way.

    ``weight`` ``(over, under)`` orders the queue by ``under * moves + over * bound``
    instead: with ``over > under`` it reaches some solution below ``ceiling`` sooner,
    not a shortest one, so ``proven`` then stays Puchert's bound from the start (or the
    ceiling, when nothing below it exists: the skips keep every optimum in any order).

    ``compiled``: run the compiled copy of this search (the same states in the same
    order, so the same answer), which is the default where it was built; ``False`` runs
    the Python below, ``True`` insists on the compiled one.
    """
    if compiled is None:
        compiled = COMPILED is not None
    if compiled:
        return _shortest_compiled(g, limit_nodes, ceiling, budget_s, limit_states, weight)
    over, under = weight
    if not 1 <= under <= over <= 1000:
        raise ValueError("bad weight")
    began = time.monotonic()
    bits = _bits(g)
    colours = _colour_index(g)
    every_colour = (1 << len(bits.of_colour)) - 1
    start = 1 << g.start
    border = bits.border(start)
    bound = _puchert(bits, start, border)
    best_cost = {start: 0}
    came_from: dict[int, tuple[int, int]] = {}  #: state -> (state before, colour index)
    worth = {start: every_colour}  #: state -> colours worth playing from it
    played = {start: 0}  #: state -> colours expanded from it at its best cost
    estimate_of = {start: bound}  #: state -> Puchert's bound from it
    pushes = itertools.count(-1, -1)  #: ties in f and g go to the later push
    queue = [(over * bound, 0, next(pushes), start, border)]  # (f, -g, -push, set, border)
    proven = bound
    expanded = 0
    layers: Counter[int] = Counter()  #: estimate -> states expanded there

    def result(moves: list[int] | None, proven: int) -> SearchResult:
        counts = tuple(layers[f] for f in range(max(layers, default=-1) + 1))
        return SearchResult(moves, proven, expanded, counts)

    while queue:
        estimate, negative_cost, _, flooded, border = queue[0]
        if over == under:
            proven = max(proven, estimate)  # the least f in the queue bounds the optimum
        if ceiling is not None and proven >= ceiling:
            return result(None, proven)
        heapq.heappop(queue)
        cost = -negative_cost
        if flooded == bits.everything:
            moves = []
            while flooded != start:
                flooded, i = came_from[flooded]
                moves.append(colours[i])
            return result(moves[::-1], cost if over == under else proven)
        if cost > best_cost[flooded]:
            continue  # a stale entry: this set was reached more cheaply since
        todo = worth[flooded] & ~played[flooded]
        if not todo:
            continue  # expanded already for every colour worth playing
        played[flooded] |= todo
        expanded += 1
        if over == under:
            layers[estimate] += 1
        if limit_nodes is not None and expanded > limit_nodes:
            return result(None, proven)
        if budget_s is not None and expanded % 256 == 0:
            if time.monotonic() - began > budget_s:
                return result(None, proven)
        for i, mask in enumerate(bits.of_colour):
            if not (todo >> i & 1 and border & mask):
                continue
            child, child_border = _flood(bits, flooded, border, mask)
            known = best_cost.get(child)
            if known is not None and known < cost + 1:
                continue
            if known == cost + 1:  # another shortest path: what it leaves open counts too
                if worth[child] == every_colour:
                    continue
                after = _worth_playing_after(bits, flooded, border, i, child, child_border)
                added = after & ~worth[child]
                if added:
                    worth[child] |= added
                    if added & ~played[child]:
                        f = under * (cost + 1) + over * estimate_of[child]
                        heapq.heappush(queue, (f, -cost - 1, next(pushes), child, child_border))
                continue
            bound = _puchert(bits, child, child_border)
            if ceiling is not None and cost + 1 + bound >= ceiling:
                continue  # cannot beat the solution in hand
            if known is None and limit_states is not None and len(best_cost) >= limit_states:
                return result(None, proven)
            best_cost[child] = cost + 1
            came_from[child] = (flooded, i)
            worth[child] = _worth_playing_after(bits, flooded, border, i, child, child_border)
            played[child] = 0
            estimate_of[child] = bound
            f = under * (cost + 1) + over * bound
            entry = (f, -cost - 1, next(pushes), child, child_border)
            heapq.heappush(queue, entry)
    if ceiling is not None:  # every state below the ceiling was expanded
        return result(None, max(proven, ceiling))
    raise AssertionError("unreachable: every board can be flooded")


def _shortest_compiled(
    g: ClusterGraph,
    limit_nodes: int | None,
    ceiling: int | None,
    budget_s: float | None,
    limit_states: int | None,
    weight: tuple[int, int],
) -> SearchResult:
    """:func:`shortest_by_search` by the compiled module."""
    if COMPILED is None:
        raise RuntimeError("the compiled A* was not built with this installation")
    bits = _bits(g)
    width = (len(g) + 7) // 8

    def as_bytes(mask: int) -> bytes:
        return mask.to_bytes(width, "little")

    moves, proven, expanded, layers = COMPILED.shortest(
        len(g),
        [as_bytes(m) for m in bits.neighbours],
        [as_bytes(m) for m in bits.of_colour],
        g.start,
        -1 if limit_nodes is None else limit_nodes,
        -1 if ceiling is None else ceiling,
        -1.0 if budget_s is None else budget_s,
        -1 if limit_states is None else limit_states,
        *weight,
    )
    if moves is not None:
        colours = _colour_index(g)
        moves = [colours[i] for i in moves]
    return SearchResult(moves, proven, expanded, layers)
