# The TCG PMU's migration check (tests/check.py qemu_pmu_migration): a guest that
# counts its own instructions across a fixed loop (guest/migrate_count.c),
# booted as the floor kernel is, run to its end and migrated mid-loop on
# the AMD model, the AMD model with PerfMonV2 and the Intel model; both
# counts must be equal (and, with PerfMonV2, the global registers kept).
MIGRATE_ELF	:= $(BUILD)/migrate_count.elf
MIGRATE_OBJS	:= $(BOOT_OBJS) $(BUILD)/obj/tests/qemu-pmu/guest/migrate_count.o

$(MIGRATE_ELF): $(MIGRATE_OBJS) linker.ld
	$(LD) $(KERNEL_LDFLAGS) -o $@ $(MIGRATE_OBJS)

test-qemu-pmu-migration: $(MIGRATE_ELF) $(BUILD)/qemu-pmu/built | $(BUILD)/.tools-test
	@if [ -e $(BUILD)/qemu-pmu/unavailable ]; then \
		echo "test-qemu-pmu-migration: SKIP: $$(cat $(BUILD)/qemu-pmu/unavailable)"; \
	else \
		$(PYTHON) tests/check.py qemu_pmu_migration --qemu $(QEMU_PMU) --elf $(MIGRATE_ELF); \
	fi
