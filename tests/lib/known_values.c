#include "known_values.h"

#include "cpus.h"
#include "msr_access.h"
#include "prog_counter.h"

uint64_t known_value(unsigned cpu, unsigned k)
{
	return 0x1000000ull * (cpu + 1) + 0x101ull * (k + 1);
}

bool known_values_write(struct known_values *k, struct strbuf *why)
{
	struct counter all[MAX_COUNTERS];
	unsigned n = model_counters(all, MAX_COUNTERS);
	struct prog_counter probe;

	k->cpu = platform_this_cpu();
	k->n = 0;
	if (prog_probe_counter(&probe, false, why) == PROG_BROKEN ||
	    !prog_stop_all(why))
		return false;
	for (unsigned i = 0; i < n; i++) {
		uint64_t value = known_value(k->cpu, k->n);

		if (all[i].width < 32)	/* 0: not enumerated */
			continue;
		if (!msr_write(counter_msr(&all[i], false), value, why)) {
			k->n = 0;
			return false;
		}
		k->counters[k->n] = all[i];
		k->value[k->n++] = value;
	}
	return true;
}

bool known_value_of(const struct known_values *k, enum counter_kind kind,
		    unsigned index, uint64_t *value)
{
	for (unsigned i = 0; i < k->n; i++)
		if (k->counters[i].kind == kind && k->counters[i].index == index) {
			*value = k->value[i];
			return true;
		}
	return false;
}
