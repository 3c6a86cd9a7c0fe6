"""Hostile boot information: pmctest entered through its own Multiboot2,
PVH and Linux 64-bit entries with boot information crafted here, by the loader shim
(tests/bootshim/shim.asm) under QEMU, one boot per case.

QEMU boots the shim by PVH and its generic loader places, before the first
instruction runs: pmctest's ELF segments, the case's boot information at
INFO (6 MiB), and the shim's parameters at SHIM_PARAMS: the entry, EAX, EBX,
a canary window and whether to enter in long mode (the Linux 64-bit entry,
with RSI = EBX, as crosvm and Firecracker enter an ELF). The shim fills the window with A5 bytes but for the
hole a case's framebuffer honestly covers, and jumps to the entry.

There is no isa-debug-exit device: the kernel prints its exit line and
halts, so that QEMU is still there to be asked (QMP pmemsave) for the
canary window and for the kernel's read-only segment. A run is judged by:
its exit line and Bail out! line; more than MAX_LINES lines or no exit line
within the timeout (a loop); any byte of the window outside the hole that is
no longer A5, or any change in the read-only segment (a write out of
bounds).

A case is a row of CASES. Another route (another entry, another boot
protocol) is a row of ROUTES: EAX, and whether the shim enters in long
mode; its entry is read from the ELF (e_entry: the Linux 64-bit entry; the
Multiboot2 header's entry address tag; the PVH note).
"""
import collections
import os
import re
import select
import struct
import subprocess
import tempfile
import time

from .. import procs
from . import firmware_tables
from .qmp import qmp
from .cmdline import CMDLINE_MAX

SHIM_PARAMS = 0x500000          # tests/bootshim/shim.asm
SHIM_MAGIC = 0x4D494853
INFO = 0x600000                 # where a case's boot information goes
CANARY_START, CANARY_END = 0x1000000, 0x1800000
FB = 0x1400000                  # a framebuffer inside the canary window
CANARY = 0xA5
MAX_LINES = 400                 # a run that bails out prints about 15
EXIT_LINE = re.compile(r"^# pmctest: exit status (\d+)")

MB2_BOOTLOADER_MAGIC = 0x36D76289
HVM_START_MAGIC = 0x336EC578
XEN_ELFNOTE_PHYS32_ENTRY = 18


# --- Multiboot2 boot information (Multiboot2 specification, 3.4-3.6) ----

def tag(type_, payload, size=None):
    """A tag with its true size, or the size given, padded to 8 bytes."""
    body = struct.pack("<II", type_, 8 + len(payload) if size is None else size)
    body += payload
    return body + bytes(-len(body) % 8)


def cmdline_tag(text):
    return tag(1, text.encode() + b"\0")


def fb_tag(address, pitch, width, height, bpp, fb_type):
    """Tag 8 as GRUB writes it (RGB: with its six colour-field bytes)."""
    payload = struct.pack("<QIIIBBH", address, pitch, width, height, bpp,
                          fb_type, 0)
    if fb_type == 1:
        payload += bytes([16, 8, 8, 8, 0, 8])
    return tag(8, payload)


def rgb(width=640, height=480, bpp=32, pitch=None, address=FB):
    return fb_tag(address, width * bpp // 8 if pitch is None else pitch,
                  width, height, bpp, 1)


def ega(width=80, height=25, pitch=None, address=FB, bpp=16):
    return fb_tag(address, 2 * width if pitch is None else pitch, width,
                  height, bpp, 2)


END_TAG = struct.pack("<II", 0, 8)


def mb2(*tags, total=None, end=END_TAG):
    """total_size (true, or as given), reserved, the tags, the end tag."""
    body = b"".join(tags) + end
    return struct.pack("<II", 8 + len(body) if total is None else total, 0) + body


