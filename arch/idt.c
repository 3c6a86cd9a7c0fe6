/* IDT: interrupt gates for the 32 exception vectors (arch/trap_entry.asm). */
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

extern const uint64_t trap_stubs[32];

static struct gate idt[32] __attribute__((aligned(16)));

void idt_init(void)
{
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) pointer = { sizeof(idt) - 1, (uint64_t)idt };

	for (unsigned v = 0; v < 32; v++) {
		uint64_t target = trap_stubs[v];

		idt[v] = (struct gate){
			.offset_low = target & 0xFFFF,
			.selector = SEL_KERNEL_CODE64,
			.ist = v == VECTOR_DF ? IST_DOUBLE_FAULT
			       : v == VECTOR_NMI ? IST_NMI : 0,
			.type = GATE_INTERRUPT_DPL0,
			.offset_mid = target >> 16 & 0xFFFF,
			.offset_high = target >> 32,
		};
	}
	__asm__ volatile("lidt %0" : : "m"(pointer));
}
