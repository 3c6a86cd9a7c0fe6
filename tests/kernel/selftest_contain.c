/*
 * selftest.contain.*: the harness contains what goes wrong inside a test.
 * Each case raises one exception (or interrupt) no exception-table entry
 * expects; the harness must report it as that test's failure, with the
 * vector and registers, restore what the case changed (CR0, CR4, RFLAGS)
 * and go on: the last case passes only if the harness still works. An
 * exception no instruction can be made to raise here is a SKIP with why.
 */
#include "apic.h"
#include "cpu.h"
#include "harness.h"
#include "ring.h"
#include "segments.h"

#define CR0_TS		(1ull << 3)
#define CR0_NE		(1ull << 5)
#define CR0_AM		(1ull << 18)
#define CR4_OSFXSR	(1ull << 9)
#define CR4_OSXMMEXCPT	(1ull << 10)
#define STRAY_VECTOR	0x41
#define UNMAPPED	0x8000000000ull		/* 512 GiB: past the 4 GiB map */

static void raise_de(void)
{
	__asm__ volatile("xor %%ecx, %%ecx; div %%ecx" : : : "rax", "rcx", "rdx");
}

/* Single-step: RFLAGS.TF traps after the next instruction. */
static void raise_db(void)
{
	__asm__ volatile("pushfq; orq $0x100, (%%rsp); popfq; nop" : : : "memory", "cc");
}

static void raise_bp(void)
{
	__asm__ volatile("int3");
}

/* INTO and BOUND do not exist in 64-bit mode: the vector by INT n. */
static void raise_of(void)
{
	__asm__ volatile("int $4");
}

static void raise_br(void)
{
	__asm__ volatile("int $5");
}

static void raise_nm(void)
{
	write_cr0(read_cr0() | CR0_TS);
	__asm__ volatile("fnop");
}

static void raise_np(void)
{
	__asm__ volatile("mov %0, %%fs" : : "r"((uint16_t)SEL_NOT_PRESENT));
}

/* A non-canonical address through RSP is a stack-segment access. */
static void raise_ss(void)
{
	__asm__ volatile("movabs $0x8000000000000000, %%rax; mov (%%rsp,%%rax), %%rax"
			 : : : "rax");
}

/* A non-canonical address through a data segment. */
static void raise_gp(void)
{
	__asm__ volatile("movabs $0x8000000000000000, %%rax; mov (%%rax), %%rax"
			 : : : "rax");
}

static void raise_pf(void)
{
	(void)*(volatile uint64_t *)(uintptr_t)UNMAPPED;
}

static void raise_mf(void)
{
	static const uint16_t divide_by_zero_unmasked = 0x037B;

	write_cr0(read_cr0() | CR0_NE);	/* x87 errors as #MF, not FERR# */
	__asm__ volatile("fninit; fldcw %0; fldz; fld1; fdivp; fwait; fninit"
			 : : "m"(divide_by_zero_unmasked));
}

static void raise_ac_in_ring(void *unused)
{
	(void)unused;
	__asm__ volatile("pushfq; orq $0x40000, (%%rsp); popfq; mov 1(%%rsp), %%rax"
			 : : : "rax", "memory");
}

static void raise_ac(void)
{
	write_cr0(read_cr0() | CR0_AM);
	ring_run64(3, raise_ac_in_ring, 0);
}

static void raise_xm(void)
{
	static const uint32_t divide_by_zero_unmasked = 0x1D80;
	static const uint32_t one = 0x3F800000;	/* 1.0f */

	/* The kernel keeps no value in XMM registers: nothing to clobber. */
	write_cr4(read_cr4() | CR4_OSFXSR | CR4_OSXMMEXCPT);
	__asm__ volatile("ldmxcsr %0; xorps %%xmm0, %%xmm0; movss %1, %%xmm1; divss %%xmm0, %%xmm1"
			 : : "m"(divide_by_zero_unmasked), "m"(one));
}

