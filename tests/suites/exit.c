/*
 * exit.*: instructions a hypervisor may intercept and complete itself
 * retire like any other (EXIT-1). A loop of CPUID, RDMSR or IN is counted
 * exactly by instructions retired in the ring it ran in and not in the
 * other, by fixed counter 0, and by branches retired only for its jnz;
 * with CMASK = 255 none of it counts (EXIT-2); and a counter written near
 * its top by a sign-extended IA32_PMCx write overflows once, where the
 * arithmetic says (OVF-6).
 */
#include "exec.h"
#include "harness.h"
#include "msr_access.h"
#include "pmi_arm.h"
#include "msr.h"
#include "prog_counter.h"
#include "prog_measure.h"
#include "rdpmc_check.h"

/* Two runs of the exiting loop; their difference is the loop's own count.
 * Fewer iterations than the known loop's: every one may be a VM exit. */
#define EXIT_SHORT	100ull
#define EXIT_LONG	1100ull
#define EXIT_DELTA	(EXIT_LONG - EXIT_SHORT)

/* exit.cpuid.overflow: a run counts its loop and the harness's own
 * instructions between the enabling and the stopping WRMSR (calls, the
 * MSR accesses, the interrupt window), as a processor does. A run of
 * BELOW_RUN iterations from 0 measures that window; the counter then
 * starts OVERFLOW_ROOM events more than it below its top, so the same run
 * stays below the top and a run of ACROSS_RUN iterations crosses it. The
 * room is far more than two runs of one window differ by (the tolerance
 * of an exact count) and less than the loop of the run across. */
#define BELOW_RUN	25ull
#define ACROSS_RUN	100ull
#define OVERFLOW_ROOM	(35 * EXITING_LOOP_INSTRUCTIONS)
/* Below the top by no more than this, a preset written through IA32_PMCx
 * is sign-extended from bit 31 (PROG-5). */
#define SIGN_EXTENDED	(1ull << 31)

enum check { RINGS, FIXED, BRANCHES, CMASK, OVERFLOW };

static const struct {
	const char *id;
	enum prog_workload workload;
	unsigned cpl;
	enum check check;
	const char *statements;
	const char *description;
} cases[] = {
	{ "exit.cpuid.cpl0", PROG_CPUID_LOOP, 0, RINGS, "EXIT-1 PROG-2 PROG-4",
	  "CPUID at CPL 0 counts as retired instructions with OS, not with USR" },
	{ "exit.cpuid.cpl3", PROG_CPUID_LOOP, 3, RINGS, "EXIT-1 PROG-2 PROG-4",
	  "CPUID at CPL 3 counts as retired instructions with USR, not with OS" },
	{ "exit.rdmsr.cpl0", PROG_RDMSR_LOOP, 0, RINGS, "EXIT-1 PROG-2 PROG-4",
	  "RDMSR counts as a retired instruction with OS, not with USR" },
	{ "exit.in.cpl0", PROG_PORT_IN_LOOP, 0, RINGS, "EXIT-1 PROG-2 PROG-4",
	  "IN from port 80H counts as a retired instruction with OS, not with USR" },
	{ "exit.in.cmask", PROG_PORT_IN_LOOP, 0, CMASK, "EXIT-2 PROG-8",
	  "CMASK = 255 counts no IN: no cycle retires 255 instructions" },
	{ "exit.cpuid.fixed", PROG_CPUID_LOOP, 0, FIXED, "EXIT-1 PROG-5",
	  "fixed counter 0 counts CPUID as a retired instruction" },
	{ "exit.cpuid.branches", PROG_CPUID_LOOP, 0, BRANCHES, "EXIT-1 PROG-4",
	  "branches retired counts the loop's jnz, not CPUID" },
	{ "exit.cpuid.cmask", PROG_CPUID_LOOP, 0, CMASK, "EXIT-2 PROG-8",
	  "CMASK = 255 counts no CPUID: no cycle retires 255 instructions" },
	{ "exit.cpuid.overflow", PROG_CPUID_LOOP, 0, OVERFLOW,
	  "OVF-6 EXIT-1 OVF-1 PMI-1 PROG-5",
	  "a counter written near its top by a sign-extended write overflows once, at the top, over CPUID" },
};

#define CASES (sizeof(cases) / sizeof(cases[0]))

static void describe(unsigned i, struct test_text *t)
{
	strbuf_puts(&t->id, cases[i].id);
	strbuf_puts(&t->statements, cases[i].statements);
	strbuf_puts(&t->description, cases[i].description);
}

static const char *insn_name(enum prog_workload w)
{
	return w == PROG_RDMSR_LOOP ? "RDMSR"
	       : w == PROG_PORT_IN_LOOP ? "IN" : "CPUID";
}

