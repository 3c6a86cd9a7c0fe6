# pmctest: `make` builds the kernel, its GRUB ISO and the host tools;
# `make run` boots it in QEMU; `make test` runs everything the project tests.

BUILD		?= build
CROSS_COMPILE	?=
CC		:= $(CROSS_COMPILE)gcc
LD		:= $(CROSS_COMPILE)ld
NASM		?= nasm
HOSTCC		?= cc
PYTHON		?= python3
QEMU		?= qemu-system-x86_64

# Xen for tests/run's xen-* targets: Debian's hypervisor package of each
# version the targets run, pinned in tests/hosttools/images/xen.py (4.17
# from bookworm, 4.20 from trixie; where the archive no longer has the pinned
# version, the newest of its series), downloaded with apt-get download into
# the cache outside the clone (make clean keeps it; never installed) and
# copied into $(BUILD)/xen-VERSION/ by make xen-VERSION (tests/xen.py).
# XEN=path runs your own build instead in the targets of XEN_VERSION (4.17,
# today's xen-pvh-dom0*, unless you say 4.20); the other version's run
# Debian's.
XEN		?=
XEN_VERSION	?= 4.17
XEN_SRCS	:= tests/xen.py tests/hosttools/images/xen.py \
		   tests/hosttools/images/archive.py

