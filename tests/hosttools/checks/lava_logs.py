"""LAVA job logs kept in tests/lava/logs/ (README there says how each was
made), read as tests/lava.py and tests/lava-judge read them: the
kernel's serial lines are whole TAP, whatever LAVA logged while it
powered off.

usage: tests/check.py lava_logs [--logs DIR]
"""
import os

from .. import TESTS
from ..lava import log as lava_log
from ..report.tap_out import Tap
from ..judge.tap import verdict
from . import argument_parser


def read(path):
    with open(path, errors="replace") as f:
        return lava_log.records(f.read())


def poweroff_echo(tap, logs):
    """The log of the failure in issue #35: LAVA logged its own "poweroff"
    and the pty's echo of it as the console's ("target") lines."""
    records = read(os.path.join(logs, "pvh-poweroff-echo.log"))
    typed = [m for level, m in records if level == "input"]
    echoed = [m for level, m in records
              if level == "target" and m == "poweroff"]
    tap.check(typed == ["poweroff\n"] and len(echoed) == 2,
              "pvh-poweroff-echo.log is the failing shape: LAVA typed "
              "'poweroff' once and its log has it twice as the console's",
              [f"typed {typed}, 'poweroff' as target {len(echoed)} times"])
    lines = lava_log.serial_lines(records)
    v = verdict(lines, None)
    tap.check(v.status == 0 and "poweroff" not in lines,
              "its serial lines are the kernel's alone: whole TAP, status 0",
              [f"status {v.status}: {v.reason}"] + lines[-3:])


def main(argv):
    p = argument_parser(__name__, __doc__)
    p.add_argument("--logs", default=os.path.join(TESTS, "lava", "logs"))
    args = p.parse_args(argv)
    print("TAP version 13")
    tap = Tap()
    poweroff_echo(tap, args.logs)
    return tap.finish()
