"""The screen console, read back: the ISO boots under OVMF with no serial
port at all, QEMU's monitor takes screendumps, and the screen is decoded
cell by cell against the glyphs of the font the kernel was built with
(the table scripts/psf2c.py wrote), until the summary line appears on it.
And a boot with neither serial port nor framebuffer (PVH) still runs and
exits with its status.

usage: tests/check.py screen --elf ELF --font-table BUILD/font.c [--qemu QEMU]
"""
import os
import re
import socket
import subprocess
import tempfile
import time

from .. import SCRIPTS, procs
from ..boot import qemu as boot
from ..report.tap_out import Tap
from . import argument_parser

SELECTION = "tests=selftest.pass,selftest.fail"
SUMMARY = "# pmctest: 1 passed, 1 failed, 0 skipped"
CELL_W, CELL_H = 8, 16
# A row of the font table: one glyph's 16 bytes, from FONT_FIRST (arch/font.h) on.
FONT_ROW = re.compile(r"^\t\{ ((?:0x[0-9a-f]{2}, ){15}0x[0-9a-f]{2}) \},")
FONT_FIRST = 0x20


def font_glyphs(path):
    """{code point: 16 bytes} of the font table the kernel was built with."""
    with open(path) as f:
        rows = [m.group(1) for m in map(FONT_ROW.match, f) if m]
    return {FONT_FIRST + i: bytes(int(b, 16) for b in row.split(", "))
            for i, row in enumerate(rows)}


def read_ppm(path):
    data = open(path, "rb").read()
    magic, size, maxval, pixels = data.split(b"\n", 3)
    width, height = map(int, size.split())
    return width, height, pixels


def screen_text(path, glyphs):
    """The text of a screendump: each 8x16 cell matched against the font."""
    width, height, px = read_ppm(path)
    by_bits = {bits: chr(c) for c, bits in glyphs.items() if 32 <= c < 127}
    rows = []
    for row in range(height // CELL_H):
        line = []
        for col in range(width // CELL_W):
            bits = bytes(
                sum(0x80 >> x for x in range(CELL_W)
                    if px[((row * CELL_H + y) * width + col * CELL_W + x) * 3] > 0x60)
                for y in range(CELL_H))
            line.append(by_bits.get(bits, "?"))
        rows.append("".join(line).rstrip())
    return rows


def monitor(sock_path, command):
    s = socket.socket(socket.AF_UNIX)
    s.connect(sock_path)
    s.settimeout(5)
    time.sleep(0.2)
    s.recv(65536)
    s.sendall(command.encode() + b"\n")
    time.sleep(0.5)
    s.close()


def main(argv):
    p = argument_parser(__name__, __doc__)
    p.add_argument("--elf", required=True)
    p.add_argument("--font-table", required=True, help="the build's font.c")
    p.add_argument("--qemu", default="qemu-system-x86_64")
    p.add_argument("--timeout", type=float, default=90)
    args = p.parse_args(argv)
    glyphs = font_glyphs(args.font_table)
    tap = Tap(detail_lines=8)
    check = tap.check

    print("TAP version 13")
    with tempfile.TemporaryDirectory() as tmp:
        iso, sock, dump = (os.path.join(tmp, f) for f in ("s.iso", "mon.sock", "s.ppm"))
        subprocess.run([os.path.join(SCRIPTS, "mkiso"), args.elf, iso, SELECTION],
                       check=True)
        cmd = [args.qemu, "-nodefaults", "-no-reboot", "-M", "pc", "-m", "128",
               "-accel", "tcg", "-cpu", "max", "-bios", boot.OVMF, "-cdrom", iso,
               "-boot", "d", "-vga", "std", "-display", "none",
               "-monitor", f"unix:{sock},server,nowait"]
        proc = procs.start(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        text, deadline = [], time.monotonic() + args.timeout
        try:
            while time.monotonic() < deadline and proc.poll() is None:
                time.sleep(2)
                if not os.path.exists(sock):
                    continue
                monitor(sock, f"screendump {dump}")
                if os.path.exists(dump):
                    text = screen_text(dump, glyphs)
                    if SUMMARY in text:
                        break
        finally:
            procs.done(proc)
        check(SUMMARY in text, "no serial port, OVMF: the summary line is on the screen",
              "\n".join(t for t in text if t) or proc.stderr.read().decode()[-400:])
        check(any(t.startswith("not ok 2 - selftest.fail") for t in text),
              "the failing test's result line is on the screen too")

    r = subprocess.run([args.qemu, "-nodefaults", "-no-reboot", "-display", "none",
                        "-accel", "tcg", "-cpu", "max", "-m", "64", "-kernel", args.elf,
                        "-append", SELECTION] + boot.DEBUG_EXIT,
                       capture_output=True, timeout=120)
    check(r.returncode == 3, "no serial port, no framebuffer (PVH): the run exits with status 1",
          f"QEMU exit {r.returncode}")
    return tap.finish()

