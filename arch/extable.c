#include "extable.h"

extern const struct extable_entry __start_extable[], __stop_extable[];

volatile struct fault_capture captured_faults[CPUS_MAX];

const struct extable_entry *extable_find(uint64_t rip)
{
	for (const struct extable_entry *e = __start_extable;
	     e < __stop_extable; e++)
		if (e->insn == rip)
			return e;
	return 0;
}
