/* Spring water checks: the literal game loop, every ISA (bodies across
 * lanes, sleeping bodies mixed in), conservation by the spreading passes,
 * the stability bounds by simulation, sleep, the surface, bad input. */
#include "spline_test.h"

/* The game loop as tutorials write it (one body, springs contiguous),
 * with its left/right delta arrays: independent of the library's code. */
static void game_loop_step(float *pos, float *vel, const float *rest, int n, const wk_water_params *p) {
    float *left = sp_alloc((size_t)n * sizeof *left), *right = sp_alloc((size_t)n * sizeof *right);
    for (int i = 0; i < n; i++) {
        float force = (rest[i] - pos[i]) * p->k;
        vel[i] += force;
        pos[i] += vel[i];
        vel[i] *= p->damping;
    }
    for (uint32_t j = 0; j < p->passes; j++) {
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                left[i] = p->spread * (pos[i] - pos[i - 1]);
                vel[i - 1] += left[i];
            }
            if (i < n - 1) {
                right[i] = p->spread * (pos[i] - pos[i + 1]);
                vel[i + 1] += right[i];
            }
        }
        for (int i = 0; i < n; i++) {
            if (i > 0) pos[i - 1] += left[i];
            if (i < n - 1) pos[i + 1] += right[i];
        }
    }
    free(left);
    free(right);
}

typedef struct state {
    float *pos, *vel, *rest;
    uint8_t *asleep;
    uint32_t B, N;
    size_t stride;
} state;

static state state_new(uint32_t B, uint32_t N, size_t stride, wk_rng *r, double amp) {
    state s = {0};
    size_t floats = (size_t)N * stride + 1;
    s.pos = sp_alloc(floats * sizeof(float));
    s.vel = sp_alloc(floats * sizeof(float));
    s.rest = sp_alloc(floats * sizeof(float));
    s.asleep = sp_alloc(B + 1);
    for (size_t i = 0; i < floats; i++) {
        s.rest[i] = sp_rand(r, -1, 1);
        s.pos[i] = s.rest[i] + sp_rand(r, -amp, amp);
        s.vel[i] = sp_rand(r, -amp, amp) * 0.1f;
    }
    memset(s.asleep, 0, B + 1);
    s.B = B;
    s.N = N;
    s.stride = stride;
    return s;
}

static void state_free(state *s) {
    free(s->pos);
    free(s->vel);
    free(s->rest);
    free(s->asleep);
}

static wk_water view(const state *s, uint32_t b0, uint32_t nb) {
    wk_water w = WK_WATER_DEFAULTS;
    w.pos = s->pos + b0;
    w.vel = s->vel + b0;
    w.rest = s->rest + b0;
    w.asleep = s->asleep + b0;
    w.bodies = nb;
    w.springs = s->N;
    w.stride = s->stride;
    return w;
}

int wk_check_spline_water_game_loop(void) {
    int fails = 0;
    int isas[WK_ISA_COUNT];
    int nisa = wk_supported_isas(isas);
    wk_rng rng = {1};
    const uint32_t Ns[] = {1, 2, 3, 16, 33};
    for (size_t a = 0; a < COUNT(Ns); a++)
        for (int t = 0; t < nisa; t++) {
            uint32_t B = 37, N = Ns[a];
            wk_water_params p = WK_WATER_PARAMS_DEFAULTS;
            p.k = 0.03f;
            p.damping = 0.97f;
            p.spread = 0.3f;
            p.passes = (uint32_t)a * 3;
            p.sleep_threshold = 0;
            state s = state_new(B, N, B + 5, &rng, 0.5);
            float *gp = sp_alloc((size_t)B * N * sizeof(float)), *gv = sp_alloc((size_t)B * N * sizeof(float));
            float *gr = sp_alloc((size_t)B * N * sizeof(float));
            for (uint32_t b = 0; b < B; b++)
                for (uint32_t i = 0; i < N; i++) {
                    gp[b * N + i] = s.pos[i * s.stride + b];
                    gv[b * N + i] = s.vel[i * s.stride + b];
                    gr[b * N + i] = s.rest[i * s.stride + b];
                }
            wk_water w = view(&s, 0, B);
            wk_exec e = wk_exec_for(isas[t], 0);
            for (int step = 0; step < 5; step++) {
                EXPECT(wk_spline_water_step(&w, &p, &e) == WK_OK, "step: %s", wk_last_error_detail());
                for (uint32_t b = 0; b < B; b++) game_loop_step(gp + b * N, gv + b * N, gr + b * N, (int)N, &p);
            }
            int bad = 0;
            for (uint32_t b = 0; b < B && !bad; b++)
                for (uint32_t i = 0; i < N && !bad; i++)
                    if (wk_bits(gp[b * N + i]) != wk_bits(s.pos[i * s.stride + b]) ||
                        wk_bits(gv[b * N + i]) != wk_bits(s.vel[i * s.stride + b])) {
                        FAIL("%s N %u body %u spring %u: pos %.9g vel %.9g, game loop %.9g %.9g",
                             wk_isa_name((wk_isa)isas[t]), N, b, i, s.pos[i * s.stride + b], s.vel[i * s.stride + b],
                             gp[b * N + i], gv[b * N + i]);
                        bad = 1;
                    }
            free(gp);
            free(gv);
            free(gr);
            state_free(&s);
        }
    return fails;
}

