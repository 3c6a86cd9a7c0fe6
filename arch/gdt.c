/*
 * GDT and TSS. Code and data segments for every CPL, 64-bit and 32-bit
 * (compatibility-mode) code, and a 64-bit TSS whose RSP0 receives traps
 * from CPL 1-3 and whose IST stacks take #DF and NMI (arch/idt.c).
 */
#include "gdt.h"

#include <stdint.h>

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

extern char ring0_stack_top[], df_stack_top[], nmi_stack_top[];

static uint64_t gdt[GDT_ENTRIES] __attribute__((aligned(16)));
static struct tss64 tss;

static uint64_t flat_segment(unsigned dpl, unsigned type, unsigned flags)
{
	uint64_t access = ACCESS_PRESENT | ACCESS_SEGMENT | (dpl << 5) | type;

	return 0xFFFFull | (0xFull << 48) | (access << 40) |
	       ((uint64_t)(flags | FLAGS_4K) << 52);
}

static void set(unsigned selector, uint64_t descriptor)
{
	gdt[selector >> 3] = descriptor;
}

static void set_tss(void)
{
	uint64_t base = (uint64_t)&tss;
	uint64_t limit = sizeof(tss) - 1;

	tss.rsp[0] = (uint64_t)ring0_stack_top;
	tss.ist[IST_DOUBLE_FAULT - 1] = (uint64_t)df_stack_top;
	tss.ist[IST_NMI - 1] = (uint64_t)nmi_stack_top;
	tss.iomap_base = sizeof(tss);	/* no I/O bitmap: IOPL rules alone */

	gdt[SEL_TSS >> 3] = (limit & 0xFFFF) | ((base & 0xFFFFFF) << 16) |
			    ((uint64_t)(ACCESS_PRESENT | ACCESS_TSS64) << 40) |
			    ((limit >> 16 & 0xF) << 48) |
			    ((base >> 24 & 0xFF) << 56);
	gdt[(SEL_TSS >> 3) + 1] = base >> 32;
}

void gdt_set_call_gate(unsigned selector, uint64_t target, unsigned dpl)
{
	gdt[selector >> 3] = (target & 0xFFFF) |
			     ((uint64_t)SEL_KERNEL_CODE64 << 16) |
			     ((uint64_t)(ACCESS_PRESENT | (dpl << 5) |
					 ACCESS_CALL_GATE64) << 40) |
			     ((target >> 16 & 0xFFFF) << 48);
	gdt[(selector >> 3) + 1] = target >> 32;
}

void gdt_init(void)
{
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) pointer = { sizeof(gdt) - 1, (uint64_t)gdt };

	set(SEL_KERNEL_CODE64, flat_segment(0, ACCESS_CODE, FLAGS_LONG));
	set(SEL_KERNEL_DATA, flat_segment(0, ACCESS_DATA, FLAGS_SIZE32));
	set(SEL_KERNEL_CODE32, flat_segment(0, ACCESS_CODE, FLAGS_SIZE32));
	for (unsigned cpl = 1; cpl <= 3; cpl++) {
		set(SEL_CODE64(cpl), flat_segment(cpl, ACCESS_CODE, FLAGS_LONG));
		set(SEL_CODE32(cpl), flat_segment(cpl, ACCESS_CODE, FLAGS_SIZE32));
		set(SEL_DATA(cpl), flat_segment(cpl, ACCESS_DATA, FLAGS_SIZE32));
	}
	set(SEL_NOT_PRESENT, flat_segment(0, ACCESS_DATA, FLAGS_SIZE32) &
			     ~((uint64_t)ACCESS_PRESENT << 40));
	set_tss();

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
