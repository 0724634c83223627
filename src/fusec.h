/*
 * fusec.h: the one internal header of the fusec compiler.
 *
 * The pipeline (main.c, fusec_compile in driver.c), top to bottom:
 *   read file -> lex + parse (lexer.re, fuse.y, parse.c) -> resolve names,
 *   check types, fold literals (ir.c; the op table and its code: ops.def,
 *   ops.c) -> traffic model (traffic.c) -> time model (runtime/fusec_model.h,
 *   device.c) -> one backend (emit_*.c).
 * Every allocation of a compilation comes from one arena and dies with it.
 */
#ifndef FUSEC_H
#define FUSEC_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fusec_dtype.h"
#include "fusec_model.h"

#define FUSEC_VERSION "0.1.0"

/* Limits of the language (docs/language.md): going over one is a located
 * error, never a crash. */
#define LIMIT_FILE_BYTES (64u << 20)
#define LIMIT_IDENT_LEN 255
#define LIMIT_PAREN_DEPTH 256
#define LIMIT_STATEMENTS 1000000
#define LIMIT_TENSORS 1024 /* inputs + outputs + params: the fused kernel's arguments */
#define LIMIT_KERNELS 1024 /* unfused kernels of a chain emitted as CUDA: nvcc's time (docs/cuda.md) */
#define LIMIT_SIZES 4096
#define LIMIT_DIMS 4 /* dims of a shape, and so of the chain */

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define NORETURN _Noreturn

/* ---- arena.c: one pool per compilation ------------------------------- */
typedef struct Arena Arena;
Arena *arena_new(void);
void *arena_alloc(Arena *a, size_t size);
char *arena_strndup(Arena *a, const char *s, size_t len);
char *arena_printf(Arena *a, const char *fmt, ...);
void arena_free(Arena *a);
/* Grows *p (an arena array of *cap elements of size elem) to hold need. */
void arena_grow(Arena *a, void **p, int *cap, int need, size_t elem);

/* ---- diag.c: located diagnostics -------------------------------------- */
typedef struct Source {
    const char *name; /* as given on the command line ("<stdin>" for -) */
    const char *text; /* the whole file, with a NUL after it */
    size_t len;
} Source;

typedef struct Diag {
    const Source *src;
    FILE *out;     /* where messages go (stderr; /dev/null when fuzzing) */
    jmp_buf *bail; /* diag_error jumps here */
    int warnings;
    bool no_warnings;
    bool werror; /* -Werror: warnings print as errors and fail the compilation */
    Arena *arena;  /* the compilation's: the line table comes from it */
    uint32_t *line_start; /* offsets where source lines start, once located */
    int nlines;
    struct {
        size_t off, len;
        char msg[320];
    } notes[2]; /* diag_note: printed after the next error or warning */
    int nnotes;
    /* warnings, each rendered with its notes, held until the front end is
     * done (or an error comes) and then printed in source order: the passes
     * find them out of order (a typo's new input in names.c before an unused
     * input in ir.c) */
    struct DiagHeld {
        size_t off;
        char *text;
    } *held;
    int nheld, held_cap;
} Diag;

/* Lines end at "\n", "\r\n" or a lone "\r": whether text[i] ends one. */
static inline bool line_ends_at(const char *text, size_t i, size_t len)
{
    return text[i] == '\n' || (text[i] == '\r' && (i + 1 >= len || text[i + 1] != '\n'));
}

NORETURN void diag_error(Diag *d, size_t off, size_t len, const char *fmt, ...);
void diag_warning(Diag *d, size_t off, size_t len, const char *fmt, ...);
void diag_note(Diag *d, size_t off, size_t len, const char *fmt, ...); /* after the next message */
/* Under -Werror, fails the compilation (jumps to bail) if a warning was shown. */
void diag_check_werror(Diag *d); /* prints the held warnings first */
void diag_flush_warnings(Diag *d);
NORETURN void diag_internal(Diag *d, const char *fmt, ...);
/* Line and column (1-based) of a source offset: the one way, for messages
 * and backends alike. */