def start_info(cmdline_paddr, magic=HVM_START_MAGIC, rsdp_paddr=0):
    """struct hvm_start_info, version 1 (Xen's start_info.h), without a
    memory map."""
    return struct.pack("<IIIIQQQQII", magic, 1, 0, 0, 0, cmdline_paddr, rsdp_paddr,
                       0, 0, 0)


# --- boot_params, the Linux zero page (Documentation/arch/x86/zero-page.rst)

E820_RAM, E820_RESERVED = 1, 2
# The map Firecracker writes for a 64 MiB VM: RAM below the EBDA, RAM from
# 1 MiB to the end.
E820_FIRECRACKER = [(0, 0x9FC00, E820_RAM), (0x100000, (64 << 20) - 0x100000, E820_RAM)]


def boot_params(cmdline=None, cmd_line_ptr=None, ext_cmd_line_ptr=0,
                e820=E820_FIRECRACKER, e820_entries=None, boot_flag=0xAA55,
                header=0x53726448):
    """4096 bytes as crosvm and Firecracker fill them for an ELF kernel:
    the setup header's boot_flag and "HdrS", type_of_loader FFH, the
    command line (placed right after the page at INFO + 4096, or at
    cmd_line_ptr) and the e820 table; then the command line itself."""
    page = bytearray(4096)
    text = b"" if cmdline is None else cmdline.encode() + b"\0"
    if cmd_line_ptr is None:
        cmd_line_ptr = INFO + 4096 if cmdline is not None else 0
    struct.pack_into("<I", page, 0x0C8, ext_cmd_line_ptr)
    page[0x1E8] = len(e820) if e820_entries is None else e820_entries
    struct.pack_into("<H", page, 0x1FE, boot_flag)
    struct.pack_into("<I", page, 0x202, header)
    page[0x210] = 0xFF                                   # type_of_loader
    struct.pack_into("<I", page, 0x228, cmd_line_ptr)
    struct.pack_into("<I", page, 0x238, len(text))      # cmdline_size
    for i, (addr, size, type_) in enumerate(e820[:128]):
        struct.pack_into("<QQI", page, 0x2D0 + 20 * i, addr, size, type_)
    return bytes(page) + text


def pvh_with_cmdline(text):
    """start_info at INFO, its command line 64 bytes further on."""
    head = start_info(INFO + 64)
    return head + bytes(64 - len(head)) + text.encode() + b"\0"


TABLES_SELECTION = "tests=selftest.pass,cpus.tables"


def pvh_with_tables(madt=None, rsdt_entries=None, rsdp=None, rsdp_paddr=None):
    """start_info at INFO, the command line TABLES_SELECTION at INFO + 64,
    and ACPI tables from INFO + 0x100 that the start_info's rsdp_paddr
    names (QEMU's layout: an RSDP of revision 0, an RSDT, a MADT)."""
    madt_at, rsdt_at, rsdp_at = INFO + 0x400, INFO + 0x200, INFO + 0x100
    mem = firmware_tables.Memory(INFO, 0x1000)
    mem.put(INFO, start_info(INFO + 64, rsdp_paddr=rsdp_at if rsdp_paddr is None
                             else rsdp_paddr))
    mem.put(INFO + 64, TABLES_SELECTION.encode() + b"\0")
    mem.put(rsdp_at, rsdp or firmware_tables.rsdp(rsdt=rsdt_at))
    mem.put(rsdt_at, firmware_tables.root([madt_at] if rsdt_entries is None else rsdt_entries))
    mem.put(madt_at, madt or firmware_tables.madt([0]))
    return bytes(mem.data)


def entry_past_end():
    """A MADT whose last entry says 200 bytes, past the table's end."""
    body = struct.pack("<II", 0xFEE00000, 1) + struct.pack("<BBBBI", 0, 8, 0, 0, 1)
    return firmware_tables.sdt(b"APIC", body + struct.pack("<BB6x", 1, 200))


# --- The cases --------------------------------------------------------------

SELECTION = "tests=selftest.pass"
SELECT = cmdline_tag(SELECTION)

