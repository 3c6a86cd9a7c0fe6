/* Single x86 instructions as C functions. Those that exit to a typical
 * hypervisor (CPUID, IN, OUT, RDMSR, WRMSR, HLT) count themselves in the
 * exit tally (arch/hooks.h). */
#ifndef PMCTEST_CPU_H
#define PMCTEST_CPU_H

#include <stdint.h>

#include "hooks.h"

struct cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

static inline struct cpuid_regs cpuid(uint32_t leaf, uint32_t subleaf)
{
	struct cpuid_regs r;

	__asm__ volatile("cpuid"
			 : "=a"(r.eax), "=b"(r.ebx), "=c"(r.ecx), "=d"(r.edx)
			 : "a"(leaf), "c"(subleaf));
	arch_exits(EXIT_CPUID, 0, 1);
	return r;
}

static inline uint64_t read_cr2(void)
{
	uint64_t v;

	__asm__ volatile("mov %%cr2, %0" : "=r"(v));
	return v;
}

static inline uint64_t read_cr4(void)
{
	uint64_t v;

	__asm__ volatile("mov %%cr4, %0" : "=r"(v));
	return v;
}

static inline void write_cr4(uint64_t v)
{
	__asm__ volatile("mov %0, %%cr4" : : "r"(v) : "memory");
}

#define CR4_PCE (1u << 8)

static inline uint64_t read_cr0(void)
{
	uint64_t v;

	__asm__ volatile("mov %%cr0, %0" : "=r"(v));
	return v;
}

static inline void write_cr0(uint64_t v)
{
	__asm__ volatile("mov %0, %%cr0" : : "r"(v) : "memory");
}

/* RFLAGS as the kernel runs: IF, AC, DF, TF clear (bit 1 is always set). */
static inline void reset_rflags(void)
{
	__asm__ volatile("pushq $2; popfq" : : : "memory", "cc");
}

static inline void outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
	arch_exits(EXIT_PORT_IO, port, 1);
}

static inline uint8_t inb(uint16_t port)
{
	uint8_t v;

	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	arch_exits(EXIT_PORT_IO, port, 1);
	return v;
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

/* For MSRs that exist by CPUID (the APIC's); PMU MSRs go through
 * kernel/exec.h, where a #GP is an outcome. */
static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;

	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	arch_exits(EXIT_RDMSR, 0, 1);
	return (uint64_t)hi << 32 | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr"
			 : : "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32))
			 : "memory");
	arch_exits(EXIT_WRMSR, 0, 1);
}

static inline __attribute__((noreturn)) void halt_forever(void)
{
	for (;;) {
		arch_exits(EXIT_HLT, 0, 1);
		__asm__ volatile("cli; hlt");
	}
}

#endif
