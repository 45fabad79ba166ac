/* Majority awards with ties (the usual Euro-game rule): every player with the highest count
 * takes the first prize; a tie for first leaves second place empty; otherwise every player
 * with the next-highest count takes the second prize. A count of 0 never scores. */
#ifndef ES_CORE_MAJORITY_H
#define ES_CORE_MAJORITY_H

/* Adds the prizes to vp[0..n-1]. allow_second = 0 awards first places only (e.g. 2 players). */
static inline void es_majority_award(const int *count, int n, int first, int second, int allow_second, int *vp) {
    int top = 0, tops = 0;
    for (int p = 0; p < n; p++)
        if (count[p] > top) top = count[p], tops = 1;
        else if (count[p] == top && top > 0) tops++;
    if (top <= 0) return;
    for (int p = 0; p < n; p++)
        if (count[p] == top) vp[p] += first;
    if (!allow_second || tops >= 2) return;
    int next = 0;
    for (int p = 0; p < n; p++)
        if (count[p] < top && count[p] > next) next = count[p];
    if (next <= 0) return;
    for (int p = 0; p < n; p++)
        if (count[p] == next) vp[p] += second;
}
#endif
