#include "harness.h"

#include <stdarg.h>

#include "console.h"
#include "counters_left.h"
#include "cpus.h"
#include "deviations_said.h"
#include "exit_status.h"
#include "exit_tally.h"
#include "glob.h"
#include "interrupt_log.h"
#include "platform.h"
#include "pmu_report.h"
#include "result_tally.h"
#include "skips_said.h"
#include "tap_writer.h"

#include "version.h"	/* PMCTEST_VERSION, written by the Makefile */

extern const struct suite *const __start_pmctest_suites[];
extern const struct suite *const __stop_pmctest_suites[];
extern const struct per_cpu_cases *const __start_pmctest_per_cpu[];
extern const struct per_cpu_cases *const __stop_pmctest_per_cpu[];

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
	uint32_t worked;	/* bit n: CPU n ran work of the test (cpu_work) */
} current;

/* The run. */
static struct {
	const struct harness_options *options;
	struct pmu_info pmu;	/* CPU 0's enumeration, decoded */
	unsigned cpu;		/* whose part is being selected or run */
	uint64_t started;	/* platform_timestamp() before the first test */
} run;

/* The application processor whose part runs: the test it is in, and
 * if it was lost, why. */
static struct {
	char in[96];
	char why[240];
} ap;

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

/* Whether case i of s is in the per-CPU part: every case of a suite with
 * SUITE_PER_CPU, unless PER_CPU_CASES() names some. */
static bool on_every_cpu(const struct suite *s, unsigned i)
{
	if (!(s->flags & SUITE_PER_CPU))
		return false;
	for (const struct per_cpu_cases *const *p = __start_pmctest_per_cpu;
	     p < __stop_pmctest_per_cpu; p++)
		if ((*p)->suite == s)
			return (*p)->has(i);
	return true;
}

/* Whether tests= and exclude= choose case id of s (on an AP,
 * for_each_selected() has left out the cases not on every CPU). */
static bool selected(const struct harness_options *o, const struct suite *s,
		     const char *id)
{
	for (unsigned i = 0; i < o->excluded_count; i++)
		if (glob_match_test(o->excluded[i], id))
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
		if (glob_match_test(o->patterns[i], id))
			return true;
	}
	return false;
}

struct case_text {
	char id[96];
	char statements[96];
	char description[160];
};

