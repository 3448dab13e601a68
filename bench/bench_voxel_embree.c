/* bench_voxel_embree.c: Embree 3 on the voxel family's benchmark scene, for
 * the "vs Embree" goal. Built only when CMake finds Embree 3
 * (Debian: libembree-dev); names voxel/embree/<api>/<scene>/t<threads>.
 *
 * The scene and the rays are the ones of bench_voxel.c, built by the same
 * code (voxel_scene.c) with the same seeds: a 256^3 terrain, wk_noise_fbm2_grid heights mapped to
 * 40..216, about 1% of the surface blocks carved into random bricks; the
 * 1024^2 pinhole camera rays and the 2^20 random rays, tmax = INFINITY.
 * The counter hit_fraction (worldkern's exact cast) equals the one of
 * voxel/raycast/.../camera1024 and .../random1M when the scenes agree.
 *
 * Geometry: every exposed face, as a quad (RTC_GEOMETRY_TYPE_QUAD, one
 * geometry, 4 vertices per quad): each face of a solid block whose
 * neighbour block is empty (a whole 1x1 quad), or, where the neighbour is a
 * brick, each quarter of that face whose neighbouring sub-voxel is empty
 * (1/4 x 1/4 quads); and each face of a solid sub-voxel of a brick whose
 * neighbouring cell (in the same brick, a neighbour brick or block) is
 * empty. Faces are read from the world itself (wk_voxel_get_block). All
 * vertex coordinates are multiples of 1/4 in [0, 256]: exact in float.
 * Scene: default flags, default build quality (RTC_BUILD_QUALITY_MEDIUM);
 * the device is made with "threads=1" (build on one thread) for t1.
 *
 * Rays: the same origins and directions (not normalized: Embree's tfar is
 * in units of |d|, so the distance compared is tfar * |d|), tnear = 0,
 * tfar = INFINITY. Each ray's hit (tfar, primID) is written back to arrays
 * inside the timed loop, as a caller of Embree with SoA rays has to; the
 * packets are filled from the SoA arrays in the loop too. MXCSR has FTZ and
 * DAZ set while Embree runs (Embree's advice). Variants:
 *   rtcIntersect16                   packets of 16 consecutive rays (index
 *                                    order; a valid mask for a tail), the
 *                                    intersect context's default flags
 *                                    (incoherent): the plain use
 *   rtcIntersect16_coherent          the same with
 *                                    RTC_INTERSECT_CONTEXT_FLAG_COHERENT
 *   rtcIntersect16_tile4x4_coherent  camera rays in packets of 4x4 pixels,
 *                                    coherent flag: Embree's best case for
 *                                    primary rays (same rays, other packets)
 *   rtcIntersect1                    one ray per call
 *
 * Verification before timing, against wk_voxel_raycast (scalar reference):
 * per ray, whether there is a hit (presence_diff) and, where both hit,
 * whether the distances differ by more than 1e-4 relative (t_diff); and,
 * for information, whether the block hit differs (block_diff: on edges and
 * corners the two may pick different faces at the same t). Embree is float
 * and, without RTC_SCENE_FLAG_ROBUST, not watertight: a ray through a block
 * edge can slip between two quads and hit a face behind (up to 2 rays of
 * each set here; with the robust flag none). More than 0.1% of the rays
 * (presence_diff + t_diff) fails the benchmark: the scene would differ.
 *
 * voxel/embree/build/terrain256/t<threads>: the BVH build that Embree needs
 * after every edit (a new scene over the quads already extracted, shared
 * buffers, rtcCommitScene); items = quads. The face extraction itself is
 * not timed (counter extract_s, measured once, for information). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <embree3/rtcore.h>
#if defined(__SSE__) || defined(_M_X64)
#include <xmmintrin.h>
#define HAVE_MXCSR 1
#endif

#include <worldkern/voxel.h>

#include "bench_shim.h"
#include "voxel_scene.h"

enum { SIZE = WK_SCENE_SIZE, CAM = 1024, RANDOM_RAYS = 1 << 20, LAT = 4 * SIZE };

/* ---------------------------------------------------------------- the scene (voxel_scene.c) */

typedef struct rays {
    size_t n;
    float *o[3], *d[3];
    float *ref_t;          /* worldkern's t (scalar reference) */
    int32_t *ref_xyz;      /* 3n */
    int8_t *ref_sf;        /* 2n: sub, face */
    float *t;              /* Embree's tfar */
    uint32_t *prim;        /* Embree's primID (RTC_INVALID_GEOMETRY_ID: none) */
    double wk_hit_fraction;
} rays;

