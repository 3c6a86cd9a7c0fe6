/*
 * The guest of the TCG PMU's migration check (tests/qemu_pmu.py migration):
 * booted as the floor kernel is (tests/bench/floor.c), it says "counting"
 * on COM1, counts its own retired instructions at every ring in counter 0
 * across a fixed loop, writes the count, and exits through isa-debug-exit.
 * The host migrates it while it loops: the count must be the one of a run
 * that was not migrated (docs/counting-tcg.md, "Migration").
 */
#include <stdbool.h>
#include <stdint.h>

#include "cpu.h"

/* About 1 s under TCG: the host stops it 0.2 s in to migrate it */
#define LOOP_ITERATIONS	500000000u
#define COM1		0x3F8
#define COM1_LSR	(COM1 + 5)
#define LSR_THR_EMPTY	0x20
/* Retired instructions: AMD event C0H; Intel C0H, unit mask 0 */
#define EVENT_RETIRED	0xC0u
#define EVTSEL_USR	(1u << 16)
#define EVTSEL_OS	(1u << 17)
#define EVTSEL_EN	(1u << 22)
/* Counter 0: Intel IA32_PERFEVTSEL0/IA32_PMC0, AMD PerfEvtSel0/PerfCtr0;
 * Intel's IA32_PERF_GLOBAL_CTRL enables it from reset (RESET-1). */
#define INTEL_EVTSEL0	0x186u
#define INTEL_PMC0	0xC1u
#define AMD_EVTSEL0	0xC0010000u
#define AMD_PERFCTR0	0xC0010004u
#define VENDOR_GENU	0x756E6547u	/* "Genu" of GenuineIntel */

void kmain(uint32_t protocol, uint32_t info) __attribute__((noreturn));

static void serial_put(char c)
{
	while (!(inb(COM1_LSR) & LSR_THR_EMPTY))
		;
	outb(COM1, (uint8_t)c);
}

static void serial_puts(const char *s)
{
	while (*s)
		serial_put(*s++);
}

static void serial_hex(uint64_t v)
{
	for (int shift = 60; shift >= 0; shift -= 4)
		serial_put("0123456789abcdef"[(v >> shift) & 0xF]);
}

void kmain(uint32_t protocol, uint32_t info)
{
	bool intel = cpuid(0, 0).ebx == VENDOR_GENU;
	uint32_t evtsel = intel ? INTEL_EVTSEL0 : AMD_EVTSEL0;
	uint32_t counter = intel ? INTEL_PMC0 : AMD_PERFCTR0;
	uint32_t n = LOOP_ITERATIONS;

	(void)protocol;
	(void)info;
	serial_puts("counting\n");
	wrmsr(counter, 0);
	wrmsr(evtsel, EVENT_RETIRED | EVTSEL_USR | EVTSEL_OS | EVTSEL_EN);
	__asm__ volatile("1: dec %0; jnz 1b" : "+r"(n));
	wrmsr(evtsel, 0);
	serial_puts("count=0x");
	serial_hex(rdmsr(counter));
	serial_puts("\n");
	outb(0xF4, 0);	/* isa-debug-exit: QEMU exits with status 1 */
	halt_forever();
}