typedef struct water_case {
    const state *init;
    wk_water_params p;
    size_t floats;
} water_case;

/* out: pos, vel (N * stride floats each), then the B flags. */
static int water_run(void *ctx, const wk_exec *e, uint32_t split, void *out) {
    const water_case *c = ctx;
    const state *in = c->init;
    state s = *in;
    s.pos = out;
    s.vel = (float *)out + c->floats;
    s.asleep = (uint8_t *)((float *)out + 2 * c->floats);
    memcpy(s.pos, in->pos, c->floats * sizeof(float));
    memcpy(s.vel, in->vel, c->floats * sizeof(float));
    memcpy(s.asleep, in->asleep, in->B);
    uint32_t cut = split ? in->B / 2 + 3 : in->B;
    if (cut > in->B) cut = in->B;
    for (int step = 0; step < 4; step++) {
        wk_water w0 = view(&s, 0, cut), w1 = view(&s, cut, in->B - cut);
        wk_status st = wk_spline_water_step(&w0, &c->p, e);
        if (st == WK_OK) st = wk_spline_water_step(&w1, &c->p, e);
        if (st != WK_OK) return st;
        if (step == 1 && in->B > 0) {
            wk_water all = view(&s, 0, in->B);
            uint32_t body[2] = {0, in->B - 1};
            float x[2] = {0.3f, 1.0f}, amount[2] = {0.5f, -0.25f};
            st = wk_spline_water_displace(&all, body, x, amount, 2, e);
            if (st != WK_OK) return st;
        }
    }
    return WK_OK;
}

int wk_check_spline_water_isa(void) {
    int fails = 0;
    wk_rng rng = {2};
    const uint32_t Bs[] = {1, 3, 15, 16, 17, 31, 64, 100, 130};
    const uint32_t Ns[] = {1, 2, 3, 17, 300};
    const uint32_t passes[] = {0, 1, 8};
    for (size_t a = 0; a < COUNT(Bs); a++)
        for (size_t b = 0; b < COUNT(Ns); b++)
            for (size_t c = 0; c < COUNT(passes); c++) {
                uint32_t B = Bs[a], N = Ns[b];
                size_t stride = B + (a & 1);
                state s = state_new(B, N, stride, &rng, (a + b) & 1 ? 0.5 : 1e-5);
                for (uint32_t i = 0; i < B; i++) s.asleep[i] = wk_rng_u64(&rng) % 3 == 0;
                if (a % 3 == 1) { /* NaNs with payloads: canonical out of a step on every ISA */
                    s.pos[wk_rng_u64(&rng) % ((size_t)N * stride)] = wk_from_bits(0xFFC01234u);
                    s.vel[wk_rng_u64(&rng) % ((size_t)N * stride)] = wk_from_bits(0x7FA00001u);
                    s.rest[wk_rng_u64(&rng) % ((size_t)N * stride)] = wk_from_bits(0xFF800001u);
                }
                water_case wc = {&s, WK_WATER_PARAMS_DEFAULTS, (size_t)N * stride};
                wc.p.passes = passes[c];
                wc.p.spread = c == 2 ? 0.2f : 0.45f;
                wc.p.sleep_threshold = 1e-3f;
                char what[80];
                snprintf(what, sizeof what, "water B %u N %u passes %u", B, N, passes[c]);
                wk_harness h = {what, water_run, &wc, 2 * wc.floats * sizeof(float) + B, 2};
                fails += wk_harness_compare(&h);
                state_free(&s);
            }
    return fails;
}

