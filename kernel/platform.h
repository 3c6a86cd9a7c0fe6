/*
 * What the harness and the checks need from the place they run: the kernel
 * (arch/platform.c) or a host program such as the simulator.
 */
#ifndef PMCTEST_PLATFORM_H
#define PMCTEST_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* The ports the kernel may write its log to (console=); the screen, where
 * the loader set one up, takes it too. */
#define CONSOLE_COM1 1u	/* the 16550 at 3F8H */
#define CONSOLE_E9 2u	/* I/O port E9H: the debug console of Xen's guests */

/* A line of the log, newline included, at most PLATFORM_CONSOLE_LINE_MAX
 * bytes (kernel/console.c writes a line at a time). */
#define PLATFORM_CONSOLE_LINE_MAX 256
void platform_console_write(const char *s, size_t n);

/* The bytes platform_console_write() has taken from every CPU, counted as
 * each call returns: where a CPU lost partway through its output stopped
 * (SMP-6). */
uint64_t platform_console_bytes(void);

/* How the run ends once its summary is out (the command line's exit=):
 * QEMU's isa-debug-exit carries the status; the i8042's reset line and a
 * triple fault, which VMMs without that device turn into the end of the VM,
 * carry none, and the runner reads the verdict from the summary. */
enum platform_exit_method {
	EXIT_BY_DEBUG_PORT,	/* exit=debug, the default */
	EXIT_BY_RESET,		/* exit=reset */
	EXIT_BY_TRIPLE_FAULT,	/* exit=triple */
};

void platform_exit(int status) __attribute__((noreturn));

/* The local APIC's mode for the run (the command line's apic=), chosen
 * before the APs start and before any test writes the LVT: x2APIC
 * wherever an APIC ID the firmware lists needs it, and the header says
 * where the run does not follow what was asked (arch/smp.c). */
enum platform_apic_mode {
	APIC_MODE_FIRMWARE,	/* apic= not given: the mode the firmware left */
	APIC_MODE_XAPIC,	/* apic=xapic */
	APIC_MODE_X2APIC,	/* apic=x2apic, where CPUID.01H:ECX[21] allows */
};

/* A count that only grows, for the `timing` option (make bench): the TSC in
 * the kernel, nanoseconds of the host clock in the simulator. */
uint64_t platform_timestamp(void);

/* Header comment lines: what runs the suite (CPU, hypervisor signature). */
void platform_print_header(void);

/* The enumeration the model is asked about: CPUID and PERF_CAPABILITIES,
 * as CPU 0 gave it at boot. */
const struct pmu_cpuid *platform_enumeration(void);

/* The same read now on the executing CPU (SMP-1 compares the two). */
void platform_read_enumeration(struct pmu_cpuid *out);

/*
 * Run run(i) so that an unexpected exception ends only that call: returns
 * false when it was abandoned (after harness_abort_test()). Machine state a
 * test may change (CR4.PCE) is restored afterwards either way.
 */
bool platform_run_contained(void (*run)(unsigned), unsigned i);
void platform_abandon_contained(void) __attribute__((noreturn));

#endif
