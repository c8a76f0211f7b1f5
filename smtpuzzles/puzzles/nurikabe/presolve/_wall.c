/* The wall's cut cells of deduce._wall_cuts, compiled.
 *
 * deduce.py holds the search in Python and is its specification: the same depth-first
 * search from the least black cell, the same neighbour order, the same lowpoints, so
 * both return the same cut cells and the same room. It runs once per round of the
 * deductions and once for every hypothesis tried, over the whole grid: on the largest
 * grids it was most of the deductions' time. Here the cells are C arrays; the graph
 * is read from the caller's tuple of neighbour tuples as it is.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>

/* A cell's index from a Python int, -1 (with an exception set) when it is no cell. */
static Py_ssize_t cell_of(PyObject *item, Py_ssize_t n) {
    Py_ssize_t i = PyLong_AsSsize_t(item);
    if (i == -1 && PyErr_Occurred()) return -1;
    if (i < 0 || i >= n) {
        PyErr_SetString(PyExc_IndexError, "cell out of range");
        return -1;
    }
    return i;
}

/* Mark each cell of the iterable `cells` in `mark` with `value`; -1 on error. */
static int mark_cells(PyObject *cells, Py_ssize_t n, Py_ssize_t *mark, Py_ssize_t value) {
    PyObject *it = PyObject_GetIter(cells);
    if (it == NULL) return -1;
    PyObject *item;
    while ((item = PyIter_Next(it)) != NULL) {
        Py_ssize_t i = cell_of(item, n);
        Py_DECREF(item);
        if (i < 0) {
            Py_DECREF(it);
            return -1;
        }
        mark[i] = value;
    }
    Py_DECREF(it);
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *cuts(PyObject *self, PyObject *args) {
    PyObject *nbrs, *white, *black;
    if (!PyArg_ParseTuple(args, "O!OO", &PyTuple_Type, &nbrs, &white, &black)) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(nbrs);
    Py_ssize_t blacks = PyObject_Size(black);
    if (blacks < 0) return NULL;
    if (blacks == 0) {
        Py_ssize_t whites = PyObject_Size(white);
        if (whites < 0) return NULL;
        return Py_BuildValue("(Nn)", PySet_New(NULL), n - whites);
    }
    /* order: -2 white, -1 unseen, else the visit number; is_black and below as ints */
    Py_ssize_t *order = malloc(sizeof(Py_ssize_t) * (size_t)n * 6 + 1);
    if (order == NULL) return PyErr_NoMemory();
    Py_ssize_t *low = order + n, *below = low + n, *is_black = below + n;
    Py_ssize_t *stack = is_black + n, *next = stack + n; /* cell and neighbour index */
    PyObject *result = NULL, *found = NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        order[i] = -1;
        low[i] = below[i] = is_black[i] = 0;
    }
    if (mark_cells(white, n, order, -2) < 0 || mark_cells(black, n, is_black, 1) < 0) goto done;
    Py_ssize_t root = -1;
    for (Py_ssize_t i = 0; i < n; i++)
        if (is_black[i]) {
            root = i;
            break;
        }
    found = PySet_New(NULL);
    if (found == NULL) goto done;
    order[root] = 0;
    below[root] = 1;
    Py_ssize_t seen = 1, top = 0;
    stack[0] = root;
    next[0] = 0;
    while (top >= 0) {
        Py_ssize_t v = stack[top];
        PyObject *row = PyTuple_GET_ITEM(nbrs, v);
        if (!PyTuple_Check(row)) {
            PyErr_SetString(PyExc_TypeError, "neighbours must be tuples");
            goto done;
        }
        Py_ssize_t degree = PyTuple_GET_SIZE(row), pushed = 0;
        while (next[top] < degree) {
            Py_ssize_t w = cell_of(PyTuple_GET_ITEM(row, next[top]), n);
            next[top]++;
            if (w < 0) goto done;
            Py_ssize_t seen_w = order[w];
            if (seen_w == -1) {
                order[w] = low[w] = seen++;
                if (is_black[w]) below[w] = 1;
                top++;
                stack[top] = w;
                next[top] = 0;
                pushed = 1;
                break;
            }
            if (-1 < seen_w && seen_w < low[v]) low[v] = seen_w;
        }
        if (pushed) continue;
        top--;
        if (top >= 0) {
            Py_ssize_t u = stack[top];
            if (low[v] < low[u]) low[u] = low[v];
            if (below[v]) {
                below[u] += below[v];
                if (u != root && low[v] >= order[u] && !is_black[u]) {
                    PyObject *cell = PyLong_FromSsize_t(u);
                    if (cell == NULL || PySet_Add(found, cell) < 0) {
                        Py_XDECREF(cell);
                        goto done;
                    }
                    Py_DECREF(cell);
                }
            }
        }
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (is_black[i] && order[i] < 0) {
            result = Py_BuildValue("(NO)", PySet_New(NULL), Py_None);
            goto done;
        }
    result = Py_BuildValue("(On)", found, seen);
done:
    Py_XDECREF(found);
    free(order);
    return result;
}

static PyMethodDef wall_methods[] = {
    {"cuts", cuts, METH_VARARGS,
     "cuts(neighbours, white, black) -> (cut cells, room or None): deduce._wall_cuts."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef wall_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_wall",
    .m_doc = "The wall's cut cells of deduce._wall_cuts, compiled.",
    .m_size = -1,
    .m_methods = wall_methods,
};

PyMODINIT_FUNC PyInit__wall(void) { return PyModule_Create(&wall_module); }
