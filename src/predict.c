/*
 * predict.c: the time model over a size sweep, the crossover sizes and the
 * explanation paragraph: the lesson's sentence, in bytes and launches.
 * The model itself is runtime/fusec_model.h, shared with the harness.
 */
#include <math.h>
#include <string.h>

#include "fusec.h"

const char *predict_sweep_name(const Chain *c)
{
    return c->prog->shaped ? c->prog->dim[c->sweep].name : "n";
}

static double version_bytes(const FusecVersion *v)
{
    double b = 0;
    for (int k = 0; k < v->nkernels; k++) {
        const FusecKernelCost *x = &v->kernels[k];
        b += (x->count > 0 ? x->count : 1) * fusec_kernel_bytes(x);
    }
    return b;
}

/* A shaped program's versions are evaluated at its dims, the sweep dim at n. */
Point predict_at(const Chain *c, double n)
{
    const Traffic *t = &c->traffic;
    const FusecProfile *d = &c->opt->device;
    FusecVersion u = t->unfused, f = t->fused;
    Point pt;
    pt.n = pt.elems = n;
    if (c->prog->shaped) {
        double dims[LIMIT_DIMS];
        memcpy(dims, c->dimv, sizeof dims);
        dims[c->sweep] = n;
        traffic_at(c->prog, t, dims, c->scratch_u, c->scratch_f, &u, &f, &pt.elems);
    }
    pt.ub = version_bytes(&u);
    pt.fb = version_bytes(&f);
    pt.u = fusec_model_time(d, &u, pt.elems, c->opt->host, 0, c->opt->hot);
    pt.f = fusec_model_time(d, &f, pt.elems, c->opt->host, 1, c->opt->hot);
    pt.speedup = pt.u.us / pt.f.us;
    return pt;
}

static int regime_of(const Chain *c, double n, int fused)
{
    const Traffic *t = &c->traffic;
    if (!c->prog->shaped)
        return fusec_model_time(&c->opt->device, fused ? &t->fused : &t->unfused, n, c->opt->host, fused,
                                c->opt->hot).regime;
    Point pt = predict_at(c, n);
    return fused ? pt.f.regime : pt.u.regime;
}

double predict_crossover(const Chain *c, int fused) { return c->crossover[fused]; }

/* Bisection on log2 n, to a hundredth of a bit: the model is a sum over all
 * kernels, so a long chain makes each evaluation cost. */
static double find_crossover(const Chain *c, int fused)
{
    double lo = 0, hi = 40; /* log2 n */
    if (regime_of(c, 1, fused) != FUSEC_OVERHEAD || regime_of(c, ldexp(1, 40), fused) == FUSEC_OVERHEAD)
        return 0;
    for (int i = 0; i < 32; i++) {
        double mid = (lo + hi) / 2;
        if (regime_of(c, exp2(mid), fused) == FUSEC_OVERHEAD)
            lo = mid;
        else
            hi = mid;
    }
    return ceil(exp2(hi));
}

void predict_prepare(Chain *c)
{
    if (c->prog->shaped) {
        c->scratch_u = arena_alloc(c->prog->arena, sizeof(FusecKernelCost) * (size_t)(c->traffic.nkernels + 1));
        c->scratch_f = arena_alloc(c->prog->arena, sizeof(FusecKernelCost));
    }
    c->crossover[0] = find_crossover(c, 0);
    c->crossover[1] = find_crossover(c, 1);
}

/* "n = 2^21.3 (2.6M elements)", "R = 2^12.5 (5.79K)": the sweep's name first. */
static void say_n(const Chain *c, char *buf, size_t len, double n)
{
    const char *N = predict_sweep_name(c), *what = c->prog->shaped ? "" : " elements";
    if (n >= 1e6)
        snprintf(buf, len, "%s = 2^%.1f (%.3gM%s)", N, log2(n), n / 1e6, what);
    else if (n >= 1e3)
        snprintf(buf, len, "%s = 2^%.1f (%.3gK%s)", N, log2(n), n / 1e3, what);
    else
        snprintf(buf, len, "%s = %.0f", N, n);
}

