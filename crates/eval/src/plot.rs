//! An SVG plot of precision against recall along a threshold sweep (the Victor paper's
//! Figure 2): x = recall, y = precision, one curve per measure (block level, text level, ...),
//! points marked, the thresholds that are multiples of a step ringed and written next to their
//! points, and the bundle's recommended threshold marked (a black ring, its label placed first).
//! The legend says what the rings are.
//!
//! Labels are placed where they collide with nothing: each tries spots around its point (right,
//! left, at either side above or below, above, below, further out) and takes the first that
//! stays inside the frame and clear of the labels placed before it and of the legend, covering
//! the fewest points; a label that finds no such spot is left out (its ring stays). At the top
//! right, where users tune, a sweep's points crowd together: labels go where there is room
//! instead of piling on each other and being cut at the edge. The legend takes the corner of the
//! frame that covers the fewest points.
//!
//! Rendering uses `plotters`' SVG backend without any font feature: the backend writes `<text>`
//! elements and lets the viewer pick the font, so nothing depends on system fonts. For the
//! same reason there is no PNG output: plotters' bitmap backend must rasterize glyphs itself,
//! which needs a font file from the system (or one bundled in the binary).

use plotters::prelude::*;

use crate::sweep::SweepRow;

/// One point of a curve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CurvePoint {
    /// The threshold that gave this point.
    pub threshold: f64,
    /// Recall, in `0..=1` (x axis).
    pub recall: f64,
    /// Precision, in `0..=1` (y axis).
    pub precision: f64,
}

/// A named precision/recall curve, points in sweep order.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    /// Legend entry.
    pub name: String,
    /// The points, joined in this order.
    pub points: Vec<CurvePoint>,
}

impl Curve {
    /// The block-level curve of a sweep, named "blocks".
    pub fn blocks(rows: &[SweepRow]) -> Curve {
        Curve {
            name: "blocks".to_owned(),
            points: rows
                .iter()
                .map(|r| CurvePoint {
                    threshold: r.threshold,
                    recall: r.block.recall,
                    precision: r.block.precision,
                })
                .collect(),
        }
    }

    /// The text-level (macro) curve of a sweep, named "text (macro)"; `None` unless every row
    /// has text figures.
    pub fn text(rows: &[SweepRow]) -> Option<Curve> {
        let points = rows
            .iter()
            .map(|r| {
                r.text.map(|t| CurvePoint {
                    threshold: r.threshold,
                    recall: t.macro_avg.recall,
                    precision: t.macro_avg.precision,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Curve {
            name: "text (macro)".to_owned(),
            points,
        })
    }
}

/// How the axes are scaled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Axes {
    /// Both axes from 0 to 1.
    Full,
    /// Each axis spans the data with a margin of 5 % of the span (at least 0.02), within 0..1.
    #[default]
    Zoom,
}

/// Appearance of the plot.
#[derive(Debug, Clone, PartialEq)]
pub struct PlotOptions {
    /// Title above the plot.
    pub title: String,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Axis scaling.
    pub axes: Axes,
    /// Thresholds that are multiples of this step get a text label (0 or less: none).
    pub label_step: f64,
    /// The threshold the model bundle recommends, marked on each curve that holds it (within
    /// 1e-6); `None`: none marked.
    pub recommended: Option<f64>,
}

impl Default for PlotOptions {
    fn default() -> Self {
        PlotOptions {
            title: "Precision and recall by threshold on P(other)".to_owned(),
            width: 800,
            height: 600,
            axes: Axes::Zoom,
            label_step: 0.1,
            recommended: None,
        }
    }
}

/// Why a plot could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// No curve has a point.
    #[error("nothing to plot: no curve has a point")]
    NoPoints,
    /// A point outside the unit square, or not a number.
    #[error(
        "curve {curve:?}, point {index}: recall {recall} and precision {precision} must lie in 0..=1"
    )]
    InvalidPoint {
        /// Name of the curve.
        curve: String,
        /// Index of the point in the curve.
        index: usize,
        /// Its recall.
        recall: f64,
        /// Its precision.
        precision: f64,
    },
    /// Width or height of zero.
    #[error("plot size {width}x{height} has no area")]
    EmptySize {
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
    },
    /// The drawing library failed.
    #[error("drawing the plot failed: {0}")]
    Draw(String),
}

