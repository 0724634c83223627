/^static void fh_cal_flush(const FhLaunchCal \*L)/i static __global__ void xspin(long long c) { long long t = clock64(); while (clock64() - t < c) {} }
s/^\( *\)fh_cal_flush(L);/\1xspin<<<1, 1, 0, L->s>>>(1000000); fh_cal_flush(L);/
s/^\( *\)fh_flush_l2(R);/\1xspin<<<1, 1, 0, R->s>>>(1000000); fh_flush_l2(R);/