/* The two runs with control; false (the test failed) if one faulted. */
static bool measure(struct prog_counter *c, unsigned i, uint64_t control,
		    struct prog_delta *d)
{
	char text[160];
	struct strbuf why;
	struct prog_run r = { control, 0, false, cases[i].cpl, EXIT_SHORT,
			      cases[i].workload };

	strbuf_init(&why, text, sizeof(text));
	if (!prog_run(c, &r, &d->short_count, &why))
		goto failed;
	r.iterations = EXIT_LONG;
	if (!prog_run(c, &r, &d->long_count, &why))
		goto failed;
	return true;
failed:
	test_fail("%s", text);
	return false;
}

/* EXIT-1: d's difference is per_iteration for each of EXIT_DELTA more
 * iterations, within the tolerance of an exact count. */
static void expect(const struct prog_counter *c, unsigned i, const char *what,
		   const struct prog_delta *d, uint64_t per_iteration)
{
	uint64_t expected = per_iteration * EXIT_DELTA;
	uint64_t tolerance = prog_tolerance(expected);
	int64_t delta = (int64_t)(d->long_count - d->short_count);
	int64_t off = delta - (int64_t)expected;

	if (off > (int64_t)tolerance || off < -(int64_t)tolerance)
		test_fail("%s: %s counted %lld more over %llu more iterations of the %s loop at CPL %u; expected %llu +- %llu (%u instructions, %u branch each; counts %llu and %llu)",
			  c->name, what, (long long)delta, EXIT_DELTA,
			  insn_name(cases[i].workload), cases[i].cpl,
			  (unsigned long long)expected,
			  (unsigned long long)tolerance,
			  EXITING_LOOP_INSTRUCTIONS, EXITING_LOOP_BRANCHES,
			  (unsigned long long)d->short_count,
			  (unsigned long long)d->long_count);
	else
		test_note("%s: %s counted %lld more over %llu more iterations (expected %llu +- %llu)",
			  c->name, what, (long long)delta, EXIT_DELTA,
			  (unsigned long long)expected,
			  (unsigned long long)tolerance);
}

/* PROG-2 with EXIT-1: USR counts the loop at CPL 1-3, OS at CPL 0. */
static void check_rings(struct prog_counter *c, unsigned i)
{
	unsigned cpl = cases[i].cpl;
	struct prog_delta usr, os;

	if (!measure(c, i, prog_enables(c, FILTER_USR), &usr) ||
	    !measure(c, i, prog_enables(c, FILTER_OS), &os))
		return;
	expect(c, i, "USR only", &usr, cpl ? EXITING_LOOP_INSTRUCTIONS : 0);
	expect(c, i, "OS only", &os, cpl ? 0 : EXITING_LOOP_INSTRUCTIONS);
}

/* The status bit must be `want` after `when`; no status: nothing to see. */
static bool expect_status(const struct prog_counter *c, bool want,
			  const char *when)
{
	char text[120];
	struct strbuf why;
	bool set;

	strbuf_init(&why, text, sizeof(text));
	if (!c->status_msr)
		return true;
	if (!pmi_status_bit(c, &set, &why)) {
		test_fail("%s", text);
		return false;
	}
	if (set != want) {
		test_fail("OVF-6: %s: the overflow bit 0x%llx of %s in %XH is %s",
			  when, (unsigned long long)c->status_bit, c->name,
			  c->status_msr, set ? "set" : "clear");
		return false;
	}
	return true;
}

/* The window of a run of BELOW_RUN iterations, counted from 0: at least
 * its loop (EXIT-1), and little enough for a sign-extended preset to leave
 * it and the room below the top. False (the test failed) otherwise. */
static bool measure_window(struct prog_counter *c, struct prog_run r,
			   uint64_t *window)
{
	uint64_t loop = EXITING_LOOP_INSTRUCTIONS * BELOW_RUN;
	char text[160];
	struct strbuf why;

	strbuf_init(&why, text, sizeof(text));
	r.preset = 0;
	if (!prog_run(c, &r, window, &why)) {
		test_fail("%s", text);
		return false;
	}
	if (*window < loop || *window > SIGN_EXTENDED - OVERFLOW_ROOM) {
		test_fail("EXIT-1: %s counted %llu from 0 over %llu iterations of the CPUID loop; expected its %llu instructions and the harness's around them, fewer than %llu",
			  c->name, (unsigned long long)*window, BELOW_RUN,
			  (unsigned long long)loop,
			  SIGN_EXTENDED - OVERFLOW_ROOM + 1);
		return false;
	}
	return true;
}

