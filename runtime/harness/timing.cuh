/* ================================ timing ================================ */

/* Median, min and max of R->times[0 .. reps), which it sorts. */
static FhTimes fh_summarize(const FhRun *R)
{
    FhTimes t;
    int reps = R->o.reps;
    t.median = fh_median(R->times, reps);
    t.min = R->times[0];
    t.max = R->times[reps - 1];
    return t;
}

/* The times between consecutive events ev[0 .. reps]. */
static FhTimes fh_event_times(const FhRun *R)
{
    int r;
    for (r = 0; r < R->o.reps; r++) {
        float ms;
        FH_CHECK(cudaEventElapsedTime(&ms, R->ev[r], R->ev[r + 1]));
        R->times[r] = ms * 1e3;
    }
    return fh_summarize(R);
}

/* One call, not waited for; its launch errors are checked. */
static void fh_run_call(const FhRun *R, int version, void **b, size_t n)
{
    cudaError_t e = fh_call(R, version, b, n);
    if (e != cudaSuccess) {
        fprintf(stderr, "fusec harness: the %s version failed at n = %zu\n", fh_version_name[version], n);
        FH_CHECK(e);
    }
}

/* Hot: the calls run back to back on the same buffers with no
 * synchronisation between them, as a program would call them; an event
 * recorded between one call and the next times each call, and the median of
 * --reps calls is reported. Buffers small enough stay in L2 from one call
 * to the next, which is what the model's hot case assumes. */
static FhTimes fh_time_hot(const FhRun *R, int version, void **b, size_t n)
{
    int r;
    for (r = 0; r < R->o.warmup; r++)
        fh_run_call(R, version, b, n);
    FH_CHECK(cudaEventRecord(R->ev[0], R->s));
    for (r = 0; r < R->o.reps; r++) {
        fh_run_call(R, version, b, n);
        FH_CHECK(cudaEventRecord(R->ev[r + 1], R->s));
    }
    FH_CHECK(cudaStreamSynchronize(R->s));
    FH_CHECK(cudaGetLastError());
    return fh_event_times(R);
}

/* Evicts everything from L2 (see fh_flush_rw_kernel). */
static void fh_flush_l2(const FhRun *R)
{
    size_t n = R->flush_bytes / sizeof(uint4);
    unsigned grid = (unsigned)R->d.sms * 8;
    fh_flush_rw_kernel<<<grid, 256, 0, R->s>>>((uint4 *)R->flush, n);
    fh_flush_read_kernel<<<grid, 256, 0, R->s>>>((const uint4 *)R->flush, n, R->sink);
    FH_CHECK(cudaGetLastError());
}

/* Cold: L2 flushed before each call, and each call timed alone between two
 * events, so its inputs come from HBM as on first touch. The host's
 * dispatch is hidden: a spin queued before the flush holds the stream for
 * 200 us + 10 us a kernel (the host takes 4-5 us a launch on the H200), so
 * that the call's kernels are all queued before the first starts and run back
 * to back, as the model's cold launch terms are measured (fh_cal_cold). Until
 * 2026-12-03 there was none: a call of more kernels than the flush's ~100 us
 * covers waited for the host (the unfused version of a 114-kernel chain took
 * 377 us at 4096 elements, against 206 predicted: session 11, docs/model.md). */
static void fh_hide_dispatch(const FhRun *R, int version)
{
    const FusecVersion *v = version == 0 ? &R->c->unfused : &R->c->fused;
    double us = 200.0 + 10.0 * fusec_kernel_count(v);
    fh_spin_kernel<<<1, 1, 0, R->s>>>((long long)(us * R->d.clock_khz / 1000.0));
}

static FhTimes fh_time_cold(const FhRun *R, int version, void **b, size_t n)
{
    int r;
    for (r = 0; r < R->o.warmup; r++) {
        fh_flush_l2(R);
        fh_run_call(R, version, b, n);
    }
    for (r = 0; r < R->o.reps; r++) {
        float ms;
        fh_hide_dispatch(R, version);
        fh_flush_l2(R);
        FH_CHECK(cudaEventRecord(R->ev[0], R->s));
        fh_run_call(R, version, b, n);
        FH_CHECK(cudaEventRecord(R->ev[1], R->s));
        FH_CHECK(cudaEventSynchronize(R->ev[1]));
        FH_CHECK(cudaEventElapsedTime(&ms, R->ev[0], R->ev[1]));
        R->times[r] = ms * 1e3;
    }
    FH_CHECK(cudaGetLastError());
    return fh_summarize(R);
}

/* Graph: the version's launches captured once in a CUDA graph (on the
 * harness's own stream, never the legacy default stream), then replayed back
 * to back; an event between one replay and the next times each. The version
 * ran before (fh_time_size), so any scratch it allocates on first use exists
 * already: nothing may allocate during a capture. */
