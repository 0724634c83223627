/*
 * emit_torch.c: the PyTorch backend (--emit=torch -o DIR). A folder of four
 * files that make the chain two custom ops, fusec::P (the fused kernel) and
 * fusec::P_unfused (the kernels eager would launch):
 *   P.cu         the kernels and the C API, as --emit=cuda writes them;
 *   P.h          the C API's header, as --emit=header writes it;
 *   P_torch.cpp  the binding: each op's schema (TORCH_LIBRARY_FRAGMENT) and
 *                its implementation (TORCH_LIBRARY_IMPL), which checks the
 *                tensors, allocates the outputs and calls the C API on the
 *                current stream;
 *   P.py         the module a user imports: builds and loads the binding,
 *                registers the ops' fake implementation, and names the ops
 *                `fused` and `unfused`.
 * docs/torch.md describes the route. Every shape comes from the tensors (the
 * outputs take the first input's), so the binding needs nothing from the
 * .fuse file beyond names, dtypes and defaults.
 */
#include <string.h>

#include "fusec.h"

/* A dtype as PyTorch spells it: the aten and torch columns of
 * runtime/fusec_dtype.h. */
#define DT_TORCH(E, name, size, store, api, ctype, compute, kind, prec, emin, emax, maxf, eps, rtol, atol, aten, \
                 torch, ...)                                                                                 \
    {#aten, #torch},
static const struct {
    const char *aten, *python;
} torch_dtype[FX_NDTYPES] = {FUSEC_DTYPES(DT_TORCH)};
#undef DT_TORCH

bool emit_torch_reserved(const char *s)
{
    /* Python's keywords, the words TorchScript's lexer (which parses op schemas)
     * takes as keywords, and two argument names torch gives a meaning. */
    static const char *const words[] = {
        "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def",
        "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is",
        "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
        "Ellipsis", "NoneType", "self", "out"};
    for (size_t i = 0; i < ARRAY_LEN(words); i++)
        if (strcmp(s, words[i]) == 0)
            return true;
    return false;
}

typedef struct Torch {
    FILE *f;
    const Chain *c;
    const Program *p;
    const char **c_in, **c_out, **c_par; /* the C API's names (P.h) */
    const char **py_in, **py_par;        /* the schema's names: keywords from Python */
    const char **defaults;               /* each param's default, as a float literal */
} Torch;

static int out_dtype(const Program *p, int k)
{
    return p->inst[p->sym[p->outputs[k]].value].dtype;
}

/* The schema's argument name for a .fuse name: itself, with '_' appended while
 * it is reserved or taken by an earlier argument. */
static const char *schema_name(Arena *a, const char *name, const char **taken, int ntaken)
{
    const char *s = name;
    for (;;) {
        bool clash = emit_torch_reserved(s);
        for (int k = 0; k < ntaken && !clash; k++)
            clash = strcmp(taken[k], s) == 0;
        if (!clash)
            return s;
        s = arena_printf(a, "%s_", s);
    }
}

static void torch_init(Torch *T, FILE *f, const Chain *c)
{
    Program *p = c->prog;
    Arena *a = p->arena;
    memset(T, 0, sizeof *T);
    T->f = f;
    T->c = c;
    T->p = p;
    T->c_in = arena_alloc(a, sizeof(char *) * (size_t)(p->n_in + 1));
    T->c_out = arena_alloc(a, sizeof(char *) * (size_t)(p->n_out + 1));
    T->c_par = arena_alloc(a, sizeof(char *) * (size_t)(p->n_par + 1));
    emit_cuda_api_names(c, T->c_in, T->c_out, T->c_par);
    const char **taken = arena_alloc(a, sizeof(char *) * (size_t)(p->n_in + p->n_par + 1));
    int nt = 0;
    T->py_in = arena_alloc(a, sizeof(char *) * (size_t)(p->n_in + 1));
    T->py_par = arena_alloc(a, sizeof(char *) * (size_t)(p->n_par + 1));
    T->defaults = arena_alloc(a, sizeof(char *) * (size_t)(p->n_par + 1));
    for (int k = 0; k < p->n_in; k++, nt++)
        T->py_in[k] = taken[nt] = schema_name(a, p->sym[p->inputs[k]].name, taken, nt);
    for (int k = 0; k < p->n_par; k++, nt++) {
        T->py_par[k] = taken[nt] = schema_name(a, p->sym[p->params[k]].name, taken, nt);
        char v[48];
        out_num(v, sizeof v, p->sym[p->params[k]].pvalue);
        /* a float literal to both the schema parser and Python: 2 -> 2.0 */
        T->defaults[k] = arena_printf(a, "%s%s", v, strpbrk(v, ".eEn") ? "" : ".0");
    }
}

/* s, with control characters shown as '?' and, in a C comment, star-slash
 * broken up. */
static void safe_text(FILE *f, const char *s, bool c_comment)
{
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        fputc(ch >= 0x20 && ch != 0x7f ? ch : '?', f);
        if (c_comment && ch == '*' && s[1] == '/')
            fputc(' ', f);
    }
}

