//! An SVG plot of precision against recall along a threshold sweep (the Victor paper's
//! Figure 2): x = recall, y = precision, one curve per measure (block level, text level, ...),
//! points marked, and the thresholds that are multiples of a step written next to their points.
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
}

impl Default for PlotOptions {
    fn default() -> Self {
        PlotOptions {
            title: "Precision and recall by threshold on P(other)".to_owned(),
            width: 800,
            height: 600,
            axes: Axes::Zoom,
            label_step: 0.1,
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

/// Labels for the labelled thresholds of a curve: consecutive labelled points at the same
/// spot share one label, "a–b".
fn threshold_labels(curve: &Curve, step: f64) -> Vec<((f64, f64), String)> {
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
            (at, text)
        })
        .collect()
}

/// Draws the chart into `svg`; errors are rendered as strings because plotters' error type
/// borrows the backend.
fn draw(
    svg: &mut String,
    curves: &[Curve],
    options: &PlotOptions,
    (x0, x1): (f64, f64),
    (y0, y1): (f64, f64),
) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| e.to_string();
    let root = SVGBackend::with_string(svg, (options.width, options.height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
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
        chart
            .draw_series(threshold_labels(curve, options.label_step).into_iter().map(
                |(at, text)| {
                    EmptyElement::at(at)
                        + Circle::new((0, 0), 6, color.stroke_width(1))
                        + Text::new(text, (7, 2), ("sans-serif", 15).into_font().color(&color))
                },
            ))
            .map_err(|e| err(&e))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 16))
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}
