#include "prog_measure.h"

#include "counters.h"
#include "exec.h"
#include "harness.h"

/* The overflow run of prog_overflow(), for c. */
static struct prog_run overflow_run(const struct prog_counter *c,
				    uint64_t control)
{
	return (struct prog_run){
		prog_enables(c, FILTER_OS | FILTER_USR) | control,
		/* A plain IA32_PMCx write sign-extends bit 31 (PROG-5), so the
		 * same value presets every kind of counter. */
		width_mask(c->width) - PROG_OVERFLOW_MARGIN + 1,
		false, 0, PROG_SHORT_LOOP, PROG_KNOWN_LOOP,
	};
}

bool prog_overflow(struct prog_counter *c, uint64_t control, uint64_t *count,
		   struct strbuf *why)
{
	struct prog_run r = overflow_run(c, control);

	return prog_run(c, &r, count, why);
}

bool prog_overflow_armed(struct prog_counter *c, uint64_t control,
			 void (*armed)(void), uint64_t *count,
			 struct strbuf *why)
{
	struct prog_run r = overflow_run(c, control);

	return prog_run_armed(c, &r, armed, count, why);
}

bool prog_measure_run(struct prog_counter *c, const struct prog_run *r,
		      struct prog_delta *d, struct strbuf *why)
{
	struct prog_run shorter = *r, longer = *r;

	shorter.iterations = PROG_SHORT_LOOP;
	longer.iterations = PROG_LONG_LOOP;
	return prog_run(c, &shorter, &d->short_count, why) &&
	       prog_run(c, &longer, &d->long_count, why);
}

bool prog_measure_run_or_fail(struct prog_counter *c, const struct prog_run *r,
			      struct prog_delta *d)
{
	char text[160];
	struct strbuf why;

	strbuf_init(&why, text, sizeof(text));
	if (prog_measure_run(c, r, d, &why))
		return true;
	test_fail("%s", text);
	return false;
}

bool prog_measure(struct prog_counter *c, unsigned filter, unsigned cpl,
		  struct prog_delta *d, struct strbuf *why)
{
	struct prog_run r = { prog_enables(c, filter), 0, false, cpl, 0,
			      PROG_KNOWN_LOOP };

	return prog_measure_run(c, &r, d, why);
}

/* One run of r with `iterations`: its count and the TSC's delta. */
static bool timed_run(struct prog_counter *c, const struct prog_run *r,
		      uint64_t iterations, uint64_t *count, uint64_t *tsc,
		      struct strbuf *why)
{
	struct prog_run run = *r;
	uint64_t before;
	bool done;

	run.iterations = iterations;
	before = exec_rdtsc();
	done = prog_run(c, &run, count, why);
	*tsc = exec_rdtsc() - before;
	return done;
}

bool prog_measure_timed(struct prog_counter *c, const struct prog_run *r,
			uint64_t shorter, uint64_t longer,
			struct prog_timed *t, struct strbuf *why)
{
	uint64_t count_short, count_long, tsc_short, tsc_long;

	/* A run before the two, not kept: the first pass of this code
	 * under an emulator translates it, in the gap between the TSC's read
	 * and the counter's window, and would lengthen the short run's. */
	if (!timed_run(c, r, shorter, &count_short, &tsc_short, why) ||
	    !timed_run(c, r, shorter, &count_short, &tsc_short, why) ||
	    !timed_run(c, r, longer, &count_long, &tsc_long, why))
		return false;
	t->tsc_short = tsc_short;
	t->tsc_long = tsc_long;
	t->disturbed = (int64_t)(tsc_long - tsc_short) <= 0;
	t->count = count_long - count_short;
	t->tsc = t->disturbed ? 0 : tsc_long - tsc_short;
	return true;
}

bool prog_measure_cycles(struct prog_counter *c, struct prog_delta *d,
			 struct strbuf *why)
{
	for (unsigned a = 0; a < PROG_ADVANCE_ATTEMPTS; a++) {
		if (!prog_measure(c, FILTER_OS | FILTER_USR, 0, d, why))
			return false;
		if (d->long_count > d->short_count)
			break;
	}
	return true;
}

