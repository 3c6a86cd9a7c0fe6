#include "harness.h"

#include <stdarg.h>

#include "console.h"
#include "exit_status.h"
#include "glob.h"
#include "interrupt_log.h"
#include "platform.h"
#include "pmu_report.h"

#include "version.h"	/* PMCTEST_VERSION, written by the Makefile */

extern const struct suite *const __start_pmctest_suites[];
extern const struct suite *const __stop_pmctest_suites[];

enum result { RESULT_PASS, RESULT_FAIL, RESULT_SKIP };

/* The test that is running. */
static struct {
	bool active;
	bool failed;
	bool skipped;
	char skip_reason[160];
	char diagnostics[8192];
	struct strbuf diag;
	unsigned first_failure;	/* where the first test_fail() line starts */
	char statements[256];	/* declared, then what verdicts rested on */
	struct strbuf named;
	const char *judged[16];	/* strings already merged into statements */
	unsigned judged_count;
} current;

/* The run. */
static struct {
	const struct harness_options *options;
	unsigned number;
	unsigned count[3];
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
	console_printf("Bail out! %s\n", why);
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

/* Calls visit for every selected case, in registration order. */
static unsigned for_each_selected(const struct harness_options *o,
				  void (*visit)(const struct suite *, unsigned,
						const struct case_text *))
{
	unsigned count = 0;

	for (const struct suite *const *s = __start_pmctest_suites;
	     s < __stop_pmctest_suites; s++) {
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
	return count;
}

static void list_one(const struct suite *s, unsigned i,
		     const struct case_text *t)
{
	(void)s;
	(void)i;
	console_printf("%-40s [%s] %s\n", t->id, t->statements, t->description);
}

/* A YAML double-quoted scalar: the text with " and \ escaped. */
static void print_quoted(const char *text, int n)
{
	console_printf("\"");
	for (int k = 0; k < n && text[k]; k++) {
		if (text[k] == '"' || text[k] == '\\')
			console_printf("\\%c", text[k]);
		else
			console_printf("%c", text[k]);
	}
	console_printf("\"");
}

/* The first diagnostic line that starts with key and ": ", if any: the
 * line, and its value (n bytes at *value). */
static const char *find_keyed_line(const char *key, const char **value,
				   int *n)
{
	unsigned key_len = 0;

	while (key[key_len])
		key_len++;
	for (const char *line = current.diagnostics; *line;) {
		const char *end = line;
		bool match = true;

		while (*end && *end != '\n')
			end++;
		for (unsigned k = 0; k <= key_len && match; k++)
			match = k < key_len ? line[k] == key[k] : line[k] == ':';
		if (match && line[key_len + 1] == ' ') {
			*value = line + key_len + 2;
			*n = (int)(end - *value);
			return line;
		}
		line = *end ? end + 1 : end;
	}
	return 0;
}

static int line_length(const char *line)
{
	int n = 0;

	while (line[n] && line[n] != '\n')
		n++;
	return n;
}

/* The lines print_yaml() has shown as keys, not to show again. */
struct shown {
	const char *line[4];
	unsigned count;
};

static bool was_shown(const struct shown *shown, const char *line)
{
	for (unsigned k = 0; k < shown->count; k++)
		if (shown->line[k] == line)
			return true;
	return false;
}

/*
 * The diagnostics of a result as a TAP 13 YAML block under it: `message`,
 * the deviation where the check named one (else the first failure, or for
 * a passing test under `verbose` the first line); the first
 * context, expected and observed lines as keys; and the other lines in a
 * `diagnostics` list of one-key maps. No line is shown twice: every byte
 * on the serial console costs a port exit and a host write() under an
 * emulator (README, "Overhead"). That is the YAML subset Perl's
 * TAP::Parser reads: no block scalars, and a list item that is a quoted
 * "x: y" is taken for a map.
 */
static void print_yaml(void)
{
	static const char *const keys[] = { "context", "expected", "observed" };
	struct shown shown = { { 0 }, 0 };
	const char *values[3], *line, *value;
	int lengths[3], n;
	bool listed = false;

	for (unsigned k = 0; k < 3; k++) {
		values[k] = 0;
		line = find_keyed_line(keys[k], &values[k], &lengths[k]);
		if (line)
			shown.line[shown.count++] = line;
	}
	line = find_keyed_line("deviation", &value, &n);
	if (!line) {	/* else the first failure, or the first line */
		line = current.diagnostics;
		if (current.failed && current.first_failure < current.diag.size)
			line += current.first_failure;
		value = line;
		n = line_length(line);
	}
	shown.line[shown.count++] = line;

	console_printf("  ---\n  message: ");
	print_quoted(value, n);
	console_printf("\n");
	for (unsigned k = 0; k < 3; k++) {
		if (values[k]) {
			console_printf("  %s: ", keys[k]);
			print_quoted(values[k], lengths[k]);
			console_printf("\n");
		}
	}
	for (line = current.diagnostics; *line;) {
		n = line_length(line);
		if (!was_shown(&shown, line)) {
			if (!listed)
				console_printf("  diagnostics:\n");
			listed = true;
			console_printf("    - text: ");
			print_quoted(line, n);
			console_printf("\n");
		}
		line += line[n] ? n + 1 : n;
	}
	if (current.diag.len >= current.diag.size)
		console_printf("  truncated: \"the diagnostics filled their %u-byte buffer\"\n",
			       (unsigned)sizeof(current.diagnostics));
	console_printf("  ...\n");
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

static void run_one(const struct suite *s, unsigned i,
		    const struct case_text *t)
{
	uint64_t started = platform_timestamp(), ran;
	enum result result;

	current.failed = false;
	current.skipped = false;
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

	result = current.failed ? RESULT_FAIL
		 : current.skipped ? RESULT_SKIP : RESULT_PASS;
	run.count[result]++;
	run.number++;
	if (result == RESULT_SKIP)
		console_printf("ok %u - %s [%s] # SKIP %s\n", run.number, t->id,
			       current.statements, current.skip_reason);
	else
		console_printf("%s %u - %s [%s]\n",
			       result == RESULT_FAIL ? "not ok" : "ok",
			       run.number, t->id, current.statements);
	if ((result == RESULT_FAIL || run.options->verbose) && current.diag.len)
		print_yaml();
	if (run.options->timing)
		console_printf("# time: %s run=%llu report=%llu\n", t->id,
			       (unsigned long long)(ran - started),
			       (unsigned long long)(platform_timestamp() - ran));
}

int harness_run(const struct harness_options *o)
{
	uint64_t started;
	unsigned planned;

	if (o->list) {
		console_printf("# pmctest: %u tests\n", for_each_selected(o, list_one));
		return EXIT_PASSED;
	}

	/* The plan right after the version line (TAP 13), then the header. */
	console_printf("TAP version 13\n");
	planned = for_each_selected(o, 0);
	if (planned == 0) {
		console_printf("# no test is selected by tests= and exclude=\n");
		harness_bail_out("nothing to run");
	}
	console_printf("1..%u\n", planned);
	console_printf("# pmctest " PMCTEST_VERSION "\n");
	platform_print_header();
	pmu_report(platform_enumeration());

	run.options = o;
	started = platform_timestamp();
	for_each_selected(o, run_one);
	if (o->timing)
		console_printf("# time: suite %llu\n",
			       (unsigned long long)(platform_timestamp() - started));

	/* The one summary line serial-console CI greps for, a TAP comment. */
	console_printf("# pmctest: %u passed, %u failed, %u skipped\n",
		       run.count[RESULT_PASS], run.count[RESULT_FAIL],
		       run.count[RESULT_SKIP]);
	return run.count[RESULT_FAIL] ? EXIT_FAILED : EXIT_PASSED;
}