/* The spreading passes move height between neighbours: in exact arithmetic
 * sum(pos) and sum(vel) do not change. In float each pass rounds 2 (N - 1)
 * additions into positions, each off by at most 2^-24 of its result, so
 * |change of sum(pos)| <= passes * 2 (N - 1) * 2^-24 * max|pos| (bound
 * checked with max|pos| over the run, observed maximum printed). */
int wk_check_spline_water_conservation(void) {
    int fails = 0;
    wk_rng rng = {4};
    double worst = 0;
    for (int trial = 0; trial < 20; trial++) {
        uint32_t B = 21, N = 2 + (uint32_t)(wk_rng_u64(&rng) % 80);
        state s = state_new(B, N, B, &rng, 1.0);
        for (size_t i = 0; i < (size_t)N * B; i++) s.vel[i] = 0.0f;
        wk_water_params p = WK_WATER_PARAMS_DEFAULTS;
        p.k = 0.0f; /* no spring force, no velocity: the step is the passes alone */
        p.damping = 1.0f;
        p.spread = sp_rand(&rng, 0.05, 0.5);
        p.passes = 1 + (uint32_t)(wk_rng_u64(&rng) % 16);
        p.sleep_threshold = 0;
        double before[21], hmax[21] = {0};
        for (uint32_t b = 0; b < B; b++) {
            before[b] = 0;
            for (uint32_t i = 0; i < N; i++) {
                before[b] += s.pos[i * B + b];
                hmax[b] = fmax(hmax[b], fabs(s.pos[i * B + b]));
            }
        }
        wk_water w = view(&s, 0, B);
        EXPECT(wk_spline_water_step(&w, &p, NULL) == WK_OK, "step");
        for (uint32_t b = 0; b < B; b++) {
            double after = 0, vsum = 0;
            for (uint32_t i = 0; i < N; i++) {
                after += s.pos[i * B + b];
                vsum += s.vel[i * B + b];
                hmax[b] = fmax(hmax[b], fabs(s.pos[i * B + b]));
            }
            double bound = p.passes * 2.0 * (N - 1) * ldexp(1.0, -24) * hmax[b];
            double err = fabs(after - before[b]);
            if (bound > 0) worst = fmax(worst, err / bound);
            EXPECT(err <= bound, "N %u passes %u: sum changed by %.3g, bound %.3g", N, p.passes, err, bound);
            /* velocities: the same deltas, sum of 2 (N - 1) roundings from 0 */
            EXPECT(fabs(vsum) <= bound, "N %u: velocity sum %.3g, bound %.3g", N, vsum, bound);
        }
        state_free(&s);
    }
    printf("    spline_water_conservation: worst change / bound = %.3f\n", worst);
    return fails;
}

/* The check's stability verdicts against simulation: stable parameters keep
 * a random state bounded for 2000 steps, unstable ones blow it up. */
