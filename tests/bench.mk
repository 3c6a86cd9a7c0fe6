# make bench: the bench.* group on each target, and the wall time of the
# default suite next to a floor kernel, into $(BUILD)/bench.md
# (tests/bench.py). BENCH_RUNS=5 runs per wall time; BENCH_TARGETS=tcg,kvm.

FLOOR_ELF	:= $(BUILD)/floor.elf
FLOOR_ISO	:= $(BUILD)/floor.iso
FLOOR_OBJS	:= $(patsubst %.asm,$(BUILD)/obj/%.o,$(wildcard boot/*.asm)) \
		   $(BUILD)/obj/arch/stacks.o $(BUILD)/obj/tests/bench/floor.o
BENCH_RUNS	?= 5
BENCH_TARGETS	?= tcg,kvm
BENCH_TIMEOUT	?= 600

$(FLOOR_ELF): $(FLOOR_OBJS) linker.ld
	$(LD) $(KERNEL_LDFLAGS) -o $@ $(FLOOR_OBJS)

$(FLOOR_ISO): $(FLOOR_ELF) | $(BUILD)/.tools
	@rm -rf $(BUILD)/floor-iso
	@mkdir -p $(BUILD)/floor-iso/boot/grub
	cp $(FLOOR_ELF) $(BUILD)/floor-iso/boot/pmctest.elf
	printf '%s\n' 'serial --unit=0 --speed=115200' 'terminal_input serial' \
		'terminal_output serial' 'set timeout=0' 'menuentry "floor" {' \
		'  multiboot2 /boot/pmctest.elf' '  boot' '}' \
		> $(BUILD)/floor-iso/boot/grub/grub.cfg
	grub-mkrescue -o $@ $(BUILD)/floor-iso 2>$(BUILD)/grub-mkrescue.log || \
		{ cat $(BUILD)/grub-mkrescue.log >&2; exit 1; }

bench: $(ELF) $(ISO) $(FLOOR_ELF) $(FLOOR_ISO)
	$(PYTHON) tests/bench.py --elf $(ELF) --iso $(ISO) \
		--floor-elf $(FLOOR_ELF) --floor-iso $(FLOOR_ISO) \
		--targets $(BENCH_TARGETS) --runs $(BENCH_RUNS) \
		--timeout $(BENCH_TIMEOUT) --qemu $(QEMU) --out $(BUILD)/bench.md
