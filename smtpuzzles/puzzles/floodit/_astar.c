/* The A* search of presolve.shortest_by_search, compiled.
 *
 * presolve.py holds the search in Python and is its specification: the same states
 * are expanded in the same order (the queue is ordered by estimate, then by more
 * moves made, then by the later push, as Python's tuples compare), so both return the
 * same solution and the same count of expanded states. This file only makes each
 * state cheaper: flooded sets are arrays of 64-bit words, states live in one growing
 * pool, a hash table maps a flooded set to its state (the lookups of a state's children
 * fetched ahead together), and the queue keeps a stack per estimate and count of moves.
 *
 * Sets of clusters are passed in as little-endian bytes (int.to_bytes), the moves of
 * the solution come back as indices into the colour masks the caller passed.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

typedef uint64_t word;

/* The board: cluster graph and colour masks as bitsets of `w` words. */
typedef struct {
    int w;        /* words per set */
    int colours;  /* colour masks (colours in use) */
    word *everything;
    word *neighbours; /* n sets */
    word *of_colour;  /* colours sets */
    word *all_colours; /* the set of every colour index, in words of colour sets */
} Board;

/* A slot of the hash table: state index + 1 (0 for empty) and the set's hash, which
 * spares reading the sets of other states when looking one up or growing the table. */
typedef struct {
    uint32_t state;
    uint32_t hash;
} Slot;

/* States: flooded set, best known moves, how they were reached, and the colours worth
 * playing from them (presolve._worth_playing_after). The border is not kept: it is made
 * again when a state is expanded, which costs less than one bound and saves a quarter
 * of a state's memory. */
typedef struct {
    word *sets;      /* w words per state: the flooded set */
    word *colours;   /* 2 * cw words per state: colours worth playing, then played */
    int32_t *cost;   /* least moves known to reach the state */
    int32_t *bound;  /* Puchert's bound from the state */
    int32_t *parent; /* state before, -1 for the start */
    uint16_t *colour; /* colour mask index of the move from the parent */
    int cw;          /* words per colour set */
    Py_ssize_t count, capacity;
    Slot *table;     /* open addressing */
    Py_ssize_t slots; /* a power of two */
} States;

/* A queue entry. `push` counts the pushes (ties go to the later one); it would wrap
 * only after 2^32 pushes, far beyond what memory holds. */
typedef struct {
    int32_t estimate;
    int32_t cost;
    int32_t state;
    uint32_t push;
} Entry;

/* The states queued at one estimate and one count of moves: a stack, since among equal
 * entries the later push comes first. */
typedef struct {
    int32_t *states;
    int32_t count, capacity;
} Stack;

/* The stacks of one estimate, one per count of moves (allocated at its first push). */
typedef struct {
    Stack *by_cost;
    Py_ssize_t count;
    int highest; /* the highest count of moves with a state queued, -1 for none */
} Layer;

/* The queue. A search that is not weighted has small whole estimates (at most twice the
 * clusters), so it keeps a layer per estimate: a push appends to a stack and a pop takes
 * from the top of one, where a heap would read memory at random down its depth. A
 * weighted search keeps a binary heap. Both give the same order. */
typedef struct {
    int weighted;
    int unit;           /* estimates of a search not weighted are multiples of this */
    Entry *items;       /* the heap */
    Py_ssize_t count, capacity;
    uint32_t pushes;
    Layer *layers;      /* the layers */
    int layer_count, costs;
    int lowest;         /* no layer below it holds a state */
} Queue;

#define FLOODED(s, i, w) ((s)->sets + (size_t)(i) * (w))
#define WORTH(s, i) ((s)->colours + (size_t)(i) * 2 * (s)->cw)
#define PLAYED(s, i) ((s)->colours + (size_t)(i) * 2 * (s)->cw + (s)->cw)

static inline int lowest(word x) { return __builtin_ctzll(x); }

/* Bits set in x, without the popcnt instruction (which not every x86-64 has). */
static inline int bits_in(word x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* Sets are a few words long: a loop beats a call to memcmp. */
static inline int equal(const word *a, const word *b, int w) {
    word differ = 0;
    for (int k = 0; k < w; k++) differ |= a[k] ^ b[k];
    return differ == 0;
}

static uint32_t hash_of(const word *set, int w) {
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int k = 0; k < w; k++) {
        h ^= set[k] + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        h *= 0xff51afd7ed558ccdULL;
    }
    return (uint32_t)(h ^ (h >> 32));
}

/* Union of the neighbours of `clusters` into `into` (which is not cleared), for sets of
 * `w` words: inlined into puchert_words, which gives it a constant `w`. */