int wk_check_spline_water_stability(void) {
    int fails = 0;
    static const struct { float k, d, s; uint32_t passes; int stable; } cases[] = {
        {0.025f, 0.975f, 0.25f, 8, 1},  /* the defaults */
        {1.5f, 0.9f, 0.2f, 3, 1},
        {3.7f, 0.9f, 0.1f, 1, 1},       /* k < 2 (1 + d) = 3.8 */
        {3.9f, 0.9f, 0.1f, 1, 0},       /* k > 3.8 */
        {0.1f, 1.05f, 0.1f, 2, 0},      /* damping > 1 */
        {0.1f, 0.95f, 0.6f, 2, 0},      /* spread > 1/2 */
        {0.1f, 0.95f, -0.05f, 2, 0},    /* spread < 0 */
        {0.5f, 0.9f, 0.49f, 1, 0},      /* odd passes, spread near 1/2: G ~ -1 wants k > 2 */
        {0.5f, 0.9f, 0.49f, 2, 1},      /* even passes: fine */
        {2.5f, 0.5f, 0.49f, 1, 1},      /* k in (2, 4 - 2d) fits G ~ -1 as well */
    };
    wk_rng rng = {6};
    for (size_t c = 0; c < COUNT(cases); c++) {
        wk_water_params p = WK_WATER_PARAMS_DEFAULTS;
        p.k = cases[c].k;
        p.damping = cases[c].d;
        p.spread = cases[c].s;
        p.passes = cases[c].passes;
        p.sleep_threshold = 0;
        const uint32_t N = 32, B = 8;
        wk_water_stability rep;
        EXPECT(wk_spline_water_check(&p, N, &rep, NULL) == WK_OK, "check: %s", wk_last_error_detail());
        int predicted = rep.unstable == 0;
        EXPECT(predicted == cases[c].stable, "case %zu: check says %s (growth %.6f, flags %u, mode %u)", c,
               predicted ? "stable" : "unstable", rep.growth, rep.unstable, rep.worst_mode);
        state s = state_new(B, N, B, &rng, 1.0);
        for (size_t i = 0; i < (size_t)N * B; i++) s.rest[i] = 0.0f;
        wk_water w = view(&s, 0, B);
        double m = 0;
        for (int step = 0; step < 2000; step++) EXPECT(wk_spline_water_step(&w, &p, NULL) == WK_OK, "step");
        for (size_t i = 0; i < (size_t)N * B; i++) m = fmax(m, isfinite(s.pos[i]) ? fabs(s.pos[i]) : INFINITY);
        if (cases[c].stable) EXPECT(m < 100.0, "case %zu predicted stable, max |pos| %.3g after 2000 steps", c, m);
        else EXPECT(m > 1e6, "case %zu predicted unstable, max |pos| only %.3g after 2000 steps", c, m);
        state_free(&s);
    }
    wk_water_params p = WK_WATER_PARAMS_DEFAULTS;
    wk_water_stability rep;
    EXPECT(wk_spline_water_check(NULL, 4, &rep, NULL) == WK_ERR_NULL, "NULL params");
    EXPECT(wk_spline_water_check(&p, 0, &rep, NULL) == WK_ERR_INVALID_ARG, "0 springs");
    EXPECT(wk_spline_water_check(&p, 4, NULL, NULL) == WK_ERR_NULL, "NULL report");
    return fails;
}