/// Line colours, one per curve in turn.
const PALETTE: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];

/// Renders the curves as an SVG document.
pub fn render_svg(curves: &[Curve], options: &PlotOptions) -> Result<String, PlotError> {
    validate(curves, options)?;
    let (x_range, y_range) = match options.axes {
        Axes::Full => ((0.0, 1.0), (0.0, 1.0)),
        Axes::Zoom => (
            zoom(curves.iter().flat_map(|c| &c.points).map(|p| p.recall)),
            zoom(curves.iter().flat_map(|c| &c.points).map(|p| p.precision)),
        ),
    };
    let mut svg = String::new();
    draw(&mut svg, curves, options, x_range, y_range).map_err(PlotError::Draw)?;
    Ok(svg)
}

/// Rejects input that would draw nothing or garbage.
fn validate(curves: &[Curve], options: &PlotOptions) -> Result<(), PlotError> {
    if options.width == 0 || options.height == 0 {
        return Err(PlotError::EmptySize {
            width: options.width,
            height: options.height,
        });
    }
    if curves.iter().all(|c| c.points.is_empty()) {
        return Err(PlotError::NoPoints);
    }
    let unit = 0.0..=1.0;
    for curve in curves {
        if let Some((index, p)) = curve
            .points
            .iter()
            .enumerate()
            .find(|(_, p)| !unit.contains(&p.recall) || !unit.contains(&p.precision))
        {
            return Err(PlotError::InvalidPoint {
                curve: curve.name.clone(),
                index,
                recall: p.recall,
                precision: p.precision,
            });
        }
    }
    Ok(())
}

/// The axis range covering `values` (all in 0..=1, at least one) with a margin, within 0..1.
fn zoom(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values.fold((1.0f64, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let margin = ((hi - lo) * 0.05).max(0.02);
    ((lo - margin).max(0.0), (hi + margin).min(1.0))
}

/// Whether `threshold` is a multiple of `step` (up to rounding).
fn is_labelled(threshold: f64, step: f64) -> bool {
    if step <= 0.0 {
        return false;
    }
    let q = threshold / step;
    (q - q.round()).abs() < 1e-6
}

/// A threshold label: its point (recall, precision), the first and last threshold it names
/// (one, or a run of points at the same spot), and its text.
struct Label {
    at: (f64, f64),
    first: f64,
    last: f64,
    text: String,
}

/// Labels for the labelled thresholds of a curve: consecutive labelled points at the same
/// spot share one label, "a–b".
fn threshold_labels(curve: &Curve, step: f64) -> Vec<Label> {
    let mut out: Vec<((f64, f64), f64, f64)> = Vec::new();
    for p in curve
        .points
        .iter()
        .filter(|p| is_labelled(p.threshold, step))
    {
        let at = (p.recall, p.precision);
        match out.last_mut() {
            Some((last_at, _, last_t)) if *last_at == at => *last_t = p.threshold,
            _ => out.push((at, p.threshold, p.threshold)),
        }
    }
    out.into_iter()
        .map(|(at, first, last)| {
            let text = if first == last {
                format!("{first:.2}")
            } else {
                format!("{first:.2}–{last:.2}")
            };
            Label {
                at,
                first,
                last,
                text,
            }
        })
        .collect()
}

/// Font size of the threshold labels, in pixels.
const LABEL_FONT: u32 = 14;

/// Font size of the legend, in pixels.
const LEGEND_FONT: u32 = 16;

/// Radius of the ring around a labelled threshold's point, and of the recommended one's.
const RING: i32 = 6;
const RECOMMENDED_RING: i32 = 9;

/// A rectangle in pixels: left, top, right, bottom (exclusive).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Rect {
    x0: i32,
    y0: i32,
    x1: i32,
    y1: i32,
}

impl Rect {
    fn at((x, y): (i32, i32), (w, h): (i32, i32)) -> Rect {
        Rect {
            x0: x,
            y0: y,
            x1: x + w,
            y1: y + h,
        }
    }

    fn overlaps(&self, o: &Rect) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }

    fn inside(&self, o: &Rect) -> bool {
        self.x0 >= o.x0 && self.x1 <= o.x1 && self.y0 >= o.y0 && self.y1 <= o.y1
    }

    fn holds(&self, (x, y): (i32, i32)) -> bool {
        x >= self.x0 && x < self.x1 && y >= self.y0 && y < self.y1
    }
}