# name; route (ROUTES); the boot information, placed at INFO; the text the
# Bail out! line must hold (None: the selected test must run and pass); the
# framebuffer's honest extent (address, bytes), the canary window's hole;
# EBX when not INFO; for firmware tables the kernel refuses while it runs
# on (on CPU 0 alone), the text cpus.tables' failure must hold, or for
# tables it takes, the text of the header's "# cpus:" line.
Case = collections.namedtuple("Case", "name route info expect fb ebx tables cpus",
                              defaults=(None, None, None, None))


def mb2_case(name, info, expect, fb=None, ebx=None):
    return Case(name, "multiboot2", info, expect, fb, ebx)


def pvh_case(name, info, expect, ebx=None):
    return Case(name, "pvh", info, expect, None, ebx)


def tables_case(name, info, refused=None, cpus=None):
    return Case(name, "pvh", info, None, None, None, refused, cpus)


def linux64_case(name, info, expect, ebx=None):
    return Case(name, "linux64", info, expect, None, ebx)


CASES = [
    # What a sound loader hands over runs the selected test, and the screen
    # console draws inside its framebuffer only.
    mb2_case("mb2.sound", mb2(SELECT, rgb()), None, fb=(FB, 640 * 4 * 480)),
    mb2_case("mb2.sound.ega", mb2(SELECT, ega()), None, fb=(FB, 160 * 25)),
    pvh_case("pvh.sound", pvh_with_cmdline(SELECTION), None),

    # The Multiboot2 information and its tags
    mb2_case("mb2.info.unaligned", bytes(4) + mb2(SELECT), "address 0x600004: not 8-byte aligned",
             ebx=INFO + 4),
    mb2_case("mb2.info.over-kernel", b"", "overlaps the kernel image", ebx=0x100008),
    mb2_case("mb2.total.short", mb2(SELECT, total=16), "runs past total_size 16"),
    mb2_case("mb2.total.long", mb2(SELECT, total=4096), "total_size 4096"),
    mb2_case("mb2.total.beyond-4g", mb2(SELECT, total=0xFFFFFFF0),
             "total_size 4294967280"),
    mb2_case("mb2.tag.size-0", mb2(SELECT, tag(4, bytes(8), size=0)), "size 0,"),
    mb2_case("mb2.tag.size-wraps", mb2(SELECT, tag(4, bytes(8), size=0xFFFFFFF9)),
             "size 4294967289 runs past"),
    mb2_case("mb2.tag.past-total", mb2(SELECT, tag(4, bytes(8), size=64)),
             "size 64 runs past"),
    mb2_case("mb2.end.missing", mb2(SELECT, end=b""), "without an end tag"),
    mb2_case("mb2.end.size", mb2(SELECT, end=struct.pack("<II", 0, 16) + bytes(8)),
             "end tag at offset 40, size 16"),
    mb2_case("mb2.cmdline.unterminated", mb2(tag(1, b"tests=x")), "not NUL-terminated"),
    mb2_case("mb2.cmdline.twice", mb2(SELECT, SELECT), "a second command line"),

    # The framebuffer: geometry, range, and what the console can draw
    mb2_case("fb.tag.short", mb2(SELECT, tag(8, bytes(16))), "framebuffer tag size 24"),
    mb2_case("fb.width-7", mb2(SELECT, rgb(width=7, pitch=32)), "width 7",
             fb=(FB, 32 * 480)),
    mb2_case("fb.width-4000", mb2(SELECT, rgb(width=4000, pitch=32)), "pitch 32",
             fb=(FB, 32 * 480)),
    mb2_case("fb.height-15", mb2(SELECT, rgb(height=15)), "height 15",
             fb=(FB, 640 * 4 * 15)),
    mb2_case("fb.ega.pitch", mb2(SELECT, ega(pitch=100)), "pitch 100",
             fb=(FB, 100 * 25)),
    mb2_case("fb.ega.bpp", mb2(SELECT, ega(bpp=32)), "bpp 32", fb=(FB, 160 * 25)),
    mb2_case("fb.bpp-0", mb2(SELECT, rgb(bpp=0, pitch=2560)), "bpp 0",
             fb=(FB, 2560 * 480)),
    mb2_case("fb.end-wraps", mb2(SELECT, rgb(address=0xFFFFFFFFFFFFF000)),
             "address 0xfffffffffffff000: its 1228800 bytes wrap"),
    mb2_case("fb.over-kernel", mb2(SELECT, ega(address=0xF8000, width=2048, height=64)),
             "address 0xf8000: its 262144 bytes overlap the kernel image"),
    mb2_case("fb.over-trampoline", mb2(SELECT, ega(address=0x8000)),
             "overlap the legacy-mode trampoline"),
    # consistent, but not drawn in: the run goes on, on COM1
    mb2_case("fb.above-4g", mb2(SELECT, rgb(address=0x800000000)), None),
    mb2_case("fb.rgb16", mb2(SELECT, rgb(bpp=16)), None, fb=(FB, 640 * 2 * 480)),
    mb2_case("fb.indexed", mb2(SELECT, fb_tag(FB, 640, 640, 480, 8, 0)), None,
             fb=(FB, 640 * 480)),

    # PVH's start_info and its command line
    pvh_case("pvh.magic", start_info(0, magic=0x12345678), "magic 0x12345678"),
    pvh_case("pvh.start_info.over-kernel", b"", "overlaps the kernel image", ebx=0x100000),
    pvh_case("pvh.start_info.beyond-4g", b"", "PVH start_info address", ebx=0xFFFFFFF8),
    pvh_case("pvh.cmdline.4g", start_info(0x100000000), "cmdline_paddr 0x100000000"),
    pvh_case("pvh.cmdline.noncanonical", start_info(0x8000000000000000),
             "cmdline_paddr 0x8000000000000000"),
    pvh_case("pvh.cmdline.over-kernel", start_info(0x100010),
             "cmdline_paddr 0x100010: 0x100010..0x100011 overlaps the kernel image"),
    pvh_case("pvh.cmdline.long", pvh_with_cmdline("a" * 2000), f"longer than {CMDLINE_MAX}"),

    # The ACPI tables PVH's rsdp_paddr names: an RSDP that is not one is
    # bad boot information; tables behind a sound one that do not hold
    # leave the run on CPU 0, and cpus.tables fails naming the field.
    tables_case("tables.sound", pvh_with_tables(),
                cpus="# cpus: 1 listed (ACPI MADT via the RSDT), 1 started"),
    Case("tables.rsdp.checksum", "pvh",
         pvh_with_tables(rsdp=firmware_tables.rsdp(rsdt=INFO + 0x200, checksum_ok=False)),
         "PVH rsdp_paddr: the RSDP's checksum over its first 20 bytes is not 0"),
    Case("tables.rsdp.over-kernel", "pvh", pvh_with_tables(rsdp_paddr=0x100010),
         "PVH rsdp_paddr: 0x100010..0x100024 overlaps the kernel image"),
    tables_case("tables.madt.checksum", pvh_with_tables(
                madt=firmware_tables.sdt(b"APIC", bytes(16), checksum_ok=False)),
                refused="APIC checksum: its 52 bytes do not sum to 0"),
    tables_case("tables.madt.entry-past-end", pvh_with_tables(madt=entry_past_end()),
                refused="entry at offset 52, type 1: length 200: not 2 to the 8 bytes left"),
    tables_case("tables.madt.duplicate", pvh_with_tables(madt=firmware_tables.madt([0, 1, 1])),
                refused="APIC ID 0x1 listed twice"),
    tables_case("tables.madt.bsp-missing", pvh_with_tables(madt=firmware_tables.madt([1, 2])),
                refused="lists 2 CPUs, not the running one (APIC ID 0x0)"),
    tables_case("tables.madt.200-cpus", pvh_with_tables(madt=firmware_tables.madt(list(range(200)))),
                cpus="200 listed (ACPI MADT via the RSDT), 1 started, xAPIC, "
                     "184 ignored beyond CPUS_MAX 16"),
    tables_case("tables.rsdt.into-kernel", pvh_with_tables(rsdt_entries=[0x100000]),
                refused="entry 0, 0x100000: 0x100000..0x100024 overlaps the kernel image"),

    # The Linux 64-bit entry (e_entry in long mode) and its boot_params
    linux64_case("linux64.sound", boot_params(SELECTION), None),
    linux64_case("linux64.over-kernel", b"", "boot_params address (RSI): 0x100000..0x101000 "
                 "overlaps the kernel image", ebx=0x100000),
    linux64_case("linux64.beyond-4g", b"", "boot_params address (RSI): 4096 bytes",
                 ebx=0xFFFFF800),
    linux64_case("linux64.boot_flag", boot_params(SELECTION, boot_flag=0x55AA),
                 "hdr.boot_flag 0x55aa: not 0xaa55"),
    linux64_case("linux64.header", boot_params(SELECTION, header=0x48647253),
                 "hdr.header 0x48647253: not 0x53726448"),
    linux64_case("linux64.e820.none", boot_params(SELECTION, e820=[]),
                 "e820_entries 0: not 1 to 128"),
    linux64_case("linux64.e820.129", boot_params(SELECTION, e820_entries=129),
                 "e820_entries 129: not 1 to 128"),
    linux64_case("linux64.e820.wraps", boot_params(SELECTION, e820=E820_FIRECRACKER + [
                 (0xFFFFFFFFFFFFF000, 0x2000, E820_RESERVED)]),
                 "e820_table[2] addr 0xfffffffffffff000, size 0x2000: wraps"),
    linux64_case("linux64.e820.no-ram", boot_params(SELECTION, e820=[
                 (0, 0x9FC00, E820_RAM), (0x100000, (64 << 20) - 0x100000, E820_RESERVED)]),
                 "no RAM entry holds the kernel image"),
    linux64_case("linux64.cmdline.4g", boot_params(SELECTION, ext_cmd_line_ptr=1),
                 "cmd_line_ptr (with ext_cmd_line_ptr) 0x100601000"),
    linux64_case("linux64.cmdline.over-kernel", boot_params(SELECTION, cmd_line_ptr=0x100010),
                 "0x100010: 0x100010..0x100011 overlaps the kernel image"),
    linux64_case("linux64.cmdline.long", boot_params("a" * 2000), f"longer than {CMDLINE_MAX}"),
]


