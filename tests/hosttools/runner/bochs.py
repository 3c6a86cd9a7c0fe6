"""One boot in Bochs, as an Outcome, and where Bochs's ROM images are.

Bochs has no isa-debug-exit: COM1 goes to a file, the runner reads it as it
grows and stops Bochs itself once the kernel's exit line is there."""
import os
import re
import select
import subprocess
import tempfile
import threading
import time
import tty

from .. import procs
from ..lines import LineSplitter
from ..nested.build import read_info
from ..nested.initramfs import run_archive
from ..nested.iso import make_iso

from .cmdline import kernel_cmdline
from .nested import L1_LINE, images_dir, kernel_name
from .outcome import Outcome
from .probe import cached, command_output

EXIT_LINE = re.compile(r"^# pmctest: exit status ([0-9]{1,9})")
# A nested boot: the exit status L1's init hands on (nested/init.sh).
L1_EXIT_LINE = re.compile(r"^pmctest-l1: exit status ([0-9])", re.M)

# Where Debian's bochsbios and vgabios put the ROM images (BXSHARE moves the
# first, as Bochs itself does).
BOCHS_SHARE = os.environ.get("BXSHARE", "/usr/share/bochs")
BOCHS_ROMS = [os.path.join(BOCHS_SHARE, "BIOS-bochs-latest")]
BOCHS_VGA_ROMS = ["/usr/share/vgabios/vgabios.bin",
                  os.path.join(BOCHS_SHARE, "VGABIOS-lgpl-latest")]


def bochs_models(bochs):
    out = cached(("bochs-cpus", bochs),
                 lambda: command_output([bochs, "-help", "cpu"]))
    return set(re.findall(r"^([a-z0-9_]+)$", out, re.M))


def bochs_has_debugger(bochs):
    """Debian's 2.7 has its debugger (-rc); a Bochs built without one,
    as the counting Bochs 3.0 is, refuses -rc."""
    out = cached(("bochs-help", bochs),
                 lambda: command_output([bochs, "-help"]))
    return re.search(r"^\s*-rc\s", out, re.M) is not None


def bochs_binary(target, opts):
    """The Bochs a target runs on: --bochs-pmu for the counting Bochs's."""
    return opts.bochs_pmu if target.get("bochs_pmu") else opts.bochs


def bochs_command(target, opts, cfg, rc):
    """Bochs on the bochsrc CFG; with its debugger, told by RC to go."""
    bochs = bochs_binary(target, opts)
    return [bochs, "-q", "-f", cfg] + (
        ["-rc", rc] if bochs_has_debugger(bochs) else [])


def first_existing(paths):
    for p in paths:
        if os.path.exists(p):
            return p
    return None


def bochsrc_text(target, iso, com1, log, com2=None):
    cpu = f"model={target['cpu']}, reset_on_triple_fault=0"
    if target.get("cpus", 1) > 1:
        cpu = f"count={target['cpus']}, " + cpu
    extra = target.get("bochs_cpu", "")
    cpu += ", " + (extra if "ignore_bad_msrs" in extra
                   else "ignore_bad_msrs=0" + (", " + extra if extra else ""))
    rom = first_existing(BOCHS_ROMS) or BOCHS_ROMS[0]
    vga = first_existing(BOCHS_VGA_ROMS) or BOCHS_VGA_ROMS[0]
    return "\n".join([
        "# made by tests/run for one boot",
        f"megs: {target.get('megs', 64)}",
        f"romimage: file={rom}",
        f"vgaromimage: file={vga}",
        f"cpu: {cpu}",
        f"ata0-master: type=cdrom, path={iso}, status=inserted",
        "boot: cdrom",
        f"com1: enabled=1, mode=file, dev={com1}",
    ] + ([f"com2: enabled=1, mode=file, dev={com2}"] if com2 else []) + [
        # term draws the VGA text screen with curses on a pseudo-terminal
        # the runner drains (ScreenDrain): no window, no listening socket
        # (rfb), no stdin needed.
        "display_library: term",
        # A VESA BIOS, as on a PC. term draws text modes only, and neither
        # GRUB nor the kernel sets a graphics mode (boot/multiboot2.asm):
        # the screen console writes in the EGA text screen.
        "vga: extension=vbe",
        "speaker: enabled=0",
        "clock: sync=none, time0=local",
        f"log: {log}",
        "panic: action=fatal",
        "error: action=report",
        "info: action=report",
        "debug: action=ignore",
        "",
    ])