/// The room a line of `text` takes at font size `font`: plotters' SVG backend writes a font of
/// size `font / 1.24` pixels, and a sans-serif digit is about 0.6 of that wide (an estimate,
/// generous for digits: the viewer picks the font).
fn text_size(text: &str, font: u32) -> (i32, i32) {
    let chars = text.chars().count() as f64;
    let px = f64::from(font) / 1.24;
    ((chars * 0.6 * px).ceil() as i32 + 2, px.ceil() as i32 + 3)
}

/// What a label would cover: the points of the curves (`dots`) and the pixels of their lines
/// (`ink`, sampled every few pixels along each segment).
struct Marks {
    dots: Vec<(i32, i32)>,
    ink: Vec<(i32, i32)>,
}

impl Marks {
    /// The marks of `lines`, each a curve's points in pixels.
    fn of(lines: &[Vec<(i32, i32)>]) -> Marks {
        let dots = lines.iter().flatten().copied().collect();
        let mut ink = Vec::new();
        for line in lines {
            for w in line.windows(2) {
                let ((ax, ay), (bx, by)) = (w[0], w[1]);
                let steps = ((bx - ax).abs().max((by - ay).abs()) / 3).max(1);
                for k in 0..=steps {
                    ink.push((ax + (bx - ax) * k / steps, ay + (by - ay) * k / steps));
                }
            }
        }
        Marks { dots, ink }
    }

    /// How much of the curves `r` would hide: `None` if it covers a point, else the line
    /// pixels under it.
    fn covered(&self, r: &Rect) -> Option<usize> {
        if self.dots.iter().any(|&d| r.holds(d)) {
            return None;
        }
        Some(self.ink.iter().filter(|&&d| r.holds(d)).count())
    }
}

/// Where labels may go: inside the plotting area (`frame`), clear of the boxes already taken
/// (the legend's, the labels placed so far), over as little of the curves (`marks`) as can be.
struct Room<'m> {
    frame: Rect,
    taken: Vec<Rect>,
    marks: &'m Marks,
}

/// Where a label of `size` for the point at `p` goes: of the spots around the point (right,
/// left, at either side above or below, above, below, then further out), those inside `frame`,
/// clear of `taken` and covering no point; the first that crosses no line, else the one that
/// crosses the least. `None` when no spot is clear: the label is left out.
fn place(p: (i32, i32), (w, h): (i32, i32), room: &Room<'_>) -> Option<Rect> {
    let gap = RING + 2;
    let spots = [
        (gap, -h / 2),
        (-gap - w, -h / 2),
        (gap, -h - 1),
        (-gap - w, -h - 1),
        (gap, 1),
        (-gap - w, 1),
        (-w / 2, -h - gap),
        (-w / 2, gap),
        (2 * gap, -h / 2),
        (-2 * gap - w, -h / 2),
        (gap, -h - gap),
        (-gap - w, -h - gap),
        (gap, gap),
        (-gap - w, gap),
        (-w / 2, -h - 2 * gap),
        (-w / 2, 2 * gap),
    ];
    let rects = spots
        .into_iter()
        .map(|(dx, dy)| Rect::at((p.0 + dx, p.1 + dy), (w, h)));
    choose(rects, room)
}

