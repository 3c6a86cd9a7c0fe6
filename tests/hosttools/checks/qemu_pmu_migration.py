"""The TCG PMU across a migration (make test-qemu-pmu-migration): a guest
that counts its own instructions
(tests/qemu-pmu/guest/migrate_count.c) counts the same whether QEMU
migrates it in the middle of its loop or not.

Each CPU model runs the guest twice: once to its end, and once migrated
(stopped while it loops, QMP "migrate" to a file, then a second QEMU
started with -incoming from that file and continued runs it to its end). Both counts must be equal:
the counters, and what the translated code has counted but not yet folded
into them, travel with the state (docs/counting-tcg.md, "Migration").
With AMD's PerfMonV2 the guest also writes what its global registers hold
after the loop (a "global=" line): the same in both runs, and the state
the guest gave them (GLOBAL_STATE) in the run not migrated.

usage: tests/check.py qemu_pmu_migration --qemu QEMU_PMU --elf GUEST
Exit status: 0 equal; 1 a count differs; 2 the check could not be carried
out (QEMU failed or hung, or bad arguments).
"""
import os
import re
import select
import subprocess
import sys
import tempfile
import time

from .. import procs
from ..boot import qemu as boot
from ..boot.qmp import qmp
from ..report.tap_out import Tap
from . import argument_parser

# The CPU models of the bare targets qemu-tcg-pmu-amd, qemu-tcg-pmu-amd-v2
# and qemu-tcg-pmu-intel
MODELS = (("AMD", "EPYC,tcg-pmu=on"),
          ("AMD PerfMonV2", "EPYC,tcg-pmu=on,tcg-pmu-perfmon-v2=on"),
          ("Intel", "Skylake-Client,tcg-pmu=on"))
COUNT = re.compile(rb"^count=0x([0-9a-f]{16})$", re.M)
GLOBAL = re.compile(rb"^global=(.*)$", re.M)
# What migrate_count.c gives PerfCntrGlobalCtl (counter 0 alone) and the
# status (counter 5's bit, by PerfCntrGlobalStatusSet); counter 1, enabled
# but gated, counts nothing
GLOBAL_STATE = ("ctl 0x0000000000000001 status 0x0000000000000020 "
                "gated 0x0000000000000000")
STARTED = b"counting\n"
# How long the guest loops before the host stops it to migrate it: well
# inside its loop, about 1 s under TCG here
STOP_AFTER_S = 0.2


class MigrationError(Exception):
    """The check could not be carried out: QEMU failed, hung or raced."""


def command(qemu, cpu, elf, extra):
    """The guest booted by PVH on -M pc, as the bare targets boot pmctest,
    and the arguments extra (each one argument, spaces and all)."""
    return boot.qemu_command(qemu, "tcg", cpu, "pvh", elf=elf) + extra


def guest_count(output, what):
    """The count the guest wrote on COM1, and its global= line (None
    without PerfMonV2)."""
    found = COUNT.search(output)
    if not found:
        tail = output[-300:].decode(errors="replace")
        raise MigrationError(f"{what}: no count=0x... line; its output "
                             f"ended {tail!r}")
    state = GLOBAL.search(output)
    return (int(found.group(1), 16),
            state.group(1).decode(errors="replace") if state else None)


def run_to_end(cmd, what, timeout):
    status, out = procs.run(cmd, timeout)
    # isa-debug-exit: the guest's status 0 is QEMU's 1
    if status != 1:
        raise MigrationError(f"{what}: QEMU ended with status {status}, "
                             f"not the guest's exit (1)")
    return guest_count(out, what)


def wait_started(proc, timeout):
    """COM1's bytes until the guest says it is counting."""
    seen, deadline = b"", time.monotonic() + timeout
    while STARTED not in seen:
        left = deadline - time.monotonic()
        if left <= 0 or proc.poll() is not None:
            raise MigrationError("the source guest never said 'counting'")
        if select.select([proc.stdout], [], [], left)[0]:
            seen += os.read(proc.stdout.fileno(), 4096)
    return seen


def ask(socket_path, commands):
    """QMP commands that must succeed; their answers."""
    answers = qmp(socket_path, commands)
    for (name, _), answer in zip(commands, answers):
        if "error" in answer:
            raise MigrationError(f"QMP {name}: {answer['error']}")
    return answers


def migrate(socket_path, state, timeout):
    """Stop the source and migrate it into the file state; QMP's last
    status."""
    ask(socket_path, [("stop", {}),
                      ("migrate", {"uri": f"exec:cat > {state}"})])
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = ask(socket_path, [("query-migrate", {})])[0]["return"]
        if status.get("status") in ("completed", "failed", "cancelled"):
            return status["status"]
        time.sleep(0.05)
    raise MigrationError(f"the migration did not end within {timeout} s")