static inline __attribute__((always_inline)) void spread_words(
    const Board *b, const word *clusters, word *into, const int w) {
    for (int k = 0; k < w; k++) {
        word bits = clusters[k];
        while (bits) {
            const word *ns = b->neighbours + (size_t)(64 * k + lowest(bits)) * w;
            for (int j = 0; j < w; j++) {
                into[j] |= ns[j];
            }
            bits &= bits - 1;
        }
    }
}

static void spread(const Board *b, const word *clusters, word *into) {
    spread_words(b, clusters, into, b->w);
}

/* The clusters beside `flooded` but not in it, into `border`. */
static void border_of(const Board *b, const word *flooded, word *border) {
    memset(border, 0, (size_t)b->w * sizeof(word));
    spread(b, flooded, border);
    for (int k = 0; k < b->w; k++) border[k] &= ~flooded[k];
}

/* Puchert's bound from a flooded set and its border (see presolve._puchert), for sets
 * of `w` words: always inlined, so that the callers below give the compiler a constant
 * `w` for the common sizes and it unrolls the word loops. Colours are dropped from the
 * loop once flooded; when one colour is left, its clusters all touch the flood (they
 * never touch each other), so one more move ends it, which is what the loop would count.
 * The scratch space holds 3 * w words and the colour list `colours` ints. Returns -1
 * when the flood cannot reach everything. */
static inline __attribute__((always_inline)) int puchert_words(
    const Board *b, const word *flooded_in, const word *border_in, word *scratch, int *left,
    const int w) {
    word *flooded = scratch, *border = scratch + w, *absorbed = scratch + 2 * w;
    int lefts = 0;
    for (int c = 0; c < b->colours; c++) {
        const word *mask = b->of_colour + (size_t)c * w;
        word unflooded = 0;
        for (int k = 0; k < w; k++) unflooded |= mask[k] & ~flooded_in[k];
        if (unflooded) left[lefts++] = c;
    }
    memcpy(flooded, flooded_in, (size_t)w * sizeof(word));
    memcpy(border, border_in, (size_t)w * sizeof(word));
    int moves = 0;
    while (lefts > 1) {
        int count = 0, kept = 0;
        for (int k = 0; k < w; k++) absorbed[k] = 0;
        for (int i = 0; i < lefts; i++) {
            const word *mask = b->of_colour + (size_t)left[i] * w;
            word unflooded = 0, beyond = 0;
            for (int k = 0; k < w; k++) {
                word u = mask[k] & ~flooded[k];
                unflooded |= u;
                beyond |= u & ~border[k];
            }
            if (!unflooded) continue; /* flooded by an earlier colour-blind step */
            if (!beyond) {
                for (int k = 0; k < w; k++) absorbed[k] |= mask[k] & border[k];
                count++;
                continue; /* flooded by this step */
            }
            left[kept++] = left[i];
        }
        lefts = kept;
        if (count) {
            moves += count;
        } else {
            word any = 0;
            for (int k = 0; k < w; k++) {
                absorbed[k] = border[k];
                any |= border[k];
            }
            if (!any) return -1;
            moves += 1;
        }
        for (int k = 0; k < w; k++) flooded[k] |= absorbed[k];
        spread_words(b, absorbed, border, w);
        for (int k = 0; k < w; k++) border[k] &= ~flooded[k];
    }
    if (lefts == 1) {
        const word *mask = b->of_colour + (size_t)left[0] * w;
        word unflooded = 0;
        for (int k = 0; k < w; k++) unflooded |= mask[k] & ~flooded[k];
        moves += unflooded != 0;
    }
    return moves;
}

static int puchert(const Board *b, const word *flooded, const word *border, word *scratch,
                   int *left) {
    switch (b->w) {
    case 1: return puchert_words(b, flooded, border, scratch, left, 1);
    case 2: return puchert_words(b, flooded, border, scratch, left, 2);
    case 3: return puchert_words(b, flooded, border, scratch, left, 3);
    case 4: return puchert_words(b, flooded, border, scratch, left, 4);
    case 5: return puchert_words(b, flooded, border, scratch, left, 5);
    case 6: return puchert_words(b, flooded, border, scratch, left, 6);
    case 7: return puchert_words(b, flooded, border, scratch, left, 7);
    case 8: return puchert_words(b, flooded, border, scratch, left, 8);
    default: return puchert_words(b, flooded, border, scratch, left, b->w);
    }
}

/* Does every cluster connect to `start`? (The bound counts on it: see puchert.) The
 * scratch space holds 2 * w words. */
