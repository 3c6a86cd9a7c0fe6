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

/* The sampled cases first, then the same cases in full. */
#define SAMPLED_CASES (KINDS * CHECK_CONTEXTS)

static void describe_case(unsigned i, struct test_text *t)
{
	describe(i % SAMPLED_CASES, t, i >= SAMPLED_CASES);
}

static void run_case(unsigned i)
{
	run(i % SAMPLED_CASES, i >= SAMPLED_CASES);
}

static const struct suite ecx_index = {
	0, 2 * SAMPLED_CASES, describe_case, run_case,
};
REGISTER_SUITE(ecx_index);
