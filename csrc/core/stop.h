/* Stop requests (Ctrl-C) as the search loops see them: a token taken when a search starts,
 * asked where the search already looks at its clock. See es_request_stop in eurosearch.h. */
#ifndef ES_CORE_STOP_H
#define ES_CORE_STOP_H

typedef struct es_stop {
    int watched;      /* the starting thread watched for stop requests */
    unsigned seen;    /* the request count when it began watching */
} es_stop;

/* The calling thread's watch, for a search it starts (possibly run on another thread). */
es_stop es_stop_begin(void);
/* 1 once a stop was requested after the watch began (never for an unwatched search). */
int es_stop_requested(const es_stop *t);
#endif
