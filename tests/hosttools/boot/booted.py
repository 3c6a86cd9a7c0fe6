"""One boot run to its end and read once: the line source of its process
(process.py) into a TapReader, for the tools that boot QEMU without a
target's expectations (tests/boot.py, tests/kvm.py, make bench, the host
checks, the `list` boot)."""
import sys

from ..judge import ending
from ..judge.tap import TapReader
from .process import ProcessLines


class Boot:
    """The kernel's lines of one boot (tap_lines; lines adds what came
    before its TAP), its TAP read (tap), how the emulator ended and the
    verdict on it all.

    echo: the kernel's lines to stdout as they come, what firmware and
    GRUB print before them to stderr, so that stdout is TAP from its first
    line; log: a file object that gets the kernel's lines."""

    def __init__(self, cmd, timeout, echo=False, log=None, console=None,
                 stderr_line=None):
        preamble = (lambda line: print(line, file=sys.stderr, flush=True)) \
            if echo else None
        source = ProcessLines(cmd, timeout, console=console,
                              stderr_line=stderr_line, preamble_line=preamble)
        self.tap = TapReader()
        self.tap_lines = []
        for line in source.lines():
            self.tap.feed(line)
            self.tap_lines.append(line)
            if echo:
                print(line, flush=True)
            if log:
                log.write(line + "\n")
                log.flush()
        self.ending = source.ending
        self.arrived = source.arrived
        if log and not self.tap.started:    # its output is all the log gets
            log.write("".join(line + "\n" for line in self.ending.preamble))
            log.flush()

    @property
    def lines(self):
        return self.ending.preamble + self.tap_lines

    @property
    def stderr(self):
        return self.ending.stderr

    @property
    def returncode(self):
        return self.ending.returncode

    def verdict(self):
        """(status, problem): the kernel's status, or 2 and what went
        wrong (hosttools/judge/ending.py)."""
        return ending.verdict(self.ending, self.tap, self.tap_lines)
