/*
 * predict.c: the time model over a size sweep, the crossover sizes and the
 * explanation paragraph: the lesson's sentence, in bytes and launches.
 * The model itself is runtime/fusec_model.h, shared with the harness.
 */
#include <math.h>
#include <string.h>

#include "fusec.h"

Point predict_at(const Chain *c, double n)
{
    const Traffic *t = &c->traffic;
    const FusecProfile *d = &c->opt->device;
    Point pt;
    pt.n = n;
    pt.u = fusec_model_time(d, &t->unfused, n, c->opt->host, 0, 0);
    pt.f = fusec_model_time(d, &t->fused, n, c->opt->host, 1, 0);
    pt.speedup = pt.u.us / pt.f.us;
    return pt;
}

static int regime_of(const Chain *c, double n, int fused)
{
    const Traffic *t = &c->traffic;
    return fusec_model_time(&c->opt->device, fused ? &t->fused : &t->unfused, n, c->opt->host, fused, 0).regime;
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
    c->crossover[0] = find_crossover(c, 0);
    c->crossover[1] = find_crossover(c, 1);
}

/* "n = 2^21.3 (2.6M)" */
static void say_n(char *buf, size_t len, double n)
{
    if (n >= 1e6)
        snprintf(buf, len, "2^%.1f (%.3gM elements)", log2(n), n / 1e6);
    else if (n >= 1e3)
        snprintf(buf, len, "2^%.1f (%.3gK elements)", log2(n), n / 1e3);
    else
        snprintf(buf, len, "%.0f", n);
}

static const char *plural(double v) { return v == 1 ? "" : "s"; }

void predict_explain(FILE *f, const Chain *c)
{
    const Traffic *t = &c->traffic;
    const FusecProfile *d = &c->opt->device;
    int host = c->opt->host;
    char ub[32], fb[32], ur[32], uw[32], fr[32], fw[32];
    out_num(ub, sizeof ub, t->u_read + t->u_write);
    out_num(fb, sizeof fb, t->f_read + t->f_write);
    out_num(ur, sizeof ur, t->u_read);
    out_num(uw, sizeof uw, t->u_write);
    out_num(fr, sizeof fr, t->f_read);
    out_num(fw, sizeof fw, t->f_write);
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
    double nmax = c->opt->sizes.v[c->opt->sizes.n - 1];
    Point big = predict_at(c, nmax);
    char sx[64], sxu[64], sn[32];
    say_n(sx, sizeof sx, xf);
    say_n(sxu, sizeof sxu, xu);
    out_n(sn, sizeof sn, nmax);
    fprintf(f, "\n\n");
    if (host == FUSEC_HOST_PYTORCH) {
        double eager = k * d->eager_op_us;
        fprintf(f, "Launched from PyTorch, the host sets a floor under both versions: eager pays about %.1f us of "
                   "dispatch for each of its %d op%s (%.1f us a call) and a torch.compile'd call about %.1f us, "
                   "whatever n is. ",
                d->eager_op_us, k, plural(k), eager, d->compiled_call_us);
        if (xf > 0)
            fprintf(f, "Below about n = %s that floor is larger than the GPU's work, so the speedup collapses "
                       "toward %.1f / %.1f = %.2fx; above it, bytes rule and the speedup climbs toward the "
                       "traffic ratio.",
                    sx, eager, d->compiled_call_us, eager / d->compiled_call_us);
    } else {
        /* a graph replay is one launch, then one node per later kernel */
        double one = d->launch_us;
        double all = host == FUSEC_HOST_GRAPH ? d->launch_us + (k - 1) * d->graph_node_us : k * d->launch_us;
        fprintf(f, "On %s, at %.0f GB/s, ", d->name, d->hbm_gbps);
        if (xf > 0)
            fprintf(f, "the fused kernel leaves the overhead-bound regime at about n = %s, where its %s B per "
                       "element take longer than its %.1f us launch; ",
                    sx, fb, one);
        if (xu > 0)
            fprintf(f, "the unfused chain at about n = %s. ", sxu);
        if (host == FUSEC_HOST_GRAPH)
            fprintf(f, "Below that, the graph's overhead rules: one launch and %d dependent node%s (%.1f us) "
                       "against one launch (%.1f us), so the speedup tends to %.1f / %.1f = %.2fx.",
                    k - 1, plural(k - 1), all, one, all, one, all / one);
        else
            fprintf(f, "Below that, launches rule: %d launch%s (%.1f us) against 1 (%.1f us), so the speedup "
                       "tends to the ratio of kernel counts, %d/1 = %.1fx, rather than the traffic ratio.",
                    k, k == 1 ? "" : "es", all, one, k, (double)k);
        if (host == FUSEC_HOST_C && fabs(k - t->ratio) < 0.05 * t->ratio)
            fprintf(f, " For this chain the two ratios are nearly equal, so from C the speedup stays near "
                       "%.1fx at every size; PyTorch users see it collapse at small n because every eager op "
                       "also pays host dispatch (--host=pytorch predicts that).",
                    t->ratio);
    }
    fprintf(f, "\n\nAt n = %s the model predicts unfused %.1f us (%s-bound) and fused %.1f us (%s-bound): %.2fx",
            sn, big.u.us, fusec_regime_name[big.u.regime], big.f.us, fusec_regime_name[big.f.regime],
            big.speedup);
    if (big.f.regime == FUSEC_COMPUTE)
        fprintf(f, ", less than the traffic ratio because the fused kernel's %g flops and %g transcendental "
                   "functions per element take longer than its bytes",
                t->f_flops, t->f_trans);
    fprintf(f, ".\n");
}
