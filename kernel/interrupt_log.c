#include "interrupt_log.h"

static unsigned taken[256];
static uint64_t (*probe)(void);
static uint64_t samples[INTERRUPT_LOG_SAMPLES];
static unsigned sampled;

void interrupt_log_record(unsigned vector)
{
	taken[vector & 0xFF]++;
	if (probe && sampled < INTERRUPT_LOG_SAMPLES)
		samples[sampled++] = probe();
}

void interrupt_log_clear(void)
{
	for (unsigned v = 0; v < 256; v++)
		taken[v] = 0;
	probe = 0;
	sampled = 0;
}

unsigned interrupt_log_count(unsigned vector)
{
	return taken[vector & 0xFF];
}

unsigned interrupt_log_total(void)
{
	unsigned n = 0;

	for (unsigned v = 0; v < 256; v++)
		n += taken[v];
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
