/*
 * How the arch layer reports up without calling into the harness: the
 * harness installs these hooks at boot (kernel/main.c), and the trap and
 * interrupt paths and the platform (arch/platform.c) call them.
 */
#ifndef PMCTEST_HOOKS_H
#define PMCTEST_HOOKS_H

#include <stdint.h>

#include "exit_kind.h"

struct arch_hooks {
	/* One line of diagnostics that fails the running test. */
	void (*fail)(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
	/* End the running test as failed; never returns. */
	void (*abort_test)(void);
	/* Stop the whole run with `why`; never returns. */
	void (*bail_out)(const char *why);
	/* An external interrupt (vector 32-255) was taken and acknowledged. */
	void (*interrupt)(unsigned vector);
	/* Lines for the console the harness writes its TAP on: the header
	 * of a run, the last words before halting. */
	void (*print)(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
	/* n instructions of kind were issued that exit to a typical
	 * hypervisor; port: the I/O port of port I/O. */
	void (*exits)(enum exit_kind kind, unsigned port, uint32_t n);
	/* On AP cpu, right after INIT-SIPI-SIPI started it and before
	 * anything wrote a PMU MSR there (arch/cpus.c): what it found is the
	 * INIT state (kernel/boot_msrs.h). */
	void (*cpu_started)(unsigned cpu);
};

void arch_install_hooks(const struct arch_hooks *hooks);

/* Calls of the hooks for the arch layer. */
extern const struct arch_hooks *arch_hooks;

static inline __attribute__((noreturn)) void arch_abort_test(void)
{
	arch_hooks->abort_test();
	__builtin_unreachable();
}

static inline __attribute__((noreturn)) void arch_bail_out(const char *why)
{
	arch_hooks->bail_out(why);
	__builtin_unreachable();
}

/* The arch primitives that issue those instructions call this: before the
 * hooks are installed (and in make bench's floor kernel) it counts
 * nothing. */
static inline void arch_exits(enum exit_kind kind, unsigned port, uint32_t n)
{
	if (arch_hooks && arch_hooks->exits)
		arch_hooks->exits(kind, port, n);
}

#endif
