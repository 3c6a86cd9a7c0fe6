/*
 * The test harness: suites register themselves in a linker section, each a
 * table of cases with one ID per case; the harness selects cases by ID,
 * runs each contained, and reports each result in TAP 13
 * (kernel/tap_writer.h).
 */
#ifndef PMCTEST_HARNESS_H
#define PMCTEST_HARNESS_H

#include <stdbool.h>
#include <stdint.h>

#include "cmdline_limits.h"
#include "platform.h"
#include "strbuf.h"

/* What describe() writes for one case. */
struct test_text {
	struct strbuf id;		/* dotted, lower case: "priv.long.cpl3.pce0.valid" */
	struct strbuf statements;	/* spec IDs checked: "PRIV-1 PRIV-6" */
	struct strbuf description;	/* one line */
};

struct suite {
	unsigned flags;
	unsigned cases;
	void (*describe)(unsigned i, struct test_text *text);
	void (*run)(unsigned i);
};

/* Runs only when a tests= pattern that does not start with a wildcard
 * selects it: never in the default run, never by tests=*. */
#define SUITE_EXPLICIT 1u
/* Runs only when a tests= pattern is its ID itself: selftest.hang, which
 * tests=selftest.* must not start. */
#define SUITE_EXACT 2u
/*
 * The per-CPU part: after CPU 0's run, each application processor chosen
 * by cpus= runs these suites too, one CPU at a time, its test IDs ending
 * in "@cpuN" (kernel/glob.h says how patterns select them). A suite only
 * some of whose cases belong to it names them with PER_CPU_CASES().
 */
#define SUITE_PER_CPU 4u

#define REGISTER_SUITE(s)                                                    \
	static const struct suite *const s##_registered                      \
		__attribute__((used, section("pmctest_suites"))) = &(s)

struct per_cpu_cases {
	const struct suite *suite;
	bool (*has)(unsigned i);	/* whether case i is in the part */
};

#define PER_CPU_CASES(s, has_)                                               \
	static const struct per_cpu_cases s##_per_cpu = { &(s), has_ };      \
	static const struct per_cpu_cases *const s##_per_cpu_registered      \
		__attribute__((used, section("pmctest_per_cpu"))) =          \
		&s##_per_cpu

/*
 * The order the suites run in, so that the TAP of a target numbers its
 * tests the same way from one build to the next: groups of test IDs
 * ("ecx.index" holds ecx.index.gp.cpl0 and the rest), NULL-terminated
 * (tests/suites/run_order.c). A suite runs with the first group the ID of
 * its first case is in, the suites of one group in link order; a suite in
 * no group runs after all of them.
 */
extern const char *const suite_run_order[];

/* The most suites a kernel links, and groups suite_run_order holds
 * (fewer than 255: a suite's place is kept in a byte). */
#define SUITES_MAX 255

/* A suite of one case. */
#define SINGLE_TEST(name, flags_, id_, statements_, description_)            \
	static void name##_run(unsigned i);                                  \
	static void name##_describe(unsigned i, struct test_text *text)      \
	{                                                                    \
		(void)i;                                                     \
		strbuf_puts(&text->id, id_);                                 \
		strbuf_puts(&text->statements, statements_);                 \
		strbuf_puts(&text->description, description_);              \
	}                                                                    \
	static const struct suite name##_suite = {                           \
		flags_, 1, name##_describe, name##_run,                      \
	};                                                                   \
	REGISTER_SUITE(name##_suite);                                        \
	static void name##_run(unsigned i)

/* Inside a running test. Diagnostics are printed after the result line:
 * always on failure, and for passing tests with `verbose`. */
void test_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void test_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void test_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * What the running test's first deviation was, in a few words ("#UD at
 * RCX=0x10000"). A failing test whose message, expected and observed
 * outcome are an earlier test's is reported as that test's ID and these
 * words (kernel/deviations_said.h); `verbose` reports every test in full.
 * Only a test's first call counts.
 */
void test_brief(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Whether the running test has failed so far: a check that reports many
 * mismatches gives the first in full and the rest shorter. */
bool test_has_failed(void);

/* Whether the run asked for `verbose`: checks add their long explanations
 * (the model's reasoning) only then. */
bool test_verbose(void);

/* The statements a verdict of the running test rested on ("PRIV-1 ARCH-2",
 * a string that lives as long as the run): the result line names them with
 * those the test declares. */
void test_judged(const char *statements);

#define HARNESS_CPUS_ALL 0xFFFFFFFFu

struct harness_options {
	const char *patterns[CMDLINE_PATTERNS_MAX];	/* tests=; none: default run */
	unsigned pattern_count;
	const char *excluded[CMDLINE_PATTERNS_MAX];	/* exclude=GLOB,GLOB */
	unsigned excluded_count;
	bool list;
	bool verbose;
	bool timing;	/* a "# time:" comment per test (make bench) */
	/* cpus=: bit n for CPU n, the CPUs the per-CPU part runs on;
	 * HARNESS_CPUS_ALL (cpus=all, or not given): every CPU the run has.
	 * CPU 0 runs its part whatever it says. */
	uint32_t cpus;
	enum platform_exit_method exit_by;	/* exit=debug|reset|triple */
	unsigned consoles;	/* console=: CONSOLE_* ports; 0: COM1 if a UART answers, else E9H */
	enum platform_apic_mode apic;	/* apic=xapic|x2apic */
};

/* Whether cpus= chooses CPU cpu (one the run has) for the per-CPU part:
 * what the checks that involve several CPUs at once go by. */
bool harness_cpu_chosen(unsigned cpu);

/* For tests/lib/cpu_work.c: CPU cpu ran work of the running test, so
 * the harness looks at what the test left in its counters too. */
void harness_cpu_worked(unsigned cpu);

/*
 * How long an application processor may take for all its tests of the
 * per-CPU part (about 30 ms under QEMU TCG), or for the work a check
 * hands it, before it is reported lost. Generous, as a nested hypervisor
 * under emulation is a hundred times slower, yet three lost APs stay
 * within the two minutes a runner gives a QEMU target.
 */
#define HARNESS_AP_TIMEOUT_MS 30000u

/* Runs (or lists) the selected tests; returns the exit status. */
int harness_run(const struct harness_options *options);

/* For the trap handler. */
void harness_abort_test(void) __attribute__((noreturn));
void harness_bail_out(const char *why) __attribute__((noreturn));

#endif
