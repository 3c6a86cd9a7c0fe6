#include "guard.h"

#include "cpu_stacks.h"
#include "cpus.h"

#define PAGE		4096ull
#define LARGE_PAGE	(2ull << 20)
#define PDE_LARGE	(1ull << 7)
#define PTE_PRESENT	1ull
#define ENTRY_FLAGS	0x7ull		/* present, writable, user (boot/entry32.asm) */

extern uint64_t boot_pd[];	/* arch/page_tables.asm: 0 .. 4 GiB in 2 MiB pages */

/* Page tables for the 2 MiB pages the guards split: the stacks of every
 * CPU, 1.6 MiB in all (arch/stacks.asm), lie across at most two of them. */
#define SPLITS 2
static uint64_t tables[SPLITS][512] __attribute__((aligned(4096)));
static unsigned tables_used;
static unsigned guarded_cpus;	/* CPUs whose guards are unmapped */

/* The page table that maps the 2 MiB page around addr, made from the
 * large page it replaces (same frames, same rights) the first time. */
static uint64_t *table_for(uint64_t addr)
{
	uint64_t *pde = &boot_pd[addr / LARGE_PAGE];
	uint64_t base = addr & ~(LARGE_PAGE - 1);
	uint64_t *pt;

	if (!(*pde & PDE_LARGE))
		return (uint64_t *)(uintptr_t)(*pde & ~(PAGE - 1));
	pt = tables[tables_used++];
	for (unsigned i = 0; i < 512; i++)
		pt[i] = (base + i * PAGE) | ENTRY_FLAGS;
	*pde = (uint64_t)(uintptr_t)pt | ENTRY_FLAGS;
	return pt;
}

static void unmap_guards(unsigned first, unsigned end)
{
	uint64_t cr3;

	for (unsigned cpu = first; cpu < end; cpu++) {
		for (unsigned s = 0; s < CPU_STACKS; s++) {
			uint64_t addr = cpu_stack_guard(cpu, s);

			table_for(addr)[(addr / PAGE) % 512] &= ~PTE_PRESENT;
		}
	}
	guarded_cpus = end;
	__asm__ volatile("mov %%cr3, %0; mov %0, %%cr3" : "=r"(cr3) : : "memory");
}

void guard_pages_init(void)
{
	unmap_guards(0, 1);
}

void guard_pages_init_cpus(unsigned count)
{
	if (count > guarded_cpus)
		unmap_guards(guarded_cpus, count);
}

const char *guard_page_owner(uint64_t addr)
{
	for (unsigned cpu = 0; cpu < guarded_cpus; cpu++) {
		for (unsigned s = 0; s < CPU_STACKS; s++) {
			uint64_t page = cpu_stack_guard(cpu, s);

			if (addr >= page && addr < page + PAGE)
				return cpu_stack_name(s);
		}
	}
	return 0;
}