void diag_locate(Diag *d, size_t off, int *line, int *col);
/* The name closest to s among n names (edit distance <= 2), or NULL. */
const char *diag_suggest(const char *s, size_t len, const char *const *names, int n);

/* ---- ops.c: the operation table (ops.def) and its code ------------------ */
typedef enum OpClass { K_ARITH, K_CMP, K_WHERE, K_SLOPE, K_CAST, K_LOGIC, K_SHIFT, K_LEAF } OpClass;

typedef enum Op {
    O_CONST, /* a literal, or a folded literal-only subexpression */
    O_NAME,  /* a name, before resolution */
    O_INPUT, /* a tensor input */
    O_PARAM, /* a runtime scalar */
    O_COPY,  /* an output that is another value: materialised by a copy */
#define OP(e, s, ar, k, fl, tr, ints) O_##e,
#include "ops.def"
#undef OP
    O_COUNT
} Op;

/* What an op does with integer operands (ops.def's ints column). */
typedef enum OpInts { I_SAME, I_FLOAT, I_NOOP, I_NONE } OpInts;

typedef struct OpInfo {
    const char *name;  /* builtin spelling, or the infix symbol */
    int arity;
    OpClass cls;
    int flops, trans;
    OpInts ints;
} OpInfo;
extern const OpInfo op_info[O_COUNT];

/* How pow(a, c) runs for a number c. PyTorch's eager kernel
 * (aten/src/ATen/native/cuda/PowKernel.cu) runs c = 0.5, -0.5 and -1 as sqrt,
 * rsqrt and reciprocal, and, once c is rounded to the tensor's dtype, 2, 3
 * and -2 as multiplies in that dtype; fusec's unfused kernels follow it
 * (Inst.uform). The fused kernel computes in the compute type and takes the
 * forms only for those exact values (Inst.form); torch.compile goes further
 * and turns every integer exponent into multiplies. POW_NUMBER: a literal c
 * with no form (pow itself); POW_SCALAR: c is a param, the form chosen at run
 * time (fx_pow_scalar); POW_GENERAL: c is a tensor. */
typedef enum PowForm {
    POW_GENERAL,
    POW_NUMBER,
    POW_SQUARE,
    POW_CUBE,
    POW_RECIPROCAL,
    POW_RECIP_SQUARE,
    POW_SQRT,
    POW_RSQRT,
    POW_SCALAR
} PowForm;
/* The builtin named s, or -1. */
int op_lookup(const char *s, size_t len);
bool op_is_builtin(Op op);
const char *op_name(Op op);           /* "+", "relu", ... */
const char *op_word(Op op);           /* "add", "relu", ...: an identifier */
double op_fold(Op op, const double *a); /* evaluates op on literals, in double */
/* Evaluates op on integer literals as Python does, into *r; returns NULL, or
 * what went wrong ("integer overflow", "division by zero", ...). */
const char *op_fold_int(Op op, const int64_t *a, int64_t *r);
/* The form of pow(a, c) for a literal c: 0.5, -0.5 and -1 tested on c; 2, 3
 * and -2 on r, c as the kernel's dtype rounds it. */
PowForm op_pow_form(double c, double r);

/* ---- shapes (docs/language.md, "Shapes and broadcasting") --------------- */
/* A shape: rank dims, outermost first (row-major), each the index of a named
 * dim (Program.dim) or DIM_ONE. Rank 0: a scalar, or the whole chain of a
 * program without shapes (one dimension of n elements). */
#define DIM_ONE (-1)
typedef struct Shape {
    int rank;
    int dim[LIMIT_DIMS];
} Shape;

/* A named dim, in the order the dims first appear in the source. */
typedef struct Dim {
    const char *name;
    uint32_t len, off;
} Dim;

