"""How one boot ended, whichever emulator ran it."""


class Outcome:
    def __init__(self):
        self.status = None      # the kernel's exit status, if it gave one
        self.problem = None     # why the run could not be carried out
        self.emulator = ""      # version string(s)
        self.host = ""          # what the results depend on, as an
                                # expectation file's "# host:" line names it
        self.notes = []         # what the runner did on the way (retries)
        self.changed = None     # the emulator is not the version the
                                # expectations were made on, and why
        self.selection = None   # the tests= the run had, where only its
                                # log says (a LAVA job)
