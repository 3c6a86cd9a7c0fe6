#ifndef PMCTEST_TRAP_H
#define PMCTEST_TRAP_H

#include <stdint.h>

#include "vectors.h"

#define VECTOR_NMI	2
#define VECTOR_UD	6
#define VECTOR_DF	8
#define VECTOR_GP	13
#define VECTOR_PF	14
#define FIRST_INTERRUPT_VECTOR	32	/* 0-31 are exceptions */

/* As arch/trap_entry.asm pushes it. */
struct trap_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error_code;
	uint64_t rip, cs, rflags, rsp, ss;
};

void idt_init(void);
void idt_load(void);	/* on an AP: the IDT idt_init() filled */
void idt_set_gate(unsigned vector, uint64_t target, unsigned dpl);
void trap_handler(struct trap_frame *frame);

#endif
