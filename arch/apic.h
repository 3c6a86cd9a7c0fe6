/*
 * The local APIC, in whichever mode the firmware left it (xAPIC through its
 * MMIO page, x2APIC through MSRs), and the legacy 8259 PICs masked: only
 * interrupts pmctest asks for arrive (SDM Vol. 3A, "Advanced
 * Programmable Interrupt Controller").
 */
#ifndef PMCTEST_APIC_H
#define PMCTEST_APIC_H

#include <stdbool.h>
#include <stdint.h>

#include "strbuf.h"

#define APIC_SPURIOUS_VECTOR	0xFF
#define APIC_LVT_MASKED		(1u << 16)

/* Masks the 8259s and, where there is an enabled local APIC, software-
 * enables it with TPR 0. Called once at boot. */
void interrupts_init(void);

/* Whether a local APIC is usable; if not, why (for SKIP). */
bool apic_available(struct strbuf *why_not);

/* The LVT performance-counter entry (xAPIC offset 340H, x2APIC 834H). */
uint32_t apic_lvt_pc_read(void);
void apic_lvt_pc_write(uint32_t value);

/* A fixed interrupt of `vector` to this CPU (self IPI); an NMI. */
void apic_self_ipi(uint8_t vector);
void apic_self_nmi(void);

void apic_eoi(void);

/* STI; NOP; CLI: a pending interrupt is taken at the NOP. */
void interrupt_window(void);

#endif
