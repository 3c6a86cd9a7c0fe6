/*
 * prog.stop.*: clearing the enable of one counter stops that counter alone
 * and keeps its count (PROG-9). Every general-purpose counter (every fixed
 * counter) counts the known loop; then, each in turn, one has its enable
 * cleared (IA32_PERFEVTSELx.EN, AMD PerfEvtSeln.En; the ring enables of its
 * field of IA32_FIXED_CTR_CTRL) while the others go on: over the next loop
 * the stopped one must not change by a single event, the others must count
 * the loop in full. Between the stop and the last read the others also
 * count the harness's own instructions (the reads and the stopping
 * WRMSRs), as a processor does: each stop is run twice, with the short
 * and the long loop after it, and the difference is the loop's own count
 * (tests/lib/prog_measure.h).
 */
#include "exec.h"
#include "harness.h"
#include "msr_access.h"
#include "msr.h"
#include "prog_counter.h"
#include "prog_measure.h"
#include "rdpmc_check.h"

#define MAX_STOP	32

enum { CASE_GP, CASE_FIXED, CASES };

static void describe(unsigned i, struct test_text *t)
{
	strbuf_puts(&t->id, i == CASE_GP ? "prog.stop.gp" : "prog.stop.fixed");
	strbuf_puts(&t->statements, i == CASE_GP ? "PROG-9 PROG-6 PROG-1"
						 : "PROG-9 PROG-5 PROG-6");
	strbuf_puts(&t->description, i == CASE_GP
		    ? "clearing EN of one GP counter stops it alone; it keeps its count"
		    : "clearing the field of one fixed counter stops it alone; it keeps its count");
}

struct set {
	struct prog_counter c[MAX_STOP];
	uint64_t on[MAX_STOP];		/* its control bits while counting */
	unsigned n;
	uint32_t control_msr;		/* shared by fixed counters; 0: own */
	bool first_broken;		/* counter 0 does not hold a write */
};

/* Every usable counter of the case; false with why if there is none. */
static bool gather(unsigned i, struct set *s, struct strbuf *why)
{
	const struct pmu_info *pmu = check_pmu();
	char text[160];
	struct strbuf not_this;

	s->n = 0;
	s->first_broken = false;
	s->control_msr = i == CASE_FIXED ? MSR_IA32_FIXED_CTR_CTRL : 0;
	for (unsigned x = 0; x < MAX_STOP; x++) {
		struct prog_counter *c = &s->c[s->n];
		struct strbuf *reason = x ? &not_this : why;	/* the first one's */

		strbuf_init(&not_this, text, sizeof(text));
		if (i == CASE_GP
		    ? !prog_gp_counter(pmu, &prog_events[PROG_INSTRUCTIONS], x,
				       c, reason)
		    : !prog_fixed_counter(pmu, x, c, reason))
			continue;
		if (!prog_counter_usable(c, reason)) {
			s->first_broken |= x == 0;
			continue;
		}
		s->on[s->n++] = prog_enables(c, FILTER_OS | FILTER_USR);
	}
	if (s->n < 2 && !why->len)
		strbuf_puts(why, "one counter only: nothing else to go on counting");
	return s->n >= 2;
}

/* The control of counter k with `on` for the ones in mask (fixed: the
 * whole shared register). */
static bool write_controls(const struct set *s, uint32_t running,
			   struct strbuf *why)
{
	uint64_t shared = 0;

	for (unsigned k = 0; k < s->n; k++) {
		uint64_t on = (running >> k & 1) ? s->on[k] : 0;

		if (s->control_msr)
			shared |= on;
		else if (!msr_write(s->c[k].control_msr, s->c[k].control_off | on, why))
			return false;
	}
	return !s->control_msr || msr_write(s->control_msr, shared, why);
}

static uint64_t gate_bits(const struct set *s)
{
	uint64_t bits = 0;

	for (unsigned k = 0; k < s->n; k++)
		bits |= s->c[k].global_bit;
	return bits;
}

/* What each counter read when `stopped` was stopped (mid) and at the end. */
struct reads {
	uint64_t mid[MAX_STOP], end[MAX_STOP];
};

/* Everything counting from 0 over the short loop, counter `stopped` then
 * stopped alone and read (mid), `iterations` of the loop, everything
 * stopped and read (end). */
static bool run_stopping(const struct set *s, unsigned stopped,
			 uint64_t iterations, struct reads *r,
			 struct strbuf *why)
{
	uint64_t *mid = r->mid, *end = r->end;
	const struct prog_counter *c0 = &s->c[0];
	uint32_t all = (1u << s->n) - 1;
	bool ok = write_controls(s, 0, why);

