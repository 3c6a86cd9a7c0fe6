/*
 * The workload of make bench's TCG PMU rows (tests/bench.py): booted as
 * the floor kernel is (tests/bench/floor.c), it runs a fixed loop of
 * integer instructions, loads, stores and a data-dependent branch, then
 * exits as the floor does. It touches no PMU register and no RDPMC, so
 * every QEMU runs the same instructions whether it counts them or not;
 * its CPU time less the floor's is what TCG spends on the loop.
 */
#include <stdint.h>

#include "cpu.h"

#define WORKLOAD_ITERATIONS 200000000u

/* A page of its own: TCG checks every store to a page it translated code
 * from against that code, which would cost more than the loop itself. */
static volatile uint64_t table[512] __attribute__((aligned(4096)));

void kmain(uint32_t protocol, uint32_t info) __attribute__((noreturn));

void kmain(uint32_t protocol, uint32_t info)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;

	(void)protocol;
	(void)info;
	for (uint32_t i = 0; i < WORKLOAD_ITERATIONS; i++) {
		x ^= x << 13;	/* xorshift64: the branch below is not predictable */
		x ^= x >> 7;
		x ^= x << 17;
		table[x & 511] += i;
		if (x & 0x100)
			table[i & 511] ^= x;
	}
	outb(0xF4, 0);	/* isa-debug-exit: QEMU exits with status 1 */
	halt_forever();
}
