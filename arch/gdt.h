#ifndef PMCTEST_GDT_H
#define PMCTEST_GDT_H

#define IST_DOUBLE_FAULT	1
#define IST_NMI			2

#include <stdint.h>

void gdt_init(void);
/* A 64-bit call gate to target in the kernel's code segment. */
void gdt_set_call_gate(unsigned selector, uint64_t target, unsigned dpl);

#endif
