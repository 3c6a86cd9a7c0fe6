#include "ring.h"

#include "segments.h"

extern char ring_stack_top[], ring_entry64[];
extern void ring_enter(uint64_t cs, uint64_t ss, uint64_t rip, uint64_t rsp,
		       uint64_t rdi, uint64_t rsi, uint64_t data_selector);

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
	ring_enter(code_selector(cpl, 64), stack_selector(cpl),
		   (uint64_t)ring_entry64, (uint64_t)ring_stack_top,
		   (uint64_t)arg, (uint64_t)fn, SEL_DATA(3));
}

void ring_run32(unsigned cpl, uint32_t entry, uint32_t edi)
{
	ring_enter(code_selector(cpl, 32), stack_selector(cpl), entry,
		   (uint64_t)ring_stack_top, edi, 0, SEL_DATA(3));
}