	if (ok && c0->global_msr)
		ok = msr_write(c0->global_msr, c0->global_saved | gate_bits(s), why);
	for (unsigned k = 0; ok && k < s->n; k++)
		ok = msr_write(s->c[k].count_msr, 0, why);
	ok = ok && write_controls(s, all, why);
	if (ok)
		exec_known_loop(0, PROG_SHORT_LOOP);
	/* PROG-9: EN alone cleared (USR and OS kept); a fixed field cleared. */
	if (ok && s->control_msr)
		ok = write_controls(s, all & ~(1u << stopped), why);
	else if (ok)
		ok = msr_write(s->c[stopped].control_msr, s->c[stopped].control_off |
			       (s->on[stopped] & ~EVTSEL_EN), why);
	for (unsigned k = 0; ok && k < s->n; k++)
		ok = msr_read(s->c[k].count_msr, &mid[k], why);
	if (ok)
		exec_known_loop(0, iterations);
	ok = ok && write_controls(s, 0, why);
	for (unsigned k = 0; ok && k < s->n; k++)	/* then left cleared */
		ok = msr_read(s->c[k].count_msr, &end[k], why) &&
		     msr_write(s->c[k].count_msr, 0, why);
	if (c0->global_msr)
		msr_write(c0->global_msr, c0->global_saved, why);
	return ok;
}

/* What the others must have counted over the loop after the stop: fixed
 * counter 0 and GP counters of instructions exactly, the long loop's
 * count less the short one's; fixed counters 1-3 (cycles, slots) must
 * advance; the events of fixed counters 4 and up are model-specific. */
static void expect_running(const struct set *s, unsigned k,
			   const struct reads *shorter,
			   const struct reads *longer, unsigned stopped)
{
	const struct prog_counter *c = &s->c[k];
	unsigned fixed = c->count_msr - MSR_IA32_FIXED_CTR0;
	uint64_t expected = KNOWN_LOOP_INSTRUCTIONS * PROG_LOOP_DELTA;
	uint64_t tolerance = prog_tolerance(expected);
	uint64_t short_count = shorter->end[k] - shorter->mid[k];
	uint64_t long_count = longer->end[k] - longer->mid[k];
	int64_t delta = (int64_t)(long_count - short_count);
	int64_t off = delta - (int64_t)expected;

	if (s->control_msr && fixed >= 1) {
		if (fixed <= 3 && longer->end[k] <= longer->mid[k])
			test_fail("PROG-9: with %s stopped, %s did not advance over %llu iterations (0x%llx, then 0x%llx)",
				  s->c[stopped].name, c->name, PROG_LONG_LOOP,
				  (unsigned long long)longer->mid[k],
				  (unsigned long long)longer->end[k]);
		return;
	}
	if (off > (int64_t)tolerance || off < -(int64_t)tolerance)
		test_fail("PROG-9: with %s stopped, %s counted %lld more over %llu more iterations; expected %llu +- %llu (%llu over %llu, %llu over %llu)",
			  s->c[stopped].name, c->name, (long long)delta,
			  PROG_LOOP_DELTA, (unsigned long long)expected,
			  (unsigned long long)tolerance,
			  (unsigned long long)short_count, PROG_SHORT_LOOP,
			  (unsigned long long)long_count, PROG_LONG_LOOP);
}

static void run(unsigned i)
{
	char text[160];
	struct strbuf why;
	struct set s;
	struct reads shorter, longer;

	strbuf_init(&why, text, sizeof(text));
	if (!gather(i, &s, &why)) {
		prog_skip_unusable(s.first_broken ? PROG_BROKEN : PROG_ABSENT, text);
		return;
	}
	for (unsigned stopped = 0; stopped < s.n; stopped++) {
		if (!run_stopping(&s, stopped, PROG_SHORT_LOOP, &shorter, &why) ||
		    !run_stopping(&s, stopped, PROG_LONG_LOOP, &longer, &why)) {
			test_fail("%s", text);
			return;
		}
		if (longer.end[stopped] != longer.mid[stopped])
			test_fail("PROG-9: %s went on from 0x%llx to 0x%llx over %llu iterations after its enable was cleared",
				  s.c[stopped].name,
				  (unsigned long long)longer.mid[stopped],
				  (unsigned long long)longer.end[stopped],
				  PROG_LONG_LOOP);
		if (longer.mid[stopped] == 0 && (!s.control_msr || stopped == 0))
			test_fail("PROG-9: %s read 0 when stopped after counting %llu iterations: it lost its count",
				  s.c[stopped].name, PROG_SHORT_LOOP);
		for (unsigned k = 0; k < s.n; k++)
			if (k != stopped)
				expect_running(&s, k, &shorter, &longer, stopped);
	}
	if (!test_has_failed())
		test_note("%u counters, each stopped alone in turn", s.n);
}

static const struct suite prog_stop = { 0, CASES, describe, run };
REGISTER_SUITE(prog_stop);
