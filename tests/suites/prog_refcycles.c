/*
 * prog.refcycles.*: reference cycles against the TSC, over two loops at
 * CPL 0 that retire very different numbers of instructions per TSC tick,
 * the known loop and the string loop (kernel/exec.h), each run short and
 * long with the TSC read around it (prog_measure_timed()).
 *
 * prog.refcycles.fixed: fixed counter 2 (CPU_CLK_UNHALTED.REF_TSC) counts
 * at the TSC's rate while the processor is not halted (REF-1): over each
 * loop the counter's delta equals the TSC's within REF_TOLERANCE.
 *
 * prog.refcycles.gp: a general-purpose counter on UnHalted Reference
 * Cycles (3CH/01H) counts at a fixed frequency, which the SDM leaves to
 * the model (REF-2): its delta over the TSC's is the same over both loops
 * within REF_TOLERANCE. The ratio itself is reported, not judged.
 *
 * A counter of instructions or of core cycles fails both: its count per
 * TSC tick follows the loop. A run disturbed between the TSC's read and
 * the counter's window (a host preempting an emulator there), or a short
 * run that took longer than the long one, could make one attempt
 * disagree, so each check makes up to REF_ATTEMPTS, and fails only where
 * none agrees.
 */
#include "exec.h"
#include "harness.h"
#include "prog_measure.h"
#include "rdpmc_check.h"

#define REF_TOLERANCE_PERCENT	2
#define REF_ATTEMPTS		3
#define PPM			1000000ull

enum { CASE_FIXED, CASE_GP, CASES };

/* The runs' lengths: the extra iterations take about a millisecond of
 * the known loop on a processor, 5 MB of REP STOSB, and longer under an
 * emulator. */
static const struct {
	const char *name;
	enum prog_workload workload;
	uint64_t shorter, longer;
} loops[] = {
	{ "the known loop", PROG_KNOWN_LOOP, 10000, 1010000 },
	{ "the string loop", PROG_STRING_LOOP, 100, 10100 },
};

#define LOOPS (sizeof(loops) / sizeof(loops[0]))

_Static_assert(REF_ATTEMPTS == 3, "the failure messages give three attempts");

static void describe(unsigned i, struct test_text *t)
{
	strbuf_puts(&t->id, i == CASE_FIXED ? "prog.refcycles.fixed"
					    : "prog.refcycles.gp");
	strbuf_puts(&t->statements, i == CASE_FIXED ? "REF-1 PROG-5"
						    : "REF-2 PROG-1 PROG-4");
	strbuf_puts(&t->description, i == CASE_FIXED
		    ? "fixed counter 2 counts the TSC's ticks over two loops"
		    : "3CH/01H counts at one fixed rate against the TSC over two loops");
}

/* 2% of x, at least 1. */
static uint64_t tolerance(uint64_t x)
{
	return x * REF_TOLERANCE_PERCENT / 100 + 1;
}

static uint64_t distance(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/* A pair of runs with nothing to judge: the short one took longer. */
static bool disturbed(const struct prog_timed *t, unsigned w,
		      struct strbuf *said)
{
	if (!t[w].disturbed)
		return false;
	strbuf_printf(said, "%s%s: the TSC advanced %llu over the short run and %llu over the long one, disturbed",
		      w ? "; " : "", loops[w].name,
		      (unsigned long long)t[w].tsc_short,
		      (unsigned long long)t[w].tsc_long);
	return true;
}

/* REF-1: each loop's count is its TSC delta. */
static bool fixed_agrees(const struct prog_timed *t, struct strbuf *said)
{
	bool agrees = true;

	for (unsigned w = 0; w < LOOPS; w++) {
		bool ok;

		if (disturbed(t, w, said)) {
			agrees = false;
			continue;
		}
		ok = distance(t[w].count, t[w].tsc) <= tolerance(t[w].tsc);

		agrees &= ok;
		strbuf_printf(said, "%s%s, %llu more iterations: counted %llu, the TSC advanced %llu (%s 2%%)",
			      w ? "; " : "", loops[w].name,
			      (unsigned long long)(loops[w].longer - loops[w].shorter),
			      (unsigned long long)t[w].count,
			      (unsigned long long)t[w].tsc,
			      ok ? "within" : "off by more than");
	}
	return agrees;
}

/* REF-2: one ratio to the TSC over both loops, and a count at all. */
static bool gp_agrees(const struct prog_timed *t, struct strbuf *said)
{
	uint64_t ppm[LOOPS];
	bool counted = true;

	for (unsigned w = 0; w < LOOPS; w++) {
		if (disturbed(t, w, said))
			return false;
		ppm[w] = t[w].count * PPM / t[w].tsc;
		counted &= t[w].count > 0;
		strbuf_printf(said, "%s%s, %llu more iterations: counted %llu, the TSC advanced %llu, %llu.%06llu per tick",
			      w ? "; " : "", loops[w].name,
			      (unsigned long long)(loops[w].longer - loops[w].shorter),
			      (unsigned long long)t[w].count,
			      (unsigned long long)t[w].tsc,
			      (unsigned long long)(ppm[w] / PPM),
			      (unsigned long long)(ppm[w] % PPM));
	}
	return counted &&
	       distance(ppm[0], ppm[1]) <= tolerance(ppm[0] > ppm[1] ? ppm[0] : ppm[1]);
}

static void run(unsigned i)
{
	char text[160], said[REF_ATTEMPTS][320];
	struct strbuf why, s[REF_ATTEMPTS];
	struct prog_counter c;
	struct prog_timed t[LOOPS];

	strbuf_init(&why, text, sizeof(text));
	if (!(i == CASE_FIXED
	      ? prog_fixed_counter(check_pmu(), 2, &c, &why)
	      : prog_gp_counter(check_pmu(), &prog_events[PROG_REF_CYCLES], 0,
				&c, &why))) {
		test_skip("%s", text);
		return;
	}
	if (!prog_usable_or_skip(&c))
		return;
	for (unsigned a = 0; a < REF_ATTEMPTS; a++) {
		strbuf_init(&s[a], said[a], sizeof(said[a]));
		for (unsigned w = 0; w < LOOPS; w++) {
			struct prog_run r = {
				prog_enables(&c, FILTER_OS | FILTER_USR), 0,
				false, 0, 0, loops[w].workload,
			};

			if (!prog_measure_timed(&c, &r, loops[w].shorter,
						loops[w].longer, &t[w], &why)) {
				test_fail("%s", text);
				return;
			}
		}
		if (i == CASE_FIXED ? fixed_agrees(t, &s[a]) : gp_agrees(t, &s[a])) {
			test_note("%s, long run less short, at CPL 0: %s",
				  c.name, said[a]);
			return;
		}
	}
	if (i == CASE_FIXED)
		test_fail("REF-1: %s (fixed counter 2, CPU_CLK_UNHALTED.REF_TSC) must count the TSC's ticks while not halted: expected its count within 2%% of the TSC's advance over each loop's extra iterations at CPL 0; observed in %u attempts: %s | %s | %s",
			  c.name, REF_ATTEMPTS, said[0], said[1], said[2]);
	else
		test_fail("REF-2: %s on UnHalted Reference Cycles (3CH/01H) must count at one fixed rate: expected a count, and its count per TSC tick the same within 2%% over each loop's extra iterations at CPL 0; observed in %u attempts: %s | %s | %s",
			  c.name, REF_ATTEMPTS, said[0], said[1], said[2]);
}

static const struct suite prog_refcycles = { 0, CASES, describe, run };
REGISTER_SUITE(prog_refcycles);