static FhTimes fh_time_graph(const FhRun *R, int version, void **b, size_t n)
{
    cudaGraph_t g;
    cudaGraphExec_t ge;
    cudaError_t e, e2;
    FhTimes t;
    int r;
    FH_CHECK(cudaStreamBeginCapture(R->s, cudaStreamCaptureModeGlobal));
    e = fh_call(R, version, b, n);
    e2 = cudaStreamEndCapture(R->s, &g);
    if (e != cudaSuccess || e2 != cudaSuccess) {
        fprintf(stderr,
                "fusec harness: the %s version could not be captured in a CUDA graph at n = %zu "
                "(during a capture it may only launch work on the stream it is given)\n",
                fh_version_name[version], n);
        FH_CHECK(e != cudaSuccess ? e : e2);
    }
    FH_CHECK(cudaGraphInstantiate(&ge, g, 0));
    for (r = 0; r < R->o.warmup; r++)
        FH_CHECK(cudaGraphLaunch(ge, R->s));
    FH_CHECK(cudaEventRecord(R->ev[0], R->s));
    for (r = 0; r < R->o.reps; r++) {
        FH_CHECK(cudaGraphLaunch(ge, R->s));
        FH_CHECK(cudaEventRecord(R->ev[r + 1], R->s));
    }
    FH_CHECK(cudaStreamSynchronize(R->s));
    FH_CHECK(cudaGetLastError());
    t = fh_event_times(R);
    FH_CHECK(cudaGraphExecDestroy(ge));
    FH_CHECK(cudaGraphDestroy(g));
    return t;
}

/* A row of the table: the measurement beside the model's prediction (the
 * CUB version's beside the fused one's: it moves the same bytes). */
static FhRow fh_make_row(const FhRun *R, size_t n, int mode, const FhTimes *t)
{
    FusecKernelCost *store[2] = {NULL, NULL};
    double elems;
    /* a shaped chain's versions at this size's dims */
    FusecVersion ver[2] = {fh_version_at(R, 0, n, &store[0], &elems), fh_version_at(R, 1, n, &store[1], &elems)};
    int host = mode == FH_MODE_GRAPH ? FUSEC_HOST_GRAPH : FUSEC_HOST_C, v;
    int hot = mode != FH_MODE_COLD; /* graph replays run back to back too */
    FhRow row;
    memset(&row, 0, sizeof row);
    row.n = n;
    row.mode = mode;
    row.host = host;
    for (v = 0; v < R->c->versions; v++) {
        double bytes = elems * fh_bytes_per_element(R, v != 0, n);
        row.t[v] = t[v];
        row.gbps[v] = bytes / (t[v].median * 1e3);
        row.pct_copy[v] = 100 * row.gbps[v] / R->prof.hbm_gbps;
    }
    if (R->c->versions > 2)
        row.vs_cub = t[2].median / t[1].median;
    for (v = 0; v < 2; v++) {
        row.pred[v] = fusec_model_time(&R->prof, &ver[v], elems, host, v, hot);
        /* overhead: under twice what the launches alone cost in this mode */
        double launches = fusec_launch_floor(&R->prof, fusec_kernel_count(&ver[v]), host, hot);
        if (t[v].median < 2 * launches)
            row.regime[v] = FUSEC_OVERHEAD;
        else
            row.regime[v] = row.pct_copy[v] >= 50 ? FUSEC_MEMORY : FUSEC_COMPUTE;
    }
    row.speedup = t[0].median / t[1].median;
    row.pred_speedup = row.pred[0].us / row.pred[1].us;
    row.err_pct = 100 * (row.speedup / row.pred_speedup - 1);
    free(store[0]);
    free(store[1]);
    return row;
}

static void fh_print_row_header(const FhRun *R)
{
    int cub = R->c->versions > 2;
    printf("\ntiming: us per call, median of %d calls after %d warm-up calls, CUDA events%s;\n"
           "predicted: fusec's model with the calibrated profile; error: measured speedup / predicted - 1;\n"
           "GB/s: the bytes each version must move / its time; %%copy: of the calibrated copy bandwidth;\n"
           "regime (fused): overhead under 2 launch costs per kernel, memory at 50%% of copy or more, else "
           "compute\n",
           R->o.reps, R->o.warmup, R->o.passes > 1 ? ", the lowest of the passes' medians (--passes)" : "");
    if (cub)
        printf("cub: the fused chain through cub::DeviceTransform (-DFUSEC_CUB), timed the same way;\n"
               "vs cub: its time / the fused time (1 or more: the fused kernel is as fast or faster)\n");
    printf("%10s  %-5s %11s %11s %8s %9s %8s %9s %6s %9s %6s", "n", "mode", "unfused us", "fused us", "speedup",
           "predicted", "error", "unf GB/s", "%copy", "fus GB/s", "%copy");
    if (cub)
        printf(" %9s %8s %6s", "cub us", "vs cub", "%copy");
    printf("  %s\n", "regime");
}

