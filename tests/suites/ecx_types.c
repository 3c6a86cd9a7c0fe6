/*
 * ecx.types.cpl<0|3>: every counter type. RDPMC with each of the 65,536
 * values of ECX[31:16] and index 0, then for each defined type (0000H
 * general-purpose, 4000H fixed, 2000H metrics) the first index the model
 * says does not exist; each outcome must be the model's (ARCH-1, ARCH-4,
 * ARCH-5; ARCH-6: types 8000H and up are the fast flag on an architectural
 * PMU). On a PMU without a type field (non-architectural, AMD) the same
 * values are checked against what the model says there.
 * ecx.types.full.cpl<0|3> takes all 65,536 types; ecx.types.cpl<0|3> the
 * model's sample of them, for targets on which a faulting RDPMC is too slow
 * for the full sweep (exclude=ecx.*.full.*). As in ecx.index, the default
 * run sweeps every type at CPL 0 and the sample at CPL 3; the full sweep
 * at CPL 3 is an explicit test.
 *
 * Each CPU gives its counters values of its own first (tests/lib/
 * known_values.h), so that a read is judged by its value too, on every
 * CPU: one of another counter, or of another vCPU's or the host's counter,
 * fails (WR-1, PRIV-7, SMP-3). It leaves them stopped and 0.
 */
#include "check_context.h"
#include "counters.h"
#include "harness.h"
#include "prog_counter.h"
#include "sweep.h"

#define TYPES 0x10000u

static void describe(unsigned i, struct test_text *t, bool full)
{
	strbuf_printf(&t->id, "ecx.types.%s%s", full ? "full." : "",
		      check_context_name(i));
	strbuf_puts(&t->statements, "ARCH-1 ARCH-4 ARCH-5 ARCH-6");
	strbuf_printf(&t->description,
		      "RDPMC of %s ECX[31:16] type with index 0, and of the "
		      "first invalid index of each defined type",
		      full ? "every" : "the model's sample of each");
}

static uint64_t type_at(unsigned i, const void *arg)
{
	(void)arg;
	return (uint64_t)i << 16;
}

static void run(unsigned i, bool full)
{
	static const uint32_t defined[] = {
		ECX_TYPE_GP, ECX_TYPE_FIXED, ECX_TYPE_METRICS,
	};
	const struct exec_state *s = check_context(i);
	uint32_t first_invalid[3];
	unsigned n = 0;
	struct sweep sw = { 0 };
	static struct known_values known;
	char text[160];
	struct strbuf why;

	if (!check_context_usable(s))
		return;
	strbuf_init(&why, text, sizeof(text));
	if (known_values_write(&known, &why))
		sw.known = &known;
	else
		test_note("the values read are not judged: %s", text);
	sweep_steps(&sw, s, TYPES, type_at, 0, full);
	for (unsigned k = 0; k < 3; k++)
		if (first_invalid_ecx(defined[k], &first_invalid[n]))
			n++;
	sweep_table(&sw, s, first_invalid, n);
	sweep_finish(&sw, "ECX values");
	if (sw.known)
		prog_leave_cleared();
}

/* The sampled cases first, then the full sweep at CPL 0 (check context 0);
 * the full sweep at CPL 3 (context 1) is a suite of its own. */
#define CPL0 0u
#define CPL3 1u

static void describe_case(unsigned i, struct test_text *t)
{
	if (i < CHECK_CONTEXTS)
		describe(i, t, false);
	else
		describe(CPL0, t, true);
}

static void run_case(unsigned i)
{
	if (i < CHECK_CONTEXTS)
		run(i, false);
	else
		run(CPL0, true);
}

/* The sampled cases are the per-CPU part (kernel/harness.h): index 0 of
 * every type and the first invalid index of each defined one, the
 * boundaries of the encoding. The sweeps of ecx.index and the full ones
 * here (about 197,000 RDPMCs at CPL 0, most of them faulting) are too slow under
 * emulation to repeat on every CPU. */
static bool sampled(unsigned i)
{
	return i < CHECK_CONTEXTS;
}

static const struct suite ecx_types = {
	SUITE_PER_CPU, CHECK_CONTEXTS + 1, describe_case, run_case,
};
REGISTER_SUITE(ecx_types);
PER_CPU_CASES(ecx_types, sampled);

static void describe_full_cpl3(unsigned i, struct test_text *t)
{
	(void)i;
	describe(CPL3, t, true);
}

static void run_full_cpl3(unsigned i)
{
	(void)i;
	run(CPL3, true);
}

static const struct suite ecx_types_full_cpl3 = {
	SUITE_EXPLICIT, 1, describe_full_cpl3, run_full_cpl3,
};
REGISTER_SUITE(ecx_types_full_cpl3);
