# tests/host/cmdline.mk: the kernel's command-line parser as a host program,
# $(BUILD)/host/cmdline-check, for the check that the host refuses the same
# command lines as the kernel (tests/check.py kernel_cmdline).

CMDLINE_CHECK := $(BUILD)/host/cmdline-check
CMDLINE_CHECK_SRCS := tests/host/cmdline_check.c kernel/cmdline.c kernel/strbuf.c

$(CMDLINE_CHECK): $(CMDLINE_CHECK_SRCS) kernel/cmdline.h kernel/harness.h kernel/strbuf.h
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) -o $@ $(CMDLINE_CHECK_SRCS)

HOST_PROGS += $(CMDLINE_CHECK)