/* "x, Tensor b, float s=0.5": the schema's arguments. */
static void schema_args(Torch *T)
{
    const Program *p = T->p;
    for (int k = 0; k < p->n_in; k++)
        fprintf(T->f, "%sTensor %s", k ? ", " : "", T->py_in[k]);
    for (int k = 0; k < p->n_par; k++)
        fprintf(T->f, ", float %s=%s", T->py_par[k], T->defaults[k]);
}

static void schema_returns(Torch *T)
{
    int n = T->p->n_out;
    fprintf(T->f, n == 1 ? "Tensor" : "(");
    for (int k = 0; n > 1 && k < n; k++)
        fprintf(T->f, "%sTensor", k ? ", " : "");
    if (n > 1)
        fputc(')', T->f);
}

/* "fusec::seed(Tensor x) -> Tensor" */
static void schema(Torch *T, bool qualified, const char *suffix)
{
    fprintf(T->f, "%s%s%s(", qualified ? "fusec::" : "", T->c->prefix, suffix);
    schema_args(T);
    fprintf(T->f, ") -> ");
    schema_returns(T);
}

/* The C++ return type of the ops. */
static void cxx_returns(Torch *T)
{
    int n = T->p->n_out;
    if (n == 1) {
        fprintf(T->f, "at::Tensor");
        return;
    }
    fprintf(T->f, "std::tuple<");
    for (int k = 0; k < n; k++)
        fprintf(T->f, "%sat::Tensor", k ? ", " : "");
    fprintf(T->f, ">");
}

/* The C++ parameters "const at::Tensor &x, double s", or (decl false) the
 * arguments "x, s". */
static void cxx_params(Torch *T, bool decl)
{
    const Program *p = T->p;
    for (int k = 0; k < p->n_in; k++)
        fprintf(T->f, "%s%s%s", k ? ", " : "", decl ? "const at::Tensor &" : "", T->c_in[k]);
    for (int k = 0; k < p->n_par; k++)
        fprintf(T->f, ", %s%s", decl ? "double " : "", T->c_par[k]);
}

static void header_comment(Torch *T, const char *file, const char *lead, bool c_comment)
{
    FILE *f = T->f;
    const Chain *c = T->c;
    fprintf(f, "%s %s%s: generated by fusec %s from ", lead, c->prefix, file, FUSEC_VERSION);
    safe_text(f, c->src->name, c_comment);
    fprintf(f, ". Do not edit; edit the .fuse file.\n%s\n", lead);
    emit_cuda_program_lines(f, c, c_comment ? " *   " : "#   ");
    fprintf(f, "%s\n", lead);
}

/* ---- P_torch.cpp ------------------------------------------------------------ */

/* A shaped chain: each input's dtype and .fuse shape; the dims from the
 * tensors (fx_dims, in the C API's order); the outputs' shape, the chain's. */
