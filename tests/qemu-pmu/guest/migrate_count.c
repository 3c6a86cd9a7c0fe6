/*
 * The guest of the TCG PMU's migration check (tests/check.py qemu_pmu_migration):
 * booted as the floor kernel is (tests/bench/floor.c), it says "counting"
 * on COM1, counts its own retired instructions at every ring in counter 0
 * across a fixed loop, writes the count, and exits through isa-debug-exit.
 * The host migrates it while it loops: the count must be the one of a run
 * that was not migrated (docs/counting-tcg.md, "Migration").
 *
 * With AMD's PerfMonV2 (CPUID 8000_0022H:EAX[0]) it also gives the global
 * registers a state of its own before the loop and writes what they hold
 * after it, on a second line: PerfCntrGlobalCtl enables counter 0 alone
 * (not the reset value, 3FH), counter 1 counts the same event with its En
 * set and its global enable clear (it must stay 0), and
 * PerfCntrGlobalStatusSet sets counter 5's overflow bit, which nothing
 * else sets. A migration that lost any of them shows on that line.
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
/* AMD PerfMonV2: the global registers, bit n for core counter n */
#define AMD_PERFMON_V2		(1u << 0)	/* CPUID 8000_0022H:EAX */
#define AMD_EVTSEL1		0xC0010001u
#define AMD_PERFCTR1		0xC0010005u
#define AMD_GLOBAL_STATUS	0xC0000300u
#define AMD_GLOBAL_CTL		0xC0000301u
#define AMD_GLOBAL_STATUS_SET	0xC0000303u
#define GLOBAL_CTL_COUNTER0	0x1u
#define STATUS_COUNTER5		0x20u

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

static bool perfmon_v2(bool intel)
{
	return !intel && cpuid(0x80000000, 0).eax >= 0x80000022 &&
	       (cpuid(0x80000022, 0).eax & AMD_PERFMON_V2);
}

/* PerfMonV2: a state of the global registers of the guest's own */
static void set_global_state(void)
{
	wrmsr(AMD_GLOBAL_CTL, GLOBAL_CTL_COUNTER0);
	wrmsr(AMD_PERFCTR1, 0);
	wrmsr(AMD_EVTSEL1, EVENT_RETIRED | EVTSEL_USR | EVTSEL_OS | EVTSEL_EN);
	wrmsr(AMD_GLOBAL_STATUS_SET, STATUS_COUNTER5);
}

static void put_global_state(void)
{
	wrmsr(AMD_EVTSEL1, 0);
	serial_puts("global=ctl 0x");
	serial_hex(rdmsr(AMD_GLOBAL_CTL));
	serial_puts(" status 0x");
	serial_hex(rdmsr(AMD_GLOBAL_STATUS));
	serial_puts(" gated 0x");
	serial_hex(rdmsr(AMD_PERFCTR1));
	serial_puts("\n");
}

void kmain(uint32_t protocol, uint32_t info)
{
	bool intel = cpuid(0, 0).ebx == VENDOR_GENU;
	bool v2 = perfmon_v2(intel);
	uint32_t evtsel = intel ? INTEL_EVTSEL0 : AMD_EVTSEL0;
	uint32_t counter = intel ? INTEL_PMC0 : AMD_PERFCTR0;
	uint32_t n = LOOP_ITERATIONS;

	(void)protocol;
	(void)info;
	if (v2)
		set_global_state();
	serial_puts("counting\n");
	wrmsr(counter, 0);
	wrmsr(evtsel, EVENT_RETIRED | EVTSEL_USR | EVTSEL_OS | EVTSEL_EN);
	__asm__ volatile("1: dec %0; jnz 1b" : "+r"(n));
	wrmsr(evtsel, 0);
	serial_puts("count=0x");
	serial_hex(rdmsr(counter));
	serial_puts("\n");
	if (v2)
		put_global_state();
	outb(0xF4, 0);	/* isa-debug-exit: QEMU exits with status 1 */
	halt_forever();
}