/* "n = 2^20", "R = 4096" */
static void at_n(const Chain *c, char *buf, size_t len, double n)
{
    char v[32];
    out_n(v, sizeof v, n);
    snprintf(buf, len, "%s = %s", predict_sweep_name(c), v);
}

static const char *plural(double v) { return v == 1 ? "" : "s"; }

/* The launch terms that a chain of k dependent kernels pays (fusec_chain_launches),
 * in words: `one` when k is 1. */
static void chain_terms(char *buf, size_t size, int k, const char *one, double first, double second, double third,
                        double next, double far)
{
    if (k == 1)
        snprintf(buf, size, "%s", one);
    else if (k == 2)
        snprintf(buf, size, "%.2f us for the first, %.2f us for the second", first, second);
    else if (k == 3)
        snprintf(buf, size, "%.2f us for the first, %.2f us for the second, %.2f us for the third", first, second,
                 third);
    else if (k <= FUSEC_CHAIN_FAR)
        snprintf(buf, size, "%.2f us for the first, %.2f us for the second, %.2f us for the third, %.2f us for "
                 "each later one", first, second, third, next);
    else
        snprintf(buf, size, "%.2f us for the first, %.2f us for the second, %.2f us for the third, %.2f us for "
                 "each later one up to kernel %d, %.2f us for each after it", first, second, third, next,
                 FUSEC_CHAIN_FAR, far);
}

/* What moves a predicted speedup away from the traffic ratio, by the
 * model's own terms: each version's time is its bytes at the HBM rate plus
 * its launches, plus the ramp, less what L2 saves, plus what compute adds
 * beyond the bytes. The term that changes the speedup most names the size. */
enum { WHY_BYTES, WHY_LAUNCHES, WHY_L2, WHY_TAIL, WHY_RAMP, WHY_GATHER, WHY_PASSES, WHY_COMPUTE, WHY_HOST };

static double hbm_us(const FusecProfile *d, double n, double bytes) { return n * bytes / (d->hbm_gbps * 1e3); }

/* What bytes per element save at n by moving at the L2 rate, not HBM's. */
static double l2_save_us(const FusecProfile *d, double n, double bytes)
{
    return hbm_us(d, n, bytes) - n * bytes / (d->l2_gbps * 1e3);
}

/* The traffic ratio at pt: a shaped chain's changes with the sweep. */
static double ratio_at(const Chain *c, const Point *pt)
{
    return c->prog->shaped ? pt->ub / pt->fb : c->traffic.ratio;
}

static int why_at(const Chain *c, const Point *pt)
{
    const FusecProfile *d = &c->opt->device;
    double ratio = ratio_at(c, pt);
    double off = fabs(log(pt->speedup / ratio));
    /* the launches are most of both: a speedup near the ratio there is a coincidence, not the bytes */
    if (pt->u.regime == FUSEC_OVERHEAD || pt->f.regime == FUSEC_OVERHEAD)
        return c->opt->host == FUSEC_HOST_PYTORCH ? WHY_HOST : WHY_LAUNCHES;
    if (off < log(1.03))
        return WHY_BYTES;
    const FusecTime *v[2] = {&pt->u, &pt->f};
    double term[2][WHY_COMPUTE + 1];
    for (int i = 0; i < 2; i++) {
        /* the L2's bytes beside the write tail, and the write tail */
        double l2save = l2_save_us(d, pt->n, v[i]->l2_bytes - v[i]->tail_bytes);
        double tailsave = l2_save_us(d, pt->n, v[i]->tail_bytes);
        double comp = v[i]->overlap_us + (v[i]->compute_us > v[i]->mem_us ? v[i]->compute_us - v[i]->mem_us : 0);
        term[i][WHY_BYTES] = 0;
        term[i][WHY_LAUNCHES] = v[i]->overhead_us;
        term[i][WHY_L2] = -l2save;
        term[i][WHY_TAIL] = -tailsave;
        term[i][WHY_RAMP] = v[i]->ramp_us;
        term[i][WHY_GATHER] = v[i]->gather_us;
        term[i][WHY_PASSES] = v[i]->pass_us;
        term[i][WHY_COMPUTE] = comp;
    }
    /* the term that moves the speedup furthest the way it lies from the
     * traffic ratio (what the speedup loses without it): terms can pull
     * both ways, the launches down and the write tail up at 2^23 */
    double dev = log(pt->speedup / ratio);
    int best = WHY_BYTES;
    double most = 0;
    for (int w = WHY_LAUNCHES; w <= WHY_COMPUTE; w++) {
        double tu = pt->u.us - term[0][w], tf = pt->f.us - term[1][w];
        if (tu <= 0 || tf <= 0)
            continue;
        double moves = log(pt->speedup / (tu / tf));
        if (moves * dev > 0 && fabs(moves) > most) {
            most = fabs(moves);
            best = w;
        }
    }
    if (best == WHY_LAUNCHES && c->opt->host == FUSEC_HOST_PYTORCH)
        best = WHY_HOST;
    return best;
}

