#include "interrupt_log.h"

#include "cpus.h"

static unsigned taken[CPUS_MAX][256];
static uint64_t (*probe)(void);
static uint64_t samples[INTERRUPT_LOG_SAMPLES];
static unsigned sampled;

void interrupt_log_record(unsigned vector)
{
	unsigned cpu = platform_this_cpu();

	if (cpu < CPUS_MAX)
		taken[cpu][vector & 0xFF]++;
	if (probe && sampled < INTERRUPT_LOG_SAMPLES)
		samples[sampled++] = probe();
}

void interrupt_log_clear(void)
{
	for (unsigned cpu = 0; cpu < CPUS_MAX; cpu++)
		for (unsigned v = 0; v < 256; v++)
			taken[cpu][v] = 0;
	probe = 0;
	sampled = 0;
}

unsigned interrupt_log_count_on(unsigned cpu, unsigned vector)
{
	return cpu < CPUS_MAX ? taken[cpu][vector & 0xFF] : 0;
}

unsigned interrupt_log_count(unsigned vector)
{
	return interrupt_log_count_on(platform_this_cpu(), vector);
}

unsigned interrupt_log_total(void)
{
	unsigned n = 0;

	for (unsigned v = 0; v < 256; v++)
		n += interrupt_log_count(v);
	return n;
}

void interrupt_log_set_probe(uint64_t (*fn)(void))
{
	probe = fn;
	sampled = 0;
}

unsigned interrupt_log_samples(uint64_t *out, unsigned max)
{
	unsigned n = sampled < max ? sampled : max;

	for (unsigned i = 0; i < n; i++)
		out[i] = samples[i];
	return n;
}
