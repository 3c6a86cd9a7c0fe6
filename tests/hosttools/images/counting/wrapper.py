"""OUT/BINARY, the script make's targets run: it execs the cached binary
of a counting emulator with the emulator's own arguments first (the
counting QEMU's -L ROM folders), and OUT/info beside it, a copy of the
entry's. real_binary() reads the binary back: what a nested target copies
into L1 as the guest's QEMU."""
import os
import shlex
import shutil


def point_out_at(emulator, path, out):
    """OUT/BINARY running the entry PATH's binary, and OUT/info."""
    binary = os.path.join(path, "bin", emulator.binary)
    words = [binary] + list(emulator.wrapper_args)
    wrapper = os.path.join(out, emulator.binary)
    with open(wrapper + ".tmp", "w") as f:
        f.write(f"#!/bin/sh\n# The {emulator.title}, cached "
                f"({os.path.basename(path)}).\n"
                f"exec {' '.join(shlex.quote(w) for w in words)} \"$@\"\n")
    os.chmod(wrapper + ".tmp", 0o755)
    os.rename(wrapper + ".tmp", wrapper)
    shutil.copyfile(os.path.join(path, "info"), os.path.join(out, "info"))


def real_binary(wrapper):
    """The binary the wrapper script execs, or ValueError saying why not
    (the path may be the user's: any file, a binary or a script cut short,
    is refused by name)."""
    try:
        with open(wrapper, errors="replace") as f:
            text = f.read(4096)
    except OSError as e:
        raise ValueError(f"{wrapper}: {e.strerror}") from None
    for line in text.splitlines():
        if line.startswith("exec "):
            try:
                words = shlex.split(line)
            except ValueError as e:
                raise ValueError(f"{wrapper}: its exec line: {e}") from None
            if len(words) < 2:
                raise ValueError(f"{wrapper}: its exec line names no program")
            if os.access(words[1], os.X_OK):
                return words[1]
            raise ValueError(f"{wrapper} runs {words[1]}, which is not there")
    raise ValueError(f"{wrapper} is not a counting emulator's script "
                     "(no exec line)")
