/*
 * Running code at CPL 0-3, in 64-bit or compatibility mode, and coming back.
 * An exception raised by that code is handled at CPL 0 as usual: a fault at
 * an exception-table address is captured and execution resumes in the same
 * ring after it (arch/extable.h).
 */
#ifndef PMCTEST_RING_H
#define PMCTEST_RING_H

#include <stdint.h>

/* Call fn(arg) at CPL cpl in 64-bit mode. */
void ring_run64(unsigned cpl, void (*fn)(void *), void *arg);

/*
 * Jump to the 32-bit code at entry at CPL cpl in compatibility mode, with
 * EDI = edi; the code ends with "jmp ring_exit32". DS and ES hold a flat
 * DPL 3 data segment, usable at every CPL.
 */
void ring_run32(unsigned cpl, uint32_t entry, uint32_t edi);

/* The calling CPU's saved stack pointer, for ring_resume() (the trap
 * handler's return from a ring exit). */
uint64_t *ring_saved_rsp(void);

/* Back to the ring_run*() caller of this CPU (arch/ring_entry.asm). */
void ring_resume(uint64_t *saved_rsp) __attribute__((noreturn));

#endif
