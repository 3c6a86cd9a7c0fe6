/*
 * prog.write.stopped: a stopped counter holds the value written to it
 * (PROG-3: the counter is written while EN is clear; WR-1: the write sets
 * it). Every general-purpose and fixed counter the PMU enumerates, each
 * written and read back with RDMSR (prog_counter_usable()).
 *
 * This test owns the deviation: every other test that needs a counter to
 * hold what it writes (the counting groups prog, ovf, pmi, exit, and
 * data.rdmsr, data.width, data.order, msr.reset, amd.evtsel) observes its
 * counter itself and SKIPs naming this test (prog_counter.h), so a
 * hypervisor that drops the writes fails here once.
 */
#include "harness.h"
#include "prog_counter.h"
#include "rdpmc_check.h"

#define MAX_INDEX 32

/* Probes counter `index` of one kind into the tallies; false once there
 * is no such counter. */
static bool probe(bool fixed, unsigned index, unsigned *usable,
		  unsigned *broken)
{
	const struct pmu_info *pmu = check_pmu();
	char text[160];
	struct strbuf why;
	struct prog_counter c;

	strbuf_init(&why, text, sizeof(text));
	if (!(fixed ? prog_fixed_counter(pmu, index, &c, &why)
		    : prog_gp_counter(pmu, &prog_events[PROG_INSTRUCTIONS],
				      index, &c, &why)))
		return false;
	if (prog_counter_usable(&c, &why)) {
		++*usable;
	} else if (++*broken == 1) {
		test_fail("%s (PROG-3, WR-1)", text);
	} else {
		test_note("%s", text);
	}
	return true;
}

SINGLE_TEST(prog_write, 0, PROG_WRITE_OWNER, "PROG-3 WR-1",
	    "every stopped counter holds a value written to it")
{
	char text[160];
	struct strbuf why;
	struct prog_counter c;
	unsigned usable = 0, broken = 0;

	(void)i;
	for (unsigned fixed = 0; fixed < 2; fixed++)
		for (unsigned x = 0; x < MAX_INDEX; x++)
			if (!probe(fixed, x, &usable, &broken))
				break;
	if (broken > 1)
		test_fail("%u of %u counters do not hold a written value", broken,
			  usable + broken);
	else if (usable + broken == 0) {
		strbuf_init(&why, text, sizeof(text));
		prog_gp_counter(check_pmu(), &prog_events[PROG_INSTRUCTIONS], 0,
				&c, &why);
		test_skip("%s", text);
	} else if (!broken)
		test_note("%u counters hold a written value", usable);
}
