#ifndef PMCTEST_GDT_H
#define PMCTEST_GDT_H

#define IST_DOUBLE_FAULT	1
#define IST_NMI			2

#include <stdint.h>

/* CPU 0's GDT and TSS, loaded. */
void gdt_init(void);
/* CPU cpu's GDT and TSS (its own stacks), loaded on the calling CPU:
 * LGDT, CS and the data segments reloaded, LTR. */
void gdt_load(unsigned cpu);
/* A 64-bit call gate to target in the kernel's code segment. */
void gdt_set_call_gate(unsigned selector, uint64_t target, unsigned dpl);

#endif