/* What a quad is: the cell it bounds. */
typedef struct quad_info {
    uint8_t x, y, z; /* block */
    int8_t sub;      /* -1 solid block, else the sub-voxel */
    int8_t face;     /* 0..5: the face of that cell (outward normal) */
    uint8_t pad[3];
} quad_info;

static struct escene {
    int state; /* 0 not built, 1 ok, -1 failed */
    wk_voxel_world *w;
    rays camera, random;
    /* geometry */
    size_t nquads;
    float *vtx;      /* 3 * 4 * nquads (+ 4 floats of padding) */
    uint32_t *idx;   /* 4 * nquads */
    quad_info *info;
    double extract_s;
    uint64_t solid_blocks, bricks;
    /* Embree */
    RTCDevice dev;
    RTCScene scn;
    uint32_t *tile_order; /* camera ray indices, 4x4 pixel tiles in row order */
} es;

static double now_s(void) {
    struct timespec ts;
    timespec_get(&ts, TIME_UTC); /* C11 */
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int rays_alloc(rays *r, size_t n) {
    r->n = n;
    for (int a = 0; a < 3; a++) {
        r->o[a] = malloc(n * 4);
        r->d[a] = malloc(n * 4);
        if (!r->o[a] || !r->d[a]) return 0;
    }
    r->ref_t = malloc(n * 4);
    r->ref_xyz = malloc(n * 12);
    r->ref_sf = malloc(n * 2);
    r->t = malloc(n * 4);
    r->prim = malloc(n * 4);
    return r->ref_t && r->ref_xyz && r->ref_sf && r->t && r->prim;
}

static int camera_rays(rays *r, uint32_t side) {
    return rays_alloc(r, (size_t)side * side) && wk_scene_camera_rays(side, r->o, r->d);
}

static int build_world(void) {
    float *height = malloc(SIZE * SIZE * sizeof(float));
    uint32_t st = 99;
    uint64_t carved;
    int ok = height && wk_scene_build_world(&es.w, height, &st, &carved);
    ok = ok && camera_rays(&es.camera, CAM);
    rays *r = &es.random;
    ok = ok && rays_alloc(r, RANDOM_RAYS);
    if (ok) wk_scene_random_rays(height, &st, r->n, r->o, r->d);
    free(height);
    if (!ok) return 0;
    wk_voxel_stats stats;
    if (wk_voxel_world_stats(es.w, &stats) != WK_OK) return 0;
    es.solid_blocks = stats.solid_blocks;
    es.bricks = stats.bricks;
    /* worldkern's answers (scalar reference, one thread) */
    wk_exec scalar = WK_EXEC_DEFAULTS;
    scalar.isa = WK_ISA_SCALAR;
    scalar.threads = 1;
    rays *all[2] = {&es.camera, &es.random};
    for (int k = 0; k < 2; k++) {
        rays *q = all[k];
        wk_rays wr = {q->o[0], q->o[1], q->o[2], q->d[0], q->d[1], q->d[2], NULL, q->n, {0}};
        wk_hits h = {q->ref_t, q->ref_xyz, q->ref_xyz + q->n, q->ref_xyz + 2 * q->n, q->ref_sf, q->ref_sf + q->n, {0}};
        if (wk_voxel_raycast(es.w, &wr, &h, &scalar) != WK_OK) return 0;
        size_t hits = 0;
        for (size_t i = 0; i < q->n; i++) hits += q->ref_sf[q->n + i] >= 0;
        q->wk_hit_fraction = (double)hits / (double)q->n;
    }
    return 1;
}

/* ---------------------------------------------------------------- exposed faces */

/* Block states over [0, SIZE)^3: 0 empty, 1 solid, 2 + k brick k. */
static uint16_t *bstate;
static uint64_t *bmask;

static int cell_solid(int X, int Y, int Z) { /* lattice cell (quarter blocks) */
    if (X < 0 || Y < 0 || Z < 0 || X >= LAT || Y >= LAT || Z >= LAT) return 0;
    uint16_t s = bstate[(size_t)(X >> 2) + SIZE * ((size_t)(Y >> 2) + SIZE * (size_t)(Z >> 2))];
    if (s < 2) return s;
    return (int)((bmask[s - 2] >> ((X & 3) + 4 * (Y & 3) + 16 * (Z & 3))) & 1);
}

static size_t cap_quads;

static int push_quad(int X, int Y, int Z, int size, int face, int bx, int by, int bz, int sub) {
    /* cell [X, X + size) x ... in lattice units; face 2a + s: axis a, s = 1 for + */
    if (es.nquads == cap_quads) {
        size_t c = cap_quads ? 2 * cap_quads : 1 << 16;
        float *v = realloc(es.vtx, (c * 12 + 4) * sizeof(float));
        if (!v) return 0;
        es.vtx = v;
        uint32_t *ix = realloc(es.idx, c * 4 * sizeof(uint32_t));
        if (!ix) return 0;
        es.idx = ix;
        quad_info *in = realloc(es.info, c * sizeof(quad_info));
        if (!in) return 0;
        es.info = in;
        cap_quads = c;
    }
    int a = face >> 1, b = (a + 1) % 3, c = (a + 2) % 3;
    int p[3] = {X, Y, Z};
    if (face & 1) p[a] += size;
    size_t q = es.nquads;
    float *v = es.vtx + 12 * q;
    for (int k = 0; k < 4; k++) {
        int e[3] = {p[0], p[1], p[2]};
        if (k == 1 || k == 2) e[b] += size;
        if (k == 2 || k == 3) e[c] += size;
        for (int ax = 0; ax < 3; ax++) v[3 * k + ax] = (float)e[ax] * 0.25f;
        es.idx[4 * q + (size_t)k] = (uint32_t)(4 * q + (size_t)k);
    }
    quad_info in = {(uint8_t)bx, (uint8_t)by, (uint8_t)bz, (int8_t)sub, (int8_t)face, {0, 0, 0}};
    es.info[q] = in;
    es.nquads++;
    return 1;
}

static int extract_faces(void) {
    double t0 = now_s();
    size_t nb = (size_t)SIZE * SIZE * SIZE;
    bstate = calloc(nb, sizeof *bstate);
    bmask = malloc(65536 * sizeof *bmask);
    if (!bstate || !bmask) return 0;
    size_t nbricks = 0;
    for (int z = 0; z < SIZE; z++)
        for (int y = 0; y < SIZE; y++)
            for (int x = 0; x < SIZE; x++) {
                uint64_t m;
                if (wk_voxel_get_block(es.w, x, y, z, &m) != WK_OK) return 0;
                uint16_t s = 0;
                if (m == WK_VOXEL_FULL) s = 1;
                else if (m) {
                    if (nbricks >= 65534) return 0;
                    bmask[nbricks] = m;
                    s = (uint16_t)(2 + nbricks++);
                }
                bstate[(size_t)x + SIZE * ((size_t)y + SIZE * (size_t)z)] = s;
            }
    static const int dir[6][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};
    for (int z = 0; z < SIZE; z++)
        for (int y = 0; y < SIZE; y++)
            for (int x = 0; x < SIZE; x++) {
                uint16_t s = bstate[(size_t)x + SIZE * ((size_t)y + SIZE * (size_t)z)];
                if (s == 0) continue;
                if (s == 1) {
                    for (int f = 0; f < 6; f++) {
                        int nx = x + dir[f][0], ny = y + dir[f][1], nz = z + dir[f][2];
                        int ns = 0;
                        if (nx >= 0 && ny >= 0 && nz >= 0 && nx < SIZE && ny < SIZE && nz < SIZE)
                            ns = bstate[(size_t)nx + SIZE * ((size_t)ny + SIZE * (size_t)nz)];
                        if (ns == 1) continue;
                        if (ns == 0) {
                            if (!push_quad(4 * x, 4 * y, 4 * z, 4, f, x, y, z, -1)) return 0;
                            continue;
                        }
                        /* neighbour brick: the quarters of the face next to its empty cells */
                        int a = f >> 1, b = (a + 1) % 3, c = (a + 2) % 3;
                        for (int j = 0; j < 4; j++)
                            for (int i = 0; i < 4; i++) {
                                int cell[3] = {4 * x, 4 * y, 4 * z};
                                cell[b] += i;
                                cell[c] += j;
                                int nb3[3] = {cell[0], cell[1], cell[2]};
                                nb3[a] += (f & 1) ? 4 : -1;
                                if (cell_solid(nb3[0], nb3[1], nb3[2])) continue;
                                int lo[3] = {cell[0], cell[1], cell[2]};
                                if (f & 1) lo[a] += 3; /* the face lies on the cell's + side */
                                if (!push_quad(lo[0], lo[1], lo[2], 1, f, x, y, z, -1)) return 0;
                            }
                    }
                    continue;
                }
                uint64_t m = bmask[s - 2];
                for (int k = 0; k < 64; k++) {
                    if (!((m >> k) & 1)) continue;
                    int X = 4 * x + (k & 3), Y = 4 * y + ((k >> 2) & 3), Z = 4 * z + (k >> 4);
                    for (int f = 0; f < 6; f++) {
                        if (cell_solid(X + dir[f][0], Y + dir[f][1], Z + dir[f][2])) continue;
                        if (!push_quad(X, Y, Z, 1, f, x, y, z, k)) return 0;
                    }
                }
            }
    free(bstate);
    free(bmask);
    bstate = NULL;
    bmask = NULL;
    memset(es.vtx + 12 * es.nquads, 0, 4 * sizeof(float)); /* padding: Embree reads 16 bytes */
    es.extract_s = now_s() - t0;
    return 1;
}

/* ---------------------------------------------------------------- Embree */

/* Embree asks for flush-to-zero and denormals-are-zero on the threads that
 * trace (else "a severe performance impact"): set around each use of
 * Embree, the caller's MXCSR restored afterwards (the worldkern benchmarks
 * in the same process keep the default environment). */
static unsigned ftz_on(void) {
#ifdef HAVE_MXCSR
    unsigned old = _mm_getcsr();
    _mm_setcsr(old | 0x8040u); /* FTZ (bit 15) | DAZ (bit 6) */
    return old;
#else
    return 0;
#endif
}
static void ftz_restore(unsigned old) {
#ifdef HAVE_MXCSR
    _mm_setcsr(old);
#else
    (void)old;
#endif
}

static RTCScene make_scene(RTCDevice dev, enum RTCBuildQuality quality) {
    RTCScene s = rtcNewScene(dev);
    rtcSetSceneBuildQuality(s, quality);
    RTCGeometry g = rtcNewGeometry(dev, RTC_GEOMETRY_TYPE_QUAD);
    rtcSetSharedGeometryBuffer(g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, es.vtx, 0, 3 * sizeof(float),
                               4 * es.nquads);
    rtcSetSharedGeometryBuffer(g, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT4, es.idx, 0, 4 * sizeof(uint32_t),
                               es.nquads);
    rtcCommitGeometry(g);
    rtcAttachGeometry(s, g);
    rtcReleaseGeometry(g);
    rtcCommitScene(s);
    return s;
}

static int build_all(void) {
    if (es.state) return es.state > 0;
    es.state = -1;
    if (!build_world() || !extract_faces()) return 0;
    es.tile_order = malloc((size_t)CAM * CAM * sizeof(uint32_t));
    if (!es.tile_order) return 0;
    size_t k = 0;
    for (uint32_t ty = 0; ty < CAM; ty += 4)
        for (uint32_t tx = 0; tx < CAM; tx += 4)
            for (uint32_t y = ty; y < ty + 4; y++)
                for (uint32_t x = tx; x < tx + 4; x++) es.tile_order[k++] = y * CAM + x;
    es.dev = rtcNewDevice("threads=1");
    if (!es.dev) return 0;
    es.scn = make_scene(es.dev, RTC_BUILD_QUALITY_MEDIUM);
    if (rtcGetDeviceError(es.dev) != RTC_ERROR_NONE) return 0;
    es.state = 1;
    return 1;
}

typedef enum api { API16, API1 } api;

static void trace(RTCScene scn, const rays *r, api which, int coherent, const uint32_t *order) {
    struct RTCIntersectContext ctx;
    rtcInitIntersectContext(&ctx);
    if (coherent) ctx.flags = RTC_INTERSECT_CONTEXT_FLAG_COHERENT;
    size_t n = r->n;
    if (which == API1) {
        for (size_t i = 0; i < n; i++) {
            struct RTCRayHit rh;
            rh.ray.org_x = r->o[0][i];
            rh.ray.org_y = r->o[1][i];
            rh.ray.org_z = r->o[2][i];
            rh.ray.tnear = 0.0f;
            rh.ray.dir_x = r->d[0][i];
            rh.ray.dir_y = r->d[1][i];
            rh.ray.dir_z = r->d[2][i];
            rh.ray.time = 0.0f;
            rh.ray.tfar = INFINITY;
            rh.ray.mask = 0xFFFFFFFFu;
            rh.ray.id = 0;
            rh.ray.flags = 0;
            rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
            rh.hit.primID = RTC_INVALID_GEOMETRY_ID;
            rtcIntersect1(scn, &ctx, &rh);
            r->t[i] = rh.ray.tfar;
            r->prim[i] = rh.hit.geomID == RTC_INVALID_GEOMETRY_ID ? RTC_INVALID_GEOMETRY_ID : rh.hit.primID;
        }
        return;
    }
    struct RTCRayHit16 rh;
    int valid[16];
    for (size_t i0 = 0; i0 < n; i0 += 16) {
        size_t m = n - i0 < 16 ? n - i0 : 16;
        for (size_t k = 0; k < 16; k++) {
            size_t i = k < m ? i0 + k : i0; /* a tail's dead lanes repeat a live ray, masked off */
            if (order) i = order[i];
            valid[k] = k < m ? -1 : 0;
            rh.ray.org_x[k] = r->o[0][i];
            rh.ray.org_y[k] = r->o[1][i];
            rh.ray.org_z[k] = r->o[2][i];
            rh.ray.tnear[k] = 0.0f;
            rh.ray.dir_x[k] = r->d[0][i];
            rh.ray.dir_y[k] = r->d[1][i];
            rh.ray.dir_z[k] = r->d[2][i];
            rh.ray.time[k] = 0.0f;
            rh.ray.tfar[k] = INFINITY;
            rh.ray.mask[k] = 0xFFFFFFFFu;
            rh.ray.id[k] = (unsigned)k;
            rh.ray.flags[k] = 0;
            rh.hit.geomID[k] = RTC_INVALID_GEOMETRY_ID;
            rh.hit.primID[k] = RTC_INVALID_GEOMETRY_ID;
        }
        rtcIntersect16(valid, scn, &ctx, &rh);
        for (size_t k = 0; k < m; k++) {
            size_t i = order ? order[i0 + k] : i0 + k;
            r->t[i] = rh.ray.tfar[k];
            r->prim[i] = rh.hit.geomID[k] == RTC_INVALID_GEOMETRY_ID ? RTC_INVALID_GEOMETRY_ID : rh.hit.primID[k];
        }
    }
}

typedef struct diff_counts {
    size_t presence, t, block, hits;
    double max_rel;
} diff_counts;

static diff_counts compare(const rays *r) {
    diff_counts c = {0, 0, 0, 0, 0.0};
    size_t n = r->n;
    for (size_t i = 0; i < n; i++) {
        int wk_hit = r->ref_sf[n + i] >= 0;
        int em_hit = r->prim[i] != RTC_INVALID_GEOMETRY_ID;
        c.hits += (size_t)em_hit;
        if (wk_hit != em_hit) {
            c.presence++;
            continue;
        }
        if (!wk_hit) continue;
        double d[3] = {r->d[0][i], r->d[1][i], r->d[2][i]};
        double t = (double)r->t[i] * sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        double ref = r->ref_t[i];
        double rel = fabs(t - ref) / (ref > 1e-30 ? ref : 1e-30);
        if (rel > c.max_rel) c.max_rel = rel;
        if (rel > 1e-4) c.t++;
        const quad_info *q = &es.info[r->prim[i]];
        if (q->x != r->ref_xyz[i] || q->y != r->ref_xyz[n + i] || q->z != r->ref_xyz[2 * n + i]) c.block++;
    }
    return c;
}

/* ---------------------------------------------------------------- benchmarks */

typedef struct ecase {
    int kind; /* 0 camera, 1 random, 2 build */
    api which;
    int coherent;
    int tiles; /* camera rays in packets of 4x4 pixels */
    int threads; /* build */
} ecase;

static void fail(wk_bench_state *st, const char *msg) {
    wk_bench_set_counter(st, "verified", 0.0);
    wk_bench_skip_with_error(st, msg);
}

static void bm_trace(wk_bench_state *st, void *vctx) {
    const ecase *c = vctx;
    if (!build_all()) return fail(st, "scene or Embree setup failed");
    rays *r = c->kind == 0 ? &es.camera : &es.random;
    const uint32_t *order = c->tiles ? es.tile_order : NULL;
    RTCScene scn = es.scn;
    unsigned csr = ftz_on();
    memset(r->t, 0x5A, r->n * 4);
    trace(scn, r, c->which, c->coherent, order);
    diff_counts d = compare(r);
    wk_bench_set_counter(st, "quads", (double)es.nquads);
    wk_bench_set_counter(st, "hit_fraction", r->wk_hit_fraction);
    wk_bench_set_counter(st, "embree_hit_fraction", (double)d.hits / (double)r->n);
    wk_bench_set_counter(st, "presence_diff", (double)d.presence);
    wk_bench_set_counter(st, "t_diff", (double)d.t);
    wk_bench_set_counter(st, "block_diff", (double)d.block);
    wk_bench_set_counter(st, "max_rel_t", d.max_rel);
    if ((double)(d.presence + d.t) > 0.001 * (double)r->n) {
        char msg[160];
        snprintf(msg, sizeof msg, "Embree disagrees with wk_voxel_raycast on %zu hits and %zu distances of %zu rays",
                 d.presence, d.t, r->n);
        ftz_restore(csr);
        return fail(st, msg);
    }
    wk_bench_set_counter(st, "verified", 1.0);
    while (wk_bench_keep_running(st)) {
        trace(scn, r, c->which, c->coherent, order);
        wk_bench_clobber_memory();
    }
    ftz_restore(csr);
    wk_bench_set_items_processed(st, wk_bench_iterations(st) * (int64_t)r->n);
}

static void bm_build(wk_bench_state *st, void *vctx) {
    const ecase *c = vctx;
    if (!build_all()) return fail(st, "scene or Embree setup failed");
    char cfg[32];
    snprintf(cfg, sizeof cfg, "threads=%d", c->threads);
    RTCDevice dev = c->threads == 1 ? es.dev : rtcNewDevice(cfg);
    if (!dev) return fail(st, "rtcNewDevice failed");
    RTCScene s = make_scene(dev, RTC_BUILD_QUALITY_MEDIUM);
    int ok = rtcGetDeviceError(dev) == RTC_ERROR_NONE;
    rtcReleaseScene(s);
    if (!ok) {
        if (dev != es.dev) rtcReleaseDevice(dev);
        return fail(st, "Embree scene build failed");
    }
    wk_bench_set_counter(st, "verified", 1.0);
    wk_bench_set_counter(st, "quads", (double)es.nquads);
    wk_bench_set_counter(st, "extract_s", es.extract_s);
    while (wk_bench_keep_running(st)) {
        s = make_scene(dev, RTC_BUILD_QUALITY_MEDIUM);
        rtcReleaseScene(s);
        wk_bench_clobber_memory();
    }
    wk_bench_set_items_processed(st, wk_bench_iterations(st) * (int64_t)es.nquads);
    if (dev != es.dev) rtcReleaseDevice(dev);
}

static void reg(ecase *c, const char *api_name, const char *scene) {
    char name[128];
    snprintf(name, sizeof name, "voxel/embree/%s/%s/t1", api_name, scene);
    wk_bench_register(name, bm_trace, c, 1);
}

void wk_bench_register_voxel_embree(void) {
    static ecase cases[16];
    static const char *const scenes[2] = {"camera1024", "random1M"};
    size_t n = 0;
    for (int kind = 0; kind < 2; kind++) {
        cases[n] = (ecase){.kind = kind, .which = API16, .threads = 1};
        reg(&cases[n++], "rtcIntersect16", scenes[kind]);
        if (kind == 0) {
            cases[n] = (ecase){.kind = kind, .which = API16, .coherent = 1, .threads = 1};
            reg(&cases[n++], "rtcIntersect16_coherent", scenes[kind]);
            cases[n] = (ecase){.kind = kind, .which = API16, .coherent = 1, .tiles = 1, .threads = 1};
            reg(&cases[n++], "rtcIntersect16_tile4x4_coherent", scenes[kind]);

        }
        cases[n] = (ecase){.kind = kind, .which = API1, .threads = 1};
        reg(&cases[n++], "rtcIntersect1", scenes[kind]);
    }
    wk_set_threads(0);
    int all = wk_threads();
    for (int t = 0; t < (all > 1 ? 2 : 1); t++) {
        ecase *c = &cases[n++];
        *c = (ecase){.kind = 2, .threads = t ? all : 1};
        char name[128];
        snprintf(name, sizeof name, "voxel/embree/build/terrain256/t%d", c->threads);
        wk_bench_register(name, bm_build, c, c->threads);
    }
}