/* ---- the IR: a typed SSA DAG ------------------------------------------ */
/* dtypes are the FX_* of runtime/fusec_dtype.h (FUSEC_DTYPES). */
int dtype_lookup(const char *s, size_t len); /* -1 when not a dtype */
int dtype_promote(int a, int b);
int dtype_compute(int dt); /* FX_BOOL, FX_F32 or FX_F64 */

typedef struct Inst {
    uint8_t op;     /* Op */
    uint8_t dtype;  /* result dtype */
    uint8_t ct;     /* the compute type its arithmetic runs in (FX_BOOL, FX_F32, FX_F64) */
    uint8_t scalar; /* 1: no tensor operand (a literal or param expression) */
    uint8_t nargs;
    uint8_t live;   /* reaches an output */
    uint8_t form;   /* O_POW: its PowForm in the fused kernel */
    uint8_t uform;  /* O_POW: its PowForm in the unfused kernel (eager's rule);
                     * O_FLOORDIV, O_DIV: 1 when the divisor is a number or a
                     * param, which eager multiplies by its reciprocal; O_DIV:
                     * 2 when the dividend is, which eager runs as the
                     * divisor's reciprocal (rounded to its dtype) times it */
    int32_t arg[3];
    int32_t sym;    /* O_NAME, O_INPUT, O_PARAM: the symbol */
    int32_t stmt;   /* the statement it belongs to */
    int32_t canon;  /* the first live instruction equal to it (itself when none): the
                     * fused kernel computes each common subexpression once */
    uint32_t off, len; /* source span: operator, function name or literal */
    double value;   /* O_CONST */
    Shape shape;    /* tensors of a shaped program: the broadcast of its operands' */
    int64_t ival;   /* O_CONST of an integer dtype: its exact value (value holds it rounded) */
} Inst;

typedef enum SymKind { S_UNKNOWN, S_INPUT, S_PARAM, S_VAR } SymKind;

typedef struct Sym {
    const char *name;
    uint32_t len, hash;
    SymKind kind;
    int dtype;        /* inputs and params */
    double pvalue;    /* param default */
    uint32_t decl_off, decl_len; /* first declaration or first appearance */
    int assign_stmt;  /* -1: never assigned */
    uint32_t assign_off;
    int value;        /* its instruction, once known */
    bool declared_in, declared_out, is_output, used;
    uint32_t out_off, out_len;
    Shape shape;      /* a declared input's shape (rank 0: none declared) */
    uint32_t shape_off, shape_len; /* "[R, C]" */
} Sym;

typedef struct Stmt {
    int sym, value;
    uint32_t off, len;
} Stmt;

/* A device profile's own issue slots for some ops (its "op_slots" object):
 * slots[op][0..2] = f32, fast, f64; 0 where the built-in row (opcost.def)
 * stands. */
typedef struct OpSlots {
    double slots[O_COUNT][3];
} OpSlots;

typedef struct Program {
    Arena *arena;
    Diag *diag;
    int default_dtype;
    const OpSlots *slots; /* the profile's op costs, or NULL: opcost.def's */
    Inst *inst;
    int ninst, cap_inst;
    Sym *sym;
    int nsym, cap_sym;
    int *symtab; /* open addressing, -1 empty */
    int symtab_cap;
    Stmt *stmt;
    int nstmt, cap_stmt;
    int *inputs, *outputs, *params; /* symbol indices, in API order */
    int n_in, n_out, n_par;
    int *out_sym; /* instruction -> the output symbol it is, -1 (outputs own distinct values) */
    bool any_out_decl;
    int *outdecl; /* out declarations, in order */
    int noutdecl, cap_outdecl;
    Dim *dim;     /* named dims, by first appearance */
    int ndim, cap_dim;
    bool shaped;  /* some input declares a shape */
    Shape full;   /* the chain's shape: the broadcast of every declared one */
} Program;
/* The value the fused kernel rounds to store output value v: v's canonical
 * instruction, or for an output that is a cast to its dtype the cast's
 * operand (one conversion, not two; the model counts it once). */
