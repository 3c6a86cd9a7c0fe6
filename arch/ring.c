#include "ring.h"

#include "cpu_stacks.h"
#include "cpus.h"
#include "segments.h"

extern char ring_entry64[];
extern void ring_enter(uint64_t cs, uint64_t ss, uint64_t rip, uint64_t rsp,
		       uint64_t rdi, uint64_t rsi, uint64_t data_selector,
		       uint64_t *saved_rsp);

/* Where each CPU's ring_enter() keeps its stack pointer for the return. */
static uint64_t saved_rsp[CPUS_MAX];

uint64_t *ring_saved_rsp(void)
{
	return &saved_rsp[platform_this_cpu()];
}

static uint64_t code_selector(unsigned cpl, int bits)
{
	if (cpl == 0)
		return bits == 64 ? SEL_KERNEL_CODE64 : SEL_KERNEL_CODE32;
	return bits == 64 ? SEL_CODE64(cpl) : SEL_CODE32(cpl);
}

static uint64_t stack_selector(unsigned cpl)
{
	return cpl == 0 ? SEL_KERNEL_DATA : SEL_DATA(cpl);
}

void ring_run64(unsigned cpl, void (*fn)(void *), void *arg)
{
	unsigned cpu = platform_this_cpu();

	ring_enter(code_selector(cpl, 64), stack_selector(cpl),
		   (uint64_t)ring_entry64, cpu_stack_top(cpu, STACK_RING),
		   (uint64_t)arg, (uint64_t)fn, SEL_DATA(3), &saved_rsp[cpu]);
}

void ring_run32(unsigned cpl, uint32_t entry, uint32_t edi)
{
	unsigned cpu = platform_this_cpu();

	ring_enter(code_selector(cpl, 32), stack_selector(cpl), entry,
		   cpu_stack_top(cpu, STACK_RING), edi, 0, SEL_DATA(3),
		   &saved_rsp[cpu]);
}
