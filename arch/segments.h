/* GDT selectors. Keep in step with arch/segments.inc and arch/gdt.c. */
#ifndef PMCTEST_SEGMENTS_H
#define PMCTEST_SEGMENTS_H

#define SEL_KERNEL_CODE64	0x08
#define SEL_KERNEL_DATA		0x10
#define SEL_KERNEL_CODE32	0x18

/* Code and data for CPL n (1..3), 64-bit and compatibility-mode code. */
#define SEL_CODE64(cpl)		(0x20 + 0x18 * ((cpl) - 1) + (cpl))
#define SEL_CODE32(cpl)		(0x28 + 0x18 * ((cpl) - 1) + (cpl))
#define SEL_DATA(cpl)		(0x30 + 0x18 * ((cpl) - 1) + (cpl))

#define SEL_TSS			0x68	/* 16 bytes: 0x68 and 0x70 */
#define SEL_NOT_PRESENT		0xE0	/* P = 0: loading it is #NP (selftests) */
#define SEL_CALL_GATE		0xF0	/* 16 bytes, DPL 3 (tests/kernel/mechanism.c) */
#define GDT_ENTRIES		32

#endif
