# tests/host/layout.mk: the dependency rule of the source tree (docs/design.md,
# "Which layer stands on which"), checked on every include line and on every
# name the kernel's objects refer to across files (no circle among them), with
# a deliberate violation of each kind to show that the check reports it;
# and the host package's folders held to their directions (judge/ never
# imports boot/; only targets/ names a kind: tests/hosttools/devtools/
# layout_py.py).
#
# Included by the top Makefile; adds to HOST_TESTS the phony target
# layout-check.

.PHONY: layout-check
HOST_TESTS += layout-check
layout-check: $(ELF)
	$(PYTHON) tests/check.py layout --objects $(BUILD)/obj
