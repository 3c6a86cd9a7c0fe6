"""The QEMU binary behind make's OUT/qemu-system-x86_64, the script that
runs the cached build with Debian's ROM folders (build.py, point_out_at()):
what a nested target copies into L1 as the guest's QEMU."""
import os
import shlex


def real_binary(wrapper):
    """The binary the wrapper script execs, or ValueError saying why not."""
    try:
        with open(wrapper) as f:
            text = f.read(4096)
    except OSError as e:
        raise ValueError(f"{wrapper}: {e.strerror}") from None
    for line in text.splitlines():
        if line.startswith("exec "):
            binary = shlex.split(line)[1]
            if os.access(binary, os.X_OK):
                return binary
            raise ValueError(f"{wrapper} runs {binary}, which is not there")
    raise ValueError(f"{wrapper} is not the QEMU with the TCG PMU's script "
                     "(no exec line)")