static void shaped_checks(Torch *T)
{
    FILE *f = T->f;
    const Program *p = T->p;
    fprintf(f, "    static const char *const fx_dim_names[] = {");
    for (int d = 0; d < p->ndim; d++)
        fprintf(f, "%s\"%s\"", d ? ", " : "", p->dim[d].name);
    fprintf(f, "};\n    int64_t fx_dims[%d] = {0};\n    const char *fx_from[%d] = {NULL};\n", p->ndim, p->ndim);
    for (int k = 0; k < p->n_in; k++) {
        int dt = p->sym[p->inputs[k]].dtype;
        const Shape *sh = input_shape(p, k);
        fprintf(f, "    fx_torch_check(fx_op, %s, \"%s\", %s, \"%s\", %s, \"%s\");\n", T->c_in[k], T->py_in[k],
                torch_dtype[dt].aten, fusec_dtype_name[dt], T->c_in[k], T->py_in[k]);
        fprintf(f, "    {\n        static const int fx_at[] = {");
        for (int j = 0; j < sh->rank; j++)
            fprintf(f, "%s%d", j ? ", " : "", sh->dim[j]);
        fprintf(f, "};\n        fx_torch_shape(fx_op, %s, \"%s\", \"%s\", %d, fx_at, fx_dim_names, fx_dims, fx_from, %s, "
                   "\"%s\");\n    }\n",
                T->c_in[k], T->py_in[k], shape_text(p, sh), sh->rank, T->c_in[0], T->py_in[0]);
    }
    fprintf(f, "    const std::vector<int64_t> fx_shape = {");
    for (int q = 0; q < p->full.rank; q++)
        if (p->full.dim[q] == DIM_ONE)
            fprintf(f, "%s1", q ? ", " : "");
        else
            fprintf(f, "%sfx_dims[%d]", q ? ", " : "", p->full.dim[q]);
    fprintf(f, "}; /* the chain's shape %s */\n", shape_text(p, &p->full));
}

