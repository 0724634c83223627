/*
 * lexer.re: the .fuse tokenizer. re2c turns this into lexer.c in the build
 * tree (never committed). The whole file is in memory with a NUL after it;
 * re2c:eof = 0 makes that NUL the end, so a NUL inside the file is an error.
 * Every byte is either part of a token, white space, a comment, or a
 * located error: nothing is skipped silently.
 */
#include <string.h>

#include "fusec.h"
#include "fuse.h" /* TK_* from lemon */

void lex_init(Lexer *L, Diag *d)
{
    memset(L, 0, sizeof *L);
    L->diag = d;
    L->start = L->cur = (const unsigned char *)d->src->text;
    L->lim = L->start + d->src->len;
}

static NORETURN void bad_byte(Lexer *L, const unsigned char *p)
{
    size_t off = (size_t)(p - L->start);
    if (*p == 0)
        diag_error(L->diag, off, 1, "NUL byte in the source");
    int n = out_utf8_len(p, L->lim);
    if (n == 0)
        diag_error(L->diag, off, 1, "invalid UTF-8 byte 0x%02X", *p);
    if (n == 1 && *p >= 0x20 && *p < 0x7F)
        diag_error(L->diag, off, 1, "character '%c' is not part of the language", *p);
    if (n == 1)
        diag_error(L->diag, off, 1, "control character 0x%02X is not part of the language", *p);
    if (n == 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) /* invisible where it is quoted */
        diag_error(L->diag, off, 3, "a UTF-8 byte-order mark (U+FEFF) is not part of the language: save the file "
                   "without it");
    diag_error(L->diag, off, (size_t)n, "character '%.*s' is not part of the language (only ASCII "
               "outside comments)", n, (const char *)p);
}

/* What a digit or a '.' starts that is not a number: a lone '.', a method
 * call's '.', or a malformed number, quoted whole. */
static NORETURN void bad_number(Lexer *L, const unsigned char *s)
{
    if (L->cur - s == 1 && *s == '.')
        diag_error(L->diag, (size_t)(s - L->start), 1, "character '.' is not part of the language");
    if (*s == '.' && (s[1] == '_' || ((s[1] | 32) >= 'a' && (s[1] | 32) <= 'z')))
        diag_error(L->diag, (size_t)(s - L->start), 1,
                   "'.' is not part of an expression: fusec has no attributes or methods ('.%.*s'); "
                   "builtins are functions: relu(x)", (int)(L->cur - s - 1), (const char *)s + 1);
    diag_error(L->diag, (size_t)(s - L->start), (size_t)(L->cur - s), "malformed number '%.*s'",
               (int)(L->cur - s), (const char *)s);
}

static Token tok(Lexer *L, int kind, const unsigned char *start)
{
    Token t = {kind, (uint32_t)(start - L->start), (uint32_t)(L->cur - start)};
    return t;
}