int ir_stored_value(const Program *p, int v);
/* True when value v is NaN or within [-m, m] wherever it is computed, as far
 * as its ops show: literals, clamps to bounded limits, min, max, where, abs,
 * neg and relu of bounded values, tanh, sigmoid, erf, sin and cos (m >= 2),
 * integer and bool tensors by their dtype's range, f8e4m3 values (448), and
 * float casts of bounded values; never a param or a value the host computes
 * from one. Used to drop conversions' overflow rules. */
bool ir_bounded(const Program *p, int v, double m);

/* Elements of a shape, as a product of dims: exp[d] is the power of
 * Program.dim[d] (a [C] bias: exp[C] = 1). */
typedef struct Numel {
    uint8_t exp[LIMIT_DIMS];
} Numel;
Numel shape_numel(const Shape *s);
/* "[R, C]", "[R, 1]" */
const char *shape_text(const Program *p, const Shape *s);
/* Whether operand shape s varies along position q of the full shape. */
bool shape_varies(const Program *p, const Shape *s, int q);
/* Whether an operand of shape a is laid out as shape b: it varies along the
 * same dims of the chain's shape (a [1, C] operand of a [C] result is). */
bool shape_same_layout(const Program *p, const Shape *a, const Shape *b);
/* A tensor symbol's shape: its value's, or for an input no output uses (no
 * value) its declared one, or the chain's shape when it declares none;
 * input_shape(p, k) is input k's. */
const Shape *sym_shape(const Program *p, const Sym *s);
const Shape *input_shape(const Program *p, int k);

/* lexer.re: bytes -> tokens. */
typedef struct Lexer {
    Diag *diag;
    const unsigned char *start, *cur, *lim;
    int depth;                                 /* open parentheses */
    uint32_t open[LIMIT_PAREN_DEPTH];          /* their offsets */
} Lexer;
typedef struct Token {
    int kind; /* TK_* from the generated fuse.h; 0 at the end */
    uint32_t off, len;
} Token;
void lex_init(Lexer *L, Diag *d);
Token lex_next(Lexer *L);
const char *lex_token_name(int kind);

/* parse.c: tokens -> Program (untyped instructions, symbols, statements).
 * The builders below are the actions of grammar/fuse.y. */
typedef struct NameList {
    Token tok;
    struct NameList *next;
} NameList;
typedef struct ArgList {
    int n;
    int v[3];
} ArgList;
typedef struct Parser {
    Program *prog;
    Lexer lex;
    Token tok, prev; /* the token being fed, and the one before */
    int stmt;        /* statement index */
    int shape;       /* the offset of an open shape's '[', or -1 */
} Parser;

void parse_program(Program *p);
size_t parse_engine_size(void); /* fuse.y: the size of lemon's parser */
int parse_binary(Parser *P, Op op, Token o, int a, int b);
int parse_unary(Parser *P, Op op, Token o, int a);
int parse_number(Parser *P, Token num, bool negative);
int parse_name(Parser *P, Token name);
int parse_call(Parser *P, Token name, const ArgList *args);
ArgList parse_args(Parser *P, const ArgList *list, int value);
void parse_assign(Parser *P, Token name, int value);
NameList *parse_names(Parser *P, NameList *list, Token name);
/* A declaration's type as written: the dtype (len 0: none) and its shape. */
typedef struct DimDecl {
    int n;
    Token dim[LIMIT_DIMS];
} DimDecl;
typedef struct TypeDecl {
    Token dtype;
    bool shaped;
    DimDecl dims;
    uint32_t shape_off, shape_len; /* from '[' to ']' */
} TypeDecl;
TypeDecl parse_type(Parser *P, const Token *dtype);
TypeDecl parse_shape(Parser *P, Token dtype, Token open, const DimDecl *dims, Token close);
DimDecl parse_dims(Parser *P, const DimDecl *list, Token dim);
void parse_decl_in(Parser *P, NameList *names, const TypeDecl *type);
void parse_decl_out(Parser *P, NameList *names);
void parse_decl_param(Parser *P, Token name, const TypeDecl *type, Token value, bool negative);
void parse_syntax_error(Parser *P, int major);
void parse_stack_overflow(Parser *P);

