/* Helpers shared by the fracture checks: box sets, generators and
 * independent references (all-pairs adjacency, breadth-first support). */
#ifndef WK_FRACTURE_TEST_UTIL_H
#define WK_FRACTURE_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "wk_checks.h"
#include "worldkern/fracture.h"

typedef struct boxset {
    uint32_t n;
    float *v[6]; /* min_x, min_y, min_z, max_x, max_y, max_z */
} boxset;

boxset boxset_new(uint32_t n);
void boxset_free(boxset *b);
wk_boxes boxset_view(const boxset *b);
void boxset_set(boxset *b, uint32_t i, float x0, float y0, float z0, float x1, float y1, float z1);

/* Generators: kind 0 random sizes 0.5..1.5 in a cube of side about
 * cbrt(n); 1 touching unit cubes on a lattice (n rounded down to g^3 is
 * NOT done: the first n cells of a g x g x g lattice); 2 mixed sizes with
 * a few huge boxes; 3 points on an integer grid; 4 flat plates; 5 a lattice
 * of 0.25 cubes far from the origin; 6 everything in one spot; 7 two
 * clusters 1e30 apart. */
enum { GEN_KINDS = 8 };
void gen_boxes(boxset *b, wk_rng *r, int kind);

/* All pairs (i < j) touching under `pad`, lexicographic; *count; malloc'd. */
uint32_t *all_pairs(const boxset *b, float pad, size_t *count);

/* wk_fracture_adjacency with a fresh workspace and exact-size output
 * (two-call); malloc'd pairs in *pairs (NULL when count is 0). */
wk_status adjacency_alloc(const boxset *b, float pad, const wk_exec *exec, uint32_t **pairs, size_t *count);

/* An independent reference of support: plain adjacency lists (self and
 * repeated pairs kept as given) and a full breadth-first search. */
typedef struct ref_graph {
    uint32_t n;
    uint32_t *off, *adj, *queue;
} ref_graph;
ref_graph ref_graph_new(uint32_t n, const uint32_t *pairs, size_t npairs);
void ref_graph_free(ref_graph *g);
/* alive[v] = 1 when v is reachable from an anchor (anchor[v] != 0) through
 * fragments with removed[v] == 0 (removed may be NULL); returns the count. */
uint32_t ref_support(const ref_graph *g, const uint8_t *anchor, const uint8_t *removed, uint8_t *alive);

#endif
