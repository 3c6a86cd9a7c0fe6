#ifndef PMCTEST_CONTEXT_H
#define PMCTEST_CONTEXT_H

#include <stdint.h>

struct context {
	uint64_t rbx, rbp, r12, r13, r14, r15, rsp, rip;
};

/* Returns 0, and returns again with 1 when context_resume() is called. */
int context_save(struct context *c) __attribute__((returns_twice));
void context_resume(struct context *c) __attribute__((noreturn));

#endif
