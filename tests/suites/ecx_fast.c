/*
 * ecx.fast.cpl<0|3>: the "fast read" flag ECX[31]. On an architectural PMU
 * it only makes an undefined type: #GP(0) (ARCH-6). On a non-architectural
 * one a fast read, where supported, returns EAX = PMC[31:0] and EDX = 0
 * (NARCH-2): the PMCs are first written all-ones so that a full read would
 * have EDX != 0, and the fast read's EAX is compared with RDMSR. On AMD
 * there is no fast flag (AMD-2): #GP(0).
 */
#include "check_context.h"
#include "counters.h"
#include "harness.h"
#include "msr_access.h"
#include "prog_counter.h"
#include "sweep.h"

#define INDICES 32	/* ECX[31] with each of the first indices ... */
#define TABLE (2 * INDICES + 2)	/* ... of types 0000H and 4000H, and two more */

static void describe(unsigned i, struct test_text *t)
{
	strbuf_printf(&t->id, "ecx.fast.%s", check_context_name(i));
	strbuf_puts(&t->statements, "ARCH-6 NARCH-2 AMD-2");
	strbuf_puts(&t->description,
		    "RDPMC with ECX[31] set: #GP(0) on an architectural PMU, "
		    "EDX = 0 where a fast read happens");
}

static bool is_pmc(const struct counter *c)
{
	return c->kind == COUNTER_PMC;
}

/* NARCH-3: a WRMSR sets PMC[31:0] and sign-extends bit 31 to the top. */
static bool preload_all_ones(const struct counter *pmcs, unsigned n)
{
	char text[120];
	struct strbuf why;

	strbuf_init(&why, text, sizeof(text));
	if (!prog_stop_all(&why)) {
		test_fail("stopping the counters: %s", text);
		return false;
	}
	for (unsigned k = 0; k < n; k++)
		if (!msr_write(counter_msr(&pmcs[k], false), 0xFFFFFFFF, &why)) {
			test_fail("writing PMC%u all-ones: %s", pmcs[k].index, text);
			return false;
		}
	return true;
}

/* NARCH-2: EAX = PMC[31:0] as RDMSR reads it (EDX = 0: rdpmc_conforms). */
static void check_fast_low_half(const struct exec_state *s,
				const struct counter *pmc)
{
	char text[120];
	struct strbuf why;
	struct exec_outcome o;
	uint64_t value;

	strbuf_init(&why, text, sizeof(text));
	exec_rdpmc(s, SENTINEL_RAX, ECX_FAST | pmc->ecx, SENTINEL_RDX, &o);
	if (o.faulted)
		return;		/* "where supported": the sweep judged it */
	if (!msr_read(counter_msr(pmc, false), &value, &why)) {
		test_fail("PMC%u: %s", pmc->index, text);
		return;
	}
	if ((uint32_t)o.rax != (uint32_t)value)
		test_fail("fast read of PMC%u: EAX = 0x%llx, but RDMSR(%XH) = 0x%llx (NARCH-2: EAX = PMC[31:0])",
			  pmc->index, (unsigned long long)(o.rax & 0xFFFFFFFF),
			  counter_msr(pmc, false), (unsigned long long)value);
	else
		test_note("fast read of PMC%u: EAX = 0x%x as RDMSR, EDX = 0",
			  pmc->index, (unsigned)o.rax);
}

static void run(unsigned i)
{
	const struct exec_state *s = check_context(i);
	struct counter pmcs[MAX_COUNTERS];
	unsigned n = model_counters_of(is_pmc, pmcs, MAX_COUNTERS);
	uint32_t table[TABLE];
	struct sweep sw = { 0 };

	if (!check_context_usable(s))
		return;
	if (n && !preload_all_ones(pmcs, n))
		return;
	for (unsigned x = 0; x < INDICES; x++) {
		table[2 * x] = ECX_FAST | ECX_TYPE_GP | x;
		table[2 * x + 1] = ECX_FAST | ECX_TYPE_FIXED | x;
	}
	table[2 * INDICES] = ECX_FAST | ECX_PERF_METRICS;
	table[2 * INDICES + 1] = 0xFFFFFFFF;
	sweep_table(&sw, s, table, TABLE);
	sweep_finish(&sw, "ECX values with ECX[31] set");
	for (unsigned k = 0; k < n; k++)
		check_fast_low_half(s, &pmcs[k]);
}

static const struct suite ecx_fast = { 0, CHECK_CONTEXTS, describe, run };
REGISTER_SUITE(ecx_fast);
