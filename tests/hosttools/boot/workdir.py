"""The scratch directory every boot of one tests/run shares: the per-run
ISOs, the nested initramfs and ISOs, the Bochs files."""
import contextlib
import shutil
import tempfile

from .isos import IsoMaker


class Scratch:
    def __init__(self, elf):
        self.workdir = tempfile.mkdtemp(prefix="pmctest-run-")
        self.isos = IsoMaker(elf, self.workdir)


@contextlib.contextmanager
def scratch(elf, keep=False):
    """A Scratch for the boots of elf, removed at the end unless keep."""
    s = Scratch(elf)
    try:
        yield s
    finally:
        if not keep:
            shutil.rmtree(s.workdir, ignore_errors=True)
