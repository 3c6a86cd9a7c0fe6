"""--junit FILE and --report DIR: opened before the first boot (a path
that cannot be written stops tests/run there, with status 2), written
whole once the targets are judged, and no trace left if the run ends
otherwise."""
from .junit import junit_xml
from .outfile import OutputDir, OutputFile
from .html import report_files
from .version import project_version


class Outputs:
    def __init__(self, opts):
        self.junit = self.report = None
        try:
            if opts.junit:
                self.junit = OutputFile(opts.junit, "the JUnit file")
            if opts.report:
                self.report = OutputDir(opts.report, "the report", "index.html")
        except BaseException:
            self.discard()
            raise

    def write(self, runs):
        if self.junit:
            self.junit.write(junit_xml(runs, project_version()))
        if self.report:
            self.report.write(*report_files(runs))

    def discard(self):
        for output in (self.junit, self.report):
            if output:
                output.discard()
