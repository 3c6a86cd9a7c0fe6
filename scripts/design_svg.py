#!/usr/bin/env python3
"""Draw docs/design.svg and docs/design-host.svg. The first: the data's way
from boot through the platform, the harness, the suites and TAP to the
host runner's verdict, with the simulator as the second platform. The
second: a target's way on the host, from tests/run --target X to its
verdict. The pictures are data below (boxes and arrows); this script only
lays them out. make design-svg writes the files; make test-docs checks that
the committed ones are what this script draws.

usage: scripts/design_svg.py [--stdout NAME]   (NAME: design.svg or design-host.svg)
"""
import os
import sys
from xml.sax.saxutils import escape

LINE = 15           # text line height
PAD = 8

# name: (x, y, width (0: as wide as its text), lines, fill); the first line
# is the title
KERNEL_BOXES = {
    "boot": (20, 20, 0, ["boot/", "Multiboot2, PVH or", "Linux 64-bit entry;",
                           "long mode, then C"], "#eef3fb"),
    "arch": (270, 120, 0, ["arch/: the platform", "exec.c runs RDPMC, RDMSR,",
                            "WRMSR in a mode, CPL and", "CR4.PCE; traps, rings,",
                            "APIC, CPUs, consoles"], "#eef3fb"),
    "harness": (570, 20, 0, ["kernel/: the harness", "selects cases by ID, runs",
                               "each contained, writes", "TAP 13 (tap_writer.c)"], "#fdf5e6"),
    "suites": (570, 150, 0, ["tests/suites/, tests/lib/", "a table of cases and a",
                               "check function each:", "expect vs. outcome"], "#fdf5e6"),
    "model": (570, 275, 0, ["kernel/model.c", "what the spec requires for", "this enumeration and context"],
              "#fdf5e6"),
    "log": (855, 20, 0, ["the serial log", "COM1, port E9H or the screen:",
                           "TAP 13, then the exit status"], "#eefaee"),
    "verdict": (855, 130, 0, ["tests/hosttools/judge/tap.py", "one TAP reader: form, plan,",
                                "counts, status 0/1/2"], "#eefaee"),
    "runner": (855, 240, 0, ["tests/run", "against tests/expect/TARGET:",
                               "verdict, JUnit, the report"], "#eefaee"),
    "sim": (270, 330, 0, ["tests/sim/: pmctest-sim", "the second platform: a", "simulated CPU, one deviation",
                            "injected (--deviate)"], "#f6eefa"),
    "mutation": (855, 350, 0, ["tests/mutation/expected.tsv", "each deviation must fail",
                                 "its tests, and no others"], "#f6eefa"),
}

# (from, to, label, dashed); an arrow runs between the nearest box edges
KERNEL_ARROWS = [
    ("boot", "arch", "boot info", False),
    ("boot", "harness", "kmain()", False),
    ("harness", "arch", "platform.h", True),
    ("harness", "suites", "run(case)", False),
    ("suites", "arch", "exec.h", True),
    ("suites", "model", "expect", False),
    ("harness", "log", "TAP", False),
    ("log", "verdict", "", False),
    ("verdict", "runner", "", False),
    ("sim", "suites", "the same exec.h", True),
    ("sim", "mutation", "TAP, each profile x deviation", False),
]

KERNEL_LEGEND = [("#eef3fb", "on the target: arch/ and boot/"),
                 ("#fdf5e6", "kernel/ and the suites: built for both platforms"),
                 ("#eefaee", "on the host: reading the log"),
                 ("#f6eefa", "on the host: proving the suite can fail")]

# The host side: tests/hosttools/, a folder per concern.
HOST_BOXES = {
    "run": (20, 20, 0, ["tests/run --target X", "cli/run.py: the options,",
                        "read once (cli/options.py)"], "#fdf5e6"),
    "registry": (290, 20, 0, ["targets/: the registry", "table.py: X's row names its",
                              "kind and parameters;", "select() binds the kind"], "#eef3fb"),
    "kind": (590, 20, 0, ["the kind: targets/KIND.py", "needs, why not, images(),",
                          "boot(): the emulator's", "command line"], "#eef3fb"),
    "images": (870, 20, 0, ["make images", "images/: what each kind's", "images() names, fetched",
                            "and built: kernels, Xen,", "the counting QEMU"], "#eef3fb"),
    "targetrun": (20, 185, 0, ["cli/target_run.py", "the stream into the Judge;",
                               "outcome, header, host:", "0 MATCH, 1, 2"], "#fdf5e6"),
    "judge": (300, 185, 0, ["judge/: the Judge", "one TapReader: each line", "read once, each result",
                            "held against expectations"], "#eefaee"),
    "source": (590, 185, 0, ["boot/: one line source", "a process (ProcessLines),",
                             "Bochs' COM1 file, or a", "LAVA job's log"], "#eefaee"),
    "report": (20, 330, 0, ["report/", "the log, JUnit, the HTML", "report, the closing lines"],
               "#f6eefa"),
    "expect": (300, 330, 0, ["tests/expect/X", "known failures, '!' left", "out, # header:, # host:"],
               "#f6eefa"),
}

