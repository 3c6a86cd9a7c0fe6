/* The execute-in-context primitive (kernel/exec.h) on the real CPU. */
#include "exec.h"

#include "cpu.h"
#include "extable.h"
#include "probe.h"
#include "ring.h"

bool exec_available(const struct exec_state *state, struct strbuf *why_not)
{
	if (state->cpl > 3) {
		strbuf_printf(why_not, "CPL %u does not exist", state->cpl);
		return false;
	}
	if (state->mode != MODE_LONG && state->mode != MODE_COMPAT) {
		strbuf_printf(why_not, "%s mode is not implemented by this kernel",
			      cpu_mode_name(state->mode));
		return false;
	}
	return true;
}

static void begin(void)
{
	captured_fault.happened = false;
}

static void finish(struct exec_outcome *out, const char *insn,
		   const struct probe_regs *regs)
{
	out->faulted = captured_fault.happened;
	out->vector = out->faulted ? captured_fault.vector : 0;
	out->error_code = out->faulted ? captured_fault.error_code : 0;
	out->fault_rip = out->faulted ? captured_fault.rip : 0;
	out->insn_rip = (uint64_t)insn;
	out->rax = regs->rax;
	out->rcx = regs->rcx;
	out->rdx = regs->rdx;
}

static void rdpmc_in_ring(void *regs)
{
	probe_rdpmc64(regs);
}

void exec_rdpmc(const struct exec_state *state, uint64_t rax, uint64_t rcx,
		uint64_t rdx, struct exec_outcome *out)
{
	struct probe_regs regs = { rax, rcx, rdx };
	uint64_t cr4 = read_cr4();
	const char *insn = probe_rdpmc64_insn;

	write_cr4(state->pce ? cr4 | CR4_PCE : cr4 & ~(uint64_t)CR4_PCE);
	begin();
	if (state->mode == MODE_COMPAT) {
		insn = probe_rdpmc32_insn;
		ring_run32(state->cpl, (uint32_t)(uintptr_t)probe_rdpmc32,
			   (uint32_t)(uintptr_t)&regs);
		regs.rax = (uint32_t)regs.rax;
		regs.rcx = (uint32_t)regs.rcx;
		regs.rdx = (uint32_t)regs.rdx;
	} else if (state->cpl == 0) {
		probe_rdpmc64(&regs);
	} else {
		ring_run64(state->cpl, rdpmc_in_ring, &regs);
	}
	write_cr4(cr4);
	finish(out, insn, &regs);
}

void exec_rdmsr(uint32_t msr, struct exec_outcome *out)
{
	struct probe_regs regs = { 0, msr, 0 };

	begin();
	probe_rdmsr(&regs);
	finish(out, probe_rdmsr_insn, &regs);
}

void exec_wrmsr(uint32_t msr, uint64_t value, struct exec_outcome *out)
{
	struct probe_regs regs = { (uint32_t)value, msr, value >> 32 };

	begin();
	probe_wrmsr(&regs);
	finish(out, probe_wrmsr_insn, &regs);
}