def bochs_log_problem(log):
    text = read_text(log)
    for pattern, what in (
            (r"^.*(triple fault|3rd \(\d+\) exception).*$",
             "the guest triple-faulted"),
            (r"^\d+p\[.*$", "Bochs panicked")):
        m = re.search(pattern, text, re.M | re.I)
        if m:
            return f"{what} (Bochs log: {m.group(0).strip()})"
    return None


def follow_com1(proc, com1, judge, outcome, timeout, l1_console=None):
    """Feed judge the lines of the COM1 file as Bochs writes them, until the
    kernel's exit line (a nested boot: L1's, on its console l1_console), a
    reset, Bochs' exit or the timeout; returns the last line if it had no
    newline."""
    lines = LineSplitter()
    deadline = time.monotonic() + timeout
    pos = 0
    exited = False
    l1_status = None
    while True:
        if l1_console and l1_status is None:
            m = L1_EXIT_LINE.search(read_text(l1_console))
            if m:       # COM1 is complete: one more read of it
                l1_status = int(m.group(1))
                exited = True
        data = b""
        if os.path.exists(com1):
            with open(com1, "rb") as f:
                f.seek(pos)
                data = f.read()
                pos += len(data)
        if data:
            for raw in lines.feed(data):
                line = raw.decode("utf-8", "replace").rstrip("\r")
                judge.feed(line)
                m = EXIT_LINE.match(line)
                if m:
                    outcome.status = int(m.group(1))
                if judge.tap.restarted:
                    outcome.problem = ("the guest reset: a second "
                                       "'TAP version' header appeared")
        if outcome.status is not None or outcome.problem:
            break
        if exited:
            if l1_status is not None:
                outcome.status = l1_status
            break
        if proc.poll() is not None:
            exited = True       # one more read of COM1, then judge
            continue
        if time.monotonic() > deadline:
            outcome.problem = f"the guest hung: no exit within {timeout:g} s"
            break
        time.sleep(0.05)
    return lines.rest()


# Debian's Bochs has its debugger, and with it the term display draws the
# screen on a pseudo-terminal of its own, which it names on stderr.
SCREEN_PTY = re.compile(r'Bochs connected to screen "(/dev/pts/[0-9]+)"')


class ScreenDrain:
    """Reads and drops what Bochs draws on its screen's pseudo-terminal.
    Nobody else opens it, and once its buffer (a few KiB) is full Bochs
    blocks in the write: the guest stops in the middle of a line, at a
    different place each run. Text modes fill it (the kernel's screen
    console on the EGA text screen), a graphics mode does not."""

    def __init__(self, err_path):
        self.err_path = err_path
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._drain, daemon=True)
        self.thread.start()

    def _pty(self):
        while not self.stopped.is_set():
            m = SCREEN_PTY.search(read_text(self.err_path))
            if m:
                return m.group(1)
            time.sleep(0.05)
        return None

    def _drain(self):
        path = self._pty()
        if not path:
            return
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOCTTY)
        except OSError:
            return
        try:
            tty.setraw(fd)      # bytes as they come, nothing echoed back
            while not self.stopped.is_set():
                if select.select([fd], [], [], 0.2)[0] and not os.read(fd, 65536):
                    break
        except OSError:         # EIO: Bochs closed its side
            pass
        finally:
            os.close(fd)

    def stop(self):
        self.stopped.set()
        self.thread.join(1)


