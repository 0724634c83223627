/* ================================ main ================================ */

static int fusec_harness_main(const FusecChain *c, int argc, char **argv)
{
    FhRun R;
    FhOutput out;
    int rc, status = 0;
    memset(&R, 0, sizeof R);
    R.c = c;
    rc = fh_parse_options(&R.o, argc, argv);
    if (rc >= 0)
        return rc;
    rc = fh_setup_dims(&R);
    if (rc >= 0)
        return rc;
    R.cmdline = fh_command_line(argc, argv);
    fh_setup_reference(&R);
    fh_print_chain(&R);
    rc = fh_open_device(&R.d, R.o.device);
    if (rc)
        return rc;
    fh_print_device(&R.d);
    FH_CHECK(cudaStreamCreateWithFlags(&R.s, cudaStreamNonBlocking));

    /* The model's ceilings, measured here (not needed to verify only). */
    if (!R.o.verify_only || R.o.calibrate) {
        fh_calibrate(&R.d, R.s, &R.prof, &R.calib);
        R.calibrated = 1;
        fh_print_profile(&R.prof, &R.calib);
        out.R = &R;
        out.failed = 0;
        if (R.o.calibrate && !fh_write_file(R.o.calibrate, fh_write_profile, &out))
            status = 1;
    }
    fh_print_model(&R);

    /* Correct first: nothing is timed before every version passed. */
    if (!R.o.no_verify && !fh_verify_all(&R)) {
        fh_write_results(&R, 1);
        return 1;
    }
    if (!R.o.verify_only)
        fh_time_all(&R);

    if (R.o.verify_only ? !R.verified_sizes : !R.timed_sizes) {
        fprintf(stderr, "fusec harness: no size could be run\n");
        status = 1;
    }
    if (!fh_write_results(&R, 0))
        status = 1;
    fh_free_run(&R);
    return status;
}

#endif /* FUSEC_HARNESS_CUH */
