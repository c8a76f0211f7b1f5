/* The last resort of --timeout and --memory: a thread of the C library that needs no
 * interpreter lock.
 *
 * The limits are held in Python (a deadline signal, a watchdog thread, budget checks),
 * and those act only when the interpreter lets them run. When the main thread keeps
 * the interpreter lock and never gives it up (CPython can spin that way unwinding an
 * exception with every byte under the memory cap taken), none of them runs again.
 * This thread ends the process with one line on standard error and exit 3:
 *  - a set time after the deadline, unless the run has begun to report (disarm);
 *  - when the process is within a little of the memory cap and a second thread has
 *    waited a set time for the interpreter lock in vain (Z3 working near the cap gives
 *    the lock up; the spin does not).
 * Neither allocates once started, so both work with the heap exhausted.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define EXIT_LIMIT 3
#define STACK_BYTES (64 * 1024)
#define POLL_NS (100 * 1000 * 1000L)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed;
static int started = 0;

static int armed = 0;
static struct timespec due;
static char time_message[256];

static long long cap_bytes = 0;
static long long slack_bytes = 0;
static double stuck_s = 0.0;
static char memory_message[256];
static char status_text[4096];

/* The last time the prober held the interpreter lock (CLOCK_MONOTONIC seconds). */
static volatile double last_beat = 0.0;
static int probing = 0;

static void say_and_exit(const char *message)
{
    size_t left = strlen(message);
    const char *at = message;
    while (left > 0) {
        ssize_t wrote = write(2, at, left);
        if (wrote <= 0)
            break;
        at += wrote;
        left -= (size_t)wrote;
    }
    _exit(EXIT_LIMIT);
}

/* VmData of /proc/self/status in bytes (what RLIMIT_DATA holds), or -1. */
static long long data_bytes(void)
{
    int fd = open("/proc/self/status", O_RDONLY);
    if (fd < 0)
        return -1;
    ssize_t got = read(fd, status_text, sizeof status_text - 1);
    close(fd);
    if (got <= 0)
        return -1;
    status_text[got] = '\0';
    const char *line = strstr(status_text, "VmData:");
    if (line == NULL)
        return -1;
    return strtoll(line + 7, NULL, 10) * 1024;
}

static int before(const struct timespec *a, const struct timespec *b)
{
    return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

static double seconds(const struct timespec *t)
{
    return (double)t->tv_sec + (double)t->tv_nsec / 1e9;
}

static void *watch(void *unused)
{
    (void)unused;
    struct timespec now, wake;
    double near_since = -1.0;
    pthread_mutex_lock(&lock);
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (armed && !before(&now, &due))
            say_and_exit(time_message);
        if (cap_bytes > 0) {
            long long data = data_bytes();
            if (data >= 0 && data + slack_bytes >= cap_bytes) {
                if (near_since < 0)
                    near_since = seconds(&now);
                else if (seconds(&now) - near_since >= stuck_s
                         && seconds(&now) - last_beat >= stuck_s)
                    say_and_exit(memory_message);
            } else {
                near_since = -1.0;
            }
        }
        if (!armed && cap_bytes == 0) {
            pthread_cond_wait(&changed, &lock);
            continue;
        }
        wake = now;
        wake.tv_nsec += POLL_NS;
        if (wake.tv_nsec >= 1000000000L) {
            wake.tv_sec += 1;
            wake.tv_nsec -= 1000000000L;
        }
        if (armed && before(&due, &wake))
            wake = due;
        pthread_cond_timedwait(&changed, &lock, &wake);
    }
    return NULL;
}

/* A detached thread running ``body`` on a small stack (a thread's stack counts
 * against the memory cap); 0 when it runs. */
static int spawn(void *(*body)(void *))
{
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, STACK_BYTES);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    int failed = pthread_create(&thread, &attr, body, NULL);
    pthread_attr_destroy(&attr);
    return failed ? -1 : 0;
}