# --- The kernel's ELF -------------------------------------------------------

def elf_facts(path):
    """{route: entry}, and [(paddr, bytes)] of the read-only PT_LOADs."""
    with open(path, "rb") as f:
        data = f.read()
    entry, phoff = struct.unpack_from("<QQ", data, 24)
    phentsize, phnum = struct.unpack_from("<HH", data, 54)
    entries, readonly = {"linux64": entry}, []
    entries.update(multiboot2_entry(data[:32768]))
    for i in range(phnum):
        p_type, flags, offset, _, paddr, filesz = struct.unpack_from(
            "<IIQQQQ", data, phoff + i * phentsize)
        if p_type == 1 and not flags & 2:          # PT_LOAD, not PF_W
            readonly.append((paddr, data[offset:offset + filesz]))
        if p_type == 4:                             # PT_NOTE
            entries.update(pvh_note(data[offset:offset + filesz]))
    return entries, readonly


def multiboot2_entry(head):
    """The entry address tag (Multiboot2 3.1.6) of the header in the first
    32 KiB: {"multiboot2": address}, or {} without one."""
    at = next((i for i in range(0, len(head) - 16, 8)
               if struct.unpack_from("<I", head, i)[0] == 0xE85250D6), None)
    if at is None:
        return {}
    length = struct.unpack_from("<I", head, at + 8)[0]
    pos = at + 16
    while pos + 8 <= at + length:
        type_, _, size = struct.unpack_from("<HHI", head, pos)
        if type_ == 3 and size >= 12:
            return {"multiboot2": struct.unpack_from("<I", head, pos + 8)[0]}
        if type_ == 0 or size < 8:
            break
        pos += (size + 7) // 8 * 8
    return {}


