"""The scratch directory every boot of one tests/run shares: the per-run
ISOs and the Bochs files."""
import shutil
import tempfile
from types import SimpleNamespace

from .isos import IsoMaker


def context(opts):
    workdir = tempfile.mkdtemp(prefix="pmctest-run-")
    return SimpleNamespace(workdir=workdir, isos=IsoMaker(opts.elf, workdir))


def cleanup(ctx, opts):
    if not opts.keep_bochs:
        shutil.rmtree(ctx.workdir, ignore_errors=True)
