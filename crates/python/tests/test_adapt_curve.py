"""The adaptation curve the README shows (eval/adapt/curve.svg, drawn by scripts/adapt_curve.py
from eval/adapt/curve.csv): the committed picture is what the script draws, and no value label
sits on a curve (issue 67: "web as shipped" labels lay on the solid line)."""

import importlib.util
import re

from conftest import ROOT

CURVE = ROOT / "eval" / "adapt"


def script():
    spec = importlib.util.spec_from_file_location("adapt_curve", ROOT / "scripts" / "adapt_curve.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_committed_curve_is_what_the_script_draws(tmp_path):
    import csv

    with open(CURVE / "curve.csv") as f:
        rows = [{k: (v if k in ("target", "method") else float(v)) for k, v in r.items()} for r in csv.DictReader(f)]
    for r in rows:
        r["pages"] = int(r["pages"])
    targets = list(dict.fromkeys(r["target"] for r in rows))
    script().svg(rows, targets, tmp_path / "curve.svg")
    assert (tmp_path / "curve.svg").read_text() == (CURVE / "curve.svg").read_text()


def points(line: str):
    return [tuple(map(float, p.split(","))) for p in re.search(r'points="([^"]+)"', line).group(1).split()]


def test_no_value_label_sits_on_a_curve():
    svg = (CURVE / "curve.svg").read_text()
    # One panel from each frame to the next.
    panels = svg.split('<rect x="')[1:]
    assert len(panels) == 6, len(panels)
    for panel in panels:
        lines = [points(l) for l in panel.splitlines() if l.startswith("<polyline")]
        assert len(lines) == 2, panel[:200]
        label = re.search(r'<text x="([\d.]+)" y="([\d.]+)" text-anchor="(\w+)" fill="#666">([^<]+)</text>', panel)
        assert label, panel[:200]
        x, y, anchor, text = float(label[1]), float(label[2]), label[3], label[4]
        # The text's box in 11 px sans-serif, at 6.4 px a character at most, widened by the
        # curves' stroke (2 px).
        width = 6.4 * len(text)
        left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
        box = (left - 2, y - 10, left + width + 2, y + 4)
        for line in lines:
            for (ax, ay), (bx, by) in zip(line, line[1:]):
                steps = max(1, int(max(abs(bx - ax), abs(by - ay))))
                for k in range(steps + 1):
                    px, py = ax + (bx - ax) * k / steps, ay + (by - ay) * k / steps
                    inside = box[0] <= px <= box[2] and box[1] <= py <= box[3]
                    assert not inside, f"{text!r} at ({x}, {y}) sits on a curve at ({px:.0f}, {py:.0f})"
