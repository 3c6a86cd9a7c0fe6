# make bench: the bench.* group on each target, and the CPU time of the
# default suite next to a floor kernel, the time per group of tests (the
# kernel's timing option) and the full sweeps' RDPMCs per second, into
# $(BUILD)/bench.md
# (tests/bench.py); with tcg-pmu, TCG's CPU time for a fixed loop on
# Debian's QEMU and on the QEMU with the TCG PMU, its PMU off and on.
# BENCH_RUNS=5 runs per CPU time; BENCH_TARGETS=tcg,kvm,tcg-pmu;
# KUT_PMU=path to a built kvm-unit-tests x86/pmu.flat runs it beside the
# suite (without it, its row says SKIP and why).

FLOOR_ELF	:= $(BUILD)/floor.elf
FLOOR_ISO	:= $(BUILD)/floor.iso
BOOT_OBJS	:= $(patsubst %.asm,$(BUILD)/obj/%.o,$(wildcard boot/*.asm)) \
		   $(BUILD)/obj/arch/stacks.o $(BUILD)/obj/arch/hooks.o \
		   $(BUILD)/obj/arch/page_tables.o
FLOOR_OBJS	:= $(BOOT_OBJS) $(BUILD)/obj/tests/bench/floor.o
# The floor and a fixed loop (tests/bench/workload.c): TCG's cost per
# instruction with the TCG PMU off and on.
WORKLOAD_ELF	:= $(BUILD)/workload.elf
WORKLOAD_OBJS	:= $(BOOT_OBJS) $(BUILD)/obj/tests/bench/workload.o
BENCH_RUNS	?= 5
BENCH_TARGETS	?= tcg,kvm,tcg-pmu
BENCH_TIMEOUT	?= 600
KUT_PMU		?=
export PMCTEST_BENCH_TARGETS = $(BENCH_TARGETS)
export PMCTEST_BENCH_RUNS = $(BENCH_RUNS)
export PMCTEST_BENCH_TIMEOUT = $(BENCH_TIMEOUT)
export PMCTEST_KUT_PMU = $(KUT_PMU)

$(FLOOR_ELF): $(FLOOR_OBJS) linker.ld
	$(LD) $(KERNEL_LDFLAGS) -o $@ $(FLOOR_OBJS)

$(WORKLOAD_ELF): $(WORKLOAD_OBJS) linker.ld
	$(LD) $(KERNEL_LDFLAGS) -o $@ $(WORKLOAD_OBJS)

$(FLOOR_ISO): $(FLOOR_ELF) scripts/mkiso | $(BUILD)/.tools-run
	scripts/mkiso $(FLOOR_ELF) $@

bench: $(ELF) $(ISO) $(FLOOR_ELF) $(FLOOR_ISO) $(WORKLOAD_ELF) \
       $(BUILD)/qemu-pmu/built | $(BUILD)/.tools-uefi
	$(PYTHON) tests/bench.py --elf $(ELF) --iso $(ISO) \
		--floor-elf $(FLOOR_ELF) --floor-iso $(FLOOR_ISO) \
		--workload-elf $(WORKLOAD_ELF) --qemu-pmu $(QEMU_PMU) \
		--targets "$$PMCTEST_BENCH_TARGETS" --runs "$$PMCTEST_BENCH_RUNS" \
		--timeout "$$PMCTEST_BENCH_TIMEOUT" --qemu "$$PMCTEST_QEMU" --out $(BUILD)/bench.md \
		--kut-pmu "$$PMCTEST_KUT_PMU"