# The build the counting QEMU and the counting Bochs share: a change to
# it runs both builds again (their cache keys name its modules too).
COUNTING_SRCS	:= $(wildcard tests/hosttools/images/counting/*.py) \
		   tests/hosttools/cli/counting_build.py \
		   tests/hosttools/images/cache.py tests/hosttools/images/archive.py \
		   tests/hosttools/images/apt_sources.py

# The QEMU with the TCG PMU (tests/qemu-pmu/, docs/counting-tcg.md): Debian
# 12's qemu source, bookworm's on any host, at a pinned version (else the
# newest 7.2), Debian's patches, then ours; built once per machine
# into a cache outside the clone (make clean keeps it), QEMU_PMU_CACHE or
# ${XDG_CACHE_HOME:-$HOME/.cache}/pmctest. The qemu-tcg-pmu-* targets run
# it, and make run-kvm TCG_PMU=on runs L1 on it.
QEMU_PMU_PINNED	:= 1:7.2+dfsg-7+deb12u18
QEMU_PMU_CACHE	?=
QEMU_PMU	:= $(BUILD)/qemu-pmu/qemu-system-x86_64
QEMU_PMU_SRCS	:= $(wildcard tests/qemu-pmu/patches/*) tests/qemu_pmu.py \
		   $(wildcard tests/hosttools/images/qemu_pmu/*.py) $(COUNTING_SRCS)
TCG_PMU		?= off
ifneq ($(filter-out on perfmon-v2 off,$(TCG_PMU)),)
$(error TCG_PMU=$(TCG_PMU): on (L1 on the QEMU with the TCG PMU), perfmon-v2 (with AMD PerfMonV2, for KVM's mediated vPMU) or off)
endif
export PMCTEST_QEMU_PMU_PINNED = $(QEMU_PMU_PINNED)
export PMCTEST_QEMU_PMU_CACHE = $(QEMU_PMU_CACHE)

# make run: TCG by default. ACCEL=kvm, CPU=model, QEMU_ARGS=..., TESTS=glob,glob,
# FIRMWARE=uefi (OVMF instead of SeaBIOS)
ACCEL		?= tcg
FIRMWARE	?= bios
CPU		?= max
QEMU_ARGS	?=
TESTS		?=
KERNEL_ARGS	?=
CMDLINE		:= $(strip $(if $(TESTS),tests=$(TESTS)) $(KERNEL_ARGS))

# What a user sets on make's command line reaches the recipes as an
# environment variable, which a recipe quotes ("$$PMCTEST_ACCEL"): no shell
# ever parses the value, whatever it holds. PYTHON, CC and the other tool
# variables are commands, as in any Makefile.
export PMCTEST_QEMU = $(QEMU)
export PMCTEST_ACCEL = $(ACCEL)
export PMCTEST_CPU = $(CPU)
export PMCTEST_FIRMWARE = $(FIRMWARE)
export PMCTEST_QEMU_ARGS = $(QEMU_ARGS)
export PMCTEST_CMDLINE = $(CMDLINE)
export PMCTEST_XEN = $(if $(XEN),$(abspath $(XEN)))
export PMCTEST_XEN_VERSION = $(XEN_VERSION)
# tests/run's and tests/images.py's words for your own Xen, if any
XEN_OWN		:= $(if $(XEN),--xen "$$PMCTEST_XEN_VERSION=$$PMCTEST_XEN")

# BUILD is a path in every recipe: letters, digits and . _ / + - only.
PATH_CHARS	:= a b c d e f g h i j k l m n o p q r s t u v w x y z \
		   A B C D E F G H I J K L M N O P Q R S T U V W X Y Z \
		   0 1 2 3 4 5 6 7 8 9 . _ / + -
without_chars	= $(if $(2),$(call without_chars,$(subst $(firstword $(2)),,$(1)),$(wordlist 2,999,$(2))),$(1))
ifneq ($(call without_chars,$(BUILD),$(PATH_CHARS))$(word 2,$(BUILD)),)
$(error BUILD=$(BUILD): a build directory of letters, digits and . _ / + - only)
endif
ifneq ($(call without_chars,$(XEN_VERSION),0 1 2 3 4 5 6 7 8 9 .)$(word 2,$(XEN_VERSION)),)
$(error XEN_VERSION=$(XEN_VERSION): a version of Xen the targets run, such as 4.17 or 4.20 (tests/xen.py versions lists them))
endif

KERNEL_CFLAGS	:= -std=c11 -O2 -g -ffreestanding -fno-pic -fno-pie -I$(BUILD) \
		   -mno-red-zone -mgeneral-regs-only -mcmodel=small \
		   -fno-stack-protector -fno-asynchronous-unwind-tables \
		   -fno-builtin -nostdlib -Wall -Wextra -Werror \
		   -Ikernel -Iarch -Itests/lib
KERNEL_LDFLAGS	:= -nostdlib -static -z max-page-size=0x1000 -z noexecstack -T linker.ld
NASM_FLAGS	:= -f elf64 -I. -Werror
HOST_CFLAGS	:= -std=c11 -O2 -g -Wall -Wextra -Werror -Ikernel -Itests/host -I$(BUILD)
MODEL_SRCS	:= kernel/model.c kernel/pmu_decode.c kernel/topology.c kernel/strbuf.c

KERNEL_C	:= $(wildcard arch/*.c kernel/*.c tests/lib/*.c tests/suites/*.c \
		   tests/kernel/*.c)
KERNEL_ASM	:= $(wildcard boot/*.asm arch/*.asm)
KERNEL_OBJS	:= $(KERNEL_ASM:%.asm=$(BUILD)/obj/%.o) \
		   $(KERNEL_C:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/font.o

# The screen console's glyphs, from a PC Screen Font of console-setup.
FONT_PSF	:= /usr/share/consolefonts/Lat15-Fixed16.psf.gz

ELF		:= $(BUILD)/pmctest.elf
VERSION_H	:= $(BUILD)/version.h
ISO		:= $(BUILD)/pmctest.iso
HOST_PROGS	:=
HOST_TESTS	:=

.PHONY: all run test bench clean host-progs host-tests spec-coverage design-svg help report lava xen test-intel FORCE \
	clean-room lava-lab images run-kvm qemu-pmu bochs-pmu
all: $(ELF) $(ISO) host-progs

# Host programs and their tests: each tests/host/*.mk appends to
# HOST_PROGS and HOST_TESTS (phony targets that fail on a failure).
include $(wildcard tests/host/*.mk)
host-tests: $(HOST_TESTS)

host-progs: $(HOST_PROGS)
$(HOST_PROGS): | $(BUILD)/.tools-run

# Tools by need: scripts/tools.txt is the one table of what each command
# needs, by set, each tool checked by what the project asks of it (tappy
# reads a TAP 13 YAML block, xmllint refuses broken XML, clang builds a
# fuzzer). A set is installed when a target first needs it, with apt-get
# (Debian and Ubuntu; sudo when not root, without the packages recommended:
# through LAVA's libguestfs those would bring a Linux kernel, and a kernel
# is never installed on the host); elsewhere it names the packages and
# stops with status 2. $(BUILD)/.tools-SET records that a set is there.

# TOOLS_DRY=1, with make -n: each set a target reaches prints the packages
# it would install on a machine that has none of them, and nothing is
# installed or built (the tools check of make test reads this).
ifneq ($(TOOLS_DRY),)
ifeq ($(findstring n,$(firstword -$(MAKEFLAGS))),)
$(error TOOLS_DRY=1 goes with make -n)
endif
endif

$(BUILD)/.tools-%: scripts/tools.txt
ifneq ($(TOOLS_DRY),)
	+@scripts/tools packages $*
else
	@mkdir -p $(BUILD)
	@scripts/tools ensure $*
	@touch $@
endif

$(BUILD)/obj/%.o: %.asm arch/segments.inc arch/extable.inc | $(BUILD)/.tools-run
	@mkdir -p $(dir $@)
	$(NASM) $(NASM_FLAGS) -MD $(@:.o=.d) -MP -o $@ $<

$(BUILD)/obj/%.o: %.c | $(BUILD)/.tools-run
	@mkdir -p $(dir $@)
	$(CC) $(KERNEL_CFLAGS) -MMD -MP -c -o $@ $<

$(ELF): $(KERNEL_OBJS) linker.ld
	$(LD) $(KERNEL_LDFLAGS) -o $@ $(KERNEL_OBJS)

$(BUILD)/font.c: scripts/psf2c.py | $(BUILD)/.tools-run
	$(PYTHON) scripts/psf2c.py $(FONT_PSF) $@

$(BUILD)/obj/font.o: $(BUILD)/font.c arch/font.h
	@mkdir -p $(dir $@)
	$(CC) $(KERNEL_CFLAGS) -c -o $@ $<

# The version the TAP header names (scripts/version.py): rewritten only when
# the commit changes, so that only the harness is rebuilt then.
$(VERSION_H): export PMCTEST_VERSION = $(shell $(PYTHON) scripts/version.py)
$(VERSION_H): FORCE
	@mkdir -p $(BUILD)
	@printf '#define PMCTEST_VERSION "%s"\n' "$$PMCTEST_VERSION" | cmp -s - $@ || \
		printf '#define PMCTEST_VERSION "%s"\n' "$$PMCTEST_VERSION" > $@
$(BUILD)/obj/kernel/harness.o: $(VERSION_H)

# Fetched again when the pin changes (tests/hosttools/images/xen.py), and on
# every make until it succeeds: without a network the Xen targets of that
# version are unavailable, with the reason ($(BUILD)/xen-VERSION/unavailable).
$(BUILD)/xen-%/xen.txt: $(XEN_SRCS) | $(BUILD)/.tools-run
	$(PYTHON) tests/xen.py fetch $* --out $(BUILD)/xen-$*
xen-%: $(BUILD)/xen-%/xen.txt ;
.PRECIOUS: $(BUILD)/xen-%/xen.txt
ifneq ($(XEN),)
xen-$(XEN_VERSION):
	@echo "pmctest: the Xen $$PMCTEST_XEN_VERSION targets run $$PMCTEST_XEN (XEN=): nothing to fetch"
endif
# every version's
xen: | $(BUILD)/.tools-run
	@$(MAKE) --no-print-directory $$($(PYTHON) tests/xen.py versions | sed 's/^/xen-/')

# Built again when a patch or the recipe changes; the cache makes that
# quick where the key has been built before. Without a network (and no
# cached build) the qemu-tcg-pmu-* targets are unavailable, with the reason.
.SECONDARY: $(BUILD)/.tools-qemupmu
$(BUILD)/qemu-pmu/built: $(QEMU_PMU_SRCS) | $(BUILD)/.tools-run $(BUILD)/.tools-qemupmu
	$(PYTHON) tests/qemu_pmu.py build --pinned "$$PMCTEST_QEMU_PMU_PINNED" \
		--cache "$$PMCTEST_QEMU_PMU_CACHE" --out $(BUILD)/qemu-pmu
	@[ ! -e $(QEMU_PMU) ] || touch $@

qemu-pmu: $(BUILD)/qemu-pmu/built

# The command line GRUB passes is part of the ISO: rebuild when it changes.
# One the kernel would refuse stops make here, with the kernel's reason.
$(BUILD)/cmdline.txt: FORCE $(CMDLINE_CHECK) | $(BUILD)/.tools-run
	@mkdir -p $(BUILD)
	@$(PYTHON) tests/cmdline.py $@

$(ISO): $(ELF) $(BUILD)/cmdline.txt scripts/mkiso | $(BUILD)/.tools-run
	scripts/mkiso $(ELF) $@ "$$(cat $(BUILD)/cmdline.txt)"

run: $(ISO) | $(BUILD)/.tools-run $(if $(filter uefi,$(FIRMWARE)),$(BUILD)/.tools-uefi)
	$(PYTHON) tests/boot.py --route iso --iso $(ISO) --accel "$$PMCTEST_ACCEL" \
		--cpu "$$PMCTEST_CPU" --firmware "$$PMCTEST_FIRMWARE" \
		--qemu "$$PMCTEST_QEMU" --qemu-args="$$PMCTEST_QEMU_ARGS"

# The counting Bochs (tests/bochs-pmu/, docs/counting-bochs.md): Debian's
# bochs source of trixie at a pinned version (where the archive no longer
# has it, the newest 3.0), Debian's patches, then ours; built once per
# machine into the cache outside the clone, BOCHS_PMU_CACHE or
# ${XDG_CACHE_HOME:-$HOME/.cache}/pmctest, and built again when a patch or
# the recipe changes. The bochs-pmu-* targets run it (without a network
# and a cached build they are unavailable, with the reason); the bochs-*
# targets keep Debian's Bochs 2.7.
BOCHS_PMU_PINNED := 3.0+dfsg-1
BOCHS_PMU_CACHE	?=
BOCHS_PMU	:= $(BUILD)/bochs-pmu/bochs
BOCHS_PMU_SRCS	:= $(wildcard tests/bochs-pmu/patches/*) tests/bochs_pmu.py \
		   $(wildcard tests/hosttools/images/bochs_pmu/*.py) $(COUNTING_SRCS)
export PMCTEST_BOCHS_PMU_PINNED = $(BOCHS_PMU_PINNED)
export PMCTEST_BOCHS_PMU_CACHE = $(BOCHS_PMU_CACHE)
.SECONDARY: $(BUILD)/.tools-bochspmu
$(BUILD)/bochs-pmu/built: $(BOCHS_PMU_SRCS) | $(BUILD)/.tools-run $(BUILD)/.tools-bochspmu
	$(PYTHON) tests/bochs_pmu.py build --pinned "$$PMCTEST_BOCHS_PMU_PINNED" \
		--cache "$$PMCTEST_BOCHS_PMU_CACHE" --out $(BUILD)/bochs-pmu
	@[ ! -e $(BOCHS_PMU) ] || touch $@

bochs-pmu: $(BUILD)/bochs-pmu/built

# Linux KVM nested in QEMU TCG (tests/hosttools/images/nested/): Debian's
# kernels, fetched with apt-get download into $(BUILD)/kvm-NAME/ (nothing
# is installed), with an initramfs of busybox, this host's QEMU and KVM's
# modules. The kvm-* targets of tests/run boot them.
NESTED_SRCS	:= $(wildcard tests/hosttools/images/nested/*.py \
		   tests/hosttools/images/nested/init.sh \
		   tests/hosttools/images/nested/guest_state.awk) tests/kvm.py
# (a stamp only pattern rules name: not an intermediate file to delete)
.SECONDARY: $(BUILD)/.tools-nested

$(BUILD)/kvm-%/kernel.txt: $(NESTED_SRCS) | $(BUILD)/.tools-run $(BUILD)/.tools-nested
	$(PYTHON) tests/kvm.py build $* --out $(BUILD)/kvm-$*
nested-image-%: $(BUILD)/kvm-%/kernel.txt ;
# (reached through the pattern above, kernel.txt would be an intermediate
# file, which make deletes once the goal is made)
.PRECIOUS: $(BUILD)/kvm-%/kernel.txt

# make images: everything the targets need fetched and built (the nested
# images, the counting emulators, Xen), each kind declaring its own
# (Kind.images() in tests/hosttools/targets/; tests/images.py lists them).
images: | $(BUILD)/.tools-run
	@$(MAKE) --no-print-directory $$($(PYTHON) tests/images.py)
	@$(PYTHON) tests/images.py --check --build $(BUILD) --qemu-pmu $(QEMU_PMU) \
		--bochs-pmu $(BOCHS_PMU) $(XEN_OWN)

# make run-kvm: pmctest on Linux KVM nested in QEMU TCG, TAP on stdout and
# the kernel's status, as make run. KVM=SERIES picks Debian's kernel (a
# series of tests/hosttools/images/nested/kernels.py: tests/kvm.py series
# lists them, 6.1 6.12 7.3); KERNEL=bzImage (or a vmlinux with a PVH entry)
# boots your own instead, KERNEL_MODULES=dir the tree its modules are in
# (make modules_install INSTALL_MOD_PATH=dir, or the kernel's build tree;
# none: KVM built in). L1_ARGS=words go on L1's kernel command line,
# KVM_PARAMS='MODULE.NAME=VALUE ...' to the insmod of each of KVM's
# modules (kvm_amd.enable_mediated_pmu=1); L1 reads each back and says
# what it has ("# l1 params:"), and one it cannot take ends the run with
# status 2.
KVM		?= 6.12
ifneq ($(call without_chars,$(KVM),0 1 2 3 4 5 6 7 8 9 .)$(word 2,$(KVM)),)
$(error KVM=$(KVM): a series of Debian's kernels, such as 6.12 or 7.3 (tests/kvm.py series lists them); KERNEL=path boots your own)
endif
KERNEL		?=
KERNEL_MODULES	?=
L1_ARGS		?=
KVM_PARAMS	?=
export PMCTEST_KERNEL = $(KERNEL)
export PMCTEST_KERNEL_MODULES = $(KERNEL_MODULES)
export PMCTEST_L1_ARGS = $(L1_ARGS)
export PMCTEST_KVM_PARAMS = $(KVM_PARAMS)
RUN_KVM_PARAMS	:= --l1-args "$$PMCTEST_L1_ARGS" --kvm-params "$$PMCTEST_KVM_PARAMS"
ifneq ($(KERNEL),)
run-kvm: $(ELF) | $(BUILD)/.tools-run $(BUILD)/.tools-nested
	$(PYTHON) tests/kvm.py build --kernel "$$PMCTEST_KERNEL" \
		$(if $(KERNEL_MODULES),--modules "$$PMCTEST_KERNEL_MODULES") --out $(BUILD)/kvm-own
	$(PYTHON) tests/kvm.py run --images $(BUILD)/kvm-own --elf $(ELF) \
		$(RUN_KVM_L0) $(RUN_KVM_PARAMS) --cmdline "$$PMCTEST_CMDLINE"
else
run-kvm: $(ELF) $(BUILD)/kvm-$(KVM)/kernel.txt
	$(PYTHON) tests/kvm.py run --images $(BUILD)/kvm-$(KVM) --elf $(ELF) \
		$(RUN_KVM_L0) $(RUN_KVM_PARAMS) --cmdline "$$PMCTEST_CMDLINE"
endif
# TCG_PMU=on: L1 on the QEMU with the TCG PMU, -cpu EPYC,tcg-pmu=on, so
# that L1 finds counters and loads KVM with its vPMU on. TCG_PMU=perfmon-v2:
# the same with AMD PerfMonV2, and that QEMU as the guest's in L1 (it gives
# the guest CPUID 8000_0022H): what KVM's mediated vPMU needs.
ifeq ($(TCG_PMU),on)
run-kvm: $(BUILD)/qemu-pmu/built
RUN_KVM_L0	:= --qemu $(QEMU_PMU) --tcg-pmu
else ifeq ($(TCG_PMU),perfmon-v2)
run-kvm: $(BUILD)/qemu-pmu/built
RUN_KVM_L0	:= --qemu $(QEMU_PMU) --tcg-pmu --perfmon-v2 --inner-qemu $(QEMU_PMU)
else
RUN_KVM_L0	:= --qemu "$$PMCTEST_QEMU"
endif

# make test runs these steps in this order and stops at the first that
# fails. Each is a target of its own too, to run one part again.
TEST_STEPS	:= test-tools host-tests test-boot test-hostile-boot test-tap-parsers \
		   test-fuzz-tap test-lava test-lava-logs test-cli test-kernel-cmdline \
		   test-screen test-spec-coverage test-runner test-hostile test-targets \
		   test-qemu-pmu-migration test-docs
.PHONY: $(TEST_STEPS)

test: all | $(BUILD)/.tools-test
	@for step in $(TEST_STEPS); do \
		$(MAKE) --no-print-directory $$step || exit 1; \
	done

# Each command installs what it needs: make run none of the packages only
# make test needs, with or without UEFI; make test all of them.
test-tools:
	$(PYTHON) tests/check.py tools

# host-tests (tests/host/*.mk): the model's unit tests and the mutation run.

# The kernel, booted both ways (the GRUB ISO, also as a disk on BIOS and
# UEFI; PVH): complete TAP whose summary and exit status agree, every
# selftest's verdict, refused command lines, its options, and the #GP(0)
# and #UD QEMU TCG gives. Its serial logs go to $(BUILD)/tap/.
test-boot: $(ELF) $(ISO) | $(BUILD)/.tools-test
	$(PYTHON) tests/check.py boot --elf $(ELF) --iso $(ISO) --qemu "$$PMCTEST_QEMU" \
		--log-dir $(BUILD)/tap

# The loader shim (tests/bootshim/): a 32-bit PVH kernel for QEMU that
# enters pmctest's own entries (the Linux 64-bit one in long mode, as
# crosvm and Firecracker do) with the boot information a case crafted.
SHIM		:= $(BUILD)/bootshim/shim.elf
$(SHIM): tests/bootshim/shim.asm tests/bootshim/shim.ld | $(BUILD)/.tools-run
	@mkdir -p $(dir $@)
	$(NASM) -f elf32 -Werror -o $(@:.elf=.o) $<
	$(LD) -m elf_i386 -nostdlib -static -z noexecstack -T tests/bootshim/shim.ld \
		-o $@ $(@:.elf=.o)

# Hostile boot information through the three entries (Multiboot2, PVH,
# Linux 64-bit): each case refused with a Bail out! naming the field and
# status 2, or run, never a write out of bounds or a loop; a fault while reporting a fault ends the run at once.
test-hostile-boot: $(ELF) $(SHIM) | $(BUILD)/.tools-test
	$(PYTHON) tests/check.py hostile_boot --elf $(ELF) --shim $(SHIM) --qemu "$$PMCTEST_QEMU"

# Perl's TAP::Parser, Python's tappy and node's tap-parser read the logs
# test-boot kept and the simulator's logs of a deviation (failures with
# their YAML) and of 4 CPUs, one lost (@cpuN IDs): in a test, inside a YAML
# block CPU 0 then closes (SMP-6), and after its last result line, which
# ends the run with a Bail out!; without an unknown line. Then CPU 1 lost
# before and after each line it writes: every log whole TAP, counts exact,
# no "same as" naming a line that is not there.
test-tap-parsers: $(SIM) | $(BUILD)/.tools-test
	@mkdir -p $(BUILD)/tap
	$(SIM) --profile tests/profiles/intel-v5-sapphire-rapids.profile \
		--deviate no-high-clear > $(BUILD)/tap/sim-deviation.log || [ $$? = 1 ]
	$(SIM) --profile tests/profiles/amd-perfmon-v2.profile --cpus 4 \
		--deviate ap-hangs > $(BUILD)/tap/sim-ap-lost.log || [ $$? = 1 ]
	$(SIM) --profile tests/profiles/amd-perfmon-v2.profile --cpus 4 \
		--deviate ap-hangs-writing verbose > $(BUILD)/tap/sim-ap-lost-in-yaml.log || [ $$? = 1 ]
	$(SIM) --profile tests/profiles/amd-perfmon-v2.profile --cpus 2 \
		--deviate ap-hangs-writing verbose tests=smp.enum \
		> $(BUILD)/tap/sim-ap-lost-last-bail.log || [ $$? = 2 ]
	grep -q '^  cut: ' $(BUILD)/tap/sim-ap-lost-in-yaml.log
	grep -q '^Bail out! CPU 1 was lost in smp.enum@cpu1' $(BUILD)/tap/sim-ap-lost-last-bail.log
	$(PYTHON) tests/check.py tap_parsers $(BUILD)/tap/*.log
	$(PYTHON) tests/check.py lost_writer --sim $(SIM)

# The TAP and YAML reader, the JUnit writer and the line splitter under
# seeded mutants of the kernel's logs, FUZZ_SECONDS long (the seed is
# printed; FUZZ_SEED=N replays one).
FUZZ_SECONDS	?= 20
export PMCTEST_FUZZ_SECONDS = $(FUZZ_SECONDS)
export PMCTEST_FUZZ_SEED = $(FUZZ_SEED)
test-fuzz-tap: | $(BUILD)/.tools-test
	$(PYTHON) tests/check.py fuzz_tap --seconds "$$PMCTEST_FUZZ_SECONDS" \
		$(if $(FUZZ_SEED),--seed "$$PMCTEST_FUZZ_SEED")

# LAVA accepts both jobs and records one result per TAP test, by each
# route; the lab templates (tests/lava/lab-*.yaml) validate, and the PVH
# one runs on the stock qemu device type and is judged by tests/lava-judge.
test-lava: $(ELF) $(ISO) | $(BUILD)/.tools-lava
	$(PYTHON) tests/lava.py --elf $(ELF) --iso $(ISO) --check

# LAVA job logs kept in tests/lava/logs/, no LAVA needed: the kernel's
# serial lines read from them are whole TAP (a 'poweroff' LAVA typed and
# its echo are not the kernel's); tests/lava-judge matches each route's
# whole run with its expectation file, and refuses hostile variants
# (cut, foreign lines, repeated or colliding IDs, another hypervisor)
# with status 2; tests/run --all --lava reports a judged job.
test-lava-logs: | $(BUILD)/.tools-test
	$(PYTHON) tests/check.py lava_logs
	$(PYTHON) tests/check.py lava_judge

# What a user types: every command's --help, make run in another BUILD, and
# the command lines refused before anything boots.
test-cli: all
	$(PYTHON) tests/check.py cli --elf $(ELF) --build $(BUILD) --qemu "$$PMCTEST_QEMU"

# The host refuses the kernel command lines the kernel's own parser,
# built for the host, refuses.
test-kernel-cmdline: $(CMDLINE_CHECK)
	$(PYTHON) tests/check.py kernel_cmdline --parser $(CMDLINE_CHECK)

# The screen console read back from QEMU's screendumps (OVMF, no serial
# port), and a boot with no console at all.
test-screen: $(ELF) $(BUILD)/font.c | $(BUILD)/.tools-uefi
	$(PYTHON) tests/check.py screen --elf $(ELF) --font-table $(BUILD)/font.c \
		--qemu "$$PMCTEST_QEMU"

# docs/spec-coverage.md is current and names a test for every statement.
test-spec-coverage: $(ELF) $(SIM)
	$(PYTHON) tests/check.py spec_coverage --elf $(ELF) --qemu "$$PMCTEST_QEMU" --sim $(SIM)

# The manual: every relative link and #anchor of README.md and docs/*.md
# resolves, README.md has at most 250 lines, docs/design.svg is current,
# the examples of pmctest-model are what it prints, and docs/simulator.md
# has a row for each deviation of pmctest-sim.
test-docs: $(SIM) $(MODEL_TOOL)
	$(PYTHON) tests/check.py docs --model $(MODEL_TOOL) --sim $(SIM)

# tests/run itself: expectations, JUnit, and every way a boot can go wrong.
test-runner: $(ELF)
	$(PYTHON) tests/check.py runner --elf $(ELF)

# The host tools against hostile serial logs, arguments, resources, signals
# and make variables, through a stand-in emulator (about a minute).
test-hostile: $(ELF) $(ISO)
	$(PYTHON) tests/check.py hostile --elf $(ELF) --iso $(ISO) --build $(BUILD)

# Every target available here against its tests/expect/ file (logs in
# $(BUILD)/run/, Xen's whole console beside each xen-* log; the nested KVMs
# with their subset, --subset), then what the kernel wrote to Xen's console
# read by the three TAP parsers, each Xen target against bare TCG (tests/run
# --diff; docs/findings.md explains each difference), the report and the
# JUnit file that run wrote.
test-targets: all images | $(BUILD)/.tools-test
	@rm -f $(BUILD)/run/*.console.log
	$(PYTHON) tests/run --all --subset --elf $(ELF) --qemu "$$PMCTEST_QEMU" $(XEN_OWN) \
		--qemu-pmu $(QEMU_PMU) --bochs-pmu $(BOCHS_PMU) --build $(BUILD) \
		--junit $(BUILD)/junit.xml --log-dir $(BUILD)/run --report $(BUILD)/report
	$(PYTHON) tests/check.py tap_parsers --xen-console-dir $(BUILD)/run
	$(PYTHON) tests/check.py xen_diff --run-dir $(BUILD)/run
	$(PYTHON) tests/check.py report --report $(BUILD)/report
	$(PYTHON) tests/check.py runner --junit $(BUILD)/junit.xml --junit-only

# KVM's Intel vPMU with counters: L1 in the counting Bochs 3.0, kvm_intel
# with its emulated vPMU (6.12) and its mediated vPMU (7.3), each target's
# subset (tests/run --subset). Too slow for make test (half a minute to a
# minute and a half each here); not part of it.
INTEL_TARGETS	:= kvm-6.12-vmx-vpmu,kvm-7.3-vmx-mediated
test-intel: all | $(BUILD)/.tools-test
	@$(MAKE) --no-print-directory $$($(PYTHON) tests/images.py --target kvm-6.12-vmx-vpmu \
		--target kvm-7.3-vmx-mediated)
	$(PYTHON) tests/run --all --subset --only $(INTEL_TARGETS) --elf $(ELF) \
		--bochs-pmu $(BOCHS_PMU) --build $(BUILD) --log-dir $(BUILD)/run-intel

# The default run (or TESTS=, KERNEL_ARGS=) as a LAVA job, run by lava-run on this
# host: one LAVA result per test; the job and its log in $(BUILD)/lava/.
# LAVA_IMAGE=iso boots the GRUB ISO instead of the ELF by PVH.
LAVA_IMAGE	?= elf
lava: $(ELF) $(ISO) | $(BUILD)/.tools-lava
ifeq ($(LAVA_IMAGE),iso)
	$(PYTHON) tests/lava.py --iso $(ISO) --out $(BUILD)/lava
else
	$(PYTHON) tests/lava.py --elf $(ELF) --out $(BUILD)/lava --cmdline="$$PMCTEST_CMDLINE"
endif

# The README's two commands on a new machine (tests/clean_room.py): a
# minbase Debian root of RELEASE (bookworm, Debian 12; trixie, Debian 13)
# cached in ~/.cache/pmctest/rootfs/ (make clean keeps it), the committed
# HEAD cloned into it, make run then .ci/run as root; each step's time and
# every package the Makefile installed. First a root killed halfway, to
# show the cleanup leaves nothing. Not part of make test.
RELEASE		?= bookworm
ifneq ($(filter-out bookworm trixie,$(RELEASE))$(word 2,$(RELEASE)),)
$(error RELEASE=$(RELEASE): bookworm (Debian 12) or trixie (Debian 13), the releases make clean-room makes a root of)
endif
clean-room: | $(BUILD)/.tools-cleanroom
	$(PYTHON) tests/clean_room.py --kill-check --release $(RELEASE)
	$(PYTHON) tests/clean_room.py --release $(RELEASE) --keep-log $(BUILD)/clean-room-$(RELEASE)

# A real LAVA lab in a throwaway root (tests/lava_lab.py): PostgreSQL,
# lava-server, the scheduler and a worker with 2 qemu devices, in a network
# namespace of its own; six jobs queued at once, each fetched through
# lavacli into $(BUILD)/lava-lab/ and judged by pmctest's expectations.
# The installed root is cached in ~/.cache/pmctest/rootfs/. Root; not part
# of make test.
lava-lab: $(ELF) $(ISO) | $(BUILD)/.tools-lavalab
	$(PYTHON) tests/lava_lab.py --elf $(ELF) --iso $(ISO) --out $(BUILD)/lava-lab

# The conformance report of every target available here: $(BUILD)/report/;
# LAVA_JOBS="DIR ..." adds finished LAVA jobs (tests/lava-judge --save
# DIR), judged next to them.
LAVA_JOBS	?=
export PMCTEST_LAVA_JOBS = $(LAVA_JOBS)
report: all xen | $(BUILD)/.tools-test
	set -f; set --; for job in $$PMCTEST_LAVA_JOBS; do set -- "$$@" --lava "$$job"; done; \
	$(PYTHON) tests/run --all --elf $(ELF) --qemu "$$PMCTEST_QEMU" $(XEN_OWN) \
		--build $(BUILD) --report $(BUILD)/report "$$@" || [ $$? = 1 ]
	@echo "pmctest: the report is $(BUILD)/report/index.html"

spec-coverage: $(ELF) $(SIM)
	$(PYTHON) tests/check.py spec_coverage --elf $(ELF) --qemu "$$PMCTEST_QEMU" --sim $(SIM) --write

# The design picture, from the boxes and arrows in the script.
design-svg:
	$(PYTHON) scripts/design_svg.py

clean:
	rm -rf $(BUILD)

help:
	@echo 'make                 build the kernel, its GRUB ISO and the host tools in $(BUILD)/'
	@echo 'make run             boot the ISO in QEMU, print the TAP log; exit 0/1/2 as the kernel says'
	@echo '                     ACCEL=tcg|kvm CPU=max FIRMWARE=bios|uefi TESTS=glob,glob KERNEL_ARGS=...'
	@echo '                     QEMU_ARGS=... QEMU=...'
	@echo 'make run-kvm         pmctest on Linux KVM nested in QEMU TCG; KVM=6.1|6.12|7.3 (Debian),'
	@echo '                     or KERNEL=bzImage KERNEL_MODULES=dir (your own); TESTS=, KERNEL_ARGS='
	@echo '                     TCG_PMU=on: L1 on the QEMU with the TCG PMU, so KVM has its vPMU on;'
	@echo '                     TCG_PMU=perfmon-v2: with AMD PerfMonV2, for KVM'"'"'s mediated vPMU'
	@echo '                     L1_ARGS=words for L1'"'"'s command line, KVM_PARAMS=MODULE.NAME=VALUE...'
	@echo 'make qemu-pmu        build (or reuse from the cache) Debian'"'"'s QEMU with tests/qemu-pmu/patches'
	@echo 'make bochs-pmu       build (or reuse from the cache) Debian'"'"'s Bochs 3.0 with tests/bochs-pmu/patches'
	@echo 'make images          what the targets need fetched and built: Debian'"'"'s kernels (the kvm-*'
	@echo '                     targets), Xen, the counting QEMU and Bochs'
	@echo 'make test            everything the project tests (what CI runs); QEMU=... for another QEMU,'
	@echo '                     XEN=path for your own Xen in the targets of Xen XEN_VERSION=4.17|4.20'
	@echo '                     (default 4.17; the others run Debian'"'"'s, fetched by make images)'
	@echo '                     its steps, each a target too: $(wordlist 1,4,$(TEST_STEPS))'
	@echo '                     $(wordlist 5,99,$(TEST_STEPS))'
	@echo 'make test-intel      KVM'"'"'s Intel vPMU with counters, nested in the counting Bochs (slow; not in make test)'
	@echo 'make lava            the run as a LAVA job (lava-run, root; LAVA_IMAGE=iso): $(BUILD)/lava/'
	@echo 'tests/lava-judge     a finished LAVA job judged by tests/expect (make report LAVA_JOBS=DIR)'
	@echo 'make bench           the bench.* group, suite CPU times, time and exits per group, sweep rates: $(BUILD)/bench.md'
	@echo '                     KUT_PMU=path/to/kvm-unit-tests/x86/pmu.flat runs it beside the suite'
	@echo 'make mutation-report the simulator deviations and the tests that catch each'
	@echo 'make clean-room      make run and .ci/run in a new Debian root (root; not part of make test);'
	@echo '                     RELEASE=bookworm|trixie (Debian 12, the default, or 13)'
	@echo 'make lava-lab        a LAVA lab in a new Debian root runs and judges six jobs (root; not part of make test)'
	@echo 'make report          the conformance report of every target here: $(BUILD)/report/index.html'
	@echo 'make spec-coverage   rewrite docs/spec-coverage.md'
	@echo 'make design-svg      redraw docs/design.svg (scripts/design_svg.py)'
	@echo 'make clean           remove $(BUILD)/'
	@echo 'BUILD=dir builds in dir; CROSS_COMPILE=prefix picks a cross toolchain' 

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
include tests/bench.mk
include tests/qemu-pmu/guest.mk
