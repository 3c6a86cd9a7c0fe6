"""The inputs of the tables fuzzer
(tests/fuzz/tables_fuzz.c), each a 9-byte header (flags: bit 0 the loader
named an RSDP; its offset from E0000H; the running CPU's APIC ID) and the
memory from E0000H. QEMU's layout (RSDT at revision 0, an RSDP the BIOS
area search finds, 4 CPUs), an XSDT the loader named, x2APIC entries, an
MP table alone, and hostile tables; EXPECT says what the reader must make
of each. tests/fuzz/table_seeds/ holds them (tests/check.py firmware_tables
checks both; --write-seeds DIR writes them after a change here).
"""
import struct

from ..boot import firmware_tables as ft

BASE = 0xE0000


def seed(memory, hint=None, bsp=0):
    flags = 0 if hint is None else 1
    header = struct.pack("<BII", flags, 0 if hint is None else hint - BASE, bsp)
    return header + bytes(memory.data)


def acpi(madt_blob, xsdt=False, named=False, size=0x2000, rsdp_kw=None):
    mem = ft.Memory(BASE, size)
    madt_at = mem.put(BASE + 0x1000, madt_blob)
    root_at = mem.put(BASE + 0x800, ft.root([BASE + 0xC00, madt_at], xsdt=xsdt))
    mem.put(BASE + 0xC00, ft.sdt(b"FACP", bytes(80)))
    rsdp_kw = rsdp_kw or {}
    rsdp_at = mem.put(BASE + 0x100, ft.rsdp(xsdt=root_at, **rsdp_kw) if xsdt
                      else ft.rsdp(rsdt=root_at, **rsdp_kw))
    return seed(mem, rsdp_at if named else None)


def mp_only(cpus):
    mem = ft.Memory(BASE, 0x10200)
    floating, table = ft.mp_tables(cpus, table_at=0xF0100, floating_at=0xF0000)
    mem.put(0xF0000, floating)
    mem.put(0xF0100, table)
    return seed(mem)


# What the reader must make of each seed (tests/fuzz/tables_check.c's
# line after "NAME: "): the start of it.
EXPECT = {
    "qemu-smp4": "found ACPI MADT via the RSDT, listed 4, kept 4: 0 1 2 3",
    "xsdt-named": "found ACPI MADT via the XSDT, listed 2, kept 2: 0 1",
    "x2apic": "found ACPI MADT via the XSDT, listed 3, kept 3: 0 100 101",
    "online-capable": "found ACPI MADT via the RSDT, listed 3, kept 3: 0 1 2",
    "mp-table": "found MP table, listed 4, kept 4: 0 1 2 3",
    "200-cpus": "found ACPI MADT via the RSDT, listed 200, kept 16: 0 1 2 3 4 5 6 7 8 9 a b c d e f",
    "duplicate-ids": "refused: ACPI MADT at 0xe1000: entry at offset 60: APIC ID 0x1 listed twice",
    "bsp-missing": "refused: the ACPI MADT via the RSDT lists 2 CPUs, not the running one (APIC ID 0x0)",
    "madt-checksum": "refused: ACPI MADT at 0xe1000: APIC checksum: its 72 bytes do not sum to 0",
    "madt-length-past-end": "refused: ACPI MADT at 0xe1000: 65536 bytes there do not lie in",
    "pointer-into-image": "refused: ACPI RSDT at 0xe0800 (from the RSDP at 0xe0100): entry 0, "
                          "0xe4100: 0xe4100..0xe4124 overlaps the kernel image",
    "rsdp-checksum-named": "bad boot information: the RSDP the loader named: the RSDP's checksum",
    "nothing": "none: no ACPI RSDP",
}


def seeds():
    yield "qemu-smp4", acpi(ft.madt([0, 1, 2, 3]))
    yield "xsdt-named", acpi(ft.madt([0, 1]), xsdt=True, named=True)
    yield "x2apic", acpi(ft.madt([0], x2apic=[0x100, 0x101], revision=5), xsdt=True)
    yield "online-capable", acpi(ft.madt([0, 1, 2], revision=5, flags=2))
    yield "mp-table", mp_only([0, 1, 2, 3])
    yield "200-cpus", acpi(ft.madt(list(range(200))), size=0x3000)
    yield "duplicate-ids", acpi(ft.madt([0, 1, 1]))
    yield "bsp-missing", acpi(ft.madt([1, 2]))
    bad = bytearray(ft.madt([0, 1]))
    bad[9] ^= 1
    yield "madt-checksum", acpi(bytes(bad))
    long = bytearray(ft.madt([0, 1]))
    struct.pack_into("<I", long, 4, 0x10000)
    yield "madt-length-past-end", acpi(bytes(long))
    mem = ft.Memory(BASE, 0x6000)
    root_at = mem.put(BASE + 0x800, ft.root([0xE4100]))  # tables_fuzz.c's IMAGE
    yield "pointer-into-image", seed(mem, mem.put(BASE + 0x100, ft.rsdp(rsdt=root_at)))
    yield "rsdp-checksum-named", acpi(ft.madt([0, 1]), named=True,
                                      rsdp_kw={"checksum_ok": False})
    yield "nothing", seed(ft.Memory(BASE, 0x1000))
