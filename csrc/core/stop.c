/* Stopping native work on request (Ctrl-C): a process-wide count of stop requests, and per
 * thread the count at which that thread began watching. A search compares the two: a request
 * made while its thread watches stops it; searches of threads that do not watch run on. */
#include <stdatomic.h>

#include "eurosearch.h"
#include "stop.h"

/* A signal handler may only touch lock-free atomics. */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "stop requests need a lock-free atomic int");

static atomic_uint requests;

static _Thread_local es_stop watch;

void es_request_stop(void) { atomic_fetch_add_explicit(&requests, 1u, memory_order_relaxed); }

void es_watch_stops(int on) {
    watch.watched = on != 0;
    watch.seen = atomic_load_explicit(&requests, memory_order_relaxed);
}

es_stop es_stop_begin(void) { return watch; }

int es_stop_requested(const es_stop *t) {
    return t->watched && atomic_load_explicit(&requests, memory_order_relaxed) != t->seen;
}