/* ir.c: resolve names, check types, fold literals, find the outputs and the
 * common subexpressions. */
void ir_build(Program *p);
int ir_add(Program *p, Inst in);
Sym *ir_sym(Program *p, const char *name, uint32_t len, uint32_t off);
/* The time model's cost of one instruction per element (ops.c): op_info's
 * row, or the cheaper form a pow with a literal exponent runs as. */
void op_cost(const Inst *in, int *flops, int *trans);
/* Issue slots per element of instruction in as the emitted code runs it (in
 * FMAs of its compute type), with pow in the given PowForm (opcost.def): the
 * fast f16/bf16 forms only in the fused kernel (fused); literal is the
 * divisor when it is a literal (O_CONST), else NULL. */
double op_slots_of(const Inst *in, int form, bool fp64, bool by_number, const Inst *literal, bool fused,
                   const OpSlots *own);
/* Slots to widen a value of dtype when loaded, or round it when stored. */
double op_convert_slots(int dtype, bool store);
/* The op of opcost.def's row NAME (case-insensitive), or -1. */
int op_cost_row(const char *name);
const char *ir_value_name(const Program *p, int inst); /* "t3", or the assigned name */

/* names.c: warns about an implicit input one typo from a known name. */
void ir_warn_near_names(Program *p);

/* ---- traffic.c: what each version moves and computes ------------------ */
typedef struct Kernel {
    int inst;        /* the instruction it computes (unfused) */
    int nread;       /* distinct tensor operands */
    int read[3];
    double read_bytes, write_bytes;
    bool broadcasts; /* an operand not of its result's layout: eager's per-element form (cost.gather) */
    FusecKernelCost cost;
} Kernel;

typedef struct Traffic {
    Kernel *kernels; /* unfused kernels in launch order */
    int nkernels;
    FusecKernelCost *ucost, fcost; /* per unfused kernel; the fused kernel */
    FusecKernelCost *ucost_grouped; /* distinct unfused costs, with counts */
    int ngroups;
    FusecVersion unfused, fused;
    double u_read, u_write, f_read, f_write; /* bytes per element */
    double u_flops, u_trans, f_flops, f_trans;
    double ratio;
    int *kernel_of; /* unfused: instruction -> its kernel's index, -1 */
    /* The unfused intermediates' scratch slots (traffic_slots): slot[k], kernel
     * k's, -1 when it writes an output; slot_first[s], the kernel that first
     * takes slot s and sets its size. */
    int *slot, *slot_first, nslots;
    int nfused_ops; /* distinct tensor ops in the fused kernel */
    /* A shaped program: each version's costs as terms in the dims (the
     * per-element fields above are their values at the dims of traffic_at;
     * the kernels are not grouped, each has its own terms, in kernel
     * order: traffic_formula finds a kernel's by bisection). */
    FusecTerm *uterm, *fterm;
    int nuterm, nfterm, cap_uterm, cap_fterm;
} Traffic;

void traffic_build(Program *p, Traffic *t);
/* A shaped program at dims (NULL: every dim large, where only the terms of
 * the full shape's count stay): each version's kernels into uk[nkernels]
 * and fk[1], its versions, the elements n of the chain's shape; *t's
 * per-element fields too when set (NULL: only the versions). */
void traffic_at(const Program *p, const Traffic *t, const double *dims, FusecKernelCost *uk, FusecKernelCost *fk,
                FusecVersion *u, FusecVersion *f, double *n);
void traffic_set(const Program *p, Traffic *t, const double *dims);
/* The bytes of terms [0, n) of one field set as a formula in the dims:
 * "2*R*C + 4*C" (kernel -1: every kernel's). */