static void fh_print_row(const FhRun *R, const FhRow *r)
{
    char nb[32];
    printf("%10s  %-5s %11.2f %11.2f %7.2fx %8.2fx %+7.1f%% %9.1f %5.1f%% %9.1f %5.1f%%",
           fh_fmt_n(r->n, nb, sizeof nb), fh_mode_name[r->mode], r->t[0].median, r->t[1].median, r->speedup,
           r->pred_speedup, r->err_pct, r->gbps[0], r->pct_copy[0], r->gbps[1], r->pct_copy[1]);
    if (R->c->versions > 2)
        printf(" %9.2f %7.3fx %5.1f%%", r->t[2].median, r->vs_cub, r->pct_copy[2]);
    printf("  %s\n", fusec_regime_name[r->regime[1]]);
    fflush(stdout);
}

/* Times every version at size n in every mode. */
static void fh_time_size(FhRun *R, size_t n)
{
    void **b = fh_prepare_size(R, n, 0);
    int m, v, nv = R->c->versions;
    if (!b)
        return;
    /* One call of each first: the unfused version allocates its scratch on
     * first use, which belongs neither in a timed call nor in a capture. */
    for (v = 0; v < nv; v++)
        fh_run_checked(R, v, b, n);
    /* --passes: every mode and version in turn, then again; each keeps its
     * lowest median. In session 23's fidelity run (137 harnesses, one pass)
     * seven harnesses' first size ran 1.5-5.6x slower than their next size in
     * one mode or more, one version or both (div_zero's and a random program's
     * unfused call cold, others hot or in a graph), rows beside them not: a
     * spell of the machine's, not of the chain's (bench/results/2026-12-05-s23). */
    FhTimes t[FH_NMODES][FH_MAX_VERSIONS];
    int p;
    for (p = 0; p < R->o.passes; p++)
        for (m = 0; m < R->o.nmodes; m++)
            for (v = 0; v < nv; v++) {
                int mode = R->o.modes[m];
                FhTimes x = mode == FH_MODE_HOT    ? fh_time_hot(R, v, b, n)
                            : mode == FH_MODE_COLD ? fh_time_cold(R, v, b, n)
                                                   : fh_time_graph(R, v, b, n);
                if (p == 0 || x.median < t[m][v].median)
                    t[m][v] = x;
            }
    for (m = 0; m < R->o.nmodes; m++) {
        int mode = R->o.modes[m];
        R->rows = (FhRow *)fh_grow(R->rows, &R->cap_rows, R->nrows + 1, sizeof *R->rows);
        R->rows[R->nrows] = fh_make_row(R, n, mode, t[m]);
        fh_print_row(R, &R->rows[R->nrows++]);
    }
    fh_buffers_free(R->c, b);
    R->timed_sizes++;
}

/* Events, the times array and, for the cold mode, the flush buffer: 3x the
 * L2 size (at least 64 MiB), filled with non-zero data. */
static void fh_time_all(FhRun *R)
{
    int i, m, cold = 0;
    R->ev = (cudaEvent_t *)fh_alloc(sizeof(cudaEvent_t) * (size_t)(R->o.reps + 1));
    R->times = (double *)fh_alloc(sizeof(double) * (size_t)R->o.reps);
    for (i = 0; i <= R->o.reps; i++)
        FH_CHECK(cudaEventCreate(&R->ev[i]));
    for (m = 0; m < R->o.nmodes; m++)
        cold |= R->o.modes[m] == FH_MODE_COLD;
    if (cold) {
        R->flush_bytes = 3 * R->d.l2_bytes;
        if (R->flush_bytes < ((size_t)64 << 20))
            R->flush_bytes = (size_t)64 << 20;
        FH_CHECK(cudaMalloc(&R->flush, R->flush_bytes));
        FH_CHECK(cudaMalloc((void **)&R->sink, sizeof(unsigned)));
        fh_fill_kernel<<<fh_grid(R->flush_bytes / 4, R->d.sms), 256, 0, R->s>>>((unsigned *)R->flush,
                                                                               R->flush_bytes / 4, 777u);
        FH_CHECK(cudaGetLastError());
        FH_CHECK(cudaStreamSynchronize(R->s));
    }
    fh_print_row_header(R);
    for (i = 0; i < R->o.nsizes; i++)
        fh_time_size(R, R->o.sizes[i]);
    for (i = 0; i <= R->o.reps; i++)
        FH_CHECK(cudaEventDestroy(R->ev[i]));
    if (R->flush) {
        FH_CHECK(cudaFree(R->flush));
        FH_CHECK(cudaFree(R->sink));
        R->flush = NULL;
    }
}