static void emit_binding(FILE *f, const Chain *c)
{
    Torch T;
    torch_init(&T, f, c);
    const Program *p = T.p;
    const Traffic *t = &c->traffic;
    const char *P = c->prefix;
    fprintf(f, "/*\n");
    header_comment(&T, "_torch.cpp", " *", true);
    fprintf(f, " * The chain as two PyTorch custom ops over the C API of %s.cu (%s.h):\n *   ", P, P);
    schema(&T, true, "");
    if (p->shaped) {
        fprintf(f, "\n *       the fused kernel: %s B\n *   ", traffic_formula(p, t->fterm, t->nfterm, -1, FUSEC_IN, FUSEC_OUT));
        schema(&T, true, "_unfused");
        fprintf(f, "\n *       the %d kernel%s PyTorch eager would launch: %s B\n", t->nkernels,
                t->nkernels == 1 ? "" : "s", traffic_formula(p, t->uterm, t->nuterm, -1, FUSEC_IN, FUSEC_OUT));
        fprintf(f, " * Each checks its tensors (CUDA, dtype, contiguous, one device, each of its .fuse\n"
                   " * shape, the dims agreeing), allocates its outputs of the chain's shape %s on the\n"
                   " * first input's device, and launches on the current stream. %s.py builds this file\n"
                   " * with %s.cu, loads it and registers the ops' fake implementation for torch.compile.\n"
                   " * docs/torch.md.\n */\n",
                shape_text(p, &p->full), P, P);
    } else {
        fprintf(f, "\n *       the fused kernel: %g B per element\n *   ", t->f_read + t->f_write);
        schema(&T, true, "_unfused");
        fprintf(f, "\n *       the %d kernel%s PyTorch eager would launch: %g B per element\n", t->nkernels,
                t->nkernels == 1 ? "" : "s", t->u_read + t->u_write);
        fprintf(f, " * Each checks its tensors (CUDA, dtype, contiguous, one device, one shape), allocates\n"
                   " * its outputs with the first input's shape and device, and launches on the current\n"
                   " * stream. %s.py builds this file with %s.cu, loads it and registers the ops' fake\n"
                   " * implementation for torch.compile. docs/torch.md.\n */\n",
                P, P);
    }
    fprintf(f, "#include <ATen/cuda/CUDAContext.h>\n#include <ATen/ops/empty.h>\n#include <c10/cuda/CUDAGuard.h>\n"
               "#include <torch/library.h>\n\n#include \"%s.h\"\n",
            P);
    emit_cuda_runtime(f, "fusec_dtype.h");
    emit_cuda_runtime(f, "fusec_torch.h");

    /* the implementation, shared by both ops */
    fprintf(f, "\n/* Both ops: the tensors' checks, the outputs, one call of %s_fused or %s_unfused. */\nstatic ",
            P, P);
    cxx_returns(&T);
    fprintf(f, " %s_torch(bool fx_fused, ", P);
    cxx_params(&T, true);
    fprintf(f, ")\n{\n    const char *fx_op = fx_fused ? \"fusec::%s\" : \"fusec::%s_unfused\";\n", P, P);
    const char *first = T.c_in[0], *first_py = T.py_in[0];
    if (p->shaped)
        shaped_checks(&T);
    for (int k = 0; k < p->n_in && !p->shaped; k++) {
        int dt = p->sym[p->inputs[k]].dtype;
        fprintf(f, "    fx_torch_check(fx_op, %s, \"%s\", %s, \"%s\", %s, \"%s\");\n", T.c_in[k], T.py_in[k],
                torch_dtype[dt].aten, fusec_dtype_name[dt], first, first_py);
    }
    fprintf(f, "    const c10::cuda::CUDAGuard fx_guard(%s.device());\n", first);
    for (int k = 0; k < p->n_out; k++)
        if (p->shaped)
            fprintf(f, "    at::Tensor %s = at::empty(fx_shape, %s.options().dtype(%s));\n", T.c_out[k], first,
                    torch_dtype[out_dtype(p, k)].aten);
        else
            fprintf(f, "    at::Tensor %s = at::empty(%s.sizes(), %s.options().dtype(%s));\n", T.c_out[k], first, first,
                    torch_dtype[out_dtype(p, k)].aten);
    fprintf(f, "    const cudaError_t fx_err = (fx_fused ? %s_fused : %s_unfused)(\n", P, P);
    for (int k = 0; k < p->n_in; k++)
        fprintf(f, "        static_cast<const %s *>(%s.const_data_ptr()),\n", emit_cuda_api_type(p->sym[p->inputs[k]].dtype),
                T.c_in[k]);
    for (int k = 0; k < p->n_out; k++)
        fprintf(f, "        static_cast<%s *>(%s.mutable_data_ptr()),\n", emit_cuda_api_type(out_dtype(p, k)), T.c_out[k]);
    fprintf(f, "        ");
    for (int k = 0; k < p->n_par; k++)
        fprintf(f, "(%s)%s, ", emit_cuda_param_type(p, k), T.c_par[k]);
    if (p->shaped)
        for (int d = 0; d < p->ndim; d++)
            fprintf(f, "(size_t)fx_dims[%d], ", d);
    else
        fprintf(f, "(size_t)%s.numel(), ", first);
    fprintf(f, "at::cuda::getCurrentCUDAStream());\n    fx_torch_status(fx_op, fx_err);\n");
    if (p->n_out == 1) {
        fprintf(f, "    return %s;\n}\n", T.c_out[0]);
    } else {
        fprintf(f, "    return {");
        for (int k = 0; k < p->n_out; k++)
            fprintf(f, "%s%s", k ? ", " : "", T.c_out[k]);
        fprintf(f, "};\n}\n");
    }
    static const char *const version[2] = {"fused", "unfused"};
    for (int v = 0; v < 2; v++) {
        fprintf(f, "\nstatic ");
        cxx_returns(&T);
        fprintf(f, " %s_%s_torch(", P, version[v]);
        cxx_params(&T, true);
        fprintf(f, ")\n{\n    return %s_torch(%s, ", P, v == 0 ? "true" : "false");
        cxx_params(&T, false);
        fprintf(f, ");\n}\n");
    }

    fprintf(f, "\n/* The schemas. A fragment: every chain adds its ops to the one fusec namespace. */\n"
               "TORCH_LIBRARY_FRAGMENT(fusec, m)\n{\n");
    for (int v = 0; v < 2; v++) {
        fprintf(f, "    m.def(\"");
        schema(&T, false, v == 0 ? "" : "_unfused");
        fprintf(f, "\");\n");
    }
    fprintf(f, "}\n\n/* CUDA tensors run the kernels; CPU tensors reach the same checks, which say that\n"
               " * the op wants CUDA tensors. */\n");
    static const char *const key[2] = {"CUDA", "CPU"};
    for (int k = 0; k < 2; k++) {
        fprintf(f, "TORCH_LIBRARY_IMPL(fusec, %s, m)\n{\n", key[k]);
        fprintf(f, "    m.impl(\"%s\", &%s_fused_torch);\n    m.impl(\"%s_unfused\", &%s_unfused_torch);\n}\n%s", P, P, P,
                P, k == 0 ? "\n" : "");
    }
}

