"""The kernel ELF inside a bzImage, for a PVH boot.

QEMU boots a vmlinux that carries XEN_ELFNOTE_PHYS32_ENTRY (CONFIG_PVH)
straight into the kernel: no firmware-loaded setup code and no
decompressor, which under TCG takes half of the outer boot. The bzImage's
setup header (boot protocol 2.08 and later) says where the compressed
kernel is: payload_offset and payload_length, counted from the start of
the protected-mode code, which follows the (setup_sects + 1) 512-byte
sectors of the real-mode part."""
import bz2
import gzip
import lzma
import shutil
import struct
import subprocess

ELF_MAGIC = b"\x7fELF"
XEN_ELFNOTE_PHYS32_ENTRY = 18


def payload(image):
    """The compressed kernel of a bzImage (bytes), or None if it is not one
    with a payload field (boot protocol < 2.08)."""
    if len(image) < 0x250 or image[0x202:0x206] != b"HdrS":
        return None
    if struct.unpack_from("<H", image, 0x206)[0] < 0x208:
        return None
    setup_sects = image[0x1f1] or 4
    start = (setup_sects + 1) * 512
    offset, length = struct.unpack_from("<II", image, 0x248)
    return image[start + offset:start + offset + length]


def _external(cmd, data):
    if not shutil.which(cmd[0]):
        raise ValueError(f"{cmd[0]} is not installed")
    p = subprocess.run(cmd, input=data, capture_output=True)
    if p.returncode:
        raise ValueError(f"{cmd[0]} failed: {p.stderr.decode().strip()}")
    return p.stdout


def decompress(data):
    """The kernel's own compressors, by their magic: (name, bytes)."""
    if data.startswith(b"\xfd7zXZ\x00"):
        return "xz", lzma.LZMADecompressor().decompress(data)
    if data.startswith(b"\x5d\x00\x00"):
        return "lzma", lzma.LZMADecompressor(lzma.FORMAT_ALONE).decompress(data)
    if data.startswith(b"\x1f\x8b"):
        return "gzip", gzip.GzipFile(fileobj=__import__("io").BytesIO(data)).read()
    if data.startswith(b"BZh"):
        return "bzip2", bz2.BZ2Decompressor().decompress(data)
    # The kernel appends the uncompressed size (4 bytes) to these two; the
    # tools take the frames only.
    if data.startswith(b"\x28\xb5\x2f\xfd"):
        return "zstd", _external(["zstd", "-dcq"], data[:-4])
    if data.startswith(b"\x02\x21\x4c\x18"):
        return "lz4", _external(["lz4", "-dcq"], data[:-4])
    raise ValueError(f"unknown compression (magic {data[:4].hex()})")


def has_pvh_note(elf):
    """Whether an x86-64 ELF has the XEN_ELFNOTE_PHYS32_ENTRY note."""
    if not elf.startswith(ELF_MAGIC) or elf[4] != 2:
        return False
    phoff, = struct.unpack_from("<Q", elf, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", elf, 0x36)
    for i in range(phnum):
        p_type, _, p_offset, _, _, p_filesz = struct.unpack_from(
            "<IIQQQQ", elf, phoff + i * phentsize)
        if p_type != 4:             # PT_NOTE
            continue
        pos, end = p_offset, p_offset + p_filesz
        while pos + 12 <= end:
            namesz, descsz, ntype = struct.unpack_from("<III", elf, pos)
            name = elf[pos + 12:pos + 12 + namesz].rstrip(b"\0")
            if name == b"Xen" and ntype == XEN_ELFNOTE_PHYS32_ENTRY:
                return True
            pos += 12 + (namesz + 3) // 4 * 4 + (descsz + 3) // 4 * 4
    return False


def pvh_kernel(image):
    """(bytes to boot, how): the PVH-bootable ELF where there is one, else
    the image itself and why not (QEMU then boots the bzImage, slower)."""
    if image.startswith(ELF_MAGIC):
        if has_pvh_note(image):
            return image, "ELF with a PVH entry"
        return None, "an ELF without a PVH entry (CONFIG_PVH=n): give the bzImage"
    data = payload(image)
    if data is None:
        return image, "not a bzImage of boot protocol 2.08 or later: booted as it is"
    try:
        how, elf = decompress(data)
    except (ValueError, lzma.LZMAError, OSError, EOFError) as e:
        return image, f"bzImage, its kernel not extracted ({e}): booted as it is"
    if not has_pvh_note(elf):
        return image, "bzImage without a PVH entry (CONFIG_PVH=n): booted as it is"
    return elf, f"vmlinux from the bzImage ({how}), PVH entry"