int wk_check_spline_water_sleep(void) {
    int fails = 0;
    wk_rng rng = {12};
    const uint32_t B = 40, N = 8;
    state s = state_new(B, N, B, &rng, 0.0);
    for (size_t i = 0; i < (size_t)N * B; i++) {
        s.rest[i] = s.pos[i] = s.rest[i % B]; /* flat water: an equilibrium */
        s.vel[i] = 0.0f;
    }
    wk_water w = view(&s, 0, B);
    wk_water_params p = WK_WATER_PARAMS_DEFAULTS;
    /* at rest with no velocity: asleep after one step */
    EXPECT(wk_spline_water_step(&w, &p, NULL) == WK_OK, "step");
    for (uint32_t b = 0; b < B; b++) EXPECT(s.asleep[b] == 1, "body %u at rest not asleep", b);
    /* a sleeping body is not touched, even when its state is far from rest */
    s.pos[3 * B + 5] += 1.0f;
    float before = s.pos[3 * B + 5];
    EXPECT(wk_spline_water_step(&w, &p, NULL) == WK_OK, "step");
    EXPECT(s.pos[3 * B + 5] == before && s.vel[3 * B + 5] == 0.0f, "sleeping body moved");
    /* displacing wakes it */
    uint32_t body = 5;
    float x = 0.5f, amount = 0.1f;
    EXPECT(wk_spline_water_displace(&w, &body, &x, &amount, 1, NULL) == WK_OK, "displace");
    EXPECT(s.asleep[5] == 0, "displace did not wake the body");
    /* split between springs 3 and 4 of 8: t = 3.5 */
    EXPECT(fabsf(s.vel[3 * B + 5] - 0.05f) < 1e-7f && fabsf(s.vel[4 * B + 5] - 0.05f) < 1e-7f, "displace split %g %g",
           s.vel[3 * B + 5], s.vel[4 * B + 5]);
    EXPECT(wk_spline_water_step(&w, &p, NULL) == WK_OK, "step");
    EXPECT(s.asleep[5] == 0, "body with velocity fell asleep");
    EXPECT(s.pos[3 * B + 5] != before, "awake body did not move");
    /* the turning point of a standing wave: no velocity, displaced heights;
     * a velocity-only test would put it to sleep */
    state t = state_new(4, N, 4, &rng, 0.0);
    for (uint32_t i = 0; i < N; i++)
        for (uint32_t b = 0; b < 4; b++) {
            t.vel[i * 4 + b] = 0.0f;
            t.pos[i * 4 + b] = t.rest[i * 4 + b] + 0.2f * cosf(3.14159265f * (float)i / (N - 1));
        }
    wk_water tw = view(&t, 0, 4);
    wk_water_params q = p;
    q.k = 0.0f;
    q.passes = 0;
    EXPECT(wk_spline_water_step(&tw, &q, NULL) == WK_OK, "step");
    for (uint32_t b = 0; b < 4; b++) EXPECT(t.asleep[b] == 0, "body %u asleep at the turning point", b);
    /* threshold 0: never asleep; NULL flags: no sleeping */
    state u = state_new(4, N, 4, &rng, 0.0);
    for (size_t i = 0; i < (size_t)N * 4; i++) {
        u.rest[i] = u.pos[i] = u.rest[i % 4];
        u.vel[i] = 0.0f;
    }
    wk_water uw = view(&u, 0, 4);
    q = p;
    q.sleep_threshold = 0.0f;
    EXPECT(wk_spline_water_step(&uw, &q, NULL) == WK_OK, "step");
    for (uint32_t b = 0; b < 4; b++) EXPECT(u.asleep[b] == 0, "threshold 0 but body %u asleep", b);
    uw.asleep = NULL;
    EXPECT(wk_spline_water_step(&uw, &p, NULL) == WK_OK, "step without flags");
    state_free(&s);
    state_free(&t);
    state_free(&u);
    return fails;
}

/* The surface is Catmull-Rom over each body's springs: equal to the rows
 * form on extracted bodies, every ISA. */
int wk_check_spline_water_surface(void) {
    int fails = 0;
    wk_rng rng = {13};
    int isas[WK_ISA_COUNT];
    int nisa = wk_supported_isas(isas);
    const uint32_t B = 77, N = 12, R = 50;
    state s = state_new(B, N, B + 3, &rng, 0.4);
    float *rows = sp_alloc((size_t)B * N * sizeof(float)), *want = sp_alloc((size_t)B * R * sizeof(float));
    float *got = sp_alloc((size_t)R * (B + 1) * sizeof(float));
    for (uint32_t b = 0; b < B; b++)
        for (uint32_t i = 0; i < N; i++) rows[b * N + i] = s.pos[i * s.stride + b];
    for (uint32_t mode = 0; mode < 2; mode++) {
        EXPECT(wk_spline_cr_sample(rows, N, N, B, mode, R, want, R, NULL) == WK_OK, "rows");
        for (int t = 0; t < nisa; t++) {
            wk_water w = view(&s, 0, B);
            wk_exec e = wk_exec_for(isas[t], 0);
            EXPECT(wk_spline_water_surface(&w, mode, R, got, B + 1, &e) == WK_OK, "surface: %s", wk_last_error_detail());
            int bad = 0;
            for (uint32_t b = 0; b < B && !bad; b++)
                for (uint32_t k = 0; k < R && !bad; k++)
                    if (wk_bits(got[k * (B + 1) + b]) != wk_bits(want[b * R + k])) {
                        FAIL("%s mode %u body %u sample %u: %.9g vs rows %.9g", wk_isa_name((wk_isa)isas[t]), mode, b, k,
                             got[k * (B + 1) + b], want[b * R + k]);
                        bad = 1;
                    }
        }
    }
    wk_water w = view(&s, 0, B);
    w.springs = 3;
    EXPECT(wk_spline_water_surface(&w, 0, R, got, B, NULL) == WK_ERR_INVALID_ARG, "3 springs");
    free(rows);
    free(want);
    free(got);
    state_free(&s);
    return fails;
}