/* Start the thread once; 0 when it runs. Called with the lock held. */
static int start(void)
{
    if (started)
        return 0;
    pthread_condattr_t cattr;
    pthread_condattr_init(&cattr);
    pthread_condattr_setclock(&cattr, CLOCK_MONOTONIC);
    pthread_cond_init(&changed, &cattr);
    pthread_condattr_destroy(&cattr);
    if (spawn(watch))
        return -1;
    started = 1;
    return 0;
}

/* Take the interpreter lock and give it back, again and again, noting each time:
 * a main thread that never gives the lock up leaves the beat behind. Its thread
 * state is made once at the start, while there is room. */
static void *probe(void *unused)
{
    (void)unused;
    PyGILState_Ensure();
    struct timespec now, pause = {0, POLL_NS};
    clock_gettime(CLOCK_MONOTONIC, &now);
    last_beat = seconds(&now);
    pthread_mutex_lock(&lock);
    probing = 1;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
    for (;;) {
        PyThreadState *state = PyEval_SaveThread();
        nanosleep(&pause, NULL);
        PyEval_RestoreThread(state);
        clock_gettime(CLOCK_MONOTONIC, &now);
        last_beat = seconds(&now);
    }
    return NULL;
}

/* Start the prober and wait until it has its thread state; 0 when it runs. Called
 * with the interpreter lock held. */
static int start_probe(void)
{
    if (spawn(probe))
        return -1;
    Py_BEGIN_ALLOW_THREADS
    pthread_mutex_lock(&lock);
    while (!probing)
        pthread_cond_wait(&changed, &lock);
    pthread_mutex_unlock(&lock);
    Py_END_ALLOW_THREADS
    return 0;
}

static void copy_message(char *into, const char *text)
{
    snprintf(into, 256, "%s\n", text);
}

static PyObject *arm(PyObject *self, PyObject *args)
{
    double at;
    const char *message;
    if (!PyArg_ParseTuple(args, "ds", &at, &message))
        return NULL;
    pthread_mutex_lock(&lock);
    if (start()) {
        pthread_mutex_unlock(&lock);
        Py_RETURN_FALSE;
    }
    due.tv_sec = (time_t)at;
    due.tv_nsec = (long)((at - (double)due.tv_sec) * 1e9);
    copy_message(time_message, message);
    armed = 1;
    pthread_cond_signal(&changed);
    pthread_mutex_unlock(&lock);
    Py_RETURN_TRUE;
}

static PyObject *disarm(PyObject *self, PyObject *args)
{
    (void)args;
    pthread_mutex_lock(&lock);
    armed = 0;
    pthread_cond_signal(&changed);
    pthread_mutex_unlock(&lock);
    Py_RETURN_NONE;
}

static PyObject *watch_memory(PyObject *self, PyObject *args)
{
    long long cap, slack;
    double stuck;
    const char *message;
    if (!PyArg_ParseTuple(args, "LLds", &cap, &slack, &stuck, &message))
        return NULL;
    pthread_mutex_lock(&lock);
    int failed = start();
    pthread_mutex_unlock(&lock);
    if (failed || (!probing && start_probe()))
        Py_RETURN_FALSE;
    pthread_mutex_lock(&lock);
    cap_bytes = cap;
    slack_bytes = slack;
    stuck_s = stuck;
    copy_message(memory_message, message);
    pthread_cond_signal(&changed);
    pthread_mutex_unlock(&lock);
    Py_RETURN_TRUE;
}

static PyMethodDef methods[] = {
    {"arm", arm, METH_VARARGS,
     "arm(at, message) -> bool: at time.monotonic() == at, print message, exit 3."},
    {"disarm", disarm, METH_NOARGS, "disarm(): the run reports by itself from here."},
    {"watch_memory", watch_memory, METH_VARARGS,
     "watch_memory(cap, slack, stuck_s, message) -> bool: exit 3 once within slack "
     "bytes of cap (VmData) for stuck_s seconds with the interpreter lock held as long "
     "(call before the cap is set)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_hardstop",
    "A thread that ends the process at a hard limit without the interpreter lock.", -1,
    methods,
};

PyMODINIT_FUNC PyInit__hardstop(void)
{
    return PyModule_Create(&module);
}
