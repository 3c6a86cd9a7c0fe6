#include "harness.h"

#include <stdarg.h>

#include "console.h"
#include "deviations_said.h"
#include "exit_status.h"
#include "exit_tally.h"
#include "glob.h"
#include "interrupt_log.h"
#include "platform.h"
#include "pmu_report.h"
#include "skips_said.h"
#include "tap_writer.h"

#include "version.h"	/* PMCTEST_VERSION, written by the Makefile */

extern const struct suite *const __start_pmctest_suites[];
extern const struct suite *const __stop_pmctest_suites[];

/* The test that is running. */
static struct {
	bool active;
	bool failed;
	bool skipped;
	char skip_reason[160];
	char brief[64];		/* test_brief(): empty until the first call */
	char diagnostics[8192];
	struct strbuf diag;
	unsigned first_failure;	/* where the first test_fail() line starts */
	char statements[256];	/* declared, then what verdicts rested on */
	struct strbuf named;
	const char *judged[16];	/* strings already merged into statements */
	unsigned judged_count;
	uint64_t started;	/* platform_timestamp() as it started */
} current;

/* The run. */
static struct {
	const struct harness_options *options;
	unsigned number;
	unsigned count[3];
	uint64_t started;	/* platform_timestamp() before the first test */
} run;

static void add_diagnostic(const char *fmt, va_list ap)
{
	if (current.diag.len && current.diag.len < current.diag.size)
		strbuf_putc(&current.diag, '\n');
	strbuf_vprintf(&current.diag, fmt, ap);
}

void test_fail(const char *fmt, ...)
{
	va_list ap;

	if (!current.failed)
		current.first_failure = current.diag.len + (current.diag.len != 0);
	current.failed = true;
	va_start(ap, fmt);
	add_diagnostic(fmt, ap);
	va_end(ap);
}

void test_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_diagnostic(fmt, ap);
	va_end(ap);
}

void test_skip(const char *fmt, ...)
{
	struct strbuf sb;
	va_list ap;

	current.skipped = true;
	strbuf_init(&sb, current.skip_reason, sizeof(current.skip_reason));
	va_start(ap, fmt);
	strbuf_vprintf(&sb, fmt, ap);
	va_end(ap);
}

void test_brief(const char *fmt, ...)
{
	struct strbuf sb;
	va_list ap;

	if (current.brief[0])
		return;
	strbuf_init(&sb, current.brief, sizeof(current.brief));
	va_start(ap, fmt);
	strbuf_vprintf(&sb, fmt, ap);
	va_end(ap);
}

/* Whether the word of length n at w is one of the words of list. */
static bool has_word(const char *list, const char *w, unsigned n)
{
	for (const char *p = list; *p;) {
		unsigned k = 0;

		while (p[k] && p[k] != ' ')
			k++;
		if (k == n) {
			unsigned j = 0;

			while (j < n && p[j] == w[j])
				j++;
			if (j == n)
				return true;
		}
		p += k;
		while (*p == ' ')
			p++;
	}
	return false;
}

static void add_statements(const char *statements)
{
	for (const char *w = statements; *w;) {
		unsigned n = 0;

		while (w[n] && w[n] != ' ')
			n++;
		if (n && !has_word(current.statements, w, n))
			strbuf_printf(&current.named, "%s%.*s",
				      current.named.len ? " " : "", (int)n, w);
		w += n;
		while (*w == ' ')
			w++;
	}
}

bool test_has_failed(void)
{
	return current.failed;
}

bool test_verbose(void)
{
	return run.options && run.options->verbose;
}

/* Called for every answer of the model a test judges by: the model's few
 * answer strings are merged once each. */
void test_judged(const char *statements)
{
	for (unsigned i = 0; i < current.judged_count; i++)
		if (current.judged[i] == statements)
			return;
	if (current.judged_count < sizeof(current.judged) / sizeof(current.judged[0]))
		current.judged[current.judged_count++] = statements;
	add_statements(statements);
}

