/* ================================ device ================================ */

typedef struct FhDevice {
    int id;
    char name[256];
    int cc_major, cc_minor, sms;
    int clock_khz;               /* the SMs' clock (for fh_spin_kernel's cycles) */
    size_t l2_bytes, mem_total, mem_free;
    int driver_api, runtime_api; /* CUDA versions as 13000 = 13.0 */
    char driver[64];             /* kernel module version, "unknown" where not readable */
    char date[32];               /* when the run started, UTC */
} FhDevice;

/* The NVIDIA kernel module's version from /proc (Linux); "unknown" elsewhere. */
static void fh_driver_version(char *buf, size_t len)
{
    char line[512];
    const char *m;
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    fh_format(buf, len, "unknown");
    if (!f)
        return;
    /* "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04 ...":
     * the first word after "Kernel Module" that starts with a digit */
    if (fgets(line, sizeof line, f) && (m = strstr(line, "Kernel Module")) != NULL) {
        char v[64];
        int used = 0;
        m += strlen("Kernel Module");
        while (sscanf(m, " %63s%n", v, &used) == 1) {
            if (v[0] >= '0' && v[0] <= '9') {
                fh_format(buf, len, "%s", v);
                break;
            }
            m += used;
        }
    }
    fclose(f);
}

/* Opens device id and fills d. Returns 0, or 2 when there is no such device. */
static int fh_open_device(FhDevice *d, int id)
{
    cudaDeviceProp p;
    int count = 0, l2 = 0;
    FH_CHECK(cudaGetDeviceCount(&count));
    if (id >= count) {
        fprintf(stderr, "fusec harness: --device %d, but there are %d device(s)\n", id, count);
        return 2;
    }
    memset(d, 0, sizeof *d);
    d->id = id;
    FH_CHECK(cudaSetDevice(id));
    FH_CHECK(cudaGetDeviceProperties(&p, id));
    fh_format(d->name, sizeof d->name, "%s", p.name);
    FH_CHECK(cudaDeviceGetAttribute(&d->sms, cudaDevAttrMultiProcessorCount, id));
    FH_CHECK(cudaDeviceGetAttribute(&d->cc_major, cudaDevAttrComputeCapabilityMajor, id));
    FH_CHECK(cudaDeviceGetAttribute(&d->cc_minor, cudaDevAttrComputeCapabilityMinor, id));
    FH_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, id));
    if (cudaDeviceGetAttribute(&d->clock_khz, cudaDevAttrClockRate, id) != cudaSuccess || d->clock_khz <= 0)
        d->clock_khz = 2000000; /* CUDA 13 may not report it: 2 GHz */
    d->l2_bytes = (size_t)l2;
    FH_CHECK(cudaFree(0)); /* create the context now, outside any measurement */
    FH_CHECK(cudaMemGetInfo(&d->mem_free, &d->mem_total));
    FH_CHECK(cudaDriverGetVersion(&d->driver_api));
    FH_CHECK(cudaRuntimeGetVersion(&d->runtime_api));
    fh_driver_version(d->driver, sizeof d->driver);
    fh_utc_now(d->date, sizeof d->date);
    return 0;
}

static void fh_print_device(const FhDevice *d)
{
    char a[32], b[32], c[32];
    printf("device %d: %s, sm_%d%d, %d SMs, L2 %s, memory %s (%s free)\n", d->id, d->name, d->cc_major,
           d->cc_minor, d->sms, fh_fmt_bytes((double)d->l2_bytes, a, sizeof a),
           fh_fmt_bytes((double)d->mem_total, b, sizeof b), fh_fmt_bytes((double)d->mem_free, c, sizeof c));
    printf("driver %s (CUDA %d.%d), runtime %d.%d, %s\n", d->driver, d->driver_api / 1000,
           d->driver_api % 1000 / 10, d->runtime_api / 1000, d->runtime_api % 1000 / 10, d->date);
}

