/* lex.h — PTX tokens (lex.c), shared by the parser. */
#ifndef WE_PTX_LEX_H
#define WE_PTX_LEX_H

#include "ptx/ptx_int.h"

typedef enum { PT_EOF = 0, PT_ID, PT_DOT, PT_INT, PT_FLT, PT_STR, PT_PUNCT } ptx_tkind;

typedef struct ptx_tok {
	uint8_t kind;
	bool adj;                     /* no space before it */
	bool f64;
	uint32_t line, col, n;
	const char *s;
	uint64_t ival;
	uint64_t fbits;
} ptx_tok;

typedef struct ptx_lexer {
	const char *src;
	size_t len;
	ptx_diags *g;
	ptx_tok *t;
	size_t n, cap;
} ptx_lexer;

/* Tokenise L->src; the last token is PT_EOF.  false on out of memory. */
bool ptx_lex(ptx_lexer *L);
bool ptx_tok_is(const ptx_tok *t, const char *w);
bool ptx_tok_punct(const ptx_tok *t, char c);

#endif