void harness_bail_out(const char *why)
{
	tap_bail_out(why);
	platform_exit(EXIT_HARNESS_ERROR);
}

void harness_abort_test(void)
{
	if (!current.active)
		harness_bail_out("an unexpected exception outside any test");
	platform_abandon_contained();
}

static bool starts_with_wildcard(const char *pattern)
{
	return pattern[0] == '*' || pattern[0] == '?';
}

static bool same_text(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

static bool selected(const struct harness_options *o, const struct suite *s,
		     const char *id)
{
	for (unsigned i = 0; i < o->excluded_count; i++)
		if (glob_match(o->excluded[i], id))
			return false;
	if (o->pattern_count == 0)
		return !(s->flags & SUITE_EXPLICIT);
	for (unsigned i = 0; i < o->pattern_count; i++) {
		if (s->flags & SUITE_EXACT) {
			if (same_text(o->patterns[i], id))
				return true;
			continue;
		}
		if ((s->flags & SUITE_EXPLICIT) &&
		    starts_with_wildcard(o->patterns[i]))
			continue;
		if (glob_match(o->patterns[i], id))
			return true;
	}
	return false;
}

struct case_text {
	char id[96];
	char statements[96];
	char description[160];
};

static void describe(const struct suite *s, unsigned i, struct case_text *t)
{
	struct test_text text;

	strbuf_init(&text.id, t->id, sizeof(t->id));
	strbuf_init(&text.statements, t->statements, sizeof(t->statements));
	strbuf_init(&text.description, t->description, sizeof(t->description));
	s->describe(i, &text);
}

/* Whether id is group itself or starts with group and a dot. */
static bool in_group(const char *id, const char *group)
{
	while (*group && *id == *group)
		id++, group++;
	return *group == '\0' && (*id == '\0' || *id == '.');
}

/* The index in suite_run_order of the group s runs with; the number of
 * groups if it is in none. */
static unsigned run_position(const struct suite *s)
{
	struct case_text first;
	unsigned k = 0;

	first.id[0] = '\0';
	if (s->cases)
		describe(s, 0, &first);
	while (suite_run_order[k] && !in_group(first.id, suite_run_order[k]))
		k++;
	return k;
}

/* Calls visit for every selected case, in run order. */
static unsigned for_each_selected(const struct harness_options *o,
				  void (*visit)(const struct suite *, unsigned,
						const struct case_text *))
{
	unsigned count = 0, groups = 0;

	while (suite_run_order[groups])
		groups++;
	for (unsigned at = 0; at <= groups; at++) {
		for (const struct suite *const *s = __start_pmctest_suites;
		     s < __stop_pmctest_suites; s++) {
			if (run_position(*s) != at)
				continue;
			for (unsigned i = 0; i < (*s)->cases; i++) {
				struct case_text text;

				describe(*s, i, &text);
				if (!selected(o, *s, text.id))
					continue;
				count++;
				if (visit)
					visit(*s, i, &text);
			}
		}
	}
	return count;
}

static void list_one(const struct suite *s, unsigned i,
		     const struct case_text *t)
{
	(void)s;
	(void)i;
	console_printf("%-40s [%s] %s\n", t->id, t->statements, t->description);
}

/*
 * The diagnostics of the test that ran, under its result line: `message`
 * is the deviation where a check named one, else the first failure, or
 * for a passing test under `verbose` the first line. A failure that
 * deviates as an earlier one did names that test instead, with its own
 * brief where that differs from the named test's, unless the run is
 * `verbose` or the diagnostics were cut.
 */
static void print_diagnostics(const char *id)
{
	const char *first = current.diagnostics;
	bool truncated = current.diag.len >= current.diag.size;
	struct diagnostic_keys keys;
	const char *earlier;
	bool same_brief;

	if (current.failed && current.first_failure < current.diag.size)
		first += current.first_failure;
	diagnostic_keys_find(current.diagnostics, first, &keys);
	if (current.failed && !run.options->verbose && !truncated) {
		earlier = deviation_said_before(&keys, id, current.brief,
						&same_brief);
		if (earlier) {
			tap_yaml_same(earlier, same_brief ? "" : current.brief);
			return;
		}
	}
	tap_yaml(current.diagnostics, &keys,
		 truncated ? (unsigned)sizeof(current.diagnostics) : 0);
}

/* An interrupt the test did not take for itself (a test that expects one
 * clears the log): the target delivered something nobody asked for. */
static void report_stray_interrupts(void)
{
	for (unsigned v = 0; v < 256; v++)
		if (interrupt_log_count(v))
			test_fail("unexpected interrupt: vector 0x%02x arrived %u time(s) during the test",
				  v, interrupt_log_count(v));
}

/* The result line; a SKIP for a reason an earlier test gave in full
 * names that test instead, unless the run is `verbose`. */
static void print_result(enum tap_result result, const struct case_text *t)
{
	const char *earlier = 0;

	if (result == TAP_SKIP && !run.options->verbose)
		earlier = skip_said_before(current.skip_reason, t->id);
	if (earlier)
		tap_skip_same(run.number, t->id, current.statements, earlier);
	else
		tap_result(result, run.number, t->id, current.statements,
			   current.skip_reason);
}

static void run_one(const struct suite *s, unsigned i,
		    const struct case_text *t)
{
	uint64_t ran;
	enum tap_result result;
	unsigned group = 0;

	while (t->id[group] && t->id[group] != '.')
		group++;
	exit_tally_group(t->id, group);	/* the test and its report */
	current.started = platform_timestamp();
	current.failed = false;
	current.skipped = false;
	current.brief[0] = '\0';
	strbuf_init(&current.diag, current.diagnostics,
		    sizeof(current.diagnostics));
	strbuf_init(&current.named, current.statements, sizeof(current.statements));
	current.judged_count = 0;
	add_statements(t->statements);
	current.active = true;
	interrupt_log_clear();
	if (!platform_run_contained(s->run, i))
		current.failed = true;	/* the trap handler said why */
	current.active = false;
	ran = platform_timestamp();
	report_stray_interrupts();

	result = current.failed ? TAP_FAIL
		 : current.skipped ? TAP_SKIP : TAP_PASS;
	run.count[result]++;
	run.number++;
	print_result(result, t);
	if ((result == TAP_FAIL || run.options->verbose) && current.diag.len)
		print_diagnostics(t->id);
	exit_tally_group(0, 0);	/* not the `timing` lines */
	if (run.options->timing)
		console_printf("# time: %s run=%llu report=%llu\n", t->id,
			       (unsigned long long)(ran - current.started),
			       (unsigned long long)(platform_timestamp() - ran));
}

int harness_run(const struct harness_options *o)
{
	unsigned planned;

	if (o->list) {
		console_printf("# pmctest: %u tests\n", for_each_selected(o, list_one));
		return EXIT_PASSED;
	}

	/* The plan right after the version line (TAP 13), then the header. */
	tap_version();
	planned = for_each_selected(o, 0);
	if (planned == 0) {
		console_printf("# no test is selected by tests= and exclude=\n");
		harness_bail_out("nothing to run");
	}
	tap_plan(planned);
	console_printf("# pmctest " PMCTEST_VERSION "\n");
	platform_print_header();
	pmu_report(platform_enumeration());

	run.options = o;
	run.started = platform_timestamp();
	for_each_selected(o, run_one);
	if (o->timing) {
		console_printf("# time: suite %llu\n",
			       (unsigned long long)(platform_timestamp() - run.started));
		exit_tally_print();
	}

	/* The one summary line serial-console CI greps for, a TAP comment. */
	console_printf("# pmctest: %u passed, %u failed, %u skipped\n",
		       run.count[TAP_PASS], run.count[TAP_FAIL],
		       run.count[TAP_SKIP]);
	return run.count[TAP_FAIL] ? EXIT_FAILED : EXIT_PASSED;
}