/* OVF-6: below the top nothing overflows, across it exactly once. */
static void check_overflow(struct prog_counter *c, unsigned i)
{
	uint64_t top = width_mask(c->width);
	struct prog_run r = {
		prog_enables(c, FILTER_OS | FILTER_USR) | c->enable_int,
		0, false, 0, BELOW_RUN, cases[i].workload,
	};
	uint64_t loop = EXITING_LOOP_INSTRUCTIONS * ACROSS_RUN;
	uint64_t window, harness, below, across, least;
	char text[160];
	struct strbuf why;

	strbuf_init(&why, text, sizeof(text));
	if (!pmi_arm(&why)) {
		test_skip("%s", text);
		return;
	}
	if (!measure_window(c, r, &window))
		goto out;
	harness = window - EXITING_LOOP_INSTRUCTIONS * BELOW_RUN;
	/* Written through IA32_PMCx: sign-extended from bit 31. */
	r.preset = top - (window + OVERFLOW_ROOM) + 1;
	if (!prog_run(c, &r, &below, &why)) {
		test_fail("%s", text);
		goto out;
	}
	if (below < r.preset || pmi_taken() != 0) {
		test_fail("OVF-6: %s from 0x%llx over %llu iterations of the CPUID loop (%llu counted from 0, %llu below its top) reads 0x%llx with %u PMI; expected no overflow yet",
			  c->name, (unsigned long long)r.preset, BELOW_RUN,
			  (unsigned long long)window,
			  (unsigned long long)(window + OVERFLOW_ROOM),
			  (unsigned long long)below, pmi_taken());
		goto out;
	}
	if (!expect_status(c, false, "below the top"))
		goto out;
	r.preset = below;	/* on from where it stopped, written again */
	r.iterations = ACROSS_RUN;
	if (!prog_run(c, &r, &across, &why)) {
		test_fail("%s", text);
		goto out;
	}
	/* OVF-1: past the top it holds what it counted beyond it: at least
	 * the loop less what was left below the top, and less than one loop
	 * more than that and the harness's window (its PMI handler runs in
	 * the window too). */
	least = loop - (top - below + 1);
	if (across < least || across >= least + harness + loop)
		test_fail("OVF-1: %s from 0x%llx over %llu iterations reads 0x%llx; expected it to wrap to %llu..%llu",
			  c->name, (unsigned long long)below, ACROSS_RUN,
			  (unsigned long long)across, (unsigned long long)least,
			  (unsigned long long)(least + harness + loop - 1));
	else if (pmi_taken() != 1 || pmi_interrupts() != 1)
		test_fail("OVF-6: %s wrapped once (to 0x%llx) with INT set: expected 1 PMI at vector 0x%x, observed %u (%u interrupts in all)",
			  c->name, (unsigned long long)across, PMI_VECTOR,
			  pmi_taken(), pmi_interrupts());
	else if (expect_status(c, true, "across the top"))
		test_note("%s: %llu counted from 0 over the run below; no overflow below the top (0x%llx), one across it (0x%llx)",
			  c->name, (unsigned long long)window,
			  (unsigned long long)below,
			  (unsigned long long)across);
out:
	pmi_disarm(c);
}

static void run(unsigned i)
{
	char text[160];
	struct strbuf why;
	struct prog_counter c;
	struct prog_delta d;

	strbuf_init(&why, text, sizeof(text));
	if (cases[i].check == BRANCHES) {
		if (!prog_gp_counter(check_pmu(), &prog_events[PROG_BRANCHES], 0,
				     &c, &why)) {
			test_skip("%s", text);
			return;
		}
		if (!prog_usable_or_skip(&c))
			return;
	} else if (!prog_take_counter(&c, cases[i].check == FIXED)) {
		return;
	}
	switch (cases[i].check) {
	case RINGS:
		check_rings(&c, i);
		break;
	case FIXED:
		if (measure(&c, i, prog_enables(&c, FILTER_OS | FILTER_USR), &d))
			expect(&c, i, "instructions", &d, EXITING_LOOP_INSTRUCTIONS);
		break;
	case BRANCHES:
		if (measure(&c, i, prog_enables(&c, FILTER_OS | FILTER_USR), &d))
			expect(&c, i, "branches", &d, EXITING_LOOP_BRANCHES);
		break;
	case CMASK:
		if (measure(&c, i, prog_enables(&c, FILTER_OS | FILTER_USR) |
				   EVTSEL_CMASK(255), &d))
			expect(&c, i, "instructions with CMASK 255", &d, 0);
		break;
	case OVERFLOW:
		check_overflow(&c, i);
		break;
	}
}

static const struct suite exit_suite = { 0, CASES, describe, run };
REGISTER_SUITE(exit_suite);