def pvh_note(notes):
    pos = 0
    while pos + 12 <= len(notes):
        namesz, descsz, note_type = struct.unpack_from("<III", notes, pos)
        desc = pos + 12 + (namesz + 3) // 4 * 4
        if note_type == XEN_ELFNOTE_PHYS32_ENTRY and notes[pos + 12:pos + 15] == b"Xen":
            return {"pvh": struct.unpack_from("<Q" if descsz == 8 else "<I", notes, desc)[0]}
        pos = desc + (descsz + 3) // 4 * 4
    return {}


# Each route: EAX at the entry (EBX is the case's), and whether the shim
# enters it in long mode (RSI = EBX).
ROUTES = {"multiboot2": (MB2_BOOTLOADER_MAGIC, False), "pvh": (0, False),
          "linux64": (0, True)}
# The first byte of a fuzz seed: the protocol (tests/fuzz/boot_fuzz.c).
SEED_PROTOCOL = {"pvh": 0, "multiboot2": 1, "linux64": 2}


# --- One boot ---------------------------------------------------------------

Outcome = collections.namedtuple("Outcome", "lines status problems seconds")


def params(entry, route, ebx, hole):
    eax, long_mode = ROUTES[route]
    return struct.pack("<9I", SHIM_MAGIC, entry, eax, ebx, CANARY_START,
                       CANARY_END, hole[0], hole[0] + hole[1], long_mode)


