# tests/host/fuzz.mk: the boot-information reader and the screen console
# fuzzed on the host (tests/fuzz/boot_fuzz.c): libFuzzer with AddressSanitizer
# and UndefinedBehaviorSanitizer, from the seed corpus tests/fuzz/seeds/
# (the loader shim's cases), for FUZZ_SECONDS. Any finding fails; its input
# is kept as $(BUILD)/fuzz/crash-*, to run again: $(BOOT_FUZZ) FILE.
#
# Included by the top Makefile; adds to HOST_TESTS the phony target
# fuzz-boot-info (and fuzz-firmware-tables, below).

CLANG		?= clang
FUZZ_SECONDS	?= 20
BOOT_FUZZ	:= $(BUILD)/fuzz/boot_fuzz
BOOT_FUZZ_SRCS	:= tests/fuzz/boot_fuzz.c arch/boot_info.c arch/firmware_memory.c arch/fbcon.c \
		   kernel/cmdline.c kernel/strbuf.c $(BUILD)/font.c

$(BOOT_FUZZ): $(BOOT_FUZZ_SRCS) arch/boot_info.h arch/firmware_memory.h arch/fbcon.h arch/font.h \
	      kernel/cmdline.h kernel/strbuf.h | $(BUILD)/.tools-test
	@mkdir -p $(@D)
	$(CLANG) -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -Wall -Wextra -Werror \
		-Iarch -Ikernel -I$(BUILD) -o $@ $(BOOT_FUZZ_SRCS)

HOST_TESTS += fuzz-boot-info
.PHONY: fuzz-boot-info
fuzz-boot-info: $(BOOT_FUZZ)
	@rm -rf $(BUILD)/fuzz/corpus && mkdir -p $(BUILD)/fuzz/corpus
	$(BOOT_FUZZ) -max_total_time=$(FUZZ_SECONDS) -timeout=5 -print_final_stats=1 \
		-artifact_prefix=$(BUILD)/fuzz/ $(BUILD)/fuzz/corpus tests/fuzz/seeds \
		2> $(BUILD)/fuzz/log || { tail -40 $(BUILD)/fuzz/log; exit 1; }
	@grep -E '^stat::(number_of_executed_units|new_units_added)' $(BUILD)/fuzz/log

# The firmware-table reader (arch/firmware_cpus.h) the same way
# (tests/fuzz/tables_fuzz.c), from tests/fuzz/table_seeds/ (the seeds of
# tests/hosttools/devtools/table_seeds.py), for TABLES_FUZZ_SECONDS; and first, the
# reader on each seed must make of it what the seed is for
# (tests/fuzz/tables_check.c, tests/check.py firmware_tables).
TABLES_FUZZ_SECONDS ?= 10
TABLES_FUZZ	:= $(BUILD)/fuzz/tables_fuzz
TABLES_FUZZ_SRCS := tests/fuzz/tables_fuzz.c arch/firmware_cpus.c \
		   arch/acpi_tables.c arch/mp_table.c arch/firmware_memory.c \
		   kernel/strbuf.c

$(TABLES_FUZZ): $(TABLES_FUZZ_SRCS) arch/firmware_cpus.h arch/firmware_tables.h arch/firmware_memory.h \
		arch/boot_info.h kernel/cpus.h kernel/strbuf.h | $(BUILD)/.tools-test
	@mkdir -p $(@D)
	$(CLANG) -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -Wall -Wextra -Werror \
		-Iarch -Ikernel -o $@ $(TABLES_FUZZ_SRCS)

TABLES_CHECK	:= $(BUILD)/host/tables-check
TABLES_CHECK_SRCS := tests/fuzz/tables_check.c arch/firmware_cpus.c \
		   arch/acpi_tables.c arch/mp_table.c arch/firmware_memory.c \
		   kernel/strbuf.c

$(TABLES_CHECK): $(TABLES_CHECK_SRCS) arch/firmware_cpus.h arch/firmware_tables.h arch/firmware_memory.h \
		 arch/boot_info.h kernel/cpus.h kernel/strbuf.h
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) -Iarch -o $@ $(TABLES_CHECK_SRCS)

HOST_PROGS += $(TABLES_CHECK)
HOST_TESTS += fuzz-firmware-tables
.PHONY: fuzz-firmware-tables
fuzz-firmware-tables: $(TABLES_FUZZ) $(TABLES_CHECK)
	$(PYTHON) tests/check.py firmware_tables --reader $(TABLES_CHECK)
	@rm -rf $(BUILD)/fuzz/tables-corpus && mkdir -p $(BUILD)/fuzz/tables-corpus
	$(TABLES_FUZZ) -max_total_time=$(TABLES_FUZZ_SECONDS) -timeout=5 -print_final_stats=1 \
		-artifact_prefix=$(BUILD)/fuzz/tables- $(BUILD)/fuzz/tables-corpus \
		tests/fuzz/table_seeds 2> $(BUILD)/fuzz/tables-log || \
		{ tail -40 $(BUILD)/fuzz/tables-log; exit 1; }
	@grep -E '^stat::(number_of_executed_units|new_units_added)' $(BUILD)/fuzz/tables-log