/* The unfused kernels in eager's per-element broadcast form. */
static int broadcast_kernels(const Traffic *t)
{
    int n = 0;
    for (int k = 0; k < t->nkernels; k++)
        n += t->kernels[k].broadcasts;
    return n;
}

/* Whether an unfused kernel reads an input an earlier kernel read (from L2
 * while it fits, as an intermediate: src/traffic.c). */
static bool inputs_read_again(const Chain *c)
{
    for (int k = 0; k < c->traffic.nkernels; k++)
        if (c->traffic.kernels[k].cost.in_again > 0)
            return true;
    return false;
}

static void explain_bands(FILE *f, const Chain *c)
{
    const SizeList *sz = c->sizes;
    const Traffic *t = &c->traffic;
    const FusecProfile *d = &c->opt->device;
    char l2[32], mid[32];
    out_num(l2, sizeof l2, d->l2_bytes / 1048576.0);
    fprintf(f, "Across the sweep:");
    for (int i = 0; i < sz->n;) {
        Point p0 = predict_at(c, sz->v[i]);
        int w = why_at(c, &p0), j = i;
        double lo = p0.speedup, hi = p0.speedup;
        while (j + 1 < sz->n) {
            Point q = predict_at(c, sz->v[j + 1]);
            /* a band at the traffic ratio names the versions' regimes: it ends where one changes */
            if (why_at(c, &q) != w ||
                (w == WHY_BYTES && (q.u.regime != p0.u.regime || q.f.regime != p0.f.regime)))
                break;
            lo = q.speedup < lo ? q.speedup : lo;
            hi = q.speedup > hi ? q.speedup : hi;
            j++;
        }
        Point p1 = predict_at(c, sz->v[j]);
        char a[300], b[300], range[64];
        at_n(c, a, sizeof a, sz->v[i]);
        at_n(c, b, sizeof b, sz->v[j]);
        if (hi - lo < 0.005)
            snprintf(range, sizeof range, "%.2fx", lo);
        else
            snprintf(range, sizeof range, "%.2fx to %.2fx", lo, hi);
        if (i == j)
            fprintf(f, " at %s, ", a);
        else
            fprintf(f, " from %s to %s, ", a, b + strlen(predict_sweep_name(c)) + 3);
        switch (w) {
        case WHY_BYTES:
            if (p1.u.regime == FUSEC_MEMORY && p1.f.regime == FUSEC_MEMORY)
                fprintf(f, "bytes rule: %s, the traffic ratio (both versions memory-bound)", range);
            else if (p1.u.regime == p1.f.regime)
                fprintf(f, "%s, the traffic ratio (both versions %s-bound)", range,
                        fusec_regime_name[p1.u.regime]);
            else
                fprintf(f, "%s, the traffic ratio (unfused %s-bound, fused %s-bound)", range,
                        fusec_regime_name[p1.u.regime], fusec_regime_name[p1.f.regime]);
            break;
        case WHY_LAUNCHES: {
            double lu = p1.u.overhead_us, lf = p1.f.overhead_us;
            /* they rule where a version is overhead-bound at the band's start;
             * past that they still move the speedup (a memory-bound band's launches) */
            bool rule = p0.u.regime == FUSEC_OVERHEAD || p0.f.regime == FUSEC_OVERHEAD;
            if (rule && c->opt->hot && c->opt->host == FUSEC_HOST_C) { /* the calls' floors, as above */
                lu = fusec_launch_floor(d, t->nkernels, FUSEC_HOST_C, 1);
                lf = fusec_launch_floor(d, 1, FUSEC_HOST_C, 1);
            }
            fprintf(f, "launches %s: %s (the unfused call's %.1f us of launches against %.1f us at %s)",
                    rule ? "rule" : "move it off the traffic ratio", range, lu, lf, b);
            break;
        }
        case WHY_HOST:
            fprintf(f, "the host's dispatch rules: %s", range);
            break;
        case WHY_L2: {
            if (c->opt->hot) { /* back to back: what fits stays, within a call and from one call to the next */
                char uf[32], ff[32];
                out_num(uf, sizeof uf, round(100 * p1.u.l2_bytes / p1.ub));
                out_num(ff, sizeof ff, round(100 * p1.f.l2_bytes / p1.fb));
                double r = ratio_at(c, &p1);
                fprintf(f, "back to back, what fits of the bytes stays in the %s MiB L2, within a call and from one "
                           "call to the next, and is served at %.0f GB/s instead of HBM's %.0f (%s%% of the unfused "
                           "bytes, %s%% of the fused ones at %s): %s, %s the traffic ratio",
                        l2, d->l2_gbps, d->hbm_gbps, uf, ff, b, range,
                        lo > r ? "above" : hi < r ? "below" : "on both sides of");
                break;
            }
            bool reuse = false; /* a kernel writes into a slot an earlier intermediate held */
            for (int k = 0; k < t->nkernels; k++)
                reuse |= t->ucost[k].reuse != 0;
            out_num(mid, sizeof mid, round(100 * (p1.u.l2_bytes - p1.u.tail_bytes) / (t->u_read + t->u_write)));
            fprintf(f, "the unfused intermediates%s fit in the %s MiB L2, which serves their reads%s at %.0f GB/s "
                       "instead of HBM's %.0f (%s%% of the unfused bytes at %s): %s, below the traffic ratio",
                    inputs_read_again(c) ? " and the inputs read again" : "", l2,
                    reuse ? " (and the writes into reused scratch slots while twice a slot fits in a third of it)" : "",
                    d->l2_gbps, d->hbm_gbps, mid, b, range);
            break;
        }
        case WHY_TAIL: {
            /* the time each call saves: its last kernel's tail at the L2 rate, not HBM's */
            double su = l2_save_us(d, p1.n, p1.u.tail_bytes), sf = l2_save_us(d, p1.n, p1.f.tail_bytes);
            double tb = p1.n * (p1.u.tail_bytes > p1.f.tail_bytes ? p1.u.tail_bytes : p1.f.tail_bytes);
            char mb[32];
            out_num(mb, sizeof mb, tb >= 1e7 ? round(tb / 1e6) : round(tb / 1e5) / 10);
            char upto[48] = "";
            if (tb < 0.99 * d->write_tail_bytes)
                snprintf(upto, sizeof upto, "; up to %.0f MB do", d->write_tail_bytes / 1e6);
            fprintf(f, "a cold call ends before the last %s MB of its last kernel's writes reach HBM (they wait in "
                       "L2%s), which takes %.1f us off the unfused call and %.1f us off the fused one at %s, a larger "
                       "share of the fused one's time: %s, %s the traffic ratio",
                    mb, upto, su, sf, b, range, p1.speedup > ratio_at(c, &p1) ? "above" : "below");
            break;
        }
        case WHY_RAMP:
            fprintf(f, "the kernels are too short to reach the copy rate (each pays up to %.1f us of memory "
                       "pipeline fill and drain): %s",
                    d->ramp_us, range);
            break;
        case WHY_GATHER: {
            int ng = broadcast_kernels(t);
            fprintf(f, "the unfused call's %d kernel%s with a broadcast operand find%s each element's place, as "
                       "eager's do, at most %.0f G elements a second (%.1f us beyond %s bytes' time at %s): %s, "
                       "above the traffic ratio",
                    ng, plural(ng), ng == 1 ? "s" : "", d->gather_gelems, p1.u.gather_us, ng == 1 ? "its" : "their",
                    b, range);
            break;
        }
        case WHY_PASSES:
            fprintf(f, "a broadcast operand is read again on each pass of an outer dim (a [S, D] table of a [B, S, D] "
                       "chain: B passes; a [C] one of [R, C]: R passes, a row apart), from HBM once the traffic "
                       "between passes outgrows the %s MiB L2 (%.1f us of the unfused call, %.1f us of the fused one "
                       "at %s): %s, %s the traffic ratio",
                    l2, p1.u.pass_us, p1.f.pass_us, b, range, p1.speedup > ratio_at(c, &p1) ? "above" : "below");
            break;
        case WHY_COMPUTE:
            fprintf(f, "the fused kernel's %.0f issue slots per element (%g flops and %g transcendental "
                       "functions) take about as long as its bytes or longer (compute %.1f us against memory "
                       "%.1f us at %s): %s, below the traffic ratio",
                    t->fcost.slots32 + t->fcost.slots64, t->f_flops, t->f_trans, p1.f.compute_us, p1.f.mem_us,
                    b, range);
            break;
        }
        fprintf(f, "%s", j + 1 < sz->n ? ";" : ".\n");
        i = j + 1;
    }
}

