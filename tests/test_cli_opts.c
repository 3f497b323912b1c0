/* test_cli_opts.c — the option table of warpemu(1) (src/cli/options.h):
 * scanning, replay words, and the man page and README against it.
 *
 * The man page is written by hand (its option descriptions say more than
 * the help); this test keeps it in step with the table: every option a
 * command takes is described under "Options of COMMAND" (the shared ones
 * under "General"), every option described there is one the command
 * takes, and the SYNOPSIS and the README's Usage block name every option.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"

/* ---- scanning ------------------------------------------------------------- */

static int scan(cli_opts *o, unsigned cmd, const char *const *args)
{
	char *argv[32];
	int argc = 0;

	while (args[argc]) {
		argv[argc] = (char *)args[argc];
		argc++;
	}
	return opts_scan(o, cmd, "test", argc, argv);
}

START_TEST(test_scan_values)
{
	static const char *const args[] = { "k.we", "--grid=4,2", "--block", "32", "--arg", "a=1",
					    "--arg=b=2", "--check", "--check", NULL };
	cli_opts o;

	ck_assert_int_eq(scan(&o, CLI_RUN, args), 0);
	ck_assert_str_eq(o.file, "k.we");
	ck_assert_str_eq(o.value[OPT_GRID], "4,2");
	ck_assert_str_eq(o.value[OPT_BLOCK], "32");
	ck_assert_uint_eq(o.list[OPT_ARG].n, 2);
	ck_assert_str_eq(o.list[OPT_ARG].v[1], "b=2");
	ck_assert_ptr_nonnull(o.value[OPT_CHECK]);
	ck_assert(!opts_given(&o, OPT_KERNEL));
	opts_free(&o);
}
END_TEST

START_TEST(test_scan_errors)
{
	static const char *const twice[] = { "--grid", "1", "--grid", "2", NULL };
	static const char *const unknown[] = { "--frob", NULL };
	static const char *const novalue[] = { "--grid", NULL };
	static const char *const flagvalue[] = { "--check=1", NULL };
	static const char *const two_files[] = { "a", "b", NULL };
	static const char *const other[] = { "--runs", "3", NULL };
	static const char *const info_only[] = { "--out", "c=x", NULL };
	cli_opts o;

	ck_assert_int_eq(scan(&o, CLI_RUN, twice), CLI_EXIT_USAGE);
	opts_free(&o);
	ck_assert_int_eq(scan(&o, CLI_RUN, unknown), CLI_EXIT_USAGE);
	opts_free(&o);
	ck_assert_int_eq(scan(&o, CLI_RUN, novalue), CLI_EXIT_USAGE);
	opts_free(&o);
	ck_assert_int_eq(scan(&o, CLI_RUN, flagvalue), CLI_EXIT_USAGE);
	opts_free(&o);
	ck_assert_int_eq(scan(&o, CLI_RUN, two_files), CLI_EXIT_USAGE);
	opts_free(&o);
	/* run refuses stress's options by their reason, stress run's */
	ck_assert_int_eq(scan(&o, CLI_RUN, other), CLI_EXIT_USAGE);
	opts_free(&o);
	ck_assert_int_eq(scan(&o, CLI_STRESS, other), 0);
	opts_free(&o);
	ck_assert_int_eq(scan(&o, CLI_STRESS, info_only), CLI_EXIT_USAGE);
	opts_free(&o);
	/* info does not know run's options at all */
	ck_assert_int_eq(scan(&o, CLI_INFO, info_only), CLI_EXIT_USAGE);
	opts_free(&o);
}
END_TEST

START_TEST(test_scan_help_and_dashes)
{
	static const char *const help[] = { "--runs", "3", "-h", "--frob", NULL };
	static const char *const dashes[] = { "--", "--grid", NULL };
	static const char *const asm_o[] = { "x.we", "-o", "x.bin", NULL };
	cli_opts o;

	/* --help ends the scan: what follows it, and a refusal, do not count */
	ck_assert_int_eq(scan(&o, CLI_RUN, help), 0);
	ck_assert_ptr_nonnull(o.value[OPT_HELP]);
	opts_free(&o);
	ck_assert_int_eq(scan(&o, CLI_RUN, dashes), 0);
	ck_assert_str_eq(o.file, "--grid");
	opts_free(&o);
	ck_assert_int_eq(scan(&o, CLI_ASM, asm_o), 0);
	ck_assert_str_eq(o.value[OPT_OUTPUT], "x.bin");
	opts_free(&o);
}
END_TEST