uint64_t prog_tolerance(uint64_t expected)
{
	return expected / 1000 + 2;
}

void prog_expect_count(const struct prog_counter *c, const char *what,
		       const struct prog_delta *d, uint64_t per_iteration)
{
	uint64_t expected = per_iteration * PROG_LOOP_DELTA;
	uint64_t tolerance = prog_tolerance(expected);
	/* Signed: around a count of 0, noise may make the long run count
	 * one less than the short one. */
	int64_t delta = (int64_t)(d->long_count - d->short_count);
	int64_t off = delta - (int64_t)expected;

	if (per_iteration && d->long_count == 0) {
		test_fail("%s holds written values but did not advance when enabled: %s read 0 after %llu iterations",
			  c->name, what, PROG_LONG_LOOP);
		return;
	}
	if (off > (int64_t)tolerance || off < -(int64_t)tolerance) {
		test_fail("%s: %s counted %lld more over %llu more iterations; expected %llu +- %llu (counts %llu and %llu)",
			  c->name, what, (long long)delta, PROG_LOOP_DELTA,
			  (unsigned long long)expected,
			  (unsigned long long)tolerance,
			  (unsigned long long)d->short_count,
			  (unsigned long long)d->long_count);
		return;
	}
	test_note("%s: %s counted %lld more over %llu more iterations (expected %llu +- %llu)",
		  c->name, what, (long long)delta, PROG_LOOP_DELTA,
		  (unsigned long long)expected, (unsigned long long)tolerance);
}

void prog_expect_advance(const struct prog_counter *c, const char *what,
			 const struct prog_delta *d)
{
	if (d->long_count == 0)
		test_fail("%s holds written values but did not advance when enabled: %s read 0 after %llu iterations",
			  c->name, what, PROG_LONG_LOOP);
	else if (d->long_count <= d->short_count)
		test_fail("%s: %s did not advance more over %llu iterations (%llu) than over %llu (%llu)",
			  c->name, what, PROG_LONG_LOOP,
			  (unsigned long long)d->long_count, PROG_SHORT_LOOP,
			  (unsigned long long)d->short_count);
	else
		test_note("%s: %s %llu over %llu iterations, %llu over %llu",
			  c->name, what, (unsigned long long)d->short_count,
			  PROG_SHORT_LOOP, (unsigned long long)d->long_count,
			  PROG_LONG_LOOP);
}

void prog_expect_rings(struct prog_counter *c, unsigned cpl)
{
	char text[120];
	struct strbuf why;
	struct prog_delta usr, os;

	strbuf_init(&why, text, sizeof(text));
	if (!prog_measure(c, FILTER_USR, cpl, &usr, &why) ||
	    !prog_measure(c, FILTER_OS, cpl, &os, &why)) {
		test_fail("%s", text);
		return;
	}
	/* PROG-2: OS counts CPL 0, USR counts CPL 1, 2 and 3. */
	prog_expect_count(c, "USR only", &usr,
			  cpl == 0 ? 0 : KNOWN_LOOP_INSTRUCTIONS);
	prog_expect_count(c, "OS only", &os,
			  cpl == 0 ? KNOWN_LOOP_INSTRUCTIONS : 0);
}

bool prog_window_bounded(const struct prog_counter *c,
			 const struct prog_window *w)
{
	uint64_t tolerance = prog_tolerance(w->enabling);
	int64_t off = (int64_t)(w->running - w->enabling);

	if (off <= (int64_t)tolerance && off >= -(int64_t)tolerance) {
		test_note("%s: %llu counted after a write of 0 while counting, %llu after the enabling WRMSR",
			  c->name, (unsigned long long)w->running,
			  (unsigned long long)w->enabling);
		return true;
	}
	test_fail("WR-2: %s written with 0 while counting, then 1 iteration: reads %llu; expected %llu +- %llu, what the same path counts after the WRMSR that starts the stopped counter: the write of the running counter added %lld",
		  c->name, (unsigned long long)w->running,
		  (unsigned long long)w->enabling,
		  (unsigned long long)tolerance, (long long)off);
	return false;
}
