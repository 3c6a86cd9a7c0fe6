/*
 * The instructions that exit to a typical hypervisor (a VM exit under
 * VMX or SVM with the usual intercepts): the platform counts
 * them where it issues them and reports them through a hook
 * (arch/hooks.h); the harness tallies them per test group
 * (kernel/exit_tally.h). Plain data, for both sides.
 */
#ifndef PMCTEST_EXIT_KIND_H
#define PMCTEST_EXIT_KIND_H

enum exit_kind {
	EXIT_PORT_IO,	/* IN, OUT: by port */
	EXIT_RDMSR,
	EXIT_WRMSR,
	EXIT_CPUID,
	EXIT_RDPMC,
	EXIT_HLT,
	EXIT_KINDS
};

#endif
