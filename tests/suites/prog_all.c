/*
 * prog.all: every general-purpose counter and fixed counter 0, programmed
 * for instructions retired, count the known loop at the same time, each
 * exactly (PROG-7): no counter is lost to another, or to the host.
 */
#include "harness.h"
#include "prog_measure.h"
#include "rdpmc_check.h"

#define MAX_AT_ONCE 33	/* 32 GP indices and fixed counter 0 */

/* Every usable counter of instructions retired; what is wrong with the
 * first GP counter, in why, if it is absent or broken (no counter at all
 * to check). */
static enum prog_probe gather(struct prog_counter *all, unsigned *n,
			      struct strbuf *why)
{
	const struct pmu_info *pmu = check_pmu();
	char text[160];
	struct strbuf not_this;

	*n = 0;
	for (unsigned x = 0; x < 32; x++) {
		strbuf_init(&not_this, text, sizeof(text));
		if (!prog_gp_counter(pmu, &prog_events[PROG_INSTRUCTIONS], x,
				     &all[*n], x ? &not_this : why)) {
			if (x == 0)
				return PROG_ABSENT;
		} else if (prog_counter_usable(&all[*n], x ? &not_this : why)) {
			(*n)++;
		} else if (x == 0) {
			return PROG_BROKEN;
		}
	}
	strbuf_init(&not_this, text, sizeof(text));
	if (prog_fixed_counter(pmu, 0, &all[*n], &not_this) &&
	    prog_counter_usable(&all[*n], &not_this))
		(*n)++;
	return PROG_USABLE;
}

SINGLE_TEST(prog_all, 0, "prog.all", "PROG-7 PROG-1 PROG-5",
	    "every GP counter and fixed counter 0 count the loop's instructions at once")
{
	char text[160];
	struct strbuf why;
	struct prog_counter all[MAX_AT_ONCE];
	uint64_t control[MAX_AT_ONCE], short_count[MAX_AT_ONCE], long_count[MAX_AT_ONCE];
	struct prog_run r = { 0, 0, false, 0, PROG_SHORT_LOOP, PROG_KNOWN_LOOP };
	unsigned n;
	enum prog_probe probe;

	(void)i;
	strbuf_init(&why, text, sizeof(text));
	probe = gather(all, &n, &why);
	if (probe != PROG_USABLE) {
		prog_skip_unusable(probe, text);
		return;
	}
	for (unsigned k = 0; k < n; k++)
		control[k] = prog_enables(&all[k], FILTER_OS | FILTER_USR);
	if (!prog_run_many(all, n, control, &r, short_count, &why)) {
		test_fail("%s", text);
		return;
	}
	r.iterations = PROG_LONG_LOOP;
	if (!prog_run_many(all, n, control, &r, long_count, &why)) {
		test_fail("%s", text);
		return;
	}
	test_note("%u counters at once", n);
	for (unsigned k = 0; k < n; k++) {
		struct prog_delta d = { short_count[k], long_count[k] };

		prog_expect_count(&all[k], "instructions, all counters on", &d,
				  KNOWN_LOOP_INSTRUCTIONS);
	}
}