static void raise_reserved(void)
{
	__asm__ volatile("int $15");		/* reserved, no error code */
}

/* Push until the stack runs into its guard page. */
static void overflow_stack(void *unused)
{
	(void)unused;
	__asm__ volatile("1: pushq $0; jmp 1b" : : : "memory");
}

static void overflow_cpl0(void)
{
	overflow_stack(0);
}

static void overflow_cpl3(void)
{
	ring_run64(3, overflow_stack, 0);
}

static void raise_nmi(void)
{
	apic_self_nmi();
	for (volatile int spin = 0; spin < 1000000; spin++)
		;
}

static void raise_stray(void)
{
	apic_self_ipi(STRAY_VECTOR);
	interrupt_window();
}

static void harness_still_works(void)
{
	test_note("the contained faults before left the harness working");
}

static const struct {
	const char *id;
	void (*raise)(void);
	const char *cannot;	/* SKIP reason; NULL: raise() */
	bool needs_apic;
} cases[] = {
	{ "selftest.contain.de", raise_de, 0, false },
	{ "selftest.contain.db", raise_db, 0, false },
	{ "selftest.contain.nmi", raise_nmi, 0, true },
	{ "selftest.contain.bp", raise_bp, 0, false },
	{ "selftest.contain.of", raise_of, 0, false },
	{ "selftest.contain.br", raise_br, 0, false },
	{ "selftest.contain.nm", raise_nm, 0, false },
	{ "selftest.contain.df", overflow_cpl0, 0, false },
	{ "selftest.contain.ts", 0, "no instruction raises #TS without a task switch, which 64-bit mode does not have", false },
	{ "selftest.contain.np", raise_np, 0, false },
	{ "selftest.contain.ss", raise_ss, 0, false },
	{ "selftest.contain.gp", raise_gp, 0, false },
	{ "selftest.contain.pf", raise_pf, 0, false },
	{ "selftest.contain.mf", raise_mf, 0, false },
	{ "selftest.contain.ac", raise_ac, 0, false },
	{ "selftest.contain.mc", 0, "a machine check comes from the hardware; no instruction raises it", false },
	{ "selftest.contain.xm", raise_xm, 0, false },
	{ "selftest.contain.ve", 0, "#VE needs EPT violations under VMX, which a guest cannot set up for itself", false },
	{ "selftest.contain.cp", 0, "#CP needs CET shadow stacks, which pmctest does not enable", false },
	{ "selftest.contain.hv-vc-sx", 0, "#HV, #VC and #SX (28-30) come only from SEV-SNP and SVM security events", false },
	{ "selftest.contain.reserved", raise_reserved, 0, false },
	{ "selftest.contain.overflow.cpl3", overflow_cpl3, 0, false },
	{ "selftest.contain.stray-interrupt", raise_stray, 0, true },
	{ "selftest.contain.after", harness_still_works, 0, false },
};

#define CASES (sizeof(cases) / sizeof(cases[0]))

static void describe(unsigned i, struct test_text *t)
{
	strbuf_puts(&t->id, cases[i].id);
	strbuf_puts(&t->statements, "HARNESS");
	strbuf_puts(&t->description, i == CASES - 1
		    ? "after every contained fault the harness still runs tests"
		    : "an exception no test expects is this test's failure, and only its");
}

static void run(unsigned i)
{
	char text[120];
	struct strbuf why;

	strbuf_init(&why, text, sizeof(text));
	if (cases[i].cannot) {
		test_skip("%s", cases[i].cannot);
		return;
	}
	if (cases[i].needs_apic && !apic_available(&why)) {
		test_skip("%s", text);
		return;
	}
	cases[i].raise();
	if (i != CASES - 1)	/* it came back: nothing was raised */
		test_skip("the target raised nothing here: it does not implement this exception");
}

static const struct suite selftest_contain = { SUITE_EXPLICIT, CASES, describe, run };
REGISTER_SUITE(selftest_contain);
