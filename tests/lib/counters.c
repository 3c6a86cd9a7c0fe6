#include "counters.h"

#include "rdpmc_check.h"

static const struct exec_state cpl0 = { MODE_LONG, 0, false };

static bool model_counter(uint32_t ecx, struct counter *c)
{
	struct rdpmc_expect e;

	model_rdpmc(check_pmu(), &cpl0, ecx, &e, 0);
	if (e.verdict != VERDICT_READ || e.fast || e.kind == COUNTER_METRICS)
		return false;
	*c = (struct counter){ ecx, e.kind, e.index, e.width };
	return true;
}

unsigned model_counters_of(bool (*wanted)(const struct counter *),
			   struct counter *out, unsigned max)
{
	/* ARCH-2: GP indices past 31 exist only below CPUID.0AH:EAX[15:8]. */
	unsigned gp_limit = check_pmu()->gp_count > 32 ? check_pmu()->gp_count
						       : 32;
	unsigned n = 0;
	struct counter c;

	for (uint32_t x = 0; x < gp_limit && n < max; x++)
		if (model_counter(ECX_TYPE_GP | x, &c) && (!wanted || wanted(&c)))
			out[n++] = c;
	for (uint32_t x = 0; x < 32 && n < max; x++)	/* ARCH-3: EDX[4:0] */
		if (model_counter(ECX_TYPE_FIXED | x, &c) &&
		    (!wanted || wanted(&c)))
			out[n++] = c;
	return n;
}

unsigned model_counters(struct counter *out, unsigned max)
{
	return model_counters_of(0, out, max);
}

bool counter_is_gp(const struct counter *c)
{
	return c->kind != COUNTER_FIXED && c->kind != COUNTER_METRICS;
}

bool first_invalid_ecx(uint32_t base, uint32_t *ecx)
{
	struct rdpmc_expect e;

	for (uint32_t x = 0; x < DEFINED_INDICES; x++) {
		model_rdpmc(check_pmu(), &cpl0, base | x, &e, 0);
		if (e.verdict == VERDICT_GP) {
			*ecx = base | x;
			return true;
		}
	}
	return false;
}

uint64_t width_mask(unsigned width)
{
	return width >= 64 ? ~0ull : (1ull << width) - 1;
}
