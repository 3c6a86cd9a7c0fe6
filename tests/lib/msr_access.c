#include "msr_access.h"

#include "exec.h"

static void explain_fault(const struct exec_outcome *o, struct strbuf *why)
{
	if (o->error_code == EXEC_NO_ERROR_CODE)
		strbuf_printf(why, "raised vector %u", o->vector);
	else
		strbuf_printf(why, "raised vector %u (error code 0x%x)",
			      o->vector, o->error_code);
}

bool msr_read(uint32_t msr, uint64_t *value, struct strbuf *why)
{
	struct exec_outcome o;

	exec_rdmsr(msr, &o);
	if (o.faulted) {
		strbuf_printf(why, "RDMSR(%XH) ", msr);
		explain_fault(&o, why);
		return false;
	}
	*value = edx_eax(&o);
	return true;
}

bool msr_write(uint32_t msr, uint64_t value, struct strbuf *why)
{
	struct exec_outcome o;

	exec_wrmsr(msr, value, &o);
	if (o.faulted) {
		strbuf_printf(why, "WRMSR(%XH, 0x%llx) ", msr,
			      (unsigned long long)value);
		explain_fault(&o, why);
		return false;
	}
	return true;
}
