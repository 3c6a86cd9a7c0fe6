/*
 * data.order.cpl<0|3>: ENC-2. RDPMC is not serializing, but reads of a
 * running counter separated by CPUID never decrease. Counter 0 counts an
 * architectural event at every CPL (Intel: unhalted core cycles, else
 * instructions retired, PROG-4; AMD: PMCx076 "cycles not in halt", the one
 * cycle event of every AMD family); READS RDPMCs run in one batch with a
 * CPUID between each two (exec_rdpmc_batch), and the counter must advance.
 * The #GP(0) half: RDPMC of the first general-purpose index past it.
 * Where counter 0 does not hold a written value, it cannot be programmed:
 * the test SKIPs naming prog.write.stopped, which reports that.
 */
#include "check_context.h"
#include "counters.h"
#include "harness.h"
#include "prog_counter.h"
#include "rdpmc_check.h"
#include "sweep.h"

#define READS 256

static void describe(unsigned i, struct test_text *t)
{
	strbuf_printf(&t->id, "data.order.%s", check_context_name(i));
	strbuf_puts(&t->statements, "ENC-2 PROG-1 PROG-4");
	strbuf_puts(&t->description,
		    "RDPMCs of a running counter with CPUID between them never decrease");
}

static void check_reads(const struct exec_state *s, const struct counter *c,
			const struct exec_outcome *o)
{
	struct rdpmc_case rc = { *s, c->ecx, SENTINEL_RAX, SENTINEL_RDX };
	struct sweep sw = { 0 };
	uint64_t first = 0, last = 0;
	unsigned decreases = 0;

	for (unsigned k = 0; k < READS; k++) {
		uint64_t value = edx_eax(&o[k]);

		if (!sweep_outcome(&sw, &rc, &o[k]))
			continue;
		if (k == 0)
			first = value;
		else if (value < last && ++decreases <= 4)
			test_fail("read %u: 0x%llx < read %u: 0x%llx with CPUID between them (ENC-2)",
				  k, (unsigned long long)value, k - 1,
				  (unsigned long long)last);
		last = value;
	}
	if (sw.mismatches) {
		sweep_finish(&sw, "reads");
		return;
	}
	if (decreases)
		test_fail("%u of %u reads decreased", decreases, READS - 1);
	else if (last == first)
		test_fail("the counter stayed at 0x%llx over %u reads: it does not count (PROG-1), so ENC-2 is not observed",
			  (unsigned long long)first, READS);
	else
		test_note("%u reads from 0x%llx to 0x%llx, never decreasing",
			  READS, (unsigned long long)first,
			  (unsigned long long)last);
}

static void run(unsigned i)
{
	static uint64_t rcx[READS];
	static struct exec_outcome outcomes[READS];
	const struct exec_state *s = check_context(i);
	char text[200];
	struct strbuf why;
	struct counter c;
	uint64_t event;

	strbuf_init(&why, text, sizeof(text));
	if (!check_context_usable(s))
		return;
	check_invalid_encoding(s, ECX_TYPE_GP);
	event = prog_cycle_event(&why);
	if (!event) {
		test_skip("%s", text);
		return;
	}
	if (model_counters_of(counter_is_gp, &c, 1) == 0 || c.ecx != 0) {
		test_skip("the model knows no general-purpose counter 0 here");
		return;
	}
	if (!prog_writes_hold(false))
		return;
	if (!prog_start_counter(&c, event, 0, &why)) {
		test_fail("starting counter 0: %s", text);
		return;
	}
	for (unsigned k = 0; k < READS; k++)
		rcx[k] = c.ecx;
	exec_rdpmc_batch(s, SENTINEL_RAX, SENTINEL_RDX, rcx, READS, true,
			 outcomes);
	if (!prog_clear_all(&why))
		test_fail("stopping and clearing counter 0: %s", text);
	check_reads(s, &c, outcomes);
}

static const struct suite data_order = { 0, CHECK_CONTEXTS, describe, run };
REGISTER_SUITE(data_order);
