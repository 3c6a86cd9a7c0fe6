/*
 * data.rdmsr.cpl<0|3>: RDPMC and RDMSR read the same counter (PRIV-7), for
 * every counter the model says exists: with the counters stopped, each is
 * written a value of its own (bit 31 clear, so no sign extension, PROG-5),
 * then RDMSR, RDPMC, RDMSR must agree with each other and with the value.
 * The MSR: IA32_PMCx, IA32_FIXED_CTRx, AMD PerfCtrN (counter_msr()).
 * The #GP(0) half: RDPMC of the first general-purpose index past them.
 * Where counter 0 does not hold a written value at all, the test SKIPs
 * naming prog.write.stopped, which reports that.
 */
#include "check_context.h"
#include "counters.h"
#include "harness.h"
#include "msr_access.h"
#include "prog_counter.h"
#include "rdpmc_check.h"

static void describe(unsigned i, struct test_text *t)
{
	strbuf_printf(&t->id, "data.rdmsr.%s", check_context_name(i));
	strbuf_puts(&t->statements, "PRIV-7 PROG-3");
	strbuf_puts(&t->description,
		    "RDPMC of each stopped counter equals RDMSR of its MSR");
}

static void check_counter(const struct exec_state *s, const struct counter *c,
			  uint64_t written)
{
	uint32_t msr = counter_msr(c, false);
	uint64_t before, after, value;
	char text[256];
	struct strbuf why;
	struct rdpmc_case rc = { *s, c->ecx, SENTINEL_RAX, SENTINEL_RDX };
	struct exec_outcome o;

	strbuf_init(&why, text, sizeof(text));
	if (!prog_stop_all(&why) || !msr_write(msr, written, &why) ||
	    !msr_read(msr, &before, &why)) {
		test_fail("ECX %08XH: %s", c->ecx, text);
		return;
	}
	if (!run_rdpmc_case(&rc, &o, &why)) {
		report_rdpmc_mismatch(&rc, &o, text);
		return;
	}
	value = edx_eax(&o);
	if (!msr_read(msr, &after, &why)) {
		test_fail("ECX %08XH: %s", c->ecx, text);
		return;
	}
	if (value != before || value != after)
		test_fail("ECX %08XH: RDPMC = 0x%llx, but RDMSR(%XH) = 0x%llx before and 0x%llx after (PRIV-7)",
			  c->ecx, (unsigned long long)value, msr,
			  (unsigned long long)before, (unsigned long long)after);
	else if (before != written)
		test_fail("ECX %08XH: RDMSR(%XH) = 0x%llx after WRMSR of 0x%llx to the stopped counter (PROG-3)",
			  c->ecx, msr, (unsigned long long)before,
			  (unsigned long long)written);
	else
		test_note("ECX %08XH: RDPMC = RDMSR(%XH) = 0x%llx", c->ecx,
			  msr, (unsigned long long)value);
}

static void run(unsigned i)
{
	const struct exec_state *s = check_context(i);
	struct counter counters[MAX_COUNTERS];
	unsigned n = model_counters(counters, MAX_COUNTERS);

	if (!check_context_usable(s))
		return;
	check_invalid_encoding(s, ECX_TYPE_GP);
	if (n == 0) {
		test_skip("the model knows no counter that must read on this PMU");
		return;
	}
	if (!prog_writes_hold(false))
		return;
	for (unsigned c = 0; c < n; c++)	/* distinct per counter */
		check_counter(s, &counters[c], 0x12345000u + 0x101u * c);
	prog_leave_cleared();
}

static const struct suite data_rdmsr = { 0, CHECK_CONTEXTS, describe, run };
REGISTER_SUITE(data_rdmsr);
