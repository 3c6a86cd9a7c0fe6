/* IDT: an interrupt gate for every vector (arch/trap_entry.asm): the 32
 * exceptions and the external interrupts, a PMI among them. A test may
 * replace a gate (tests/kernel/mechanism.c). */
#include <stdint.h>

#include "gdt.h"
#include "segments.h"
#include "trap.h"

struct gate {
	uint16_t offset_low;
	uint16_t selector;
	uint8_t ist;
	uint8_t type;
	uint16_t offset_mid;
	uint32_t offset_high;
	uint32_t reserved;
} __attribute__((packed));

#define GATE_INTERRUPT_DPL0 0x8E

extern const uint64_t trap_stubs[256];

static struct gate idt[256] __attribute__((aligned(16)));

static struct gate interrupt_gate(uint64_t target, unsigned ist, unsigned dpl)
{
	return (struct gate){
		.offset_low = target & 0xFFFF,
		.selector = SEL_KERNEL_CODE64,
		.ist = (uint8_t)ist,
		.type = (uint8_t)(GATE_INTERRUPT_DPL0 | dpl << 5),
		.offset_mid = target >> 16 & 0xFFFF,
		.offset_high = target >> 32,
	};
}

void idt_set_gate(unsigned vector, uint64_t target, unsigned dpl)
{
	idt[vector] = interrupt_gate(target, 0, dpl);
}

void idt_init(void)
{
	for (unsigned v = 0; v < 256; v++)
		idt[v] = interrupt_gate(trap_stubs[v],
					v == VECTOR_DF ? IST_DOUBLE_FAULT
					: v == VECTOR_NMI ? IST_NMI : 0,
					0);
	idt_load();
}

/* Every CPU shares the one IDT: the IST stacks it names are each CPU's
 * own through its TSS. */
void idt_load(void)
{
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) pointer = { sizeof(idt) - 1, (uint64_t)idt };

	__asm__ volatile("lidt %0" : : "m"(pointer));
}
