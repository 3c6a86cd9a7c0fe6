#include "interrupt_log.h"

static unsigned taken[256];

void interrupt_log_record(unsigned vector)
{
	taken[vector & 0xFF]++;
}

void interrupt_log_clear(void)
{
	for (unsigned v = 0; v < 256; v++)
		taken[v] = 0;
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