/* Every option run or stress takes only the other refuses with a reason;
 * stress's replay options are options of run. */
START_TEST(test_table_consistent)
{
	for (size_t i = 0; i < CLI_NOPT; i++) {
		const cli_opt *d = &cli_opts_table[i];
		bool one = !(d->cmds & CLI_RUN) != !(d->cmds & CLI_STRESS);

		ck_assert_msg(!one || d->refusal, "--%s: no reason to refuse it", d->name);
		ck_assert_msg(!d->replayed || ((d->cmds & CLI_RUN) && (d->cmds & CLI_STRESS)),
			      "--%s is replayed but not an option of run and stress", d->name);
		ck_assert_msg(d->help && *d->help, "--%s has no help", d->name);
		for (size_t j = 0; j < i; j++)
			ck_assert_msg(strcmp(cli_opts_table[j].name, d->name) != 0, "--%s twice", d->name);
	}
}
END_TEST

static void add(void *ctx, const char *w)
{
	char *s = ctx;

	if (*s)
		strcat(s, " ");
	strcat(s, w);
}

START_TEST(test_replay_words)
{
	static const char *const args[] = { "k.we", "--check", "--runs", "3", "--arg", "a=1",
					    "--grid", "2", "--quiet", "--lockstep", "4", "--arg", "b=@x",
					    NULL };
	char line[256] = "";
	cli_opts o;

	ck_assert_int_eq(scan(&o, CLI_STRESS, args), 0);
	opts_replay(&o, add, line);
	/* table order; stress's own options, --quiet and --lockstep left out */
	ck_assert_str_eq(line, "--grid 2 --arg a=1 --arg b=@x --check");
	opts_free(&o);
}
END_TEST

/* ---- the man page and the README ---------------------------------------- */

static char *slurp(const char *rel)
{
	const char *top = getenv("top_srcdir");
	char path[4096];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof path, "%s/%s", top ? top : ".", rel);
	f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	ck_assert_int_ge(n, 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* The text between the line starting with `from` and the next line
 * starting with one of the `to` markers, roff's "\-" made "-" and its
 * font escapes dropped (malloc'd). */
static char *section(const char *doc, const char *from, const char *to1, const char *to2)
{
	const char *a = strstr(doc, from), *b, *b2;
	char *out, *q;

	ck_assert_msg(a != NULL, "no section '%s'", from);
	a += strlen(from);
	b = strstr(a, to1);
	b2 = to2 ? strstr(a, to2) : NULL;
	if (!b || (b2 && b2 < b))
		b = b2;
	if (!b)
		b = a + strlen(a);
	out = q = malloc((size_t)(b - a) + 1);
	ck_assert_ptr_nonnull(out);
	for (const char *p = a; p < b; p++) {
		if (p[0] == '\\' && p[1] == '-') {
			*q++ = '-';
			p++;
		} else if (p[0] == '\\' && p[1] == 'f' && p + 2 < b) {
			p += 2;
		} else {
			*q++ = *p;
		}
	}
	*q = '\0';
	return out;
}

/* "--name" as a whole word of text (not the start of --name-more). */
static bool mentions(const char *text, const char *name)
{
	char word[64];
	size_t n;

	snprintf(word, sizeof word, "--%s", name);
	n = strlen(word);
	for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
		char after = p[n];

		if (!(after >= 'a' && after <= 'z') && after != '-')
			return true;
	}
	return false;
}

/* The options that head a .TP item of a man page section, as a
 * space-separated list of names ("grid check help"). */
static void heads(const char *sec, char *out, size_t len)
{
	out[0] = '\0';
	for (const char *p = strstr(sec, ".TP\n"); p; p = strstr(p + 1, ".TP\n")) {
		const char *line = p + 4, *end = strchr(line, '\n');

		for (const char *q = line; q && q < end; q = strstr(q + 2, "--")) {
			q = strstr(q, "--");
			if (!q || q >= end)
				break;
			size_t n = strspn(q + 2, "abcdefghijklmnopqrstuvwxyz-");

			if (strlen(out) + n + 2 < len) {
				strncat(out, " ", len - strlen(out) - 1);
				strncat(out, q + 2, n);
			}
		}
	}
}

/* "-x" as a word of text. */
static bool mentions_short(const char *text, char x)
{
	char word[3] = { '-', x, '\0' };

	for (const char *p = strstr(text, word); x && p; p = strstr(p + 1, word)) {
		bool before = p == text || p[-1] == ' ' || p[-1] == '\n' || p[-1] == '[';
		bool after = !(p[2] >= 'a' && p[2] <= 'z') && p[2] != '-';

		if (before && after)
			return true;
	}
	return false;
}

static bool in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = strstr(list, name); p; p = strstr(p + 1, name))
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

