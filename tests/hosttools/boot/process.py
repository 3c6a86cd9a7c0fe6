"""A booted emulator as a line source: the process started, its serial
console (stdout) followed line by line until it exits, hangs past its
timeout, stops the guest, or the kernel's last line has come; then an
Ending (hosttools/judge/ending.py) says how it ended. QEMU, Xen under
QEMU, nested KVM and the VMMs are booted this way.
"""
import os
import re
import select
import subprocess
import time

from .. import procs
from ..judge.ending import Ending
from ..judge.patterns import CONTROL
from .lines import LineSplitter, SerialLines

# QEMU does not exit on these: it stops the guest and waits, so the source
# ends it rather than waiting for the timeout.
QEMU_FATAL = re.compile(r"^KVM internal error.*$|^.*emulation failure.*$", re.M)
# After the line that stopped the guest, the register dump that follows.
FATAL_GRACE = 0.5


class ProcessLines:
    """The kernel's lines from one emulator process, as lines() yields
    them; ending says how it ended once they are all out.

    console, if given, stands between the serial port and the kernel's
    lines: its feed(line) gives the kernel's lines a serial line
    completes, finish() the rest, and its fatal says that it stopped the
    guest (Xen's console, hosttools/boot/xen_console.py); take_comments()
    gives the comments it adds to the kernel's lines.
    is_last(line), if given, is true of the kernel's last line: the
    process is ended there (a VMM that restarts the guest on a reset).
    stderr_line(line), if given, sees each line of stderr as it comes and
    returns the lines to put into the stream for it (a nested L1's report
    as header comments)."""

    def __init__(self, cmd, timeout, emulator="QEMU", console=None,
                 is_last=None, stderr_line=None, preamble_line=None, env=None):
        self.cmd = cmd
        self.timeout = timeout
        self.console = console
        self.is_last = is_last
        self.stderr_line = stderr_line
        self.env = env
        self.serial = SerialLines(preamble_line)
        self.ending = Ending(emulator)
        self.arrived = []       # time.monotonic() of each line yielded

    def lines(self):
        """The kernel's lines as they come (none where the emulator does
        not start: ending.start_error says why)."""
        try:
            proc = procs.start(self.cmd, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=self.env)
        except OSError as e:
            self.ending.start_error = f"{self.ending.emulator} failed to start: {e}"
            return
        try:
            yield from self._follow(proc)
        finally:                # also when the consumer stops or is interrupted
            procs.done(proc)
            self.ending.returncode = proc.returncode
            self.ending.preamble = self.serial.preamble

    def _follow(self, proc):
        deadline = time.monotonic() + self.timeout
        out, err = LineSplitter(), LineSplitter()
        errors = []
        streams = {proc.stdout.fileno(): out, proc.stderr.fileno(): err}
        while streams:
            left = deadline - time.monotonic()
            if left <= 0:
                self.ending.timed_out = not self.ending.fatal
                break
            ready, _, _ = select.select(list(streams), [], [], left)
            for fd in ready:
                data = os.read(fd, 65536)
                if not data:
                    del streams[fd]
                    continue
                split = streams[fd]
                for raw in split.feed(data):
                    if split is err:
                        yield from self._stderr(raw, errors)
                        continue
                    for line in self._serial(raw):
                        yield self._arrived(line)
                        if self.is_last and self.is_last(line):
                            self.ending.ended_at_last = True
                            return
                if self.ending.fatal and deadline > time.monotonic() + FATAL_GRACE:
                    deadline = time.monotonic() + FATAL_GRACE
        yield from self._rest(out, err, errors)

    def _stderr(self, raw, errors):
        errors.append(raw.decode("utf-8", "replace"))
        self.ending.stderr = "\n".join(errors)
        m = QEMU_FATAL.search(errors[-1])
        if m and not self.ending.fatal:
            self.ending.fatal = m.group(0).strip()
        if self.stderr_line:
            for line in self.stderr_line(errors[-1]):
                yield self._arrived(line)

    def _serial(self, raw):
        """The kernel's lines one serial line completes."""
        line = CONTROL.sub("", raw.decode("utf-8", "replace"))
        if not self.console:
            return self.serial.take(line)
        kernel = self.console.feed(line)
        if self.console.fatal and not self.ending.fatal:
            self.ending.fatal = self.console.fatal
            self.ending.stopped_by = "Xen"
        # the console's own comments go straight into the stream, TAP or not
        return self.console.take_comments() + \
            [l for k in kernel for l in self.serial.take(k)]

    def _rest(self, out, err, errors):
        """What the streams held without a newline at the end."""
        rest = out.rest()
        if rest is not None:
            for line in self._serial(rest):
                yield self._arrived(line)
        rest = err.rest()
        if rest is not None:
            errors.append(rest.decode("utf-8", "replace"))
            self.ending.stderr = "\n".join(errors)
        for line in self.console.finish() if self.console else []:
            for kernel_line in self.serial.take(line):
                yield self._arrived(kernel_line)

    def _arrived(self, line):
        self.arrived.append(time.monotonic())
        return line