/// Where the label of the recommended point goes: a spot around it ([`place`]), or else the
/// best spot up to 120 pixels away, joined to its ring by a line: clear of the frame's edge, the
/// other labels and the points; the least line under the label and crossed by the line to it,
/// the nearest.
fn place_far(p: (i32, i32), (w, h): (i32, i32), room: &Room<'_>) -> Option<Rect> {
    if let Some(r) = place(p, (w, h), room) {
        return Some(r);
    }
    let (frame, taken, marks) = (&room.frame, room.taken.as_slice(), room.marks);
    let ink: rustc_hash::FxHashSet<(i32, i32)> =
        marks.ink.iter().map(|&(x, y)| (x / 3, y / 3)).collect();
    let mut best: Option<(f64, Rect)> = None;
    for dy in (-120..=120).step_by(10) {
        for dx in (-120 - w..=120).step_by(10) {
            let r = Rect::at((p.0 + dx, p.1 + dy), (w, h));
            if !r.inside(frame) || taken.iter().any(|t| t.overlaps(&r)) || r.holds(p) {
                continue;
            }
            let Some(under) = marks.covered(&r) else {
                continue;
            };
            // The line from the point to the label, every 2 pixels.
            let end = nearest(&r, p);
            let (lx, ly) = (end.0 - p.0, end.1 - p.1);
            let len = lx.abs().max(ly.abs()).max(1);
            let mut crossed = 0;
            let mut blocked = false;
            for k in (RECOMMENDED_RING..len).step_by(2) {
                let q = (p.0 + lx * k / len, p.1 + ly * k / len);
                blocked |= taken.iter().any(|t| t.holds(q));
                crossed += usize::from(ink.contains(&(q.0 / 3, q.1 / 3)));
            }
            if blocked {
                continue;
            }
            let cost = 10.0 * under as f64 + 20.0 * crossed as f64 + f64::from(len) / 10.0;
            if best.is_none_or(|(c, _)| cost < c) {
                best = Some((cost, r));
            }
        }
    }
    best.map(|(_, r)| r)
}

/// Of `rects` (in order of preference), those inside `frame`, clear of `taken` and covering no
/// point: the first that crosses no line, else the one that crosses the least.
fn choose(rects: impl Iterator<Item = Rect>, room: &Room<'_>) -> Option<Rect> {
    let (frame, taken, marks) = (&room.frame, room.taken.as_slice(), room.marks);
    let mut best: Option<(usize, Rect)> = None;
    for r in rects {
        if !r.inside(frame) || taken.iter().any(|t| t.overlaps(&r)) {
            continue;
        }
        match marks.covered(&r) {
            Some(0) => return Some(r),
            Some(ink) if best.is_none_or(|(c, _)| ink < c) => best = Some((ink, r)),
            _ => {}
        }
    }
    best.map(|(_, r)| r)
}

/// The point of `r` nearest to `p` (where a leader line from `p` ends).
fn nearest(r: &Rect, p: (i32, i32)) -> (i32, i32) {
    (p.0.clamp(r.x0, r.x1 - 1), p.1.clamp(r.y0, r.y1 - 1))
}

/// The legend's corner: the one of the frame whose legend box (of `size`) covers the least of
/// the curves (the lower left first, on a tie), with that box.
fn legend_corner(frame: &Rect, size: (i32, i32), marks: &Marks) -> (SeriesLabelPosition, Rect) {
    let (w, h) = size;
    let corners = [
        (
            SeriesLabelPosition::LowerLeft,
            (frame.x0 + 5, frame.y1 - h - 5),
        ),
        (
            SeriesLabelPosition::LowerRight,
            (frame.x1 - w - 5, frame.y1 - h - 5),
        ),
        (SeriesLabelPosition::UpperLeft, (frame.x0 + 5, frame.y0 + 5)),
        (
            SeriesLabelPosition::UpperRight,
            (frame.x1 - w - 5, frame.y0 + 5),
        ),
    ];
    let mut best = (
        usize::MAX,
        SeriesLabelPosition::LowerLeft,
        Rect::at(corners[0].1, size),
    );
    for (pos, at) in corners {
        let r = Rect::at(at, size);
        let covered = marks
            .dots
            .iter()
            .chain(&marks.ink)
            .filter(|&&d| r.holds(d))
            .count();
        if covered < best.0 {
            best = (covered, pos, r);
        }
    }
    (best.1, best.2)
}

/// Whether `t` lies within the run of thresholds from `a` to `b` (either order).
fn within(t: f64, a: f64, b: f64) -> bool {
    t >= a.min(b) - 1e-6 && t <= a.max(b) + 1e-6
}

/// The drawing area of the whole SVG document.
type Root<'b> = DrawingArea<SVGBackend<'b>, plotters::coord::Shift>;

/// The chart inside it: recall by precision.
type Chart<'a, 'b> = ChartContext<
    'a,
    SVGBackend<'b>,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// A drawing error as a string (plotters' error type borrows the backend).
fn err(e: &dyn std::fmt::Display) -> String {
    e.to_string()
}