def nested_iso(target, opts, ctx, work, judge):
    """A nested target's ISO: Linux with KVM boots pmctest (nested/iso.py);
    its console goes to COM2."""
    where = images_dir(opts, target)
    info = read_info(where)
    judge.out(f"# run: kernel {kernel_name(info)}, its bzImage by GRUB; "
              f"modules {info['modules']}")
    with open(opts.elf, "rb") as f:
        run = run_archive(f.read(), kernel_cmdline(opts, ctx.excluded, target))
    try:
        return make_iso(where, run, os.path.join(work, "kvm.iso")), info
    except (RuntimeError, OSError) as e:
        raise RuntimeError(f"the nested ISO: {e}")


def run_bochs(target, opts, ctx, judge, timeout):
    outcome = Outcome()
    work = tempfile.mkdtemp(prefix=target["name"] + "-", dir=ctx.workdir)
    com1 = os.path.join(work, "com1.txt")
    com2 = os.path.join(work, "com2.txt") if target.get("kernel") else None
    if com2:
        iso, info = nested_iso(target, opts, ctx, work, judge)
    else:
        iso = ctx.isos.iso(kernel_cmdline(opts, ctx.excluded, target))
    log = os.path.join(work, "bochs.log")
    rc = os.path.join(work, "continue.rc")
    cfg = os.path.join(work, "bochsrc")
    with open(cfg, "w") as f:
        f.write(bochsrc_text(target, iso, com1, log, com2))
    with open(rc, "w") as f:
        f.write("c\n")      # Debian's Bochs has the debugger: go at once
    cmd = bochs_command(target, opts, cfg, rc)
    env = dict(os.environ, TERM="vt100")
    out_path = os.path.join(work, "bochs.out")
    err_path = os.path.join(work, "bochs.err")
    try:
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            proc = procs.start(cmd, stdin=subprocess.DEVNULL, stdout=out,
                               stderr=err, env=env, cwd=work)
    except OSError as e:
        outcome.problem = f"Bochs failed to start: {e}"
        outcome.emulator = "Bochs (unknown)"
        return outcome
    screen = ScreenDrain(err_path)
    try:
        rest = follow_com1(proc, com1, judge, outcome, timeout, com2)
    finally:                # also when the runner is interrupted
        procs.done(proc)
        screen.stop()
    if rest is not None:
        judge.feed(rest.decode("utf-8", "replace").rstrip("\r"))
    outcome.host = bochs_banner(out_path)
    outcome.emulator = bochs_named(out_path)
    if com2:
        kvm = f"KVM in {kernel_name(info)}"
        outcome.emulator += f"; {kvm}, nested"
        outcome.host += f" {target['cpu']}, {kvm}"
        why = [l for l in L1_LINE.findall(read_text(com2))
               if not l.startswith(("linux ", "exit status"))]
        if why:
            outcome.notes.append("L1: " + "; ".join(why))
    stderr = read_text(err_path)
    if outcome.status is None and not outcome.problem:
        outcome.problem = bochs_log_problem(log)
        if not outcome.problem:
            if not judge.lines:
                outcome.problem = "Bochs stopped with no output on COM1: " + (
                    tail(stderr, log) or f"exit status {proc.returncode}")
            else:
                outcome.problem = ("truncated TAP: Bochs stopped before the "
                                   "kernel's exit line")
    if opts.keep_bochs:
        outcome.notes.append(f"Bochs files kept in {work}")
    return outcome


def read_text(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def tail(stderr, log):
    lines = [l for l in stderr.splitlines()
             if l.strip() and not l.startswith("ALSA lib")
             and not re.match(r"^\d+i\[", l)]
    if not lines:
        lines = [l for l in read_text(log).splitlines()
                 if re.match(r"^\d+[ep]\[", l)]
    return " | ".join(lines[-3:])


def bochs_banner(out_path):
    m = re.search(r"Bochs x86 Emulator (\S+)", read_text(out_path))
    return f"Bochs {m.group(1)}" if m else "Bochs (version not printed)"


def bochs_named(out_path):
    """The banner's version, and the build where the counting Bochs names
    its source and cache key under it (tests/hosttools/bochs_pmu/build.py)."""
    m = re.search(r"^\s*(Debian \S+, pmctest bochs-pmu \w+)\s*$",
                  read_text(out_path), re.M)
    banner = bochs_banner(out_path)
    return f"{banner} ({m.group(1)})" if m else banner
