/*
 * GDT and TSS, one of each per CPU. Code and data segments for every CPL,
 * 64-bit and 32-bit (compatibility-mode) code, and a 64-bit TSS whose RSP0
 * receives traps from CPL 1-3 and whose IST stacks take #DF and NMI
 * (arch/idt.c), on the CPU's own stacks (arch/cpu_stacks.h). Each CPU has
 * its own GDT because LTR marks the TSS descriptor busy in it.
 */
#include "gdt.h"

#include <stdint.h>

#include "cpu_stacks.h"
#include "cpus.h"
#include "segments.h"

#define ACCESS_PRESENT	0x80
#define ACCESS_SEGMENT	0x10	/* code or data, not system */
#define ACCESS_CODE	0x0A	/* execute/read */
#define ACCESS_DATA	0x02	/* read/write */
#define ACCESS_TSS64	0x09	/* 64-bit TSS, available */
#define ACCESS_CALL_GATE64 0x0C
#define FLAGS_LONG	0x2	/* L: 64-bit code */
#define FLAGS_SIZE32	0x4	/* D/B: 32-bit */
#define FLAGS_4K	0x8	/* G: limit in pages */

struct tss64 {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
} __attribute__((packed));

static uint64_t gdts[CPUS_MAX][GDT_ENTRIES] __attribute__((aligned(16)));
static struct tss64 tsss[CPUS_MAX];

static uint64_t flat_segment(unsigned dpl, unsigned type, unsigned flags)
{
	uint64_t access = ACCESS_PRESENT | ACCESS_SEGMENT | (dpl << 5) | type;

	return 0xFFFFull | (0xFull << 48) | (access << 40) |
	       ((uint64_t)(flags | FLAGS_4K) << 52);
}

static void set(uint64_t *gdt, unsigned selector, uint64_t descriptor)
{
	gdt[selector >> 3] = descriptor;
}

static void set_tss(unsigned cpu)
{
	uint64_t *gdt = gdts[cpu];
	struct tss64 *tss = &tsss[cpu];
	uint64_t base = (uint64_t)tss;
	uint64_t limit = sizeof(*tss) - 1;

	tss->rsp[0] = cpu_stack_top(cpu, STACK_RSP0);
	tss->ist[IST_DOUBLE_FAULT - 1] = cpu_stack_top(cpu, STACK_DF);
	tss->ist[IST_NMI - 1] = cpu_stack_top(cpu, STACK_NMI);
	tss->iomap_base = sizeof(*tss);	/* no I/O bitmap: IOPL rules alone */

	gdt[SEL_TSS >> 3] = (limit & 0xFFFF) | ((base & 0xFFFFFF) << 16) |
			    ((uint64_t)(ACCESS_PRESENT | ACCESS_TSS64) << 40) |
			    ((limit >> 16 & 0xF) << 48) |
			    ((base >> 24 & 0xFF) << 56);
	gdt[(SEL_TSS >> 3) + 1] = base >> 32;
}

/* In every CPU's GDT: a test that sets a gate finds it on any CPU. */
void gdt_set_call_gate(unsigned selector, uint64_t target, unsigned dpl)
{
	for (unsigned cpu = 0; cpu < CPUS_MAX; cpu++) {
		gdts[cpu][selector >> 3] =
			(target & 0xFFFF) | ((uint64_t)SEL_KERNEL_CODE64 << 16) |
			((uint64_t)(ACCESS_PRESENT | (dpl << 5) |
				    ACCESS_CALL_GATE64) << 40) |
			((target >> 16 & 0xFFFF) << 48);
		gdts[cpu][(selector >> 3) + 1] = target >> 32;
	}
}

void gdt_init(void)
{
	gdt_load(0);
}

void gdt_load(unsigned cpu)
{
	uint64_t *gdt = gdts[cpu];
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) pointer = { sizeof(gdts[0]) - 1, (uint64_t)gdt };

	set(gdt, SEL_KERNEL_CODE64, flat_segment(0, ACCESS_CODE, FLAGS_LONG));
	set(gdt, SEL_KERNEL_DATA, flat_segment(0, ACCESS_DATA, FLAGS_SIZE32));
	set(gdt, SEL_KERNEL_CODE32, flat_segment(0, ACCESS_CODE, FLAGS_SIZE32));
	for (unsigned cpl = 1; cpl <= 3; cpl++) {
		set(gdt, SEL_CODE64(cpl), flat_segment(cpl, ACCESS_CODE, FLAGS_LONG));
		set(gdt, SEL_CODE32(cpl), flat_segment(cpl, ACCESS_CODE, FLAGS_SIZE32));
		set(gdt, SEL_DATA(cpl), flat_segment(cpl, ACCESS_DATA, FLAGS_SIZE32));
	}
	set(gdt, SEL_NOT_PRESENT, flat_segment(0, ACCESS_DATA, FLAGS_SIZE32) &
			     ~((uint64_t)ACCESS_PRESENT << 40));
	set_tss(cpu);

	__asm__ volatile("lgdt %0" : : "m"(pointer));
	/* Reload CS through a far return, then the data segments. */
	__asm__ volatile("pushq %0\n\t"
			 "leaq 1f(%%rip), %%rax\n\t"
			 "pushq %%rax\n\t"
			 "lretq\n"
			 "1:\n\t"
			 "movw %w1, %%ds\n\t"
			 "movw %w1, %%es\n\t"
			 "movw %w1, %%ss\n\t"
			 "ltr %w2"
			 :
			 : "i"(SEL_KERNEL_CODE64), "r"(SEL_KERNEL_DATA),
			   "r"(SEL_TSS)
			 : "rax", "memory");
}
