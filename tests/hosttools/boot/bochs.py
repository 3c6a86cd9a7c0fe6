"""One boot in Bochs as a line source: the bochsrc of one boot, Bochs
started with COM1 going to a file, the file followed as it grows, and
where Debian's Bochs keeps its ROM images.

Bochs has no isa-debug-exit: the source stops Bochs itself once the
kernel's exit line is there (a nested boot: once L1's init reports the
exit status on COM2)."""
import os
import re
import select
import subprocess
import threading
import time
import tty

from .. import procs
from ..judge.ending import Ending
from ..judge.patterns import CONTROL
from ..judge.tap import TAP_VERSION
from .lines import LineSplitter, SerialLines
from .probe import cached, command_output

EXIT_LINE = re.compile(r"^# pmctest: exit status ([0-9]{1,9})")
# A nested boot: the exit status L1's init hands on (nested/init.sh).
L1_EXIT_LINE = re.compile(r"^pmctest-l1: exit status ([0-9])")


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


def first_existing(paths):
    for p in paths:
        if os.path.exists(p):
            return p
    return None


def bochsrc_text(model, cpus, extra, megs, iso, com1, log, com2=None):
    """The bochsrc of one boot: cpus CPUs of model, extra cpu: options
    (unknown MSRs #GP unless they say ignore_bad_msrs), megs MiB, the ISO
    from CD, COM1 (and COM2) to files."""
    cpu = f"model={model}, reset_on_triple_fault=0"
    if cpus > 1:
        cpu = f"count={cpus}, " + cpu
    cpu += ", " + (extra if "ignore_bad_msrs" in extra
                   else "ignore_bad_msrs=0" + (", " + extra if extra else ""))
    rom = first_existing(BOCHS_ROMS) or BOCHS_ROMS[0]
    vga = first_existing(BOCHS_VGA_ROMS) or BOCHS_VGA_ROMS[0]
    return "\n".join([
        "# made by tests/run for one boot",
        f"megs: {megs}",
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


def bochs_lines(bochs, workdir, bochsrc, timeout, l1_console=None, l1_line=None,
                console=None):
    """The Com1Lines of Bochs run in workdir with bochsrc (its text), its
    debugger, where it has one (Debian's 2.7), told to go at once;
    console: what stands between COM1 and the kernel's lines (Xen's,
    boot/xen_console.py), if anything."""
    cfg = os.path.join(workdir, "bochsrc")
    rc = os.path.join(workdir, "continue.rc")
    with open(cfg, "w") as f:
        f.write(bochsrc)
    with open(rc, "w") as f:
        f.write("c\n")
    debugger = ["-rc", rc] if bochs_has_debugger(bochs) else []
    return Com1Lines([bochs, "-q", "-f", cfg] + debugger, workdir,
                     os.path.join(workdir, "com1.txt"), timeout, l1_console,
                     l1_line, console)


def bochs_problem(source, wrote):
    """Why a Bochs run that gave no status did not end as it should: the
    guest reset, hung, triple-faulted or made Bochs panic (its log), or
    Bochs stopped; wrote: whether the kernel wrote any line."""
    if source.ending.start_error:
        return source.ending.start_error
    if source.restarted:
        return "the guest reset: a second 'TAP version' header appeared"
    if source.ending.timed_out:
        return f"the guest hung: no exit within {source.timeout:g} s"
    log = os.path.join(source.workdir, "bochs.log")
    problem = bochs_log_problem(log)
    if problem:
        return problem
    if not wrote:
        return "Bochs stopped with no output on COM1: " + (
            tail(source.ending.stderr, log) or
            f"exit status {source.ending.returncode}")
    return "truncated TAP: Bochs stopped before the kernel's exit line"


class Com1Lines:
    """The kernel's lines from one Bochs run, as lines() yields them:
    Bochs started with cmd in workdir, the COM1 file read as it grows
    until the kernel's exit line (status), a second "TAP version" line
    (restarted: the guest reset), L1's exit line on the console file
    l1_console (a nested boot), Bochs' exit or the timeout. l1_line, if
    given, turns each line of L1's console into lines of the stream as
    it comes (L1's report as header comments). console, if given, stands
    between COM1 and the kernel's lines as in ProcessLines (Xen's console:
    the guest's lines after "(d0) "); its fatal (Xen panicked, or halted
    the machine once dom0 stopped) ends the run, Bochs not exiting on
    either."""

    def __init__(self, cmd, workdir, com1, timeout, l1_console=None, l1_line=None,
                 console=None):
        self.cmd = cmd
        self.workdir = workdir
        self.com1 = com1
        self.timeout = timeout
        self.l1_console = l1_console
        self.l1_line = l1_line or (lambda line: [])
        self.console = console
        self.serial = SerialLines()
        self.ending = Ending("Bochs")
        self.status = None          # the kernel's exit line's, or L1's
        self.restarted = False      # a second TAP version line came
        self.versions = 0
        self.out_path = os.path.join(workdir, "bochs.out")
        self.err_path = os.path.join(workdir, "bochs.err")

    def lines(self):
        env = dict(os.environ, TERM="vt100")
        try:
            with open(self.out_path, "wb") as out, open(self.err_path, "wb") as err:
                proc = procs.start(self.cmd, stdin=subprocess.DEVNULL, stdout=out,
                                   stderr=err, env=env, cwd=self.workdir)
        except OSError as e:
            self.ending.start_error = f"Bochs failed to start: {e}"
            return
        screen = ScreenDrain(self.err_path)
        try:
            yield from self._follow(proc)
        finally:                # also when the runner is interrupted
            procs.done(proc)
            screen.stop()
            self.ending.returncode = proc.returncode
            self.ending.stderr = read_text(self.err_path)
            self.ending.preamble = self.serial.preamble

    def _follow(self, proc):
        split, l1_split = LineSplitter(), LineSplitter()
        deadline = time.monotonic() + self.timeout
        pos, l1_pos, exited, l1_status = 0, 0, False, None
        while True:
            if self.l1_console and l1_status is None:
                data = self._read(self.l1_console, l1_pos)
                l1_pos += len(data)
                for raw in l1_split.feed(data):
                    line = raw.decode("utf-8", "replace").rstrip("\r")
                    yield from self.l1_line(line)
                    m = L1_EXIT_LINE.match(line)
                    if m:   # COM1 is complete: one more read of it
                        l1_status, exited = int(m.group(1)), True
            data = self._read(self.com1, pos)
            pos += len(data)
            for raw in split.feed(data):
                yield from self._line(raw)
            if self.status is not None or self.restarted:
                break
            if self.console and self.console.fatal and not exited:
                exited = True       # Xen stopped: one more read of COM1
                continue
            if exited:
                self.status = l1_status
                break
            if proc.poll() is not None:
                exited = True       # one more read of COM1, then judge
                continue
            if time.monotonic() > deadline:
                self.ending.timed_out = True
                break
            time.sleep(0.05)
        rest = split.rest()
        if rest is not None:
            yield from self._line(rest)
        for line in self.console.finish() if self.console else []:
            yield from self._kernel_line(line)

    @staticmethod
    def _read(path, pos):
        if not os.path.exists(path):
            return b""
        with open(path, "rb") as f:
            f.seek(pos)
            return f.read()

    def _line(self, raw):
        text = raw.decode("utf-8", "replace").rstrip("\r")
        if not self.console:
            yield from self._kernel_line(text)
            return
        kernel = self.console.feed(CONTROL.sub("", text))
        # the console's own comments go straight into the stream, TAP or not
        yield from self.console.take_comments()
        for line in kernel:
            yield from self._kernel_line(line)

    def _kernel_line(self, text):
        for line in self.serial.take(text):
            if line == TAP_VERSION:
                self.restarted = self.versions > 0
                self.versions += 1
            m = EXIT_LINE.match(line)
            if m:
                self.status = int(m.group(1))
            yield line


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


# A display library no Bochs has: Bochs quits at once, printing its banner.
NO_SUCH_DISPLAY = "display_library: pmctest-version-probe"


def bochs_release(bochs):
    """"Bochs 2.7" from the banner the binary prints as it quits on a
    configuration it refuses (it has no --version), or None."""
    out = cached(("bochs-release", bochs),
                 lambda: command_output([bochs, "-q", "-n", NO_SUCH_DISPLAY]))
    m = re.search(r"Bochs x86 Emulator (\S+)", out)
    return f"Bochs {m.group(1)}" if m else None


BANNER_MISSING = "Bochs (version not printed)"


def bochs_banner(out_path):
    m = re.search(r"Bochs x86 Emulator (\S+)", read_text(out_path))
    return f"Bochs {m.group(1)}" if m else BANNER_MISSING


def bochs_named(out_path, banner):
    """banner (the run's version), and the build where the counting Bochs
    names its source and cache key under it (hosttools/images/bochs_pmu/)."""
    m = re.search(r"^\s*(Debian \S+, pmctest bochs-pmu \w+)\s*$",
                  read_text(out_path), re.M)
    return f"{banner} ({m.group(1)})" if m else banner
