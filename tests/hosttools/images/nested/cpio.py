"""An initramfs archive: cpio in the "newc" format the Linux kernel unpacks
(Documentation/driver-api/early-userspace/buffer-format.rst), written here
so that building one needs no cpio program."""
import stat

TRAILER = "TRAILER!!!"


def _pad4(n):
    return (4 - n % 4) % 4


class Newc:
    """Entries appended in order; bytes() is the archive, trailer included.
    A directory must come before what it holds."""

    def __init__(self):
        self.parts = []
        self.ino = 1

    def _entry(self, name, mode, data=b"", nlink=1):
        name_b = name.encode() + b"\0"
        fields = [self.ino, mode, 0, 0, nlink, 0, len(data), 0, 0, 0, 0,
                  len(name_b), 0]
        self.ino += 1
        head = b"070701" + b"".join(b"%08X" % f for f in fields)
        self.parts += [head, name_b, b"\0" * _pad4(len(head) + len(name_b)),
                       data, b"\0" * _pad4(len(data))]

    def directory(self, name, mode=0o755):
        self._entry(name, stat.S_IFDIR | mode, nlink=2)

    def file(self, name, data, mode=0o644):
        self._entry(name, stat.S_IFREG | mode, data)

    def symlink(self, name, target):
        self._entry(name, stat.S_IFLNK | 0o777, target.encode())

    def __bytes__(self):
        trailer = Newc()
        trailer.ino = 0
        trailer._entry(TRAILER, 0)
        return b"".join(self.parts + trailer.parts)


def archive(files, symlinks=(), directories=()):
    """files: {path in the archive: (bytes, mode)}; symlinks: {path: target};
    directories: empty ones to make. The directories the files and links
    need are made too, parents first."""
    out = Newc()
    dirs = set(directories)
    for path in list(files) + list(symlinks):
        parts = path.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            dirs.add("/".join(parts[:i]))
    for d in sorted(dirs, key=lambda p: (p.count("/"), p)):
        out.directory(d)
    for path in sorted(files):
        data, mode = files[path]
        out.file(path, data, mode)
    for path in sorted(symlinks):
        out.symlink(path, symlinks[path])
    return bytes(out)
