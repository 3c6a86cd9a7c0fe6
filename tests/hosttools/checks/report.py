"""The conformance report (tests/run --report DIR), read as a person would
see it: index.html is self-contained (no script, nothing fetched) and names
every target; each privilege matrix, rendered by a real SVG renderer
(rsvg-convert) to PNG, shows in every cell the colour of that test's
verdict, and the table of a target whose run had APs counts each CPU's
verdicts ("@cpuN" IDs), both worked out here on their own from the
target's TAP log and its expectation file.

usage: tests/check.py report --report DIR [--expect-dir DIR]
"""
import os
import re
import struct
import subprocess
import tempfile
import xml.etree.ElementTree as ET
import zlib

from .. import TESTS, targets
from ..judge import patterns as tap_log
from ..report import html as report
from ..judge.expectations import load_expectations
from ..report.tap_out import Tap
from . import argument_parser


def png_pixels(path):
    """(width, height, rows of (r, g, b)) of an 8-bit RGB or RGBA PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and color in (2, 6), f"PNG depth {depth} colour {color}"
            channels = 4 if color == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride, rows, prev = zlib.decompress(idat), width * channels, [], None
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i] if prev else 0
            c = prev[i - channels] if prev and i >= channels else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pred = min((abs(p - a), 0, a), (abs(p - b), 1, b), (abs(p - c), 2, c))[2]
                line[i] = (line[i] + pred) & 255
        prev = line
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
    return width, height, rows


def hex_rgb(color):
    return tuple(int(color[i:i + 2], 16) for i in (1, 3, 5))


def verdicts(log, expectations):
    """{test ID: pass | deviates | known | skip} from the TAP and the
    expectation file, without the runner's judgement."""
    out = {}
    for line in open(log):
        m = tap_log.RESULT.match(line)
        if not m:
            continue
        listed = any(e.regex.match(m.group(3)) for e in expectations)
        out[m.group(3)] = ("skip" if m.group(5) == "SKIP" else
                           "pass" if m.group(1) == "ok" else
                           "known" if listed else "deviates")
    return out


def expect_file(page, name, default):
    """The expectation file the page says target name was judged by (a
    host variant, where the host is another than the target file's)."""
    section = page.split(f"<h2>{name}</h2>", 1)[-1].split("<h2>", 1)[0]
    m = re.search(r"expectations <code>([^<]+)</code>", section)
    return m.group(1) if m else default


def cpu_counts(expected):
    """{CPU: [pass, deviates, known, skip]} of {test ID: verdict}."""
    out = {}
    for test_id, kind in expected.items():
        _, at, cpu = test_id.partition("@cpu")
        row = out.setdefault(int(cpu) if at else 0, [0, 0, 0, 0])
        row[("pass", "deviates", "known", "skip").index(kind)] += 1
    return out


def cpu_rows(page, name):
    """{CPU: [pass, deviates, known, skip]} as the target's Per CPU table
    shows them (its stale tests counted as passing, as the log reads)."""
    section = page.split(f"<h2>{name}</h2>", 1)[-1].split("<h2>", 1)[0]
    out = {}
    for cpu, cells in re.findall(r"<tr><td>CPU (\d+)</td>(.*?)</tr>", section):
        n = [int(v) for v in re.findall(r">(\d+)</td>", cells)]
        if len(n) == 5:     # pass, deviates, known, stale, skip
            out[int(cpu)] = [n[0] + n[3], n[1], n[2], n[4]]
    return out


def main(argv):
    p = argument_parser(__name__, __doc__)
    p.add_argument("--report", required=True)
    p.add_argument("--expect-dir", default=os.path.join(TESTS, "expect"))
    args = p.parse_args(argv)
    tap = Tap()
    check = tap.check

    print("TAP version 13")
    page = open(os.path.join(args.report, "index.html")).read()
    check("<script" not in page.lower() and not re.search(r"(src|href)=\"https?:", page),
          "index.html is self-contained: no script, nothing fetched")
    for link in set(re.findall(r'href="([^"#]+)"', page)):
        check(os.path.exists(os.path.join(args.report, link)), f"index.html links {link}, which exists")
    for t in targets.TARGETS:
        name = t.name
        check(f">{name}<" in page or f"<b>{name}</b>" in page, f"index.html names target {name}")
        svg_path = os.path.join(args.report, f"matrix-{name}.svg")
        if not os.path.exists(svg_path):
            continue
        ET.parse(svg_path)      # well-formed, or an exception fails the test
        with tempfile.TemporaryDirectory() as tmp:
            png = os.path.join(tmp, "m.png")
            r = subprocess.run(["rsvg-convert", "-o", png, svg_path],
                               capture_output=True, text=True)
            check(r.returncode == 0, f"rsvg-convert renders the {name} matrix", r.stderr)
            if r.returncode:
                continue
            _, _, pixels = png_pixels(png)
        expected = verdicts(os.path.join(args.report, f"{name}.log"),
                            load_expectations(os.path.join(args.expect_dir,
                                                           expect_file(page, name, t.expect))))
        wrong, cells = [], 0
        for row, (mode, cpl) in enumerate(report.ROWS):
            for pce in (0, 1):
                for case in report.CASES:
                    test_id = report.priv_id(mode, cpl, pce, case)
                    x, y = report.cell_origin(row, pce, case)
                    want = hex_rgb(report.COLORS[expected.get(test_id, "none")])
                    got = pixels[y + report.CELL // 2][x + report.CELL // 2]
                    cells += test_id in expected
                    if max(abs(a - b) for a, b in zip(want, got)) > 8:
                        wrong.append(f"{test_id}: {got}, want {want}")
        check(cells > 0 and not wrong,
              f"the rendered {name} matrix colours each of its {cells} tests by its verdict",
              "; ".join(wrong[:4]))
        per_cpu = cpu_counts(expected)
        if len(per_cpu) > 1:
            shown = cpu_rows(page, name)
            check(shown == per_cpu,
                  f"the {name} table counts the verdicts of each of its "
                  f"{len(per_cpu)} CPUs' tests",
                  f"page {shown}, log {per_cpu}")
    return tap.finish()