HOST_ARROWS = [
    ("run", "registry", "X", False),
    ("run", "targetrun", "the kind, once", False),
    ("registry", "kind", "Kind", False),
    ("images", "kind", "built first", True),
    ("targetrun", "kind", "boot(launch)", False),
    ("kind", "source", "stream", False),
    ("source", "judge", "lines", False),
    ("judge", "targetrun", "results", False),
    ("expect", "judge", "", True),
    ("targetrun", "report", "verdict", False),
]

HOST_LEGEND = [("#fdf5e6", "cli/: the commands"),
               ("#eef3fb", "targets/ and images/: what boots, and on what"),
               ("#eefaee", "boot/ and judge/: the one stream, read once"),
               ("#f6eefa", "what the run reads and writes")]

# file: (width, height, title, boxes, arrows, legend)
PICTURES = {
    "design.svg": (1090, 470, "pmctest: from boot to the host's verdict",
                   KERNEL_BOXES, KERNEL_ARROWS, KERNEL_LEGEND),
    "design-host.svg": (1090, 460, "pmctest's host side: a target's way to its verdict",
                        HOST_BOXES, HOST_ARROWS, HOST_LEGEND),
}


CHAR = 7.3          # the width of a 12px DejaVu Sans Mono character


def box_width(lines):
    return round(PAD * 2 + CHAR * max(len(s) for s in lines))


def box_height(lines):
    return PAD * 2 + LINE * len(lines)


def centre(boxes, name):
    x, y, _, lines, _ = boxes[name]
    w = box_width(lines)
    return x + w / 2, y + box_height(lines) / 2


def edge_point(boxes, name, towards):
    """Where the line from the box's centre towards a point leaves it."""
    x, y, _, lines, _ = boxes[name]
    w, h = box_width(lines), box_height(lines)
    cx, cy = centre(boxes, name)
    dx, dy = towards[0] - cx, towards[1] - cy
    if dx == 0 and dy == 0:
        return cx, cy
    sx = (w / 2) / abs(dx) if dx else float("inf")
    sy = (h / 2) / abs(dy) if dy else float("inf")
    s = min(sx, sy)
    return cx + dx * s, cy + dy * s


def svg(name):
    W, H, title, boxes, arrows, legend = PICTURES[name]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
           f'viewBox="0 0 {W} {H}" font-family="DejaVu Sans Mono, monospace" font-size="12">',
           f"<title>{escape(title)}</title>",
           '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" '
           'markerWidth="8" markerHeight="8" orient="auto-start-reverse">'
           '<path d="M 0 0 L 10 5 L 0 10 z" fill="#333"/></marker></defs>',
           f'<rect x="0" y="0" width="{W}" height="{H}" fill="#ffffff"/>']
    for a, b, label, dashed in arrows:
        x1, y1 = edge_point(boxes, a, centre(boxes, b))
        x2, y2 = edge_point(boxes, b, centre(boxes, a))
        dash = ' stroke-dasharray="5,4"' if dashed else ""
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                   f'stroke="#333" stroke-width="1.4"{dash} marker-end="url(#arrow)"/>')
        if label:
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            out.append(f'<text x="{mx:.1f}" y="{my - 4:.1f}" text-anchor="middle" '
                       f'font-size="10.5" fill="#444" stroke="#fff" stroke-width="3" '
                       f'paint-order="stroke">{escape(label)}</text>')
    for x, y, _, lines, fill in boxes.values():
        w, h = box_width(lines), box_height(lines)
        out.append(f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="6" '
                   f'fill="{fill}" stroke="#555"/>')
        for i, text in enumerate(lines):
            weight = ' font-weight="bold"' if i == 0 else ""
            out.append(f'<text x="{x + PAD}" y="{y + PAD + LINE * (i + 1) - 4}"{weight}>'
                       f'{escape(text)}</text>')
    for i, (fill, text) in enumerate(legend):
        lx, ly = 20 + (i % 2) * 420, H - 44 + (i // 2) * 20
        out.append(f'<rect x="{lx}" y="{ly}" width="14" height="14" fill="{fill}" stroke="#555"/>')
        out.append(f'<text x="{lx + 20}" y="{ly + 11}">{escape(text)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv):
    if not (argv == [] or len(argv) == 2 and argv[0] == "--stdout" and argv[1] in PICTURES):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    if argv:
        sys.stdout.write(svg(argv[1]))
        return 0
    docs = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs")
    for name in PICTURES:
        with open(os.path.join(docs, name), "w") as f:
            f.write(svg(name))
        print(f"wrote docs/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