const char *traffic_formula(const Program *p, const FusecTerm *terms, int n, int kernel, int field_lo, int field_hi);
/* "t1 = x * 2", "y = relu(t2)": unfused kernel k as text. Kernel results are
 * t<k>, inputs, params and outputs their names, literals their values, other
 * scalars scalar_name[i] (or "(scalar)" when scalar_name is NULL). */
void traffic_kernel_text(const Program *p, const Traffic *t, int k, char *const *scalar_name, char *buf,
                         size_t len);

/* ---- device.c: device profiles ---------------------------------------- */
extern const FusecProfile device_builtin[];
extern const int device_nbuiltin;
/* name or FILE.json; returns 0, or fills err (static text) and returns -1. */
int device_load(const char *spec, FusecProfile *out, char *err, size_t errlen);
/* The same, with a FILE.json profile's optional "op_slots" object into ops
 * (when not NULL): {"exp": {"f32": 9.1, "f64": 24.4}, ...}, keys
 * opcost.def's row names in lower case, each type f32, fast or f64; all 0
 * for a built-in name or a file without it. */
int device_load_ops(const char *spec, FusecProfile *out, OpSlots *ops, char *err, size_t errlen);

/* ---- sizes.c: size lists ("4096,1M,2^20..2^28") ---------------------- */
typedef struct SizeList {
    int n;
    double v[LIMIT_SIZES];
} SizeList;
int sizes_parse(const char *s, SizeList *out, char *err, size_t errlen);
void sizes_default(SizeList *out);

/* ---- driver.c: the whole compilation ---------------------------------- */
typedef enum Emit { E_CUDA, E_HEADER, E_REPORT, E_JSON, E_CSV, E_DOT, E_TORCH } Emit;

/* --mode's names, as the harness names its cold and hot modes (here, not in
 * runtime/fusec_model.h: the emitted harness has names of its own, fh_mode_name). */
static const char *const fusec_mode_name[2] = {"cold", "hot"};

typedef struct Options {
    const char *input;  /* path, or "-" */
    const char *output; /* path, "-", or NULL */
    Emit emit;
    int dtype;
    int host;            /* FUSEC_HOST_C ... */
    int hot;             /* --mode: 0 cold, 1 hot (fusec_mode_name): fusec_model_time's hot */
    const char *name;    /* C prefix, or NULL for the file's stem */
    FusecProfile device;
    SizeList sizes;
    bool no_warnings;
    bool werror;
    const char *dims;  /* --dims=R=4096,C=1024, or NULL */
    const char *sweep; /* --sweep=R, or NULL (the first dim) */
    bool sizes_given;  /* --sizes (else a shaped chain sweeps 2^12..2^28 elements) */
    OpSlots slots;     /* the --device file's "op_slots" (all 0: none) */
} Options;

/* Everything a backend reads. */
typedef struct Chain {
    const Options *opt;
    const Source *src;
    Program *prog;
    Traffic traffic;
    const char *prefix; /* the C identifier prefix */
    double crossover[2]; /* predict_crossover of each version, computed once */
    /* A shaped program: the dims' sizes (--dims), the dim --sizes varies
     * (--sweep) and its size for the report's totals; scratch for
     * predict_at's kernels. */
    double dimv[LIMIT_DIMS];
    int sweep;
    bool dims_known; /* every dim but the sweep's has a size */
    FusecKernelCost *scratch_u, *scratch_f;
    const SizeList *sizes; /* what the report sweeps: --sizes, or a shaped chain's default */
} Chain;

/* A backend writes one file (emit), or a folder of files (parts: each file a
 * backend of its own, named prefix + suffix; --emit=torch). */
typedef struct BackendPart BackendPart;
typedef struct Backend {
    const char *name;
    void (*emit)(FILE *f, const Chain *c);
    const BackendPart *parts; /* NULL, or the files, ending with a NULL suffix */
} Backend;
struct BackendPart {
    const char *suffix; /* "_torch.cpp": the file is seed_torch.cpp */
    const Backend *backend;
};
extern const Backend backend_report, backend_json, backend_csv, backend_dot, backend_cuda,
    backend_header, backend_torch, backend_torch_binding, backend_torch_module;