/* ---- P.py --------------------------------------------------------------------- */

static void emit_module(FILE *f, const Chain *c)
{
    Torch T;
    torch_init(&T, f, c);
    const Program *p = T.p;
    const Traffic *t = &c->traffic;
    const char *P = c->prefix;
    header_comment(&T, ".py", "#", false);
    char ub[32], fb[32];
    out_num(ub, sizeof ub, t->u_read + t->u_write);
    out_num(fb, sizeof fb, t->f_read + t->f_write);
    if (p->shaped)
        fprintf(f, "# Unfused: %d kernel%s, %s B (as PyTorch eager). Fused: 1 kernel, %s B.\n", t->nkernels,
                t->nkernels == 1 ? "" : "s", traffic_formula(p, t->uterm, t->nuterm, -1, FUSEC_IN, FUSEC_OUT),
                traffic_formula(p, t->fterm, t->nfterm, -1, FUSEC_IN, FUSEC_OUT));
    else
        fprintf(f, "# Unfused: %d kernel%s, %s B per element (as PyTorch eager). Fused: 1 kernel, %s B per element.\n",
                t->nkernels, t->nkernels == 1 ? "" : "s", ub, fb);
    fprintf(f, "\"\"\"The chain %s as PyTorch custom ops (fusec --emit=torch; docs/torch.md).\n\n", P);
    const char *res = p->n_out == 1 ? p->sym[p->outputs[0]].name : "outs";
    for (int v = 0; v < 2; v++) {
        if (v == 0)
            fprintf(f, "    import %s\n", P);
        fprintf(f, "    %s = %s.%s(", res, P, v == 0 ? "fused" : "unfused");
        for (int k = 0; k < p->n_in; k++)
            fprintf(f, "%s%s", k ? ", " : "", T.py_in[k]);
        if (v == 0)
            fprintf(f, ")    # fusec::%s: the fused kernel\n", P);
        else
            fprintf(f, ")  # fusec::%s_unfused: the %d kernel%s eager launches\n\n", P, t->nkernels,
                    t->nkernels == 1 ? "" : "s");
    }
    fprintf(f, "Signature: ");
    schema(&T, false, "");
    fprintf(f, ".\nInputs:");
    for (int k = 0; k < p->n_in; k++)
        fprintf(f, "%s %s %s", k ? "," : "", T.py_in[k], torch_dtype[p->sym[p->inputs[k]].dtype].python);
    fprintf(f, "; outputs, in order:");
    for (int k = 0; k < p->n_out; k++)
        fprintf(f, "%s %s %s", k ? "," : "", p->sym[p->outputs[k]].name, torch_dtype[out_dtype(p, k)].python);
    if (p->shaped) {
        fprintf(f, ".\nShapes, as the .fuse file declares them (row-major, contiguous):");
        for (int k = 0; k < p->n_in; k++)
            fprintf(f, "%s %s %s", k ? "," : "", T.py_in[k], shape_text(p, input_shape(p, k)));
        fprintf(f, "; the dims come from the tensors and must agree, and the outputs are new\n"
                   "tensors of the chain's shape %s.\n", shape_text(p, &p->full));
        fprintf(f, "Params are Python floats, keywords or positional after the tensors, with the\n"
                   ".fuse file's defaults. Every tensor must be a contiguous CUDA tensor on one device\n"
                   "(docs/torch.md lists the errors).\n\n");
    } else {
        fprintf(f, ".\nParams are Python floats, keywords or positional after the tensors, with the\n"
                   ".fuse file's defaults. Every tensor must be a contiguous CUDA tensor, all of one shape\n"
                   "on one device; the outputs are new tensors of that shape (docs/torch.md lists the errors).\n\n");
    }
    fprintf(f, "Importing this module loads %s_torch.so from its folder when it is there (CMake's\n"
               "fusec_add_chain(... TORCH) builds it); otherwise it builds %s_torch.cpp and %s.cu with\n"
               "torch.utils.cpp_extension.load into $FUSEC_TORCH_BUILD/%s, or else build/ in its folder\n"
               "(-O3, -arch for the GPU in hand, or $FUSEC_TORCH_ARCH such as sm_90). The first build\n"
               "takes about a minute; later imports reuse it.\n\"\"\"\n",
            P, P, P, P);
    fprintf(f, "import os\n\nimport torch\n\nNAME = \"%s\"\n", P);
    fprintf(f, "# The arguments in the C API's order (%s.h): tensors (name, dtype); params (name, .fuse dtype, default).\n",
            P);
    fprintf(f, "INPUTS = (");
    for (int k = 0; k < p->n_in; k++)
        fprintf(f, "%s(\"%s\", %s)", k ? ", " : "", T.py_in[k], torch_dtype[p->sym[p->inputs[k]].dtype].python);
    fprintf(f, "%s)\nOUTPUTS = (", p->n_in == 1 ? "," : "");
    for (int k = 0; k < p->n_out; k++)
        fprintf(f, "%s(\"%s\", %s)", k ? ", " : "", p->sym[p->outputs[k]].name, torch_dtype[out_dtype(p, k)].python);
    fprintf(f, "%s)\nPARAMS = (", p->n_out == 1 ? "," : "");
    for (int k = 0; k < p->n_par; k++)
        fprintf(f, "%s(\"%s\", \"%s\", %s)", k ? ", " : "", T.py_par[k], fusec_dtype_name[p->sym[p->params[k]].dtype],
                T.defaults[k]);
    fprintf(f, "%s)\n", p->n_par == 1 ? "," : "");
    fprintf(f, "\n_HERE = os.path.dirname(os.path.abspath(__file__))\n\n\n");
    fprintf(f, "def _load():\n"
               "    \"\"\"Loads the library that registers fusec::%s and fusec::%s_unfused; returns its path\n"
               "    (a prebuilt one) or the folder it was built in.\"\"\"\n",
            P, P);
    fprintf(f, "    prebuilt = os.path.join(_HERE, \"%s_torch.so\")\n", P);
    fprintf(f, "    if os.path.exists(prebuilt):\n        torch.ops.load_library(prebuilt)\n        return prebuilt\n");
    fprintf(f, "    from torch.utils import cpp_extension\n"
               "    arch = os.environ.get(\"FUSEC_TORCH_ARCH\") or \"sm_%%d%%d\" %% torch.cuda.get_device_capability()\n"
               "    root = os.environ.get(\"FUSEC_TORCH_BUILD\")\n"
               "    build = os.path.join(root, NAME) if root else os.path.join(_HERE, \"build\")\n"
               "    os.makedirs(build, exist_ok=True)\n"
               "    sources = [os.path.join(_HERE, \"%s_torch.cpp\"), os.path.join(_HERE, \"%s.cu\")]\n"
               "    cuda_flags = [\"-O3\", \"-arch=\" + arch, \"-DFUSEC_NO_HARNESS\"]\n"
               "    if cpp_extension.is_ninja_available() and not os.environ.get(\"FUSEC_TORCH_NO_NINJA\"):\n"
               "        cpp_extension.load(name=\"fusec_%s\", sources=sources, extra_cflags=[\"-O3\"],\n"
               "                           extra_cuda_cflags=cuda_flags, build_directory=build, is_python_module=False,\n"
               "                           verbose=bool(os.environ.get(\"FUSEC_TORCH_VERBOSE\")))\n"
               "        return build\n",
            P, P, P);
    fprintf(f, "    # cpp_extension.load needs ninja: without it, the same build, one command at a time.\n"
               "    lib = os.path.join(build, \"fusec_%s.so\")\n"
               "    if not os.path.exists(lib) or os.path.getmtime(lib) < max(map(os.path.getmtime, sources)):\n"
               "        import subprocess\n"
               "        cxx = os.environ.get(\"CXX\", \"c++\")\n"
               "        nvcc = os.path.join(cpp_extension.CUDA_HOME or \"/usr/local/cuda\", \"bin\", \"nvcc\")\n"
               "        inc = [\"-I\" + d for d in cpp_extension.include_paths(\"cuda\")]\n"
               "        abi = \"-D_GLIBCXX_USE_CXX11_ABI=%%d\" %% int(torch._C._GLIBCXX_USE_CXX11_ABI)\n"
               "        objs = [lib + \".binding.o\", lib + \".kernels.o\"]\n"
               "        for cmd in ([cxx, \"-O3\", \"-fPIC\", \"-std=c++17\", abi] + inc + [\"-c\", sources[0], \"-o\", objs[0]],\n"
               "                    [nvcc] + cuda_flags + [\"-std=c++17\", \"-Xcompiler\", \"-fPIC\", \"-c\", sources[1], \"-o\", objs[1]],\n"
               "                    [cxx, \"-shared\", \"-o\", lib] + objs + [\"-L\" + d for d in cpp_extension.library_paths(\"cuda\")]\n"
               "                    + [\"-lc10\", \"-lc10_cuda\", \"-ltorch_cpu\", \"-ltorch_cuda\", \"-ltorch\", \"-lcudart\"]):\n"
               "            subprocess.run(cmd, check=True)\n"
               "    torch.ops.load_library(lib)\n"
               "    return build\n\n\nLIBRARY = _load()\n\n\n",
            P);
    const char *first = T.py_in[0], *shape = p->shaped ? "shape" : "first.shape";
    if (p->shaped)
        fprintf(f, "def _fake(*args, **kwargs):\n"
                   "    \"\"\"What torch.compile and FakeTensors run instead of the kernels: new outputs of the\n"
                   "    inputs' broadcast shape (the chain's), on the first input's device.\"\"\"\n"
                   "    tensors = list(args[:len(INPUTS)]) + [kwargs[name] for name, _ in INPUTS[len(args):]]\n"
                   "    first, shape = tensors[0], torch.broadcast_shapes(*(t.shape for t in tensors))\n");
    else
        fprintf(f, "def _fake(*args, **kwargs):\n"
                   "    \"\"\"What torch.compile and FakeTensors run instead of the kernels: new outputs of the\n"
                   "    first input's shape, on its device.\"\"\"\n"
                   "    first = args[0] if args else kwargs[\"%s\"]\n",
                first);
    if (p->n_out == 1) {
        fprintf(f, "    return first.new_empty(%s, dtype=%s)\n", shape, torch_dtype[out_dtype(p, 0)].python);
    } else {
        fprintf(f, "    return (");
        for (int k = 0; k < p->n_out; k++)
            fprintf(f, "%sfirst.new_empty(%s, dtype=%s)", k ? ",\n            " : "", shape,
                    torch_dtype[out_dtype(p, k)].python);
        fprintf(f, ")\n");
    }
    fprintf(f, "\n\ntorch.library.register_fake(\"fusec::%s\")(_fake)\ntorch.library.register_fake(\"fusec::%s_unfused\")(_fake)\n",
            P, P);
    fprintf(f, "\n# The ops themselves (OpOverloads): a call goes straight to the dispatcher, so its host\n"
               "# cost is torch's per-op dispatch and the launch, nothing in Python (docs/torch.md).\n");
    fprintf(f, "fused = torch.ops.fusec.%s.default\nunfused = torch.ops.fusec.%s_unfused.default\n", P, P);
}

/* ---- the folder ------------------------------------------------------------- */

const Backend backend_torch_binding = {"torch binding", emit_binding, NULL};
const Backend backend_torch_module = {"torch module", emit_module, NULL};

static const BackendPart torch_parts[] = {
    {".cu", &backend_cuda},
    {".h", &backend_header},
    {"_torch.cpp", &backend_torch_binding},
    {".py", &backend_torch_module},
    {NULL, NULL},
};
const Backend backend_torch = {"torch", NULL, torch_parts};
