/*
 * Single instructions run with chosen register inputs. A fault they raise is
 * captured (arch/extable.h) and the registers they leave are returned, so
 * "expect #GP(0)" and "RAX unchanged after the fault" are plain comparisons.
 */
#ifndef PMCTEST_PROBE_H
#define PMCTEST_PROBE_H

#include <stdint.h>

#include "hooks.h"

struct probe_regs {
	uint64_t rax, rcx, rdx;
};

void probe_rdpmc64(struct probe_regs *regs);	/* 64-bit, any CPL */
void probe_rdmsr(struct probe_regs *regs);	/* CPL 0 */
void probe_wrmsr(struct probe_regs *regs);	/* CPL 0 */

/* RDPMC with chosen arithmetic flags (ENC-1), 64-bit, any CPL. */
struct flags_probe {
	uint64_t rcx;		/* in, and out */
	uint64_t rflags_in;	/* CF PF AF ZF SF OF to set before */
	uint64_t rflags_out;	/* RFLAGS right after the RDPMC or its fault */
	uint64_t rax, rdx;	/* in, and out */
};

#define RFLAGS_ARITHMETIC 0x8D5ull

void probe_rdpmc_flags64_body(struct flags_probe *p);

/* The probe, counted in the exit tally. */
static inline void probe_rdpmc_flags64(struct flags_probe *p)
{
	arch_exits(EXIT_RDPMC, 0, 1);
	probe_rdpmc_flags64_body(p);
}
extern char probe_rdpmc_flags64_insn[];

/* Addresses of the instructions themselves: the RIP a fault must report. */
extern char probe_rdpmc64_insn[], probe_rdpmc32_insn[];
extern char probe_rdmsr_insn[], probe_wrmsr_insn[];
/* Compatibility-mode body for ring_run32(), EDI = struct probe_regs *. */
extern char probe_rdpmc32[];

#endif