/* Case i of s as CPU run.cpu runs it: an AP's ID ends in "@cpuN". */
static void describe(const struct suite *s, unsigned i, struct case_text *t)
{
	struct test_text text;

	strbuf_init(&text.id, t->id, sizeof(t->id));
	strbuf_init(&text.statements, t->statements, sizeof(t->statements));
	strbuf_init(&text.description, t->description, sizeof(t->description));
	s->describe(i, &text);
	if (run.cpu != 0)
		strbuf_printf(&text.id, "@cpu%u", run.cpu);
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
	unsigned char position[SUITES_MAX];
	const struct suite *const *first = __start_pmctest_suites;

	if (__stop_pmctest_suites - first > SUITES_MAX)
		harness_bail_out("more suites linked than SUITES_MAX");
	while (suite_run_order[groups])
		groups++;
	if (groups >= UINT8_MAX)
		harness_bail_out("more groups in suite_run_order than a byte holds");
	/* Each suite's place once, not once per group: the passes over the
	 * tests take time under emulation, and a run makes one per CPU. An
	 * AP skips the suites that are not on every CPU before any describe. */
	for (const struct suite *const *s = first; s < __stop_pmctest_suites; s++)
		position[s - first] = run.cpu != 0 && !((*s)->flags & SUITE_PER_CPU)
				      ? UINT8_MAX : (unsigned char)run_position(*s);
	for (unsigned at = 0; at <= groups; at++) {
		for (const struct suite *const *s = first;
		     s < __stop_pmctest_suites; s++) {
			if (position[s - first] != at)
				continue;
			for (unsigned i = 0; i < (*s)->cases; i++) {
				struct case_text text;

				if (run.cpu != 0 && !on_every_cpu(*s, i))
					continue;
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
	const char *earlier = 0;
	bool same_brief, said_once = current.failed && !run.options->verbose &&
				     !truncated;

	if (current.failed && current.first_failure < current.diag.size)
		first += current.first_failure;
	diagnostic_keys_find(current.diagnostics, first, &keys);
	if (said_once)
		earlier = deviation_said_before(&keys, current.brief, &same_brief);
	if (earlier) {
		tap_yaml_same(earlier, same_brief ? "" : current.brief);
		return;
	}
	tap_yaml(current.diagnostics, &keys,
		 truncated ? (unsigned)sizeof(current.diagnostics) : 0);
	if (said_once)
		deviation_said(&keys, id, current.brief);
}

/* An interrupt the test did not take for itself (a test that expects one
 * clears the log), on any CPU: the target delivered something nobody
 * asked for, or delivered it to a CPU that did not ask (SMP-4). */
static void report_stray_interrupts(void)
{
	for (unsigned cpu = 0; cpu < platform_cpu_count(); cpu++)
		for (unsigned v = 0; v < 256; v++)
			if (interrupt_log_count_on(cpu, v))
				test_fail("unexpected interrupt: vector 0x%02x arrived %u time(s) on CPU %u during the test",
					  v, interrupt_log_count_on(cpu, v), cpu);
}

/* The result line; a SKIP for a reason an earlier test gave in full
 * names that test instead, unless the run is `verbose`. */
static void print_result(enum tap_result result, const struct case_text *t)
{
	const char *earlier = 0;
	unsigned number = result_tally_begin(result);
	bool said_once = result == TAP_SKIP && !run.options->verbose;

	if (said_once)
		earlier = skip_said_before(current.skip_reason);
	if (earlier)
		tap_skip_same(number, t->id, current.statements, earlier);
	else
		tap_result(result, number, t->id, current.statements,
			   current.skip_reason);
	result_tally_commit();
	if (said_once && !earlier)
		skip_said(current.skip_reason, t->id);
}

/* The running test's diagnostics start empty. */
static void begin_test(const struct case_text *t)
{
	current.started = platform_timestamp();
	current.failed = false;
	current.skipped = false;
	current.brief[0] = '\0';
	strbuf_init(&current.diag, current.diagnostics,
		    sizeof(current.diagnostics));
	strbuf_init(&current.named, current.statements, sizeof(current.statements));
	current.judged_count = 0;
	current.worked = 0;
	add_statements(t->statements);
}

/* Its result line, and its diagnostics where they are due. */
static void report_test(const struct case_text *t)
{
	enum tap_result result = current.failed ? TAP_FAIL
				 : current.skipped ? TAP_SKIP : TAP_PASS;

	print_result(result, t);
	if ((result == TAP_FAIL || run.options->verbose) && current.diag.len)
		print_diagnostics(t->id);
}

void harness_cpu_worked(unsigned cpu)
{
	if (cpu < CPUS_MAX)
		current.worked |= 1u << cpu;
}

static void take_counters_left(void *left)
{
	counters_left_take(&run.pmu, left);
}

/*
 * What the test left in the counters of each CPU it ran on (the executing
 * one, and those it gave work): a comment line naming the test, the CPU
 * and each counter, after its result (kernel/counters_left.h). Not a
 * verdict on the target: the test's own bug, which the harness undoes so
 * that the next test starts clean.
 */
static void report_counters_left(const char *id)
{
	unsigned here = platform_this_cpu();
	uint32_t cpus = current.worked | 1u << here;
	struct counters_left left;
	char text[160];
	struct strbuf why;

	for (unsigned cpu = 0; cpu < platform_cpu_count(); cpu++) {
		if (!((cpus >> cpu) & 1))
			continue;
		strbuf_init(&why, text, sizeof(text));
		if (cpu == here)
			take_counters_left(&left);
		else if (!platform_start_on_cpu(cpu, take_counters_left, &left, &why) ||
			 !platform_wait_cpu(cpu, HARNESS_AP_TIMEOUT_MS, &why)) {
			console_printf("# counters left by %s on CPU %u: not read: %s\n",
				       id, cpu, text);
			continue;
		}
		if (left.found)
			console_printf("# counters left by %s on CPU %u: %s (cleared)\n",
				       id, cpu, left.text);
	}
}

static void run_one(const struct suite *s, unsigned i,
		    const struct case_text *t)
{
	uint64_t ran;
	unsigned group = 0;

	while (t->id[group] && t->id[group] != '.')
		group++;
	exit_tally_group(t->id, group);	/* the test and its report */
	begin_test(t);
	current.active = true;
	interrupt_log_clear();
	if (!platform_run_contained(s->run, i))
		current.failed = true;	/* the trap handler said why */
	current.active = false;
	ran = platform_timestamp();
	report_stray_interrupts();
	report_test(t);
	exit_tally_group("harness", 7);	/* the harness's own look after it */
	report_counters_left(t->id);
	exit_tally_group(0, 0);	/* not the `timing` lines */
	if (run.options->timing)
		console_printf("# time: %s run=%llu report=%llu\n", t->id,
			       (unsigned long long)(ran - current.started),
			       (unsigned long long)(platform_timestamp() - ran));
}

bool harness_cpu_chosen(unsigned cpu)
{
	return cpu < platform_cpu_count() && run.options &&
	       ((run.options->cpus >> cpu) & 1);
}

/* A test of the AP's part that did not run, or did not finish, because
 * the AP is lost: not ok, and why (never a silent gap in the plan). */
static void report_not_run(const struct case_text *t)
{
	begin_test(t);
	test_judged("SMP-6");
	test_fail("deviation: SMP-6: %s", ap.why);
	report_test(t);
}

/* The AP's part runs on the AP, which reports each test itself while CPU
 * 0 waits: one CPU writes the console at a time, and one start and wait
 * per AP, not per test, as each costs milliseconds under emulation. */
static void ap_run_one(const struct suite *s, unsigned i,
		       const struct case_text *t)
{
	unsigned k = 0;

	for (; t->id[k] && k + 1 < sizeof(ap.in); k++)
		ap.in[k] = t->id[k];
	ap.in[k] = '\0';
	run_one(s, i, t);
}

static void ap_part(void *options)
{
	for_each_selected(options, ap_run_one);
}

/* Of a lost AP's part, the tests it did not report: not ok, each. */
static unsigned not_run_left;

static void report_rest(const struct suite *s, unsigned i,
			const struct case_text *t)
{
	(void)s;
	(void)i;
	if (not_run_left == 0)
		report_not_run(t);
	else
		not_run_left--;
}

static void run_ap_part(const struct harness_options *o)
{
	unsigned first = result_tally_number();
	struct strbuf why, lost;
	char text[160];

	ap.in[0] = '\0';
	if (for_each_selected(o, 0) == 0)
		return;
	strbuf_init(&why, text, sizeof(text));
	strbuf_init(&lost, ap.why, sizeof(ap.why));
	if (!platform_start_on_cpu(run.cpu, ap_part, (void *)o, &why)) {
		strbuf_printf(&lost, "CPU %u could not be given its tests: %s",
			      run.cpu, text);
	} else if (!platform_wait_cpu(run.cpu, HARNESS_AP_TIMEOUT_MS, &why)) {
		/* Its whole lines are out (kernel/cpus.h): CPU 0 goes on from
		 * the last of them. */
		current.active = false;
		result_tally_take_over();
		tap_take_over();
		if (ap.in[0])
			strbuf_printf(&lost, "CPU %u was lost in %s: %s",
				      run.cpu, ap.in, text);
		else
			strbuf_printf(&lost, "CPU %u was lost before its first test: %s",
				      run.cpu, text);
	} else {
		return;
	}
	not_run_left = result_tally_number() - first;	/* those it reported */
	if (not_run_left == for_each_selected(o, 0)) {
		/* Each of its tests has its result line out: none is left to
		 * carry the loss, and the run cannot pass. */
		harness_bail_out(ap.why);
	}
	for_each_selected(o, report_rest);
}

/* Whether cpus= names a CPU the run does not have; which, in why. */
static bool cpus_missing(const struct harness_options *o, struct strbuf *why)
{
	if (o->cpus == HARNESS_CPUS_ALL)
		return false;
	for (unsigned cpu = platform_cpu_count(); cpu < CPUS_MAX; cpu++)
		if ((o->cpus >> cpu) & 1) {
			strbuf_printf(why, "cpus= names CPU %u; the run has %u CPU(s), 0-%u",
				      cpu, platform_cpu_count(),
				      platform_cpu_count() - 1);
			return true;
		}
	return false;
}

/* Visits the selected tests of CPU 0, then of each AP cpus= chooses;
 * with run_parts, each AP runs its own. */
static unsigned for_each_cpu(const struct harness_options *o,
			     void (*visit)(const struct suite *, unsigned,
					   const struct case_text *),
			     bool run_parts)
{
	unsigned count;

	run.cpu = 0;
	count = for_each_selected(o, visit);
	for (unsigned cpu = 1; cpu < platform_cpu_count(); cpu++) {
		if (!((o->cpus >> cpu) & 1))
			continue;
		run.cpu = cpu;
		if (run_parts)
			run_ap_part(o);
		else
			count += for_each_selected(o, visit);
	}
	run.cpu = 0;
	return count;
}

/* The CPUs of the run, on one comment line. */
static void print_cpus(const struct harness_options *o)
{
	console_printf("# cpus: %u, APIC IDs", platform_cpu_count());
	for (unsigned cpu = 0; cpu < platform_cpu_count(); cpu++)
		console_printf(" %u", (unsigned)platform_cpu_apic_id(cpu));
	console_printf("; the per-CPU part runs on CPU 0");
	for (unsigned cpu = 1; cpu < platform_cpu_count(); cpu++)
		if ((o->cpus >> cpu) & 1)
			console_printf(" %u", cpu);
	console_printf("\n");
}

int harness_run(const struct harness_options *o)
{
	unsigned planned;
	char text[120];
	struct strbuf why;

	run.options = o;
	pmu_decode(platform_enumeration(), &run.pmu);
	strbuf_init(&why, text, sizeof(text));
	if (cpus_missing(o, &why)) {
		tap_version();
		console_printf("# pmctest: %s\n", text);
		harness_bail_out(text);
	}
	if (o->list) {
		console_printf("# pmctest: %u tests\n",
			       for_each_cpu(o, list_one, false));
		return EXIT_PASSED;
	}

	/* The plan right after the version line (TAP 13), then the header. */
	tap_version();
	planned = for_each_cpu(o, 0, false);
	if (planned == 0) {
		console_printf("# no test is selected by tests= and exclude=\n");
		harness_bail_out("nothing to run");
	}
	if (planned > RESULT_TALLY_MAX)
		harness_bail_out("more tests selected than a run counts (65535)");
	tap_plan(planned);
	console_printf("# pmctest " PMCTEST_VERSION "\n");
	platform_print_header();
	pmu_report(platform_enumeration());
	print_cpus(o);

	run.started = platform_timestamp();
	for_each_cpu(o, run_one, true);
	if (o->timing) {
		console_printf("# time: suite %llu\n",
			       (unsigned long long)(platform_timestamp() - run.started));
		exit_tally_print();
	}

	/* The one summary line serial-console CI greps for, a TAP comment. */
	console_printf("# pmctest: %u passed, %u failed, %u skipped\n",
		       result_tally_count(TAP_PASS), result_tally_count(TAP_FAIL),
		       result_tally_count(TAP_SKIP));
	return result_tally_count(TAP_FAIL) ? EXIT_FAILED : EXIT_PASSED;
}