/* Compiles src; writes the backend's output to out. Returns 0, or 1 after a
 * diagnostic. Diagnostics go to diag_out. A backend of several files writes
 * each through open(ctx, name) instead (out unused): name is the file's name,
 * prefix + suffix; open returns the stream to write it to. */
typedef FILE *(*OpenPart)(void *ctx, const char *name);
int fusec_compile(const Options *opt, const Source *src, FILE *out, FILE *diag_out);
int fusec_compile_parts(const Options *opt, const Source *src, OpenPart open, void *ctx, FILE *diag_out);
const Backend *driver_backend(Emit e);
/* The C prefix for a path: the stem, made an identifier ("chain_" in front
 * when it would reach the runtime's names). */
char *driver_prefix(Arena *a, const char *path, const char *name);
/* Whether a prefix would reach the runtime's names: fx, fh (alone or before
 * '_') or fusec (any case). */
bool driver_prefix_reserved(const char *prefix);

/* ---- emit_cuda.c: what the other backends take from the CUDA one ------- */
/* Writes runtime/name between its marker comments. */
void emit_cuda_runtime(FILE *f, const char *name);
/* The fused call's chunks (FusecVersion's chunk, row_max, gather_slots), as
 * the emitted call takes them with fusec's thresholds. */
void emit_cuda_fused_launches(const Chain *c, FusecVersion *v);
/* The C type of a dtype in the C API ("float", "uint16_t"). */
const char *emit_cuda_api_type(int dtype);
/* The C type the C API takes param k in: "double" for an f64 param, else "float". */
const char *emit_cuda_param_type(const Program *p, int k);
/* The C API's argument names, as P.h spells them: in[n_in], out[n_out], par[n_par]. */
void emit_cuda_api_names(const Chain *c, const char **in, const char **out, const char **par);
/* The program, up to 40 lines, each after lead, made safe for a comment. */
void emit_cuda_program_lines(FILE *f, const Chain *c, const char *lead);

/* ---- emit_torch.c: --emit=torch ---------------------------------------- */
/* A Python keyword or a word TorchScript's schema parser takes as one. */
bool emit_torch_reserved(const char *s);

/* ---- runtime_embed.c (generated from runtime/ by cmake/FusecEmbed.cmake) */
typedef struct RuntimeFile {
    const char *name;
    const char *text;
    size_t len;
} RuntimeFile;
extern const RuntimeFile fusec_runtime[]; /* ends with a NULL name */

/* ---- predict.c: the sweep shared by the report backends ---------------- */
typedef struct Point {
    double n;         /* the size swept: n, or the sweep dim's size */
    double elems;     /* elements of the chain there (n without shapes) */
    double ub, fb;    /* bytes per element of each version there */
    FusecTime u, f;
    double speedup;
} Point;
Point predict_at(const Chain *c, double n);
/* What the sweep varies: "n", or the sweep dim's name. */
const char *predict_sweep_name(const Chain *c);
/* The smallest n (up to 2^40) where version fused's regime stops being
 * overhead (found by bisection on log2 n); 0 when it never is overhead-bound. */
double predict_crossover(const Chain *c, int fused);
void predict_prepare(Chain *c); /* computes the crossovers */
void predict_explain(FILE *f, const Chain *c);

/* ---- out.c: small printing helpers ----------------------------------- */
void out_bytes(char *buf, size_t len, double bytes); /* "32 B", "1.5 GiB" */
void out_n(char *buf, size_t len, double n);         /* "4096", "2^20" */
void out_num(char *buf, size_t len, double v);       /* shortest round-trip */
double out_round(double v, int digits);               /* to that many significant digits */
/* Length of the UTF-8 sequence at p (1..4), or 0 when it is not valid. */
int out_utf8_len(const unsigned char *p, const unsigned char *lim);

#endif /* FUSEC_H */