def migrated_source(qemu, cpu, elf, tmp, timeout):
    """Start the guest, migrate it mid-loop into a file; that file."""
    socket_path, state = os.path.join(tmp, "qmp"), os.path.join(tmp, "state")
    proc = procs.start(command(qemu, cpu, elf, [
        "-qmp", f"unix:{socket_path},server=on,wait=off"]),
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT)
    try:
        seen = wait_started(proc, timeout)
        time.sleep(STOP_AFTER_S)
        status = migrate(socket_path, state, timeout)
        # QEMU ends its "cat > state" before it ends itself
        qmp(socket_path, [("quit", {})])
        seen += proc.communicate(timeout=timeout)[0]
    except subprocess.TimeoutExpired:
        raise MigrationError("the source QEMU did not quit") from None
    finally:
        procs.done(proc)
    if status != "completed":
        raise MigrationError(f"the migration ended {status}")
    if COUNT.search(seen):
        raise MigrationError("the guest ended its loop before the migration "
                             "did: its loop is too short on this machine")
    return state


def migrated_destination(qemu, cpu, elf, tmp, state, timeout):
    """The guest from the file state, continued to its end: its count.
    It arrives stopped, as the source was."""
    socket_path = os.path.join(tmp, "qmp-in")
    proc = procs.start(command(qemu, cpu, elf, [
        "-qmp", f"unix:{socket_path},server=on,wait=off",
        "-incoming", f"exec:cat {state}"]),
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + timeout
        while not os.path.exists(socket_path):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise MigrationError("the destination QEMU never listened")
            time.sleep(0.05)
        while ask(socket_path, [("query-status", {})])[0]["return"][
                "status"] == "inmigrate":
            if time.monotonic() > deadline:
                raise MigrationError("the destination never loaded the state")
            time.sleep(0.05)
        ask(socket_path, [("cont", {})])
        out = proc.communicate(timeout=timeout)[0]
    except subprocess.TimeoutExpired:
        raise MigrationError("the migrated guest did not end") from None
    finally:
        procs.done(proc)
    if proc.returncode != 1:
        raise MigrationError(f"migrated: QEMU ended with status "
                             f"{proc.returncode}, not the guest's exit (1)")
    return guest_count(out, "migrated")


def check_model(qemu, elf, cpu, timeout):
    """(count without migration, count with it) on one CPU model."""
    plain = run_to_end(command(qemu, cpu, elf, []), "not migrated", timeout)
    with tempfile.TemporaryDirectory(prefix="pmctest-migrate-") as tmp:
        state = migrated_source(qemu, cpu, elf, tmp, timeout)
        moved = migrated_destination(qemu, cpu, elf, tmp, state, timeout)
    return plain, moved


def global_verdict(vendor, plain, moved):
    """The PerfMonV2 line's verdict; None where the guest wrote none."""
    if plain is None and moved is None:
        return None
    if plain != GLOBAL_STATE:
        raise MigrationError(f"{vendor}: without migration the global "
                             f"registers hold {plain!r}, not the state the "
                             f"guest gave them ({GLOBAL_STATE!r}): the check "
                             "cannot tell whether a migration keeps it")
    return "kept" if moved == plain else f"NOT kept: {moved!r} migrated"


def check(qemu, elf, tap, timeout=120):
    """Every model, a TAP line each for its counts (and PerfMonV2's global
    registers): equal, or not. MigrationError when the check could not be
    carried out."""
    for vendor, cpu in MODELS:
        (plain, plain_global), (moved, moved_global) = \
            check_model(qemu, elf, cpu, timeout)
        lost = "" if plain == moved else f": {plain - moved:+d} lost in the migration"
        tap.check(plain == moved,
                  f"{vendor} (-cpu {cpu}): retired instructions counted "
                  f"{plain:#x} without migration, {moved:#x} migrated "
                  f"mid-loop{lost}", [f"{plain:#x} != {moved:#x}"])
        kept = global_verdict(vendor, plain_global, moved_global)
        if kept:
            tap.check(kept == "kept", f"{vendor}: the global registers "
                      f"({GLOBAL_STATE}) across the migration: {kept}",
                      [kept])


def main(argv):
    p = argument_parser(__name__, __doc__)
    p.add_argument("--qemu", required=True, help="the QEMU with the TCG PMU")
    p.add_argument("--elf", required=True, help="the counting guest")
    args = p.parse_args(argv)
    for path in (args.qemu, args.elf):
        if not os.path.isfile(path):
            print(f"qemu_pmu_migration: {path}: no such file", file=sys.stderr)
            return 2
    print("TAP version 13")
    tap = Tap()
    try:
        check(args.qemu, args.elf, tap)
    except (MigrationError, OSError, ValueError) as e:
        print(f"Bail out! the migration could not be checked: {e}")
        return 2
    return tap.finish()
