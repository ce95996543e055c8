"""`save_plot`'s SVG as a real renderer draws it: Debian's rsvg-convert
(librsvg2-bin) turns it into a PNG, and the picture is checked with PIL
(python3-pil): its size, the axes where the plot area begins, each series
in its colour at the places its data maps to, and nothing of a series
where its data is not.

    /usr/bin/python3 plot_svg_test.py ALEA [--keep DIR]

The plot area of a 640 x 400 SVG spans x 70..620 and y 40..340; the data
ranges are the data's own (0..10 here), so a point (x, y) is drawn at
(70 + 55 x, 340 - 30 y). Exit 77 (skipped) without rsvg-convert or PIL.
"""
import os
import shutil
import subprocess
import sys
import tempfile

try:
    from PIL import Image
except ImportError:
    print("no PIL: skipped")
    sys.exit(77)
if shutil.which("rsvg-convert") is None:
    print("no rsvg-convert: skipped")
    sys.exit(77)

PROGRAM = """
fn main() {
  // A diagonal line and two points, on axes from 0 to 10.
  let line = plot([0.0, 10.0], [0.0, 10.0], title: "line and points", xlabel: "x", ylabel: "y");
  save_plot("lines.svg", overlay(line, scatter([2.0, 8.0], [8.0, 2.0])));
  // Three bins of counts 1, 2 and 3 over [0, 3].
  save_plot("bars.svg", hist([0.5, 1.5, 1.5, 2.5, 2.5, 2.5], bins: 3));
}
"""

BLUE, ORANGE, GREEN = (0x1F, 0x77, 0xB4), (0xFF, 0x7F, 0x0E), (0x2C, 0xA0, 0x2C)


def near(pixel, colour, tolerance=60):
    return all(abs(int(p) - c) <= tolerance for p, c in zip(pixel[:3], colour))


def found(image, colour, x, y, radius=5, tolerance=60):
    """Whether a pixel of `colour` lies within `radius` of (x, y)."""
    for dx in range(-radius, radius + 1):
        for dy in range(-radius, radius + 1):
            px, py = int(round(x)) + dx, int(round(y)) + dy
            if 0 <= px < image.width and 0 <= py < image.height:
                if near(image.getpixel((px, py)), colour, tolerance):
                    return True
    return False


def at(x, y):
    return 70 + 55 * x, 340 - 30 * y


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    alea = os.path.abspath(sys.argv[1])
    keep = sys.argv[sys.argv.index("--keep") + 1] if "--keep" in sys.argv else None
    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)

    with tempfile.TemporaryDirectory() as d:
        d = keep or d
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "plots.alea"), "w") as f:
            f.write(PROGRAM)
        p = subprocess.run([alea, "run", "plots.alea"], cwd=d, capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"alea run failed:\n{p.stderr}")
        images = {}
        for name in ("lines", "bars"):
            svg, png = os.path.join(d, name + ".svg"), os.path.join(d, name + ".png")
            r = subprocess.run(["rsvg-convert", svg, "-o", png], capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit(f"rsvg-convert refused {name}.svg:\n{r.stderr}")
            images[name] = Image.open(png).convert("RGB")

        lines = images["lines"]
        check(lines.size == (640, 400), f"lines.png is {lines.size}, not 640 x 400")
        # The y axis: dark pixels down the left edge of the plot area (the
        # line is anti-aliased across x = 69..71).
        dark = sum(1 for y in range(50, 330)
                   if min(sum(lines.getpixel((x, y))) for x in (69, 70, 71)) < 450)
        check(dark > 250, f"no y axis at x = 70 ({dark} dark pixels of 280)")
        # The line (series 1, blue) along the diagonal, not off it (the
        # legend covers the top right corner).
        for t in (1.0, 5.0, 7.0):
            check(found(lines, BLUE, *at(t, t)), f"no line at ({t}, {t})")
        check(not found(lines, BLUE, *at(2.0, 8.0), radius=3), "line colour at the point (2, 8)")
        # The points (series 2, orange) where they are, and not mirrored.
        for x, y in ((2.0, 8.0), (8.0, 2.0)):
            check(found(lines, ORANGE, *at(x, y)), f"no point at ({x}, {y})")
        check(not found(lines, ORANGE, *at(8.0, 8.0), radius=8), "a point at (8, 8)")

        bars = images["bars"]
        check(bars.size == (640, 400), f"bars.png is {bars.size}, not 640 x 400")
        # Bars over [0, 3] with counts 1, 2, 3 on a 0..3 axis: each bin's
        # middle is filled up to its count and empty above it.
        bar_colour = tuple(int(0.8 * c + 0.2 * 255) for c in BLUE)  # fill-opacity 0.8 on white
        for i, count in enumerate((1, 2, 3)):
            x = 70 + 550 * (i + 0.5) / 3
            inside = 340 - 100 * count + 10
            check(found(bars, bar_colour, x, inside, radius=2, tolerance=40),
                  f"bin {i}: no bar below its count")
            if count < 3:
                above = 340 - 100 * count - 15
                check(not found(bars, bar_colour, x, above, radius=2, tolerance=40),
                      f"bin {i}: the bar goes above its count")
    for f in failures:
        print("FAIL", f)
    print(f"2 SVGs drawn by rsvg-convert: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
