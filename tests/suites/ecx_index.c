/*
 * ecx.index.<gp|fixed>.cpl<0|3>: every index 0..65535 of the
 * general-purpose type (0000H) and of the fixed-function type (4000H).
 * Valid exactly below the enumerated count or where the CPUID.0AH:ECX and
 * CPUID.23H bitmaps say so, #GP(0) beyond (ARCH-2, ARCH-3, ARCH-5). Where
 * the PMU has no type field (non-architectural: NARCH-1; AMD: AMD-2) ECX
 * is the plain counter number and the model says what each one does.
 *
 * ecx.index.full.<gp|fixed>.cpl<0|3> runs all 65,536; ecx.index.<gp|fixed>
 * the model's sample of them (sweep_sample()), for targets on which a
 * faulting RDPMC is too slow for the full sweep (exclude=ecx.*.full.*).
 *
 * The default run sweeps every index at CPL 0 only, and the sample at
 * CPL 3 with CR4.PCE = 1: the statements of the encoding hold whatever
 * the CPL, and the one that depends on it, PRIV-1, is decided before and
 * apart from ECX (PRIV-5), so the sample shows it for each answer the
 * model gives. The full sweeps at CPL 3 are explicit tests.
 */
#include "check_context.h"
#include "counters.h"
#include "harness.h"
#include "sweep.h"

#define INDICES 0x10000u

static const struct {
	const char *name;
	uint32_t type;
	const char *statements;
} kinds[] = {
	{ "gp", ECX_TYPE_GP, "ARCH-2 ARCH-5 NARCH-1 AMD-2" },
	{ "fixed", ECX_TYPE_FIXED, "ARCH-3 ARCH-5" },
};

#define KINDS (sizeof(kinds) / sizeof(kinds[0]))

static void describe(unsigned i, struct test_text *t, bool full)
{
	unsigned k = i / CHECK_CONTEXTS;

	strbuf_printf(&t->id, "ecx.index.%s%s.%s", full ? "full." : "",
		      kinds[k].name, check_context_name(i % CHECK_CONTEXTS));
	strbuf_puts(&t->statements, kinds[k].statements);
	strbuf_printf(&t->description, "RDPMC of %s index 0..65535 of type %04XH",
		      full ? "every" : "the model's sample of each",
		      kinds[k].type >> 16);
}

static uint64_t index_at(unsigned i, const void *arg)
{
	return *(const uint32_t *)arg | i;
}

static void run(unsigned i, bool full)
{
	const struct exec_state *s = check_context(i % CHECK_CONTEXTS);
	struct sweep sw = { 0 };

	if (!check_context_usable(s))
		return;
	sweep_steps(&sw, s, INDICES, index_at, &kinds[i / CHECK_CONTEXTS].type,
		    full);
	sweep_finish(&sw, "indices");
}

/* The sampled cases first, then the full sweeps at CPL 0 (check context 0);
 * the full sweeps at CPL 3 (context 1) are a suite of their own. */
#define SAMPLED_CASES (KINDS * CHECK_CONTEXTS)
#define CPL0 0u
#define CPL3 1u

static void describe_case(unsigned i, struct test_text *t)
{
	if (i < SAMPLED_CASES)
		describe(i, t, false);
	else
		describe((i - SAMPLED_CASES) * CHECK_CONTEXTS + CPL0, t, true);
}

static void run_case(unsigned i)
{
	if (i < SAMPLED_CASES)
		run(i, false);
	else
		run((i - SAMPLED_CASES) * CHECK_CONTEXTS + CPL0, true);
}

static const struct suite ecx_index = {
	0, SAMPLED_CASES + KINDS, describe_case, run_case,
};
REGISTER_SUITE(ecx_index);

static void describe_full_cpl3(unsigned k, struct test_text *t)
{
	describe(k * CHECK_CONTEXTS + CPL3, t, true);
}

static void run_full_cpl3(unsigned k)
{
	run(k * CHECK_CONTEXTS + CPL3, true);
}

static const struct suite ecx_index_full_cpl3 = {
	SUITE_EXPLICIT, KINDS, describe_full_cpl3, run_full_cpl3,
};
REGISTER_SUITE(ecx_index_full_cpl3);