def serial_until_exit(proc, timeout):
    """COM1's lines until the kernel's exit line; its status, or why not."""
    lines, partial = [], b""
    deadline = time.monotonic() + timeout
    fd = proc.stdout.fileno()
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return lines, None, f"no exit line within {timeout:g} s"
        if not select.select([fd], [], [], left)[0]:
            continue
        data = os.read(fd, 65536)
        if not data:
            return lines, None, f"QEMU stopped (exit {proc.wait()}) before an exit line"
        partial += data
        *complete, partial = partial.split(b"\n")
        for raw in complete:
            line = raw.decode("utf-8", "replace").rstrip("\r")
            lines.append(line)
            m = EXIT_LINE.match(line)
            if m:
                return lines, int(m.group(1)), None
        if len(lines) > MAX_LINES:
            return lines, None, f"more than {MAX_LINES} lines: the kernel loops"


def memory_problems(case, dumps, readonly):
    """Writes out of bounds, from the dumps QEMU wrote."""
    problems = []
    try:
        with open(dumps["canary"], "rb") as f:
            window = f.read()
    except OSError as e:
        return [f"no dump of the canary window: {e}"]
    lo, size = (case.fb[0] - CANARY_START, case.fb[1]) if case.fb else (0, 0)
    intact = bytes([CANARY]) * len(window)
    if window[:lo] != intact[:lo] or window[lo + size:] != intact[lo + size:]:
        first = next(i for i, byte in enumerate(window)
                     if byte != CANARY and not lo <= i < lo + size)
        where = "below" if first < lo else "past"
        problems.append(f"the canary window changed at 0x{CANARY_START + first:x}, "
                        f"{where} the framebuffer's {size} bytes at 0x{CANARY_START + lo:x}")
    for i, (paddr, blob) in enumerate(readonly):
        try:
            with open(dumps[f"ro{i}"], "rb") as f:
                same = f.read() == blob
        except OSError as e:
            same, blob = False, e
        if not same:
            problems.append(f"the kernel's read-only segment at 0x{paddr:x} changed")
    return problems