static int connected(const Board *b, int start, word *scratch) {
    int w = b->w;
    word *reached = scratch, *grown = scratch + w;
    memset(reached, 0, (size_t)w * sizeof(word));
    reached[start / 64] |= (word)1 << (start % 64);
    for (;;) {
        memcpy(grown, reached, (size_t)w * sizeof(word));
        spread(b, reached, grown);
        if (equal(grown, reached, w)) return equal(reached, b->everything, w);
        memcpy(reached, grown, (size_t)w * sizeof(word));
    }
}

/* The colours worth playing after `after` was reached from `before` by colour `colour`
 * (presolve._worth_playing_after), into `kept` (cw words). */
static void worth_after(const Board *b, const word *before, const word *before_border,
                        int colour, const word *after, const word *after_border, word *kept,
                        int cw) {
    int w = b->w, added = 0;
    for (int k = 0; k < w; k++) {
        added += bits_in(after[k] ^ before[k]);
    }
    memcpy(kept, b->all_colours, (size_t)cw * sizeof(word));
    const word *colour_mask = b->of_colour + (size_t)colour * w;
    for (int d = 0; d < b->colours; d++) {
        if (d == colour) continue;
        const word *mask = b->of_colour + (size_t)d * w;
        word touches = 0, fresh = 0;
        int first = 0;
        for (int k = 0; k < w; k++) {
            word on_border = after_border[k] & mask[k];
            touches |= on_border;
            fresh |= on_border & ~before_border[k];
            first += bits_in(on_border);
        }
        if (!touches || fresh) continue;
        int drop = first > added || (first == added && d < colour);
        for (int k = 0; k < w && !drop; k++) {
            word bits = after_border[k] & mask[k];
            while (bits && !drop) {
                const word *ns = b->neighbours + (size_t)(64 * k + lowest(bits)) * w;
                for (int j = 0; j < w; j++) {
                    if (ns[j] & colour_mask[j] & ~after[j]) {
                        drop = 1;
                        break;
                    }
                }
                bits &= bits - 1;
            }
        }
        if (drop) kept[d / 64] &= ~((word)1 << (d % 64));
    }
}

/* -- memory ------------------------------------------------------------------------ */

/* Ask Linux for huge pages (transparent, 2 MB) under a large array just allocated: the
 * hash table and the pools are read at random, and one huge page spares hundreds of
 * page faults and misses of the address cache. Only the 2 MB blocks wholly inside the
 * array are asked for; without that kernel feature nothing changes. Returns `p`. */
#define HUGE_PAGE ((uintptr_t)2 << 20)
static void *huge(void *p, size_t size) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (p != NULL && size >= 2 * HUGE_PAGE) {
        uintptr_t first = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
        uintptr_t end = ((uintptr_t)p + size) & ~(HUGE_PAGE - 1);
        if (end > first) madvise((void *)first, end - first, MADV_HUGEPAGE);
    }
#else
    (void)size;
#endif
    return p;
}

/* PyMem_Realloc of `count` items of `size` bytes, under huge pages when large. */
static void *grow(void *p, Py_ssize_t count, size_t size) {
    return huge(PyMem_Realloc(p, (size_t)count * size), (size_t)count * size);
}

/* Grow the array `owner->field` to `count` items of `size` bytes, or return -1 from the
 * calling function when memory runs out (the array is then left as it was). */
#define GROW_OR_FAIL(owner, field, count, size)                \
    do {                                                       \
        void *grown_ = grow((owner)->field, (count), (size));  \
        if (grown_ == NULL) return -1;                         \
        (owner)->field = grown_;                               \
    } while (0)

/* -- states ------------------------------------------------------------------------ */

/* Room for `capacity` states in every array; -1 when memory runs out. */
static int states_reserve(States *s, int w, Py_ssize_t capacity) {
    GROW_OR_FAIL(s, sets, capacity, (size_t)w * sizeof(word));
    GROW_OR_FAIL(s, colours, capacity, (size_t)2 * s->cw * sizeof(word));
    GROW_OR_FAIL(s, cost, capacity, sizeof(int32_t));
    GROW_OR_FAIL(s, bound, capacity, sizeof(int32_t));
    GROW_OR_FAIL(s, parent, capacity, sizeof(int32_t));
    GROW_OR_FAIL(s, colour, capacity, sizeof(uint16_t));
    s->capacity = capacity;
    return 0;
}

static int states_init(States *s, int w, int cw) {
    memset(s, 0, sizeof(*s));
    s->cw = cw;
    s->slots = 2048;
    s->table = PyMem_Calloc((size_t)s->slots, sizeof(Slot));
    return s->table == NULL ? -1 : states_reserve(s, w, 1024);
}

