"""How a boot ended, and the kernel's verdict from that and its TAP: the
emulator's exit (isa-debug-exit gives (status << 1) | 1), a hang, a
guest the emulator stopped, or a run the host ended at its last line.

A line source (hosttools/boot/) fills in an Ending as its emulator ends;
the Judge's TapReader has read the lines; verdict() puts the two together.
"""
import re

from .patterns import RESULT
from .tap import EXIT_ERROR, is_listing

# The header line naming the boot protocol and the kernel's command line.
BOOT_HEADER = re.compile(r'^# boot: (\S+), command line "(.*)"$')
# exit= values that end the VM without a status (the kernel's cmdline.c):
# QEMU with -no-reboot exits 0 on the reset and on the triple fault.
EXIT_WITHOUT_STATUS = {"reset", "triple"}


class Ending:
    """What the emulator said as the run ended."""

    def __init__(self, emulator="QEMU"):
        self.emulator = emulator    # who ran the guest, for the messages
        self.start_error = None     # why the emulator did not start
        self.returncode = None      # the emulator's exit status
        self.timed_out = False      # no end before the timeout
        self.fatal = None           # the line with which it stopped the guest
        self.stopped_by = emulator  # who stopped the guest, if one did
        self.ended_at_last = False  # the host ended it at the kernel's last line
        self.stderr = ""            # the emulator's stderr, whole
        self.preamble = []          # the lines before the kernel's TAP


def last_test_started(lines):
    for line in reversed(lines):
        if RESULT.match(line):
            return line.split(" - ", 1)[-1]
    return None


def exit_method(lines):
    """The exit= the kernel says it was given (its header), or debug."""
    for line in lines:
        m = BOOT_HEADER.match(line)
        if m:
            words = [w[5:] for w in m.group(2).split() if w.startswith("exit=")]
            return words[-1] if words else "debug"
    return "debug"


def verdict_from_summary(tap, lines):
    """An end without a status (exit=reset, exit=triple, or ended at the
    last line): the status the TAP implies, 2 after a Bail out!, 1 if a
    test failed, 0 if none did; without a summary line the run did not
    end as it should."""
    if tap.bailed:
        return EXIT_ERROR, None
    if tap.summary is None:
        return EXIT_ERROR, (f"the guest ended (exit={exit_method(lines)}) "
                            "without a summary line")
    v = tap.finish(1 if tap.summary[1] else 0)
    return v.status, v.reason


def verdict(ending, tap, lines):
    """(status, problem): the kernel's status, or 2 and what went wrong
    (the boot's end, or the TAP's verdict). lines: the kernel's lines, as
    tap read them."""
    if ending.fatal:
        last = last_test_started(lines)
        return EXIT_ERROR, (f"{ending.stopped_by} stopped the guest: "
                            f"{ending.fatal}" +
                            (f"; last result reported: {last}" if last else ""))
    if ending.timed_out:
        last = last_test_started(lines)
        return EXIT_ERROR, ("the guest hung: no exit before the timeout" +
                            (f"; last result reported: {last}" if last else
                             "; no test result was reported"))
    if ending.ended_at_last:
        return verdict_from_summary(tap, lines)
    return verdict_of_exit(ending, tap, lines)


def verdict_of_exit(ending, tap, lines):
    """The verdict of an emulator that exited by itself."""
    code, stderr = ending.returncode, ending.stderr.strip()
    if code == 1 and not tap.started and stderr:
        return EXIT_ERROR, f"{ending.emulator} failed: {stderr}"
    if code == 1 and not tap.started and is_listing(ending.preamble):
        return 0, None
    if code in (1, 3, 5):
        v = tap.finish(code >> 1)
        return v.status, v.reason
    if code == 0 and exit_method(lines) in EXIT_WITHOUT_STATUS:
        return verdict_from_summary(tap, lines)
    if code == 0:
        return EXIT_ERROR, ("the guest reset or powered off without an exit "
                            "status (a triple fault?)")
    return EXIT_ERROR, (f"{ending.emulator} failed: "
                        f"{stderr or f'exit status {code}'}")
