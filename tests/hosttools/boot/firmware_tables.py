"""ACPI and MP tables built on the host, the way firmware lays them out,
for the tables fuzzer's seeds (tests/fuzz/tables_seeds.py) and the loader
shim's hostile cases (bootshim.py): the kernel's reader
(arch/firmware_cpus.h) must take the good ones and refuse the rest
naming the field.

ACPI 6.5: RSDP 5.2.5.3, the header of every table 5.2.6, RSDT 5.2.7,
XSDT 5.2.8, MADT 5.2.12 (type 0 Processor Local APIC, 8 bytes; type 1
I/O APIC, 12; type 9 Processor Local x2APIC, 16). MP: Intel
MultiProcessor Specification 1.4, 4.1 (floating pointer) and 4.2-4.3
(configuration table, processor entry 20 bytes, the others 8).
"""
import struct


def fix_checksum(data, at, start=0, end=None):
    """data (a bytearray) with the byte at `at` set so that
    data[start:end] sums to 0 modulo 256."""
    end = len(data) if end is None else end
    data[at] = 0
    data[at] = -sum(data[start:end]) & 0xFF
    return data


def sdt(signature, body, revision=1, length=None, checksum_ok=True):
    """A table: the 36-byte header and body; a wrong length or checksum
    where asked."""
    size = 36 + len(body)
    data = bytearray(struct.pack("<4sIBB6s8sI4sI", signature, size if length is None else length,
                                 revision, 0, b"PMCTST", b"PMCTEST ", 1, b"PMCT", 1))
    data += body
    fix_checksum(data, 9, 0, size)
    if not checksum_ok:
        data[9] ^= 0x55
    return bytes(data)


def madt(cpus, x2apic=(), revision=3, flags=1, extra=b""):
    """cpus: APIC IDs of type 0 entries (enabled unless flags says);
    x2apic: x2APIC IDs of type 9 entries; an I/O APIC as firmware lists."""
    body = struct.pack("<II", 0xFEE00000, 1)
    for uid, apic_id in enumerate(cpus):
        body += struct.pack("<BBBBI", 0, 8, uid, apic_id, flags)
    body += struct.pack("<BBBBII", 1, 12, 0, 0, 0xFEC00000, 0)
    for uid, apic_id in enumerate(x2apic):
        body += struct.pack("<BBHIII", 9, 16, 0, apic_id, flags, 0x100 + uid)
    return sdt(b"APIC", body + extra, revision=revision)


def rsdp(rsdt=0, xsdt=0, revision=None, checksum_ok=True):
    """The RSDP: revision 0 (20 bytes) with an RSDT only, else revision 2
    (36 bytes) with both."""
    revision = (2 if xsdt else 0) if revision is None else revision
    data = bytearray(struct.pack("<8sB6sBI", b"RSD PTR ", 0, b"PMCTST", revision, rsdt))
    fix_checksum(data, 8, 0, 20)
    if revision >= 2:
        data += struct.pack("<IQB3x", 36, xsdt, 0)
        fix_checksum(data, 32)
    if not checksum_ok:
        data[8] ^= 0x55
    return bytes(data)


def root(pointers, xsdt=False, **kw):
    """An RSDT (32-bit entries) or XSDT (64-bit) naming tables at pointers."""
    body = b"".join(struct.pack("<Q" if xsdt else "<I", p) for p in pointers)
    return sdt(b"XSDT" if xsdt else b"RSDT", body, **kw)


def mp_tables(cpus, table_at, floating_at, bsp=0):
    """(floating pointer, configuration table) listing processors cpus."""
    entries = b""
    for apic_id in cpus:
        flags = 1 | (2 if apic_id == bsp else 0)
        entries += struct.pack("<BBBBII8x", 0, apic_id, 0x14, flags, 0x600, 0x201)
    entries += struct.pack("<BB6s", 1, 0, b"ISA   ")
    header = bytearray(struct.pack("<4sHBB8s12sIHHIHBx", b"PCMP", 44 + len(entries), 4, 0,
                                   b"PMCTEST ", b"PMCTEST     ", 0, 0, len(cpus) + 1,
                                   0xFEE00000, 0, 0))
    table = fix_checksum(bytearray(header + entries), 7)
    floating = fix_checksum(bytearray(struct.pack("<4sIBBB5s", b"_MP_", table_at, 1, 4, 0,
                                                  bytes(5))), 10)
    return bytes(floating), bytes(table)


class Memory:
    """Physical memory from base, built by placing byte strings."""

    def __init__(self, base, size):
        self.base, self.data = base, bytearray(size)

    def put(self, address, blob):
        at = address - self.base
        self.data[at:at + len(blob)] = blob
        return address
