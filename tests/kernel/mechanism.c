/*
 * mechanism.<way>.cpl<N>: which ways up from CPL 1-3 to CPL 0 the target
 * delivers as the SDM says (Vol. 3A 6.12 interrupt gates, 5.8.3 call gates,
 * Vol. 2B SYSCALL). The suite itself comes back from other rings through an
 * exception (arch/ring_entry.asm), so it depends on none of these; this
 * group exists to measure them. Run it with tests=mechanism.*.
 */
#include "cpu.h"
#include "exec.h"
#include "extable.h"
#include "gdt.h"
#include "harness.h"
#include "msr.h"
#include "ring.h"
#include "segments.h"
#include "trap.h"


enum way { WAY_INT, WAY_SYSCALL, WAY_CALL_GATE, WAYS };

extern char mechanism_int[], mechanism_syscall[], mechanism_call_gate[];
extern char mechanism_int_insn[], mechanism_syscall_insn[],
	mechanism_call_gate_insn[];
extern char mechanism_landing_int[], mechanism_landing_syscall[],
	mechanism_landing_call_gate[];
extern volatile uint64_t mechanism_arrived[2];

static const struct {
	const char *name;
	const char *description;
	char *code, *insn;
} ways[WAYS] = {
	[WAY_INT] = { "int-gate", "INT 80H through a DPL 3 interrupt gate reaches CPL 0",
		      mechanism_int, mechanism_int_insn },
	[WAY_SYSCALL] = { "syscall", "SYSCALL reaches CPL 0 at IA32_LSTAR",
			  mechanism_syscall, mechanism_syscall_insn },
	[WAY_CALL_GATE] = { "call-gate", "a far CALL through a DPL 3 call gate reaches CPL 0",
			    mechanism_call_gate, mechanism_call_gate_insn },
};

static void describe(unsigned i, struct test_text *t)
{
	strbuf_printf(&t->id, "mechanism.%s.cpl%u", ways[i / 3].name, i % 3 + 1);
	strbuf_puts(&t->statements, "HARNESS");
	strbuf_puts(&t->description, ways[i / 3].description);
}

static bool wrmsr_or_fail(uint32_t msr, uint64_t value)
{
	struct exec_outcome o;

	exec_wrmsr(msr, value, &o);
	if (o.faulted)
		test_fail("WRMSR 0x%x raised vector %u", msr, o.vector);
	return !o.faulted;
}

static bool prepare(enum way way)
{
	struct exec_outcome o;

	switch (way) {
	case WAY_INT:
		idt_set_gate(0x80, (uint64_t)mechanism_landing_int, 3);
		return true;
	case WAY_CALL_GATE:
		gdt_set_call_gate(SEL_CALL_GATE,
				  (uint64_t)mechanism_landing_call_gate, 3);
		return true;
	case WAY_SYSCALL:
		if (!(cpuid(0x80000001, 0).edx & (1u << 11))) {
			test_skip("no SYSCALL: CPUID.80000001H:EDX[11] = 0");
			return false;
		}
		exec_rdmsr(MSR_EFER, &o);
		return !o.faulted &&
		       wrmsr_or_fail(MSR_STAR, (uint64_t)SEL_KERNEL_CODE64 << 32) &&
		       wrmsr_or_fail(MSR_LSTAR, (uint64_t)mechanism_landing_syscall) &&
		       wrmsr_or_fail(MSR_FMASK, 0) &&
		       wrmsr_or_fail(MSR_EFER, (o.rdx << 32 | (uint32_t)o.rax) | EFER_SCE);
	case WAYS:
		break;
	}
	return false;
}

static void run(unsigned i)
{
	enum way way = (enum way)(i / 3);
	unsigned cpl = i % 3 + 1;

	if (!prepare(way))
		return;
	mechanism_arrived[0] = mechanism_arrived[1] = 0;
	captured_fault.happened = false;
	ring_run64(cpl, (void (*)(void *))(void *)ways[way].code, 0);
	if (mechanism_arrived[0] == (uint64_t)way + 1 &&
	    (mechanism_arrived[1] & 3) == 0) {
		test_note("arrived at CPL 0 (CS 0x%llx)",
			  (unsigned long long)mechanism_arrived[1]);
	} else if (captured_fault.happened) {
		test_fail("expected arrival at CPL 0, observed %s (vector %u) error code 0x%x at the instruction (RIP 0x%llx)",
			  vector_name(captured_fault.vector), captured_fault.vector,
			  captured_fault.error_code,
			  (unsigned long long)captured_fault.rip);
	} else {
		test_fail("expected arrival at CPL 0, observed neither arrival nor a fault (arrived %llu, CS 0x%llx)",
			  (unsigned long long)mechanism_arrived[0],
			  (unsigned long long)mechanism_arrived[1]);
	}
}

static const struct suite mechanism = { SUITE_EXPLICIT, WAYS * 3, describe, run };
REGISTER_SUITE(mechanism);