static void states_free(States *s) {
    PyMem_Free(s->sets);
    PyMem_Free(s->colours);
    PyMem_Free(s->cost);
    PyMem_Free(s->bound);
    PyMem_Free(s->parent);
    PyMem_Free(s->colour);
    PyMem_Free(s->table);
}

/* The state with this flooded set (whose hash is `hash`), or -1. */
static Py_ssize_t states_find(const States *s, const word *flooded, uint32_t hash, int w) {
    Py_ssize_t mask = s->slots - 1;
    for (Py_ssize_t slot = (Py_ssize_t)(hash & (uint64_t)mask);; slot = (slot + 1) & mask) {
        Slot entry = s->table[slot];
        if (entry.state == 0) {
            return -1;
        }
        if (entry.hash == hash && equal(FLOODED(s, entry.state - 1, w), flooded, w)) {
            return entry.state - 1;
        }
    }
}

static void table_place(Slot *table, Py_ssize_t slots, Slot entry) {
    Py_ssize_t mask = slots - 1;
    Py_ssize_t slot = (Py_ssize_t)(entry.hash & (uint64_t)mask);
    while (table[slot].state != 0) {
        slot = (slot + 1) & mask;
    }
    table[slot] = entry;
}

/* A new state (the caller fills in its sets); -1 when memory runs out. */
static Py_ssize_t states_add(States *s, int w) {
    if (s->count >= INT32_MAX - 1) {
        return -1;
    }
    if (s->count == s->capacity && states_reserve(s, w, s->capacity * 2) < 0) {
        return -1;
    }
    return s->count++;
}

/* Index the newest state, whose set has hash `hash`, growing the table to keep it at
 * most half full. */
static int states_index(States *s, Py_ssize_t index, uint32_t hash) {
    if (2 * s->count > s->slots) {
        Py_ssize_t slots = s->slots * 2;
        Slot *table = huge(PyMem_Calloc((size_t)slots, sizeof(Slot)), (size_t)slots * sizeof(Slot));
        if (table == NULL) return -1;
        for (Py_ssize_t i = 0; i < s->slots; i++) {
            if (s->table[i].state != 0) table_place(table, slots, s->table[i]);
        }
        PyMem_Free(s->table);
        s->table = table;
        s->slots = slots;
    }
    table_place(s->table, s->slots, (Slot){(uint32_t)(index + 1), hash});
    return 0;
}

/* -- the queue, ordered as presolve's (estimate, -cost, -push) ---------------------- */

static int before(const Entry *a, const Entry *b) {
    if (a->estimate != b->estimate) return a->estimate < b->estimate;
    if (a->cost != b->cost) return a->cost > b->cost;
    return a->push > b->push;
}

static int heap_push(Queue *q, Entry e) {
    if (q->count == q->capacity) {
        Py_ssize_t capacity = q->capacity ? q->capacity * 2 : 1024;
        GROW_OR_FAIL(q, items, capacity, sizeof(Entry));
        q->capacity = capacity;
    }
    e.push = q->pushes++;
    Py_ssize_t i = q->count++;
    while (i > 0) {
        Py_ssize_t up = (i - 1) / 2;
        if (!before(&e, &q->items[up])) break;
        q->items[i] = q->items[up];
        i = up;
    }
    q->items[i] = e;
    return 0;
}

static void heap_pop(Queue *q) {
    Entry last = q->items[--q->count];
    Py_ssize_t i = 0, n = q->count;
    for (;;) {
        Py_ssize_t child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && before(&q->items[child + 1], &q->items[child])) child++;
        if (!before(&q->items[child], &last)) break;
        q->items[i] = q->items[child];
        i = child;
    }
    if (n) q->items[i] = last;
}

/* A queue for estimates below `layers` (in units) and counts of moves below `costs`;
 * -1 when memory runs out. */
static int queue_init(Queue *q, int weighted, int unit, int layers, int costs) {
    memset(q, 0, sizeof(*q));
    q->weighted = weighted;
    q->unit = unit;
    if (weighted) return 0;
    q->layer_count = layers;
    q->costs = costs;
    q->lowest = q->layer_count;
    q->layers = PyMem_Calloc((size_t)q->layer_count, sizeof(Layer));
    return q->layers ? 0 : -1;
}

static void queue_free(Queue *q) {
    PyMem_Free(q->items);
    for (int e = 0; q->layers && e < q->layer_count; e++) {
        Stack *by_cost = q->layers[e].by_cost;
        for (int c = 0; by_cost && c < q->costs; c++) PyMem_Free(by_cost[c].states);
        PyMem_Free(by_cost);
    }
    PyMem_Free(q->layers);
}

