/* fusec_torch.h: what every PyTorch binding fusec emits (--emit=torch) shares:
 * the checks of a tensor argument, with messages that name the argument, and
 * the CUDA status check. docs/torch.md lists the errors. The binding pastes
 * this file after its #includes (ATen, c10/cuda, torch/library.h) and
 * fusec_dtype.h. */

/* torch's spelling of a dtype, for messages: "torch.float32". fusec's dtypes
 * from their row of fusec_dtype.h, then the others torch has. */
static inline const char *fx_torch_dtype(at::ScalarType t)
{
    switch (t) {
#define FX_TORCH_DTYPE(E, name, size, store, api, ctype, compute, kind, prec, emin, emax, maxf, eps, rtol, atol, aten, \
                       torch, ...)                                                                                  \
    case aten: return #torch;
        FUSEC_DTYPES(FX_TORCH_DTYPE)
#undef FX_TORCH_DTYPE
    default: return c10::toString(t);
    }
}

/* A shape or strides as a message shows it, "[4096, 2]", spelled with
 * std::to_string: streaming an integer (an IntArrayRef, an int) into a
 * TORCH_CHECK message crashed inside libstdc++ on the H200 machine (torch
 * 2.11, g++ 13: a segmentation fault in any extension, run 3 of session 2 of
 * 2026-12-01), so every number in a message goes through std::to_string. */
static inline std::string fx_torch_dims(at::IntArrayRef d)
{
    std::string s = "[";
    for (size_t i = 0; i < d.size(); i++)
        s += (i ? ", " : "") + std::to_string(d[i]);
    return s + "]";
}

/* Checks tensor argument `name` of op `op`, in this order: on a CUDA device
 * (ValueError), of dtype want (TypeError; fuse_dtype is the .fuse file's
 * name for it), contiguous (ValueError), and, unless it is the first input
 * itself, on first's device and of first's shape (ValueError). The checks cost
 * a few comparisons; a message is built only when one fails. */
static inline void fx_torch_check(const char *op, const at::Tensor &t, const char *name, at::ScalarType want,
                                  const char *fuse_dtype, const at::Tensor &first, const char *first_name)
{
    TORCH_CHECK_VALUE(t.is_cuda(), op, ": ", name, " must be a CUDA tensor, but it is on ", t.device());
    TORCH_CHECK_TYPE(t.scalar_type() == want, op, ": ", name, " must have dtype ", fx_torch_dtype(want), " (", fuse_dtype,
                     " in the .fuse file), but it has dtype ", fx_torch_dtype(t.scalar_type()));
    TORCH_CHECK_VALUE(t.is_contiguous(), op, ": ", name, " must be contiguous, but it has shape ", fx_torch_dims(t.sizes()),
                      " and strides ", fx_torch_dims(t.strides()), " (pass ", name, ".contiguous())");
    if (&t == &first)
        return;
    TORCH_CHECK_VALUE(t.device() == first.device(), op, ": ", name, " is on ", t.device(), " but ", first_name, " is on ",
                      first.device(), ": every tensor must be on one device");
    TORCH_CHECK_VALUE(t.sizes() == first.sizes(), op, ": ", name, " has shape ", fx_torch_dims(t.sizes()), " but ", first_name,
                      " has shape ", fx_torch_dims(first.sizes()), ": every tensor of the chain must have the same shape");
}

/* A shaped chain's tensor: on first's device (ValueError), and of its .fuse
 * shape (shape_text, rank positions, each a dim's index or -1 for a 1): each
 * dim's size comes from the first tensor that has it (dims[d], from[d]); the
 * others must agree (ValueError naming the argument and the dim). */
static inline void fx_torch_shape(const char *op, const at::Tensor &t, const char *name, const char *shape_text,
                                  int rank, const int *shape, const char *const *dim_names, int64_t *dims,
                                  const char **from, const at::Tensor &first, const char *first_name)
{
    TORCH_CHECK_VALUE(t.device() == first.device(), op, ": ", name, " is on ", t.device(), " but ", first_name, " is on ",
                      first.device(), ": every tensor must be on one device");
    TORCH_CHECK_VALUE(t.dim() == rank, op, ": ", name, " must have ", std::to_string(rank), " dim", rank == 1 ? "" : "s", " (", name, ": ",
                      shape_text, " in the .fuse file), but it has shape ", fx_torch_dims(t.sizes()));
    for (int j = 0; j < rank; j++) {
        const int d = shape[j];
        if (d < 0) {
            TORCH_CHECK_VALUE(t.size(j) == 1, op, ": ", name, " must have size 1 in dim ", std::to_string(j), " (", name, ": ", shape_text,
                              " in the .fuse file), but it has shape ", fx_torch_dims(t.sizes()));
        } else if (!from[d]) {
            dims[d] = t.size(j);
            from[d] = name;
        } else {
            TORCH_CHECK_VALUE(t.size(j) == dims[d], op, ": ", name, " has ", dim_names[d], " = ", std::to_string(t.size(j)), " (dim ", std::to_string(j),
                              " of its shape ", fx_torch_dims(t.sizes()), ") but ", from[d], " has ", dim_names[d], " = ", std::to_string(dims[d]));
        }
    }
}

/* A failed launch becomes a RuntimeError that names the op. */
static inline void fx_torch_status(const char *op, cudaError_t err)
{
    TORCH_CHECK(err == cudaSuccess, op, ": CUDA error: ", cudaGetErrorString(err));
}
