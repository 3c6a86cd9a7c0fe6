"""The firmware-table reader (arch/firmware_cpus.h, built for the host as
tables-check) on each seed of hosttools/table_seeds.py: what it makes of
each is what the seed is for (found and which APIC IDs, or refused or
nothing found, naming why); a seed whose MADT lost a byte's worth of its
checksum is no longer taken (the check can fail); and tests/fuzz/
table_seeds/, the fuzzer's corpus, is those seeds, file for file.

usage: tests/check.py firmware_tables --reader BUILD/host/tables-check
       tests/check.py firmware_tables --write-seeds DIR
"""
import os
import subprocess
import tempfile

from .. import TESTS
from ..devtools import table_seeds
from ..report.tap_out import Tap
from . import argument_parser

SEEDS = os.path.join(TESTS, "fuzz", "table_seeds")


def write_seeds(directory, seeds):
    os.makedirs(directory, exist_ok=True)
    for name in os.listdir(directory):
        os.unlink(os.path.join(directory, name))
    for name, data in seeds:
        with open(os.path.join(directory, name), "wb") as f:
            f.write(data)


def read(reader, directory):
    """{name: what the reader said} for every file of directory."""
    files = sorted(os.path.join(directory, n) for n in os.listdir(directory))
    r = subprocess.run([reader] + files, capture_output=True, text=True,
                       timeout=60)
    said = {}
    for line in r.stdout.splitlines():
        name, _, text = line.partition(": ")
        said[name] = text
    return said


def main(argv):
    p = argument_parser(__name__, __doc__)
    p.add_argument("--reader")
    p.add_argument("--write-seeds", metavar="DIR")
    args = p.parse_args(argv)
    seeds = list(table_seeds.seeds())
    if args.write_seeds:
        write_seeds(args.write_seeds, seeds)
        return 0
    if not args.reader:
        p.error("--reader is needed")
    print("TAP version 13")
    tap = Tap()
    with tempfile.TemporaryDirectory(prefix="table-seeds-") as tmp:
        write_seeds(tmp, seeds)
        said = read(args.reader, tmp)
        for name, _ in seeds:
            want = table_seeds.EXPECT[name]
            got = said.get(name, "(no line)")
            tap.check(got.startswith(want), f"{name}: {want}", [f"observed: {got}"])
        qemu = dict(seeds)["qemu-smp4"]
        broken = bytearray(qemu)
        broken[9 + 0x1000 + 40] ^= 1          # the MADT's flags field
        write_seeds(tmp, [("broken", bytes(broken))])
        got = read(args.reader, tmp).get("broken", "")
        tap.check(got.startswith("refused: ") and "checksum" in got,
                  "the check can fail: qemu-smp4 with one bit of its MADT flipped is refused",
                  [f"observed: {got}"])
    have = {}
    for name in sorted(os.listdir(SEEDS)):
        with open(os.path.join(SEEDS, name), "rb") as f:
            have[name] = f.read()
    want = dict(seeds)
    stale = sorted(n for n in set(want) | set(have) if want.get(n) != have.get(n))
    tap.check(not stale, "tests/fuzz/table_seeds/ holds every seed of hosttools/table_seeds.py",
              [f"differs: {n}" for n in stale] +
              ["rewrite it: tests/check.py firmware_tables --write-seeds tests/fuzz/table_seeds"])
    return tap.finish()