def run_case(case, elf, shim, qemu, facts, timeout=15):
    entries, readonly = facts
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bootshim-") as tmp:
        path = {n: os.path.join(tmp, n) for n in ("info", "params", "qmp", "canary")}
        path.update({f"ro{i}": os.path.join(tmp, f"ro{i}") for i in range(len(readonly))})
        ebx = INFO if case.ebx is None else case.ebx
        with open(path["params"], "wb") as f:
            f.write(params(entries[case.route], case.route, ebx,
                           case.fb or (CANARY_START, 0)))
        cmd = [qemu, "-nodefaults", "-no-reboot", "-display", "none", "-M", "pc",
               "-m", "64", "-accel", "tcg", "-cpu", "max", "-serial", "stdio",
               "-qmp", f"unix:{path['qmp']},server=on,wait=off",
               "-kernel", shim, "-device", f"loader,file={elf}",
               "-device", f"loader,file={path['params']},addr={SHIM_PARAMS:#x},force-raw=on"]
        if case.info:
            with open(path["info"], "wb") as f:
                f.write(case.info)
            cmd += ["-device", f"loader,file={path['info']},addr={INFO:#x},force-raw=on"]
        proc = procs.start(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        problems = []
        try:
            lines, status, why = serial_until_exit(proc, timeout)
            if why:
                problems.append(why)
            if proc.poll() is None:
                dumps = [("pmemsave", dict(val=CANARY_START, size=CANARY_END - CANARY_START,
                                           filename=path["canary"]))]
                dumps += [("pmemsave", dict(val=paddr, size=len(blob), filename=path[f"ro{i}"]))
                          for i, (paddr, blob) in enumerate(readonly)]
                try:
                    qmp(path["qmp"], dumps)
                except (OSError, ValueError) as e:
                    problems.append(f"QMP: {e}")
                problems += memory_problems(case, path, readonly)
        finally:
            procs.done(proc)
        if not lines:
            problems.append("no output; QEMU said: " + proc.stderr.read().decode(errors="replace")[-300:])
        return Outcome(lines, status, problems, time.monotonic() - start)


def verdict_problems(case, outcome):
    """What is wrong with the run's ending, for the case's expectation."""
    bail = [l for l in outcome.lines if l.startswith("Bail out!")]
    problems = []
    if case.tables:
        failed = [l for l in outcome.lines if l.startswith("not ok ") and "cpus.tables" in l]
        if outcome.status != 1 or bail or len(failed) != 1:
            problems.append(f"expected cpus.tables alone to fail, status 1: status "
                            f"{outcome.status}, {bail[0] if bail else 'no Bail out!'}, "
                            f"failed: {failed}")
        if not any(case.tables in l for l in outcome.lines):
            problems.append(f"expected cpus.tables to say {case.tables!r}")
        return problems
    if case.cpus and not any(l.startswith("# cpus: ") and case.cpus in l
                             for l in outcome.lines):
        problems.append(f"expected a header line '# cpus: ...{case.cpus}...'")
    if case.expect is None:
        if outcome.status != 0 or bail:
            problems.append(f"expected the selected test to run and pass: status "
                            f"{outcome.status}, {bail[0] if bail else 'no Bail out!'}")
        if not any(l.startswith(f"# boot: {case.route}, ") for l in outcome.lines):
            problems.append(f"the header does not name the boot protocol {case.route}")
    else:
        if outcome.status != 2:
            problems.append(f"expected status 2, got {outcome.status}")
        if len(bail) != 1 or case.expect not in bail[0]:
            problems.append(f"expected one Bail out! naming {case.expect!r}, got {bail}")
    return problems


def seed(case):
    """The case as an input of the fuzz target (tests/fuzz/boot_fuzz.c):
    the protocol's byte, then the memory at EBX."""
    return bytes([SEED_PROTOCOL[case.route]]) + case.info
