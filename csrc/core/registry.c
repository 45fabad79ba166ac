/* The list of compiled games. Adding a game: one line here and its module in games/. */
#include <string.h>
#include "eurosearch.h"

extern const es_game_def es_vienna_def;
extern const es_game_def es_oh_my_goods_def;
extern const es_game_def es_coal_baron_def;
extern const es_game_def es_wolsung_def;
extern const es_game_def es_bruges_def;
extern const es_game_def es_backgammon_def;

static const es_game_def *const registry[] = {
    &es_vienna_def,
    &es_oh_my_goods_def,
    &es_coal_baron_def,
    &es_wolsung_def,
    &es_bruges_def,
    &es_backgammon_def,
};

int es_game_count(void) { return (int)(sizeof registry / sizeof registry[0]); }

const es_game_def *es_game_def_at(int i) {
    return (i >= 0 && i < es_game_count()) ? registry[i] : NULL;
}

const es_game_def *es_find_game(const char *name) {
    if (!name) return NULL;
    for (int i = 0; i < es_game_count(); i++)
        if (strcmp(registry[i]->name, name) == 0) return registry[i];
    return NULL;
}