/* -1 when memory runs out, or (with the exception set) for an estimate or a count of
 * moves outside the layers, which the bounds of both rule out. */
static int queue_push(Queue *q, Entry e) {
    if (q->weighted) return heap_push(q, e);
    int at = e.estimate / q->unit;
    if (at < 0 || at >= q->layer_count || e.cost < 0 || e.cost >= q->costs) {
        PyErr_SetString(PyExc_AssertionError, "unreachable: an entry outside the queue");
        return -1;
    }
    Layer *layer = &q->layers[at];
    if (layer->by_cost == NULL) {
        layer->by_cost = PyMem_Calloc((size_t)q->costs, sizeof(Stack));
        if (layer->by_cost == NULL) return -1;
        layer->highest = -1;
    }
    Stack *stack = &layer->by_cost[e.cost];
    if (stack->count == stack->capacity) {
        int32_t capacity = stack->capacity ? 2 * stack->capacity : 64;
        GROW_OR_FAIL(stack, states, capacity, sizeof(int32_t));
        stack->capacity = capacity;
    }
    stack->states[stack->count++] = e.state;
    if (e.cost > layer->highest) layer->highest = e.cost;
    layer->count++;
    q->count++;
    if (at < q->lowest) q->lowest = at;
    return 0;
}

/* The first entry into `top`; 0 when the queue is empty. */
static int queue_top(Queue *q, Entry *top) {
    if (q->count == 0) return 0;
    if (q->weighted) {
        *top = q->items[0];
        return 1;
    }
    while (q->layers[q->lowest].count == 0) q->lowest++;
    Layer *layer = &q->layers[q->lowest];
    while (layer->by_cost[layer->highest].count == 0) layer->highest--;
    Stack *stack = &layer->by_cost[layer->highest];
    *top = (Entry){q->lowest * q->unit, layer->highest, stack->states[stack->count - 1], 0};
    return 1;
}

/* Drop the first entry (queue_top has just found it). */
static void queue_pop(Queue *q) {
    if (q->weighted) {
        heap_pop(q);
        return;
    }
    Layer *layer = &q->layers[q->lowest];
    layer->by_cost[layer->highest].count--;
    layer->count--;
    q->count--;
}

/* -- reading the arguments ------------------------------------------------------- */

/* A set given as little-endian bytes of at most w * 8 bytes. */
static int read_set(PyObject *bytes, word *into, int w) {
    char *data;
    Py_ssize_t length;
    if (PyBytes_AsStringAndSize(bytes, &data, &length) < 0) return -1;
    if (length > (Py_ssize_t)w * 8) {
        PyErr_SetString(PyExc_ValueError, "a set is longer than the graph");
        return -1;
    }
    memset(into, 0, (size_t)w * sizeof(word));
    for (Py_ssize_t i = 0; i < length; i++) {
        into[i / 8] |= (word)(unsigned char)data[i] << (8 * (i % 8));
    }
    return 0;
}