int wk_check_spline_water_bad_input(void) {
    int fails = 0;
    wk_rng rng = {14};
    state s = state_new(10, 6, 10, &rng, 0.3);
    float *copy = sp_alloc(60 * sizeof(float));
    memcpy(copy, s.pos, 60 * sizeof(float));
    wk_water_params p = WK_WATER_PARAMS_DEFAULTS;
#define BAD_STEP(setup, code)                                                                                \
    do {                                                                                                     \
        wk_water w = view(&s, 0, 10);                                                                        \
        wk_water_params q = p;                                                                               \
        setup;                                                                                               \
        wk_status st_ = wk_spline_water_step(&w, &q, NULL);                                                  \
        EXPECT(st_ == (code), "%s: status %d, want %d (%s)", #setup, (int)st_, (int)(code), wk_last_error_detail()); \
        EXPECT(memcmp(copy, s.pos, 60 * sizeof(float)) == 0, "%s: changed the state on error", #setup);     \
    } while (0)
    BAD_STEP(w.springs = 0, WK_ERR_INVALID_ARG);
    BAD_STEP(w.stride = 5, WK_ERR_STRIDE);
    BAD_STEP(w.reserved[2] = 1, WK_ERR_INVALID_ARG);
    BAD_STEP(w.pos = NULL, WK_ERR_NULL);
    BAD_STEP(w.vel = w.pos + 3, WK_ERR_ALIAS);
    BAD_STEP(w.asleep = (uint8_t *)(w.pos + 1), WK_ERR_ALIAS);
    BAD_STEP(w.stride = SIZE_MAX / 2, WK_ERR_OVERFLOW);
    BAD_STEP(q.k = NAN, WK_ERR_NOT_FINITE);
    BAD_STEP(q.spread = INFINITY, WK_ERR_NOT_FINITE);
    BAD_STEP(q.passes = 5000, WK_ERR_INVALID_ARG);
    BAD_STEP(q.sleep_threshold = -1, WK_ERR_INVALID_ARG);
    BAD_STEP(q.reserved[0] = 7, WK_ERR_INVALID_ARG);
    {
        wk_water w = view(&s, 0, 10);
        EXPECT(wk_spline_water_step(NULL, &p, NULL) == WK_ERR_NULL, "NULL state");
        EXPECT(wk_spline_water_step(&w, NULL, NULL) == WK_ERR_NULL, "NULL params");
    }
#undef BAD_STEP
    float vcopy[60];
    memcpy(vcopy, s.vel, sizeof vcopy);
    wk_water w = view(&s, 0, 10);
    uint32_t body[2] = {1, 10};
    float x[2] = {0.5f, 0.5f}, amount[2] = {1, 1};
    EXPECT(wk_spline_water_displace(&w, body, x, amount, 2, NULL) == WK_ERR_INVALID_ARG, "body out of range");
    body[1] = 2;
    x[1] = 1.5f;
    EXPECT(wk_spline_water_displace(&w, body, x, amount, 2, NULL) == WK_ERR_INVALID_ARG, "x > 1");
    x[1] = NAN;
    EXPECT(wk_spline_water_displace(&w, body, x, amount, 2, NULL) == WK_ERR_NOT_FINITE, "x NaN");
    x[1] = 0.5f;
    amount[1] = INFINITY;
    EXPECT(wk_spline_water_displace(&w, body, x, amount, 2, NULL) == WK_ERR_NOT_FINITE, "amount inf");
    EXPECT(wk_spline_water_displace(&w, NULL, x, amount, 2, NULL) == WK_ERR_NULL, "NULL body");
    EXPECT(memcmp(vcopy, s.vel, sizeof vcopy) == 0, "displace changed velocities on error");
    wk_water empty = WK_WATER_DEFAULTS;
    empty.springs = 4;
    EXPECT(wk_spline_water_step(&empty, &p, NULL) == WK_OK, "0 bodies");
    free(copy);
    state_free(&s);
    return fails;
}