static const struct { unsigned cmd; const char *title; } man_sections[] = {
	{ CLI_RUN, ".SS \"Options of run\"" },
	{ CLI_STRESS, ".SS \"Options of stress\"" },
	{ CLI_ASM, ".SS \"Options of asm\"" },
	{ CLI_INFO, ".SS \"Options of info\"" },
	{ CLI_ALL, ".SS General" },
};

START_TEST(test_man_options)
{
	char *doc = slurp("doc/warpemu.1");

	for (size_t s = 0; s < sizeof man_sections / sizeof man_sections[0]; s++) {
		unsigned cmd = man_sections[s].cmd;
		char *sec = section(doc, man_sections[s].title, "\n.SS", "\n.SH");
		char hd[2048];

		heads(sec, hd, sizeof hd);
		for (size_t i = 0; i < CLI_NOPT; i++) {
			const cli_opt *d = &cli_opts_table[i];
			/* an option of every command is described once, under General */
			bool here = cmd == CLI_ALL ? d->cmds == CLI_ALL
						   : (d->cmds & cmd) && d->cmds != CLI_ALL;
			/* stress names the options it shares with run in a paragraph */
			bool as_head = !(cmd == CLI_STRESS && (d->cmds & CLI_RUN));

			if (here)
				ck_assert_msg(as_head ? in_list(hd, d->name) : mentions(sec, d->name),
					      "doc/warpemu.1, %s: --%s is not described", man_sections[s].title,
					      d->name);
			else if (in_list(hd, d->name))
				ck_assert_msg(false, "doc/warpemu.1, %s: --%s is not an option of it",
					      man_sections[s].title, d->name);
		}
		free(sec);
	}
	free(doc);
}
END_TEST

START_TEST(test_synopsis_and_readme)
{
	char *doc = slurp("doc/warpemu.1"), *readme = slurp("README.md");
	char *syn = section(doc, ".SH SYNOPSIS", "\n.SH", NULL);
	char *usage = section(readme, "## Usage", "\n## ", NULL);

	for (size_t i = 0; i < CLI_NOPT; i++) {
		const cli_opt *d = &cli_opts_table[i];
		ck_assert_msg(mentions(syn, d->name) || mentions_short(syn, d->shrt),
			      "doc/warpemu.1 SYNOPSIS lacks --%s", d->name);
		ck_assert_msg(d->cmds == CLI_ALL || mentions(usage, d->name) ||
			      mentions_short(usage, d->shrt), "README.md, Usage, lacks --%s", d->name);
	}
	free(syn);
	free(usage);
	free(doc);
	free(readme);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cli_opts");
	TCase *scan_tc = tcase_create("scan"), *doc_tc = tcase_create("docs");
	SRunner *sr;
	int failed;

	tcase_add_test(scan_tc, test_scan_values);
	tcase_add_test(scan_tc, test_scan_errors);
	tcase_add_test(scan_tc, test_scan_help_and_dashes);
	tcase_add_test(scan_tc, test_table_consistent);
	tcase_add_test(scan_tc, test_replay_words);
	tcase_add_test(doc_tc, test_man_options);
	tcase_add_test(doc_tc, test_synopsis_and_readme);
	suite_add_tcase(s, scan_tc);
	suite_add_tcase(s, doc_tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