/// Draws the chart into `svg`; errors are rendered as strings because plotters' error type
/// borrows the backend.
fn draw(
    svg: &mut String,
    curves: &[Curve],
    options: &PlotOptions,
    x_range: (f64, f64),
    y_range: (f64, f64),
) -> Result<(), String> {
    let root = SVGBackend::with_string(svg, (options.width, options.height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = chart(&root, options, x_range, y_range)?;
    let (xs, ys) = chart.plotting_area().get_pixel_range();
    let frame = Rect {
        x0: xs.start,
        y0: ys.start,
        x1: xs.end,
        y1: ys.end,
    };
    let lines: Vec<Vec<(i32, i32)>> = curves
        .iter()
        .map(|c| {
            c.points
                .iter()
                .map(|p| chart.backend_coord(&(p.recall, p.precision)))
                .collect()
        })
        .collect();
    let marks = Marks::of(&lines);

    // Each curve's labels, and its recommended point.
    let labels: Vec<Vec<Label>> = curves
        .iter()
        .map(|c| threshold_labels(c, options.label_step))
        .collect();
    let recommended: Vec<Option<CurvePoint>> = curves
        .iter()
        .map(|c| {
            let t = options.recommended?;
            c.points
                .iter()
                .find(|p| (p.threshold - t).abs() < 1e-6)
                .copied()
        })
        .collect();
    let any_label = labels.iter().any(|l| !l.is_empty());
    let any_recommended = recommended.iter().any(Option::is_some);

    draw_curves(&mut chart, curves)?;
    let legend_size = legend_marks(&mut chart, curves, options, any_label, any_recommended)?;
    let (legend_at, legend_box) = legend_corner(&frame, legend_size, &marks);

    // The recommended points first (their labels have the first choice of spot), then every
    // curve's labels in turn.
    let mut room = Room {
        frame,
        taken: vec![legend_box],
        marks: &marks,
    };
    draw_recommended(&root, &chart, &recommended, &mut room)?;
    draw_labels(&root, &chart, &labels, &recommended, &mut room)?;
    chart
        .configure_series_labels()
        .position(legend_at)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", LEGEND_FONT))
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

/// The chart on `root` with its title, axes and their descriptions.
fn chart<'a, 'b>(
    root: &'a Root<'b>,
    options: &PlotOptions,
    (x0, x1): (f64, f64),
    (y0, y1): (f64, f64),
) -> Result<Chart<'a, 'b>, String> {
    let mut chart = ChartBuilder::on(root)
        .caption(&options.title, ("sans-serif", 26))
        .margin(20)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .label_style(("sans-serif", 15))
        .axis_desc_style(("sans-serif", 18))
        .x_desc("Recall")
        .y_desc("Precision")
        .x_label_formatter(&|v| format!("{v:.2}"))
        .y_label_formatter(&|v| format!("{v:.2}"))
        .max_light_lines(0)
        .draw()
        .map_err(|e| err(&e))?;
    Ok(chart)
}

/// Each curve's line and points, in its colour, with its legend entry.
fn draw_curves(chart: &mut Chart<'_, '_>, curves: &[Curve]) -> Result<(), String> {
    for (i, curve) in curves.iter().enumerate() {
        let color = PALETTE[i % PALETTE.len()];
        let points: Vec<(f64, f64)> = curve
            .points
            .iter()
            .map(|p| (p.recall, p.precision))
            .collect();
        chart
            .draw_series(LineSeries::new(
                points.iter().copied(),
                color.stroke_width(2),
            ))
            .map_err(|e| err(&e))?
            .label(curve.name.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
        chart
            .draw_series(points.iter().map(|&p| Circle::new(p, 3, color.filled())))
            .map_err(|e| err(&e))?;
    }
    Ok(())
}

/// The legend's entries for the rings (drawn by no series of their own), and the size of the
/// legend's box as plotters lays it out: the entries' text, 30 pixels of sample and a margin of
/// 10 all round.
fn legend_marks(
    chart: &mut Chart<'_, '_>,
    curves: &[Curve],
    options: &PlotOptions,
    any_label: bool,
    any_recommended: bool,
) -> Result<(i32, i32), String> {
    let ring_entry = format!(
        "ring: threshold T = {:.2}, {:.2}, ...",
        options.label_step,
        2.0 * options.label_step
    );
    let recommended_entry = options
        .recommended
        .map(|t| format!("black ring: T = {t:.2}, recommended by the model"));
    if any_label {
        chart
            .draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())
            .map_err(|e| err(&e))?
            .label(ring_entry.as_str())
            .legend(|(x, y)| Circle::new((x + 10, y), RING, BLACK.stroke_width(1)));
    }
    if let (true, Some(entry)) = (any_recommended, &recommended_entry) {
        chart
            .draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())
            .map_err(|e| err(&e))?
            .label(entry.as_str())
            .legend(|(x, y)| Circle::new((x + 10, y), RECOMMENDED_RING, BLACK.stroke_width(2)));
    }
    let mut entries: Vec<&str> = curves.iter().map(|c| c.name.as_str()).collect();
    if any_label {
        entries.push(&ring_entry);
    }
    if let (true, Some(entry)) = (any_recommended, &recommended_entry) {
        entries.push(entry);
    }
    let widest = entries
        .iter()
        .map(|e| text_size(e, LEGEND_FONT).0)
        .max()
        .unwrap_or(0);
    Ok((
        widest + 50,
        entries.len() as i32 * (LEGEND_FONT as i32 + 6) + 20,
    ))
}

/// The black ring of each curve's recommended point and its label, placed first (joined to its
/// ring by a thin line when it had to go far).
fn draw_recommended(
    root: &Root<'_>,
    chart: &Chart<'_, '_>,
    recommended: &[Option<CurvePoint>],
    room: &mut Room<'_>,
) -> Result<(), String> {
    for (i, rec) in recommended.iter().enumerate() {
        let Some(p) = rec else { continue };
        let color = PALETTE[i % PALETTE.len()];
        let at = chart.backend_coord(&(p.recall, p.precision));
        root.draw(&Circle::new(at, RECOMMENDED_RING, BLACK.stroke_width(2)))
            .map_err(|e| err(&e))?;
        let text = format!("{:.2}", p.threshold);
        let size = text_size(&text, LABEL_FONT);
        if let Some(r) = place_far(at, size, room) {
            let end = nearest(&r, at);
            let (dx, dy) = (end.0 - at.0, end.1 - at.1);
            if dx * dx + dy * dy > (2 * RECOMMENDED_RING).pow(2) {
                // Far from its point: a thin line from the ring to the label.
                let len = f64::from(dx * dx + dy * dy).sqrt();
                let ring = (
                    at.0 + (f64::from(dx) * f64::from(RECOMMENDED_RING) / len) as i32,
                    at.1 + (f64::from(dy) * f64::from(RECOMMENDED_RING) / len) as i32,
                );
                root.draw(&PathElement::new(vec![ring, end], color.stroke_width(1)))
                    .map_err(|e| err(&e))?;
            }
            root.draw(&Text::new(
                text,
                (r.x0, r.y0),
                ("sans-serif", LABEL_FONT).into_font().color(&color),
            ))
            .map_err(|e| err(&e))?;
            room.taken.push(r);
        }
    }
    Ok(())
}

/// The ring of every labelled threshold and its label where it finds room (the recommended
/// threshold's is written by [`draw_recommended`]).
fn draw_labels(
    root: &Root<'_>,
    chart: &Chart<'_, '_>,
    labels: &[Vec<Label>],
    recommended: &[Option<CurvePoint>],
    room: &mut Room<'_>,
) -> Result<(), String> {
    for (i, curve_labels) in labels.iter().enumerate() {
        let color = PALETTE[i % PALETTE.len()];
        for label in curve_labels {
            let at = chart.backend_coord(&label.at);
            root.draw(&Circle::new(at, RING, color.stroke_width(1)))
                .map_err(|e| err(&e))?;
            // The recommended threshold is written by its own label.
            let rec = recommended.get(i).copied().flatten();
            if rec.is_some_and(|p| within(p.threshold, label.first, label.last)) {
                continue;
            }
            let size = text_size(&label.text, LABEL_FONT);
            if let Some(r) = place(at, size, room) {
                root.draw(&Text::new(
                    label.text.clone(),
                    (r.x0, r.y0),
                    ("sans-serif", LABEL_FONT).into_font().color(&color),
                ))
                .map_err(|e| err(&e))?;
                room.taken.push(r);
            }
        }
    }
    Ok(())
}