void predict_explain(FILE *f, const Chain *c)
{
    const Traffic *t = &c->traffic;
    const FusecProfile *d = &c->opt->device;
    int host = c->opt->host;
    char ub[32], fb[32], ur[32], uw[32], fr[32], fw[32];
    int dig = c->prog->shaped ? 4 : 17; /* a shaped chain's bytes per element: at its dims, rounded */
    out_num(ub, sizeof ub, out_round(t->u_read + t->u_write, dig));
    out_num(fb, sizeof fb, out_round(t->f_read + t->f_write, dig));
    out_num(ur, sizeof ur, out_round(t->u_read, dig));
    out_num(uw, sizeof uw, out_round(t->u_write, dig));
    out_num(fr, sizeof fr, out_round(t->f_read, dig));
    out_num(fw, sizeof fw, out_round(t->f_write, dig));
    int k = t->nkernels, mids = k - c->prog->n_out;
    if (mids < 0)
        mids = 0;
    fprintf(f, "Unfused, this chain launches %d kernel%s and moves %s B per element (%s B read, %s B "
               "written): ",
            k, plural(k), ub, ur, uw);
    if (mids > 0)
        fprintf(f, "each of its %d intermediate%s makes a round trip through memory. ", mids, plural(mids));
    else
        fprintf(f, "no intermediate round trips, since every kernel writes an output. ");
    fprintf(f, "Fused, one kernel reads each input once and writes each output once: %s B per element "
               "(%s B read, %s B written)%s. ",
            fb, fr, fw, mids > 0 ? ", with the intermediates kept in registers" : "");
    fprintf(f, "While memory-bound, the predicted speedup is the traffic ratio, %s B / %s B = %.2fx.", ub, fb,
            t->ratio);

    double xf = predict_crossover(c, 1), xu = predict_crossover(c, 0);
    double nmax = c->sizes->v[c->sizes->n - 1];
    Point big = predict_at(c, nmax);
    char sx[300], sxu[300], sn[300];
    say_n(c, sx, sizeof sx, xf);
    say_n(c, sxu, sizeof sxu, xu);
    at_n(c, sn, sizeof sn, nmax);
    fprintf(f, "\n\n");
    if (host == FUSEC_HOST_PYTORCH) {
        double eager = k * d->eager_op_us;
        fprintf(f, "Launched from PyTorch, the host sets a floor under both versions: eager pays about %.1f us of "
                   "dispatch for each of its %d op%s (%.1f us a call) and a torch.compile'd call about %.1f us, "
                   "whatever n is. ",
                d->eager_op_us, k, plural(k), eager, d->compiled_call_us);
        if (xf > 0)
            fprintf(f, "Below about %s that floor is larger than the GPU's work, so the speedup collapses "
                       "toward %.1f / %.1f = %.2fx; above it, bytes rule and the speedup climbs toward the "
                       "traffic ratio.",
                    sx, eager, d->compiled_call_us, eager / d->compiled_call_us);
    } else {
        int hot = c->opt->hot;
        double lu = fusec_launch_floor(d, k, host, hot), lf = fusec_launch_floor(d, 1, host, hot);
        /* what a call costs at n = 1: its launches and each kernel's least work (the fused kernel's
         * drain, fusec_drain_us), which the speedup tends to */
        Point one = predict_at(c, 1);
        /* and the fetch of the queued kernels' code (fusec_code_us), in the overhead beside the launches */
        char code[400] = "";
        if (one.u.overhead_us - lu >= 0.005)
            snprintf(code, sizeof code, " and %.2f us fetching the later kernels' code", one.u.overhead_us - lu);
        char least[240] = "", wait[120] = "";
        bool gathers = t->fused.gather_slots > 0; /* a gathered input's wait: fusec_drain_us */
        if (gathers)
            snprintf(wait, sizeof wait, ", and %.1f us finding its broadcast inputs' places before its first loads",
                     FUSEC_GATHER_LATENCY_US);
        if (one.f.us - lf >= 0.1)
            snprintf(least, sizeof least, ", and the fused kernel's %s (its last elements' chain of %.0f issue slots%s) "
                     "adds %.1f us", gathers ? "least work" : "drain", t->fcost.slots32 + t->fcost.slots64, wait,
                     one.f.us - lf);
        /* the unfused kernels' least work: their drains, and the wait of those in eager's
         * broadcast form before their first loads (FUSEC_GATHER_LATENCY_US) */
        int nb = broadcast_kernels(t);
        char uleast[240] = "";
        if (one.u.us - one.u.overhead_us >= 0.1 && nb > 0)
            snprintf(uleast, sizeof uleast, ", plus %.1f us of least work (%s%d kernel%s in eager's broadcast form, "
                     "%.1f us %sfinding %s elements' places before %s first loads)", one.u.us - one.u.overhead_us,
                     one.u.us - one.u.overhead_us - nb * FUSEC_GATHER_LATENCY_US >= 0.05 ? "of it, " : "", nb,
                     plural(nb), FUSEC_GATHER_LATENCY_US, nb > 1 ? "each " : "",
                     nb > 1 ? "their" : "its", nb > 1 ? "their" : "its");
        else if (one.u.us - one.u.overhead_us >= 0.1)
            snprintf(uleast, sizeof uleast, ", plus %.1f us of least work (its kernels' drains)",
                     one.u.us - one.u.overhead_us);
        strncat(code, uleast, sizeof code - strlen(code) - 1);
        fprintf(f, "On %s, at %.0f GB/s, ", d->name, d->hbm_gbps);
        /* A crossover of 0: the version is never overhead-bound in
         * [1, 2^40], or always is. */
        bool always = xu == 0 && regime_of(c, 1, 0) == FUSEC_OVERHEAD;
        /* hot from C, a call's floor is the host's issue time where that is the slower */
        bool host_floor = hot && host == FUSEC_HOST_C && fusec_host_issue(d, 1) > fusec_hot_launches(d, 1);
        char tail[160];
        if (host_floor)
            snprintf(tail, sizeof tail, "and its queued launch take longer than the host's %.1f us to issue it", lf);
        else
            snprintf(tail, sizeof tail, "take longer than its %.1f us launch", lf);
        if (xf > 0 && regime_of(c, xf * 1.01, 1) == FUSEC_COMPUTE)
            fprintf(f, "the fused kernel leaves the overhead-bound regime at about %s, where its %.0f issue "
                       "slots per element %s (compute-bound from there); ",
                    sx, t->fcost.slots32 + t->fcost.slots64, tail);
        else if (xf > 0)
            fprintf(f, "the fused kernel leaves the overhead-bound regime at about %s, where its %s B per "
                       "element %s; ",
                    sx, fb, tail);
        else
            fprintf(f, regime_of(c, 1, 1) == FUSEC_OVERHEAD ? "the fused kernel is always (up to %s = 2^40) "
                    "overhead-bound; " : "the fused kernel is never (not even at %s = 1) overhead-bound; ",
                    predict_sweep_name(c));
        if (xu > 0)
            fprintf(f, "the unfused chain at about %s. ", sxu);
        else if (always)
            fprintf(f, "the unfused chain always is (up to %s = 2^40). ", predict_sweep_name(c));
        else
            fprintf(f, "the unfused chain never is (not even at %s = 1). ", predict_sweep_name(c));
        const char *below = always ? "At every size" : "Below that";
        if (xu == 0 && !always) /* what moves the speedup off the traffic ratio: the paragraph below */
            fprintf(f, "Launches never rule here.");
        else if (host == FUSEC_HOST_GRAPH) {
            char terms[200];
            chain_terms(terms, sizeof terms, k, "one node's", d->graph_launch_us, d->graph_second_us,
                        d->graph_third_us, d->graph_node_us, d->graph_far_us);
            fprintf(f, "%s, the graph's overhead rules: a replay of %d dependent node%s costs %.1f us "
                       "(%s)%s against %.1f us for one%s, so the speedup tends to %.1f / %.1f = %.2fx.",
                    below, k, plural(k), lu, terms, code, lf, least, one.u.us, one.f.us, one.speedup);
        } else if (hot) {
            /* back to back: each kernel queued behind the last call's, and the host's issue time when it is
             * the slower (fusec_launch_floor) */
            char calls[64];
            if (k > 1)
                snprintf(calls, sizeof calls, "the %d kernels", k);
            else
                snprintf(calls, sizeof calls, "the unfused one");
            fprintf(f, "%s, launches rule: back to back, a call costs the larger of the host's issue time (%.2f us "
                       "a call and %.2f us a launch) and the GPU's (%.2f us a call and %.2f us a queued kernel): %.1f us for %s, "
                       "%.1f us for the fused one%s, so the speedup tends to %.1f / %.1f = %.2fx%s.",
                    below, d->host_call_us, d->host_launch_us, d->hot_call_us, d->launch_next_us, lu, calls, lf, least,
                    one.u.us, one.f.us, one.speedup, k > 1 ? " rather than the traffic ratio" : "");
        } else {
            char terms[200];
            chain_terms(terms, sizeof terms, k, "the first kernel's", d->launch_first_us, d->launch_second_us,
                        d->launch_third_us, d->launch_next_us, d->launch_far_us);
            fprintf(f, "%s, launches rule: a cold call of %d kernel%s costs %.1f us of launches (%s)%s against "
                       "%.1f us for one%s, so the speedup tends to %.1f / %.1f = %.2fx%s.",
                    below, k, plural(k), lu, terms, code, lf, least, one.u.us, one.f.us, one.speedup,
                    k > 1 ? " rather than the traffic ratio" : "");
        }
    }
    fprintf(f, "\n\n");
    explain_bands(f, c);
    fprintf(f, "\nAt %s the model predicts unfused %.1f us (%s-bound) and fused %.1f us (%s-bound): %.2fx.\n",
            sn, big.u.us, fusec_regime_name[big.u.regime], big.f.us, fusec_regime_name[big.f.regime],
            big.speedup);
}
