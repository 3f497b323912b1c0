/* options.c — the option table and what is made of it (see options.h). */
#include "cli/options.h"

#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

const cli_opt cli_opts_table[CLI_NOPT] = {
#define CLI_OPT_ROW(id, name, shrt, value, kind, cmds, replayed, refusal, help) \
	[OPT_##id] = { name, shrt, value, kind, cmds, replayed, refusal, help },
	CLI_OPTIONS(CLI_OPT_ROW)
#undef CLI_OPT_ROW
};

/* Run and stress scan each other's options (to refuse them by name);
 * the other commands only their own. */
static unsigned family(unsigned cmd)
{
	return cmd & CLI_RS ? CLI_RS : cmd;
}

/* ---- scanning ----------------------------------------------------------- */

typedef struct scanner {
	cli_opts *o;
	unsigned cmd;
	const char *name;
	int argc, i;
	char **argv;
	bool only_positional;      /* after "--" */
	bool help;
	const cli_opt *refused;    /* the first option the command refuses */
	cli_err e;
} scanner;

/* The option a ("--name", "--name=VALUE" or "-x") names; *inline_value
 * is the VALUE after '=' or NULL. */
static const cli_opt *find_opt(const scanner *sc, const char *a, const char **inline_value)
{
	*inline_value = NULL;
	for (size_t i = 0; i < CLI_NOPT; i++) {
		const cli_opt *d = &cli_opts_table[i];
		size_t n = strlen(d->name);

		if (!(d->cmds & family(sc->cmd)))
			continue;
		if (a[1] != '-') {
			if (d->shrt && a[1] == d->shrt && a[2] == '\0')
				return d;
			continue;
		}
		if (strncmp(a + 2, d->name, n) != 0 || (a[2 + n] != '\0' && a[2 + n] != '='))
			continue;
		if (a[2 + n] == '=')
			*inline_value = a + 3 + n;
		return d;
	}
	return NULL;
}

static bool take_positional(scanner *sc, const char *a)
{
	if (sc->o->file)
		return cli_fail(&sc->e, "unexpected argument '%.60s'", a);
	sc->o->file = a;
	return true;
}

static bool take_value(scanner *sc, const cli_opt *d, const char *val)
{
	cli_opts *o = sc->o;
	cli_opt_id id = (cli_opt_id)(d - cli_opts_table);

	if (!(d->cmds & sc->cmd) && !sc->refused)
		sc->refused = d;
	if (id == OPT_HELP)
		sc->help = true;
	switch (d->kind) {
	case CLI_FLAG:
		o->value[id] = "";
		return true;
	case CLI_ONCE:
		if (o->value[id]) {
			return cli_fail(&sc->e, "option --%s given more than once", d->name);
		}
		o->value[id] = val;
		return true;
	case CLI_LIST:
		o->list[id].v[o->list[id].n++] = val;
		return true;
	case CLI_OPTVAL:
		o->value[id] = val ? val : "";
		return true;
	}
	return true;
}

/* A value of an option whose value name lists its words ("a,b,c"): a
 * comma-separated set of them. */
static bool words_ok(scanner *sc, const cli_opt *d, const char *val)
{
	const char *v = d->value;
	if (!(v[0] >= 'a' && v[0] <= 'z'))
		return true;
	for (const char *p = val;; p++) {
		size_t n = strcspn(p, ",");
		bool known = false;
		for (const char *q = v; *q; q += strcspn(q, ","), q += *q == ',') {
			size_t m = strcspn(q, ",");
			known = known || (n && n == m && !strncmp(p, q, n));
		}
		if (!known)
			return cli_fail(&sc->e, "option --%s: '%.*s' is not one of %s", d->name, (int)n, p, v);
		p += n;
		if (!*p)
			return true;
	}
}

/* One argument; false with sc->e on a usage error. */
static bool scan_one(scanner *sc)
{
	const char *a = sc->argv[sc->i++], *val;
	const cli_opt *d;

	if (sc->only_positional || a[0] != '-' || a[1] == '\0')
		return take_positional(sc, a);
	if (strcmp(a, "--") == 0) {
		sc->only_positional = true;
		return true;
	}
	d = find_opt(sc, a, &val);
	if (!d)
		return cli_fail(&sc->e, "unknown option '%.60s'", a);
	if (!d->value && val) {
		return cli_fail(&sc->e, "option --%s takes no value", d->name);
	}
	if (d->kind == CLI_OPTVAL)
		return (!val || words_ok(sc, d, val)) && take_value(sc, d, val);
	if (d->value && !val) {
		if (sc->i >= sc->argc) {
			return cli_fail(&sc->e, "option --%s needs a value", d->name);
		}
		val = sc->argv[sc->i++];
	}
	return take_value(sc, d, val);
}

int opts_scan(cli_opts *o, unsigned cmd, const char *name, int argc, char **argv)
{
	scanner sc = { .o = o, .cmd = cmd, .name = name, .argc = argc, .argv = argv };

	memset(o, 0, sizeof *o);
	/* room for every argument in each list the command may take */
	for (size_t i = 0; i < CLI_NOPT; i++)
		if (cli_opts_table[i].kind == CLI_LIST && (cli_opts_table[i].cmds & family(cmd)) &&
		    !(o->list[i].v = calloc(argc ? (size_t)argc : 1, sizeof *o->list[i].v)))
			return nomem("arguments");
	while (sc.i < argc && !sc.help)
		if (!scan_one(&sc))
			return usage_err(name, sc.e.msg);
	if (sc.help) {
		o->value[OPT_HELP] = "";
		return CLI_EXIT_OK;
	}
	if (sc.refused)
		return usage_errf(name, "--%s %s", sc.refused->name, sc.refused->refusal);
	return CLI_EXIT_OK;
}

void opts_free(cli_opts *o)
{
	for (size_t i = 0; i < CLI_NOPT; i++)
		free(o->list[i].v);
}

/* ---- help ----------------------------------------------------------------- */

#define HELP_COLUMN 25

/* "-o, --output OUT", "--grid X[,Y,Z]", "--stats=json" */
static void opt_synopsis(const cli_opt *d, char *buf, size_t len)
{
	const char *v = d->value;
	bool literal = v && !(v[0] >= 'A' && v[0] <= 'Z');
	char shrt[8] = "";

	if (d->shrt)
		snprintf(shrt, sizeof shrt, "-%c, ", d->shrt);
	if (d->kind == CLI_OPTVAL)
		snprintf(buf, len, "%s--%s[=%s]", shrt, d->name, v);
	else
		snprintf(buf, len, "%s--%s%s%s", shrt, d->name, !v ? "" : literal ? "=" : " ", v ? v : "");
}

static void opt_help(FILE *f, const cli_opt *d)
{
	char syn[80];
	const char *h = d->help;
	int col;

	opt_synopsis(d, syn, sizeof syn);
	col = fprintf(f, "  %s", syn);
	if (col + 1 > HELP_COLUMN) {
		fputc('\n', f);
		col = 0;
	}
	while (*h) {
		size_t n = strcspn(h, "\n");

		fprintf(f, "%*s%.*s\n", HELP_COLUMN - col, "", (int)n, h);
		col = 0;
		h += n + (h[n] == '\n');
	}
}

void opts_help(FILE *f, unsigned cmd)
{
	bool shared = false;

	fputs("Options (--opt VALUE and --opt=VALUE are the same):\n", f);
	/* stress: its own options first, then those it shares with run */
	for (size_t i = 0; i < CLI_NOPT; i++) {
		const cli_opt *d = &cli_opts_table[i];

		if (!(d->cmds & cmd) || (cmd == CLI_STRESS && (d->cmds & CLI_RUN)))
			continue;
		opt_help(f, d);
	}
	if (cmd != CLI_STRESS)
		return;
	for (size_t i = 0; i < CLI_NOPT; i++) {
		const cli_opt *d = &cli_opts_table[i];

		if (!(d->cmds & CLI_STRESS) || !(d->cmds & CLI_RUN))
			continue;
		if (!shared)
			fputs("Options of run taken as they are:\n", f);
		shared = true;
		opt_help(f, d);
	}
}

/* ---- replay ----------------------------------------------------------------- */

void opts_replay(const cli_opts *o, void (*word)(void *ctx, const char *w), void *ctx)
{
	char flag[64];

	for (size_t i = 0; i < CLI_NOPT; i++) {
		const cli_opt *d = &cli_opts_table[i];

		if (!d->replayed || !opts_given(o, (cli_opt_id)i))
			continue;
		snprintf(flag, sizeof flag, "--%s", d->name);
		if (d->kind == CLI_FLAG || (d->kind == CLI_OPTVAL && !*o->value[i])) {
			word(ctx, flag);
		} else if (d->kind == CLI_OPTVAL) {
			char w[256];
			snprintf(w, sizeof w, "%s=%s", flag, o->value[i]);
			word(ctx, w);
		} else if (d->kind == CLI_ONCE) {
			word(ctx, flag);
			word(ctx, o->value[i]);
		} else {
			for (size_t j = 0; j < o->list[i].n; j++) {
				word(ctx, flag);
				word(ctx, o->list[i].v[j]);
			}
		}
	}
}
