"""One boot of pmctest in QEMU: the command line, the serial console
followed line by line until QEMU exits, and the verdict, the kernel's exit
status or what went wrong instead (status 2). tests/boot.py is this as a
command; tests/run, bench.py and the host checks boot through it too.
"""
import os
import re
import select
import subprocess
import sys
import time

from . import procs
from .lines import LineSplitter
from .tap_log import CONTROL, RESULT, SUMMARY_PREFIX
from .verdict import TAP_VERSION, TapReader, is_listing

EXIT_HARNESS_ERROR = 2
OVMF = "/usr/share/ovmf/OVMF.fd"    # Debian's ovmf: UEFI for QEMU


# (QEMU's exit code) = (kernel status << 1) | 1 with isa-debug-exit.
DEBUG_EXIT = ["-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]

# The header line naming the boot protocol and the kernel's command line.
BOOT_HEADER = re.compile(r'^# boot: (\S+), command line "(.*)"$')
# exit= values that end the VM without a status (the kernel's cmdline.c):
# QEMU with -no-reboot exits 0 on the reset and on the triple fault.
EXIT_WITHOUT_STATUS = {"reset", "triple"}

# QEMU does not exit on these: it stops the guest and waits, so the boot
# ends it rather than waiting for the timeout.
QEMU_FATAL = re.compile(r"^KVM internal error.*$|^.*emulation failure.*$", re.M)


def qemu_command(args):
    cmd = [args.qemu, "-nodefaults", "-no-reboot", "-display", "none",
           "-serial", "stdio", "-monitor", "none", "-m", str(args.memory),
           "-accel", args.accel, "-cpu", args.cpu] + DEBUG_EXIT
    if args.machine:
        cmd += ["-M", args.machine]
    if getattr(args, "firmware", "bios") == "uefi":
        cmd += ["-bios", OVMF]
    if args.route == "iso":
        cmd += ["-cdrom", args.iso, "-boot", "d"]
    else:
        cmd += ["-kernel", args.elf]
        if args.cmdline:
            cmd += ["-append", args.cmdline]
    return cmd + args.qemu_args.split()


def last_test_started(lines):
    for line in reversed(lines):
        if RESULT.match(line):
            return line.split(" - ", 1)[-1]
    return None


class Boot:
    """One QEMU run: its serial lines, QEMU's stderr and how it ended.

    console, if given, stands between COM1 and the kernel's lines: its
    feed(line) gives the kernel's lines a serial line completes, finish()
    the rest, and its fatal says that it stopped the guest (Xen's console,
    tests/xen_console.py: the guest's lines after Xen's "(d0) ")."""

    def __init__(self, cmd, timeout, echo, log, console=None,
                 end_at_summary=False, stderr_line=None):
        """end_at_summary: the emulator is ended once the summary line or a
        Bail out! has come (a VMM that restarts the guest on a reset
        instead of ending), and the verdict is read from the TAP.
        stderr_line, if given, is called with each line of the emulator's
        stderr as it comes (a nested L1's console, reported live)."""
        self.cmd = cmd
        self.console = console
        self.stderr_line = stderr_line
        self.stopped_by = "QEMU"    # who stopped the guest, if one did
        self.end_at_summary = end_at_summary
        self.ended_at_summary = False
        self.lines = []
        self.arrived = []       # time.monotonic() when each line came
        self.preamble = None    # how many lines came before TAP, once it came
        self.tap = TapReader()  # the kernel's TAP, judged as it comes
        self.stderr = ""
        self.timed_out = False
        self.fatal = None       # QEMU's "KVM internal error" line, if any
        self.returncode = None
        proc = procs.start(self.cmd, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            self._follow(proc, timeout, echo, log)
        finally:                # also when this process is interrupted
            procs.done(proc)
            self.returncode = proc.returncode

    def _follow(self, proc, timeout, echo, log):
        self.deadline = time.monotonic() + timeout
        out, err = LineSplitter(), LineSplitter()
        errors = []
        streams = {proc.stdout.fileno(): out, proc.stderr.fileno(): err}
        while streams:
            left = self.deadline - time.monotonic()
            if left <= 0:
                self.timed_out = not self.fatal
                break
            ready, _, _ = select.select(list(streams), [], [], left)
            for fd in ready:
                data = os.read(fd, 65536)
                if not data:
                    del streams[fd]
                elif streams[fd] is err:
                    for raw in err.feed(data):
                        errors.append(raw.decode("utf-8", "replace"))
                        if self.stderr_line:
                            self.stderr_line(errors[-1])
                        m = QEMU_FATAL.search(errors[-1])
                        if m and not self.fatal:
                            self.fatal = m.group(0).strip()
                            # let the register dump that follows arrive
                            self.deadline = min(self.deadline, time.monotonic() + 0.5)
                        self.stderr = "\n".join(errors)
                else:
                    for raw in out.feed(data):
                        self._serial(raw, echo, log)
                    if self.end_at_summary and (
                            self.summary or
                            any(l.startswith("Bail out!") for l in self.lines)):
                        self.ended_at_summary = True
                        return
        rest = out.rest()
        if rest is not None:
            self._serial(rest, echo, log)
        rest = err.rest()
        if rest is not None:
            errors.append(rest.decode("utf-8", "replace"))
        self.stderr = "\n".join(errors)
        for line in self.console.finish() if self.console else []:
            self._line(line, echo, log)

    def _serial(self, raw, echo, log):
        # GRUB and SeaBIOS leave screen codes before the kernel's first line.
        line = CONTROL.sub("", raw.decode("utf-8", "replace"))
        if not self.console:
            self._line(line, echo, log)
            return
        for kernel_line in self.console.feed(line):
            self._line(kernel_line, echo, log)
        if self.console.fatal and not self.fatal:
            self.fatal, self.stopped_by = self.console.fatal, "Xen"
            self.deadline = min(self.deadline, time.monotonic() + 0.5)

    def _line(self, line, echo, log):
        if self.preamble is None and line.endswith(TAP_VERSION) and line != TAP_VERSION:
            # firmware that left its last line open: that part is its own
            self._line(line[:-len(TAP_VERSION)], echo, log)
            line = TAP_VERSION
        self.lines.append(line)
        self.arrived.append(time.monotonic())
        self.tap.feed(line)
        if line == TAP_VERSION and self.preamble is None:
            self.preamble = len(self.lines) - 1
        # What firmware and GRUB print before the kernel's TAP goes to
        # stderr, so that stdout and the log are TAP from their first line.
        if self.preamble is None:
            if echo:
                print(line, file=sys.stderr, flush=True)
            return
        if echo:
            print(line, flush=True)
        if log:
            log.write(line + "\n")
            log.flush()

    def flush_preamble(self, log):
        """A boot that never reached TAP: its output is all the log gets."""
        if log and self.preamble is None:
            log.write("".join(line + "\n" for line in self.lines))
            log.flush()

    @property
    def tap_lines(self):
        """The lines from the kernel's first TAP line on."""
        return self.lines[self.preamble or 0:]

    @property
    def exit_method(self):
        """The exit= the kernel says it was given (its header), or debug."""
        for line in self.lines:
            m = BOOT_HEADER.match(line)
            if m:
                words = [w[5:] for w in m.group(2).split() if w.startswith("exit=")]
                return words[-1] if words else "debug"
        return "debug"

    def verdict_from_summary(self):
        """An end without a status (exit=reset, exit=triple): the status
        the TAP implies, 2 after a Bail out!, 1 if a test failed, 0 if none
        did; without a summary line the run did not end as it should."""
        if self.tap.bailed:
            return EXIT_HARNESS_ERROR, None
        if self.tap.summary is None:
            return EXIT_HARNESS_ERROR, (
                f"the guest ended (exit={self.exit_method}) without a summary line")
        v = self.tap.finish(1 if self.tap.summary[1] else 0)
        return v.status, v.reason

    @property
    def summary(self):
        for line in reversed(self.lines):
            if line.startswith(SUMMARY_PREFIX) and " passed, " in line:
                return line
        return None

    def verdict(self):
        """(status, problem): the kernel's status, or 2 and what went wrong
        (the boot's end, or the TAP's verdict)."""
        if self.fatal:
            last = last_test_started(self.lines)
            return EXIT_HARNESS_ERROR, (
                f"{self.stopped_by} stopped the guest: {self.fatal}" +
                (f"; last result reported: {last}" if last else ""))
        if self.timed_out:
            last = last_test_started(self.lines)
            return EXIT_HARNESS_ERROR, (
                "the guest hung: no exit before the timeout" +
                (f"; last result reported: {last}" if last else
                 "; no test result was reported"))
        if self.ended_at_summary:
            return self.verdict_from_summary()
        code = self.returncode
        if code == 1 and not self.tap.started and self.stderr.strip():
            return EXIT_HARNESS_ERROR, "QEMU failed: " + self.stderr.strip()
        if code == 1 and not self.tap.started and is_listing(self.lines):
            return 0, None
        if code in (1, 3, 5):
            v = self.tap.finish(code >> 1)
            return v.status, v.reason
        if code == 0 and self.exit_method in EXIT_WITHOUT_STATUS:
            return self.verdict_from_summary()
        if code == 0:
            return EXIT_HARNESS_ERROR, (
                "the guest reset or powered off without an exit status "
                "(a triple fault?)")
        detail = self.stderr.strip() or f"exit status {code}"
        return EXIT_HARNESS_ERROR, "QEMU failed: " + detail
