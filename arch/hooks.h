/*
 * How the arch layer reports up without calling into the harness: the
 * harness installs these hooks at boot (kernel/main.c), and the trap and
 * interrupt paths and the platform (arch/platform.c) call them.
 */
#ifndef PMCTEST_HOOKS_H
#define PMCTEST_HOOKS_H

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

#endif
