# tests/host/layout.mk: the dependency rule of the source tree (README,
# "How it is built"), checked on every include line by layout_check.py,
# which also shows that it reports a deliberate violation of each kind.
#
# Included by the top Makefile; adds to HOST_TESTS the phony target
# layout-check.

.PHONY: layout-check
HOST_TESTS += layout-check
layout-check:
	$(PYTHON) tests/host/layout_check.py
	$(PYTHON) tests/host/layout_check.py --self-test
