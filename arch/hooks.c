#include "hooks.h"

const struct arch_hooks *arch_hooks;

void arch_install_hooks(const struct arch_hooks *hooks)
{
	arch_hooks = hooks;
}