static int read_sets(PyObject *list, word *into, Py_ssize_t count, int w) {
    if (!PyList_Check(list) || PyList_GET_SIZE(list) != count) {
        PyErr_SetString(PyExc_ValueError, "expected a list of sets as bytes");
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        if (read_set(PyList_GET_ITEM(list, i), into + (size_t)i * w, w) < 0) return -1;
    }
    return 0;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* -- the search -------------------------------------------------------------------- */

typedef struct {
    Board board;
    States states;
    Queue queue;
    word *scratch; /* 6 * w words: 3 for puchert, then a child's border, a move, and the
                    * border of the state expanded */
    word *masks;   /* 3 * cw words: colours to play now, worth playing after, all */
    word *kids;    /* (colours + 1) * w words: the children of the state expanded */
    uint32_t *kid_hash; /* their hashes */
    int *kid_colour;    /* and the colour played to reach each */
    int *left;     /* a colour list for puchert */
    long long *layers; /* states expanded by estimate (searches that are not weighted) */
    Py_ssize_t layer_count;
} Search;

static void search_free(Search *z) {
    PyMem_Free(z->board.everything);
    PyMem_Free(z->board.neighbours);
    PyMem_Free(z->board.of_colour);
    states_free(&z->states);
    queue_free(&z->queue);
    PyMem_Free(z->scratch);
    PyMem_Free(z->masks);
    PyMem_Free(z->kids);
    PyMem_Free(z->kid_hash);
    PyMem_Free(z->kid_colour);
    PyMem_Free(z->left);
    PyMem_Free(z->layers);
}

static PyObject *no_memory(Search *z) {
    search_free(z);
    return PyErr_NoMemory();
}

/* A push refused: memory ran out, or queue_push has set the exception. */
static PyObject *queue_failed(Search *z) {
    if (!PyErr_Occurred()) return no_memory(z);
    search_free(z);
    return NULL;
}

static PyObject *unreachable(Search *z) {
    search_free(z);
    PyErr_SetString(PyExc_ValueError,
                    "the flood cannot reach every cluster: is the graph connected?");
    return NULL;
}

/* The moves back from `state` to the start, as a list of colour indices. */
static PyObject *path_to(const States *s, Py_ssize_t state) {
    PyObject *moves = PyList_New(0);
    if (moves == NULL) return NULL;
    while (s->parent[state] >= 0) {
        PyObject *colour = PyLong_FromLong(s->colour[state]);
        if (colour == NULL || PyList_Append(moves, colour) < 0) {
            Py_XDECREF(colour);
            Py_DECREF(moves);
            return NULL;
        }
        Py_DECREF(colour);
        state = s->parent[state];
    }
    if (PyList_Reverse(moves) < 0) {
        Py_DECREF(moves);
        return NULL;
    }
    return moves;
}

static PyObject *shortest(PyObject *self, PyObject *args) {
    (void)self;
    int n, start;
    PyObject *neighbours, *of_colour;
    long long limit_nodes, ceiling, limit_states;
    double budget_s;
    int over, under; /* the weight of the bound: over / under */
    if (!PyArg_ParseTuple(args, "iO!O!iLLdLii", &n, &PyList_Type, &neighbours, &PyList_Type,
                          &of_colour, &start, &limit_nodes, &ceiling, &budget_s,
                          &limit_states, &over, &under)) {
        return NULL;
    }
    if (over < under || under < 1 || over > 1000) {
        PyErr_SetString(PyExc_ValueError, "bad weight");
        return NULL;
    }
    const int weighted = over != under;
    Py_ssize_t colours = PyList_GET_SIZE(of_colour);
    if (n <= 0 || start < 0 || start >= n || colours > 65535) {
        PyErr_SetString(PyExc_ValueError, "bad graph");
        return NULL;
    }
    double began = now();
    int w = (n + 63) / 64, cw = ((int)colours + 63) / 64 + (colours == 0);
    Search z;
    memset(&z, 0, sizeof(z));
    Board *b = &z.board;
    b->w = w;
    b->colours = (int)colours;
    b->everything = PyMem_Calloc((size_t)w, sizeof(word));
    b->neighbours = PyMem_Malloc((size_t)n * w * sizeof(word));
    b->of_colour = PyMem_Malloc(((size_t)colours + 1) * w * sizeof(word));
    z.scratch = PyMem_Malloc((size_t)6 * w * sizeof(word));
    z.masks = PyMem_Malloc((size_t)3 * cw * sizeof(word));
    z.left = PyMem_Malloc(((size_t)colours + 1) * sizeof(int));
    z.kids = PyMem_Malloc(((size_t)colours + 1) * w * sizeof(word));
    z.kid_hash = PyMem_Malloc(((size_t)colours + 1) * sizeof(uint32_t));
    z.kid_colour = PyMem_Malloc(((size_t)colours + 1) * sizeof(int));
    z.layer_count = 2 * (Py_ssize_t)n + 2; /* an estimate is at most n - 1 moves + n */
    z.layers = PyMem_Calloc((size_t)z.layer_count, sizeof(long long));
    if (states_init(&z.states, w, cw) < 0 ||
        queue_init(&z.queue, weighted, under, (int)z.layer_count, n + 1) < 0 ||
        !b->everything || !b->neighbours || !b->of_colour || !z.scratch || !z.masks ||
        !z.left || !z.layers || !z.kids || !z.kid_hash || !z.kid_colour) {
        return no_memory(&z);
    }
    for (int i = 0; i < n; i++) {
        b->everything[i / 64] |= (word)1 << (i % 64);
    }
    if (read_sets(neighbours, b->neighbours, n, w) < 0 ||
        read_sets(of_colour, b->of_colour, colours, w) < 0) {
        search_free(&z);
        return NULL;
    }
    if (!connected(b, start, z.scratch)) {
        return unreachable(&z);
    }
    States *s = &z.states;
    Queue *q = &z.queue;
    word *child_border = z.scratch + 3 * w, *border = z.scratch + 5 * w;
    word *todo = z.masks, *after = z.masks + cw, *every_colour = z.masks + 2 * cw;
    memset(every_colour, 0, (size_t)cw * sizeof(word));
    for (int c = 0; c < b->colours; c++) every_colour[c / 64] |= (word)1 << (c % 64);
    b->all_colours = every_colour;

    Py_ssize_t root = states_add(s, w);
    word *flooded = FLOODED(s, root, w);
    memset(flooded, 0, (size_t)w * sizeof(word));
    flooded[start / 64] |= (word)1 << (start % 64);
    border_of(b, flooded, border);
    s->cost[root] = 0;
    s->parent[root] = -1;
    s->colour[root] = 0;
    memcpy(WORTH(s, root), every_colour, (size_t)cw * sizeof(word));
    memset(PLAYED(s, root), 0, (size_t)cw * sizeof(word));
    int estimate = puchert(b, flooded, border, z.scratch, z.left);
    if (estimate < 0) {
        return unreachable(&z);
    }
    s->bound[root] = estimate;
    if (states_index(s, root, hash_of(flooded, w)) < 0) {
        return no_memory(&z);
    }
    if (queue_push(q, (Entry){over * estimate, 0, 0, 0}) < 0) {
        return queue_failed(&z);
    }
    long long proven = estimate, expanded = 0;
    Py_ssize_t goal = -1;
    int goal_cost = 0;
    int stopped = 0; /* a limit ended the search before it decided */
    Entry top;
    while (queue_top(q, &top)) {
        if (!weighted && top.estimate > proven) proven = top.estimate;
        if (ceiling >= 0 && proven >= ceiling) {
            stopped = 1;
            break;
        }
        queue_pop(q);
        flooded = FLOODED(s, top.state, w);
        if (equal(flooded, b->everything, w)) {
            goal = top.state;
            goal_cost = weighted ? (int)proven : top.cost;
            break;
        }
        if (top.cost > s->cost[top.state]) continue; /* reached more cheaply since */
        word any = 0;
        for (int k = 0; k < cw; k++) {
            todo[k] = WORTH(s, top.state)[k] & ~PLAYED(s, top.state)[k];
            any |= todo[k];
            PLAYED(s, top.state)[k] |= todo[k];
        }
        if (!any) continue; /* expanded already for every colour worth playing */
        expanded++;
        if (!weighted && top.estimate < z.layer_count) z.layers[top.estimate]++;
        if (limit_nodes >= 0 && expanded > limit_nodes) {
            stopped = 1;
            break;
        }
        /* A pending signal (the deadline's alarm, Ctrl-C) is one flag to read: checked
         * at every state, since one state of a board of thousands of clusters can take a
         * millisecond; the clock every 256. */
        if (PyErr_CheckSignals() < 0) {
            search_free(&z);
            return NULL;
        }
        if (expanded % 256 == 0) {
            /* Let other threads in (the watchdog that reports a run past its limit):
             * this search holds the interpreter's lock for all its seconds otherwise. */
            Py_BEGIN_ALLOW_THREADS
            Py_END_ALLOW_THREADS
            if (budget_s >= 0 && now() - began > budget_s) {
                stopped = 1;
                break;
            }
        }
        border_of(b, FLOODED(s, top.state, w), border);
        /* The children first, each with its hash, and the slot of the table where its
         * lookup starts fetched ahead: the table is read at random, so the misses of all
         * the children overlap instead of following one another. */
        int kids = 0;
        flooded = FLOODED(s, top.state, w);
        for (int c = 0; c < b->colours; c++) {
            if (!(todo[c / 64] >> (c % 64) & 1)) continue;
            const word *mask = b->of_colour + (size_t)c * w;
            word *kid = z.kids + (size_t)kids * w, touches = 0;
            for (int k = 0; k < w; k++) {
                word absorbed = border[k] & mask[k];
                touches |= absorbed;
                kid[k] = flooded[k] | absorbed;
            }
            if (!touches) continue;
            z.kid_hash[kids] = hash_of(kid, w);
            z.kid_colour[kids] = c;
            __builtin_prefetch(s->table + (z.kid_hash[kids] & (uint64_t)(s->slots - 1)));
            kids++;
        }
        /* Then the state each child's first slot names, when the hash matches. */
        for (int i = 0; i < kids; i++) {
            Slot entry = s->table[z.kid_hash[i] & (uint64_t)(s->slots - 1)];
            if (entry.state != 0 && entry.hash == z.kid_hash[i]) {
                __builtin_prefetch(FLOODED(s, entry.state - 1, w));
                __builtin_prefetch(s->cost + entry.state - 1);
            }
        }
        for (int i = 0; i < kids; i++) {
            const int c = z.kid_colour[i];
            /* The pool may move as states are added: find the parent again. */
            flooded = FLOODED(s, top.state, w);
            const word *child = z.kids + (size_t)i * w;
            int cost = top.cost + 1;
            uint32_t hash = z.kid_hash[i];
            Py_ssize_t known = states_find(s, child, hash, w);
            if (known >= 0 && s->cost[known] < cost) continue;
            if (known >= 0 && s->cost[known] == cost &&
                equal(WORTH(s, known), every_colour, cw)) {
                continue; /* already worth playing every colour from */
            }
            /* The child's border: the parent's, and the clusters beside what it absorbed. */
            word *absorbed = z.scratch + 4 * w;
            const word *mask = b->of_colour + (size_t)c * w;
            for (int k = 0; k < w; k++) {
                absorbed[k] = border[k] & mask[k];
                child_border[k] = border[k];
            }
            spread(b, absorbed, child_border);
            for (int k = 0; k < w; k++) child_border[k] &= ~child[k];
            if (known >= 0 && s->cost[known] == cost) {
                /* Another shortest path: what it leaves worth playing counts too. */
                worth_after(b, flooded, border, c, child, child_border, after, cw);
                word added = 0, unplayed = 0;
                for (int k = 0; k < cw; k++) {
                    word more = after[k] & ~WORTH(s, known)[k];
                    WORTH(s, known)[k] |= more;
                    added |= more;
                    unplayed |= more & ~PLAYED(s, known)[k];
                }
                if (added && unplayed &&
                    queue_push(q, (Entry){under * cost + over * s->bound[known], cost,
                                          (int32_t)known, 0}) < 0) {
                    return queue_failed(&z);
                }
                continue;
            }
            int h = puchert(b, child, child_border, z.scratch, z.left);
            if (h < 0) {
                return unreachable(&z);
            }
            if (ceiling >= 0 && cost + h >= ceiling) continue; /* cannot beat the ceiling */
            worth_after(b, flooded, border, c, child, child_border, after, cw);
            Py_ssize_t state = known;
            if (state < 0) {
                if (limit_states >= 0 && s->count >= limit_states) {
                    stopped = 1;
                    break;
                }
                state = states_add(s, w);
                if (state < 0) {
                    return no_memory(&z);
                }
                memcpy(FLOODED(s, state, w), child, (size_t)w * sizeof(word));
                if (states_index(s, state, hash) < 0) {
                    return no_memory(&z);
                }
            }
            s->cost[state] = cost;
            s->bound[state] = h;
            s->parent[state] = top.state;
            s->colour[state] = (uint16_t)c;
            memcpy(WORTH(s, state), after, (size_t)cw * sizeof(word));
            memset(PLAYED(s, state), 0, (size_t)cw * sizeof(word));
            if (queue_push(q, (Entry){under * cost + over * h, cost, (int32_t)state, 0}) < 0) {
                return queue_failed(&z);
            }
        }
        if (stopped) break;
    }
    Py_ssize_t used = z.layer_count;
    while (used > 0 && z.layers[used - 1] == 0) used--;
    PyObject *layers = PyTuple_New(used);
    if (layers == NULL) {
        search_free(&z);
        return NULL;
    }
    for (Py_ssize_t f = 0; f < used; f++) {
        PyObject *count = PyLong_FromLongLong(z.layers[f]);
        if (count == NULL) {
            Py_DECREF(layers);
            search_free(&z);
            return NULL;
        }
        PyTuple_SET_ITEM(layers, f, count);
    }
    PyObject *result;
    if (goal >= 0) {
        PyObject *moves = path_to(s, goal);
        result = moves ? Py_BuildValue("(NiLN)", moves, goal_cost, expanded, layers) : NULL;
        if (moves == NULL) Py_DECREF(layers);
    } else {
        if (!stopped && ceiling >= 0 && ceiling > proven) proven = ceiling;
        if (!stopped && ceiling < 0) {
            Py_DECREF(layers);
            search_free(&z);
            PyErr_SetString(PyExc_AssertionError, "unreachable: every board can be flooded");
            return NULL;
        }
        result = Py_BuildValue("(OLLN)", Py_None, proven, expanded, layers);
    }
    search_free(&z);
    return result;
}

static PyMethodDef methods[] = {
    {"shortest", shortest, METH_VARARGS,
     "shortest(n, neighbours, of_colour, start, limit_nodes, ceiling, budget_s, limit_states,"
     " over, under) -> (moves or None, proven, expanded, layers); -1 for no limit, no"
     " ceiling, no budget; the queue orders by under * moves + over * bound; layers counts"
     " the states expanded by estimate (empty when weighted)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_astar", "The A* search of presolve.shortest_by_search, compiled.",
    -1, methods,
};

PyMODINIT_FUNC PyInit__astar(void) { return PyModule_Create(&module); }