Token lex_next(Lexer *L)
{
    const unsigned char *YYMARKER = L->cur;
    for (;;) {
        const unsigned char *s = L->cur;
        /*!re2c
        re2c:define:YYCTYPE = "unsigned char";
        re2c:define:YYCURSOR = "L->cur";
        re2c:define:YYMARKER = "YYMARKER";
        re2c:define:YYLIMIT = "L->lim";
        re2c:yyfill:enable = 0;
        re2c:eof = 0;

        digits = [0-9]+;
        number = (digits ("." [0-9]*)? | "." digits) ([eE] [+-]? digits)?;
        ident  = [a-zA-Z_][a-zA-Z0-9_]*;

        $ {
            if (L->depth > 0)
                diag_error(L->diag, L->open[L->depth - 1], 1, "'(' is never closed");
            return tok(L, 0, s);
        }
        [ \t\f\v]+ { continue; }
        "#" [^\n\r\x00]* {
            for (const unsigned char *p = s; p < L->cur;) {
                int n = out_utf8_len(p, L->cur);
                if (n == 0)
                    bad_byte(L, p);
                p += n;
            }
            continue;
        }
        "\n" | "\r\n" | "\r" { /* a lone CR ends a line too (old Mac files) */
            if (L->depth > 0)
                continue; /* inside parentheses a newline is white space */
            return tok(L, TK_SEP, s);
        }
        ";" { return tok(L, TK_SEP, s); }
        "(" {
            if (L->depth == LIMIT_PAREN_DEPTH)
                diag_error(L->diag, (size_t)(s - L->start), 1,
                           "parentheses nested more than %d deep", LIMIT_PAREN_DEPTH);
            L->open[L->depth++] = (uint32_t)(s - L->start);
            return tok(L, TK_LPAREN, s);
        }
        ")" {
            if (L->depth == 0)
                diag_error(L->diag, (size_t)(s - L->start), 1, "')' has no matching '('");
            L->depth--;
            return tok(L, TK_RPAREN, s);
        }
        "," { return tok(L, TK_COMMA, s); }
        ":" { return tok(L, TK_COLON, s); }
        "=" { return tok(L, TK_ASSIGN, s); }
        "+" { return tok(L, TK_PLUS, s); }
        "-" { return tok(L, TK_MINUS, s); }
        "*" { return tok(L, TK_STAR, s); }
        "/" { return tok(L, TK_SLASH, s); }
        "**" { return tok(L, TK_STARSTAR, s); }
        "//" { return tok(L, TK_SLASHSLASH, s); }
        "%" { return tok(L, TK_PERCENT, s); }
        "&" { return tok(L, TK_AMP, s); }
        "|" { return tok(L, TK_PIPE, s); }
        "^" { return tok(L, TK_CARET, s); }
        "~" { return tok(L, TK_TILDE, s); }
        "<<" { return tok(L, TK_SHL, s); }
        ">>" { return tok(L, TK_SHR, s); }
        "[" { return tok(L, TK_LBRACKET, s); }
        "]" { return tok(L, TK_RBRACKET, s); }
        "<" { return tok(L, TK_LT, s); }
        "<=" { return tok(L, TK_LE, s); }
        ">" { return tok(L, TK_GT, s); }
        ">=" { return tok(L, TK_GE, s); }
        "==" { return tok(L, TK_EQ, s); }
        "!=" { return tok(L, TK_NE, s); }
        "in" { return tok(L, TK_IN, s); }
        "out" { return tok(L, TK_OUT, s); }
        "param" { return tok(L, TK_PARAM, s); }
        number { return tok(L, TK_NUMBER, s); }
        [0-9.] [0-9a-zA-Z_.]* { bad_number(L, s); }
        [0-9.] [0-9a-zA-Z_.]* [eE] [+-] [0-9a-zA-Z_.]* { bad_number(L, s); } /* 1e+: quoted with its sign */
        ident {
            if (L->cur - s > LIMIT_IDENT_LEN)
                diag_error(L->diag, (size_t)(s - L->start), (size_t)(L->cur - s),
                           "name is %d characters long; the limit is %d", (int)(L->cur - s), LIMIT_IDENT_LEN);
            return tok(L, TK_IDENT, s);
        }
        * { bad_byte(L, s); }
        */
    }
}

/* For messages: what a token kind is called. */
const char *lex_token_name(int kind)
{
    switch (kind) {
    case 0: return "end of input";
    case TK_SEP: return "end of statement";
    case TK_LPAREN: return "'('";
    case TK_RPAREN: return "')'";
    case TK_LBRACKET: return "'['";
    case TK_RBRACKET: return "']'";
    case TK_COMMA: return "','";
    case TK_COLON: return "':'";
    case TK_ASSIGN: return "'='";
    case TK_PLUS: return "'+'";
    case TK_MINUS: return "'-'";
    case TK_STAR: return "'*'";
    case TK_SLASH: return "'/'";
    case TK_STARSTAR: return "'**'";
    case TK_SLASHSLASH: return "'//'";
    case TK_PERCENT: return "'%'";
    case TK_AMP: return "'&'";
    case TK_PIPE: return "'|'";
    case TK_CARET: return "'^'";
    case TK_TILDE: return "'~'";
    case TK_SHL: return "'<<'";
    case TK_SHR: return "'>>'";
    case TK_LT: return "'<'";
    case TK_LE: return "'<='";
    case TK_GT: return "'>'";
    case TK_GE: return "'>='";
    case TK_EQ: return "'=='";
    case TK_NE: return "'!='";
    case TK_IN: return "'in'";
    case TK_OUT: return "'out'";
    case TK_PARAM: return "'param'";
    case TK_NUMBER: return "number";
    case TK_IDENT: return "name";
    default: return "token";
    }
}
