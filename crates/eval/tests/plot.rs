//! The SVG plot: a well-formed document that holds the curves, their points, the threshold
//! labels, the title, the axis labels and the legend; and its errors.

use victor_eval::{Axes, Curve, CurvePoint, PlotError, PlotOptions, render_svg};

fn curve(name: &str, points: &[(f64, f64, f64)]) -> Curve {
    Curve {
        name: name.to_owned(),
        points: points
            .iter()
            .map(|&(threshold, recall, precision)| CurvePoint {
                threshold,
                recall,
                precision,
            })
            .collect(),
    }
}

fn example() -> Vec<Curve> {
    vec![
        curve(
            "blocks",
            &[
                (0.5, 0.9, 0.8),
                (0.4, 0.85, 0.84),
                (0.3, 0.8, 0.9),
                (0.25, 0.7, 0.93),
                (0.2, 0.6, 0.95),
            ],
        ),
        curve(
            "text (macro)",
            &[
                (0.5, 0.95, 0.9),
                (0.4, 0.93, 0.92),
                (0.3, 0.9, 0.94),
                (0.25, 0.8, 0.95),
                (0.2, 0.75, 0.97),
            ],
        ),
    ]
}

/// A minimal XML well-formedness check: tags balance, attributes are quoted. Returns the
/// elements as (name, attributes, text content), in document order.
fn parse(svg: &str) -> Vec<(String, String, String)> {
    let mut stack: Vec<usize> = Vec::new();
    let mut elements: Vec<(String, String, String)> = Vec::new();
    let mut rest = svg.trim();
    assert!(rest.starts_with("<svg"), "document starts with <svg");
    while let Some(open) = rest.find('<') {
        let text = &rest[..open];
        assert!(!text.contains('>'), "stray '>' in {text:?}");
        if let Some(&top) = stack.last() {
            elements[top].2.push_str(text.trim());
        } else {
            assert!(text.trim().is_empty(), "text outside the root: {text:?}");
        }
        let close = rest[open..].find('>').expect("unclosed tag") + open;
        let tag = &rest[open + 1..close];
        rest = &rest[close + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            let top = stack.pop().expect("end tag without start tag");
            assert_eq!(elements[top].0, name, "mismatched end tag");
            continue;
        }
        let self_closing = tag.ends_with('/');
        let tag = tag.trim_end_matches('/');
        let (name, attrs) = tag.split_once(' ').unwrap_or((tag, ""));
        assert_eq!(
            attrs.matches('"').count() % 2,
            0,
            "unbalanced quotes in <{tag}>"
        );
        for pair in attrs
            .split('"')
            .step_by(2)
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            assert!(
                pair.ends_with('='),
                "attribute without quoted value in <{tag}>: {pair:?}"
            );
        }
        elements.push((name.to_owned(), attrs.to_owned(), String::new()));
        if !self_closing {
            stack.push(elements.len() - 1);
        }
        assert!(
            !stack.is_empty() || rest.trim().is_empty(),
            "content after the root"
        );
    }
    assert!(stack.is_empty(), "unclosed elements");
    assert!(rest.trim().is_empty(), "trailing text");
    elements
}

fn attr<'a>(attrs: &'a str, name: &str) -> Option<&'a str> {
    let start = attrs
        .find(&format!(" {name}=\""))
        .map(|i| i + name.len() + 3)
        .or_else(|| {
            attrs
                .strip_prefix(&format!("{name}=\""))
                .map(|_| name.len() + 2)
        })?;
    let end = attrs[start..].find('"')? + start;
    Some(&attrs[start..end])
}

#[test]
fn svg_holds_curves_labels_and_legend() {
    let options = PlotOptions {
        title: "Sweep <test> & co".to_owned(),
        ..PlotOptions::default()
    };
    let svg = render_svg(&example(), &options).expect("svg");
    let elements = parse(&svg);
    let texts: Vec<&str> = elements
        .iter()
        .filter(|e| e.0 == "text")
        .map(|e| e.2.as_str())
        .collect();
    for wanted in [
        "Sweep &lt;test&gt; &amp; co",
        "Recall",
        "Precision",
        "blocks",
        "text (macro)",
    ] {
        assert!(texts.contains(&wanted), "no text {wanted:?} in {texts:?}");
    }
    // Thresholds that are multiples of 0.1 are written once per curve; 0.25 is not.
    for t in ["0.50", "0.40", "0.30", "0.20"] {
        assert_eq!(texts.iter().filter(|&&x| x == t).count(), 2, "label {t}");
    }
    assert!(!texts.contains(&"0.25"));
    // One polyline per curve with one vertex per point, in the curve's colour.
    let curves: Vec<&(String, String, String)> = elements
        .iter()
        .filter(|e| e.0 == "polyline" && attr(&e.1, "stroke-width") == Some("2"))
        .filter(|e| attr(&e.1, "points").is_some_and(|p| p.split_whitespace().count() == 5))
        .collect();
    assert_eq!(curves.len(), 2);
    assert_eq!(attr(&curves[0].1, "stroke"), Some("#1F77B4"));
    assert_eq!(attr(&curves[1].1, "stroke"), Some("#D62728"));
    // Higher precision is higher up: y decreases along the blocks curve.
    let ys: Vec<i64> = attr(&curves[0].1, "points")
        .expect("points")
        .split_whitespace()
        .map(|p| p.split_once(',').expect("x,y").1.parse().expect("y"))
        .collect();
    assert!(ys.windows(2).all(|w| w[1] < w[0]), "{ys:?}");
    // A marker per point, a ring per labelled point, and the ring the legend explains.
    let circles = elements.iter().filter(|e| e.0 == "circle").count();
    assert_eq!(circles, 10 + 8 + 1);
    assert!(
        texts.contains(&"ring: threshold T = 0.10, 0.20, ..."),
        "{texts:?}"
    );
    // No threshold is recommended: no black ring.
    assert!(
        !elements
            .iter()
            .any(|e| e.0 == "circle" && attr(&e.1, "r") == Some("9"))
    );
}

#[test]
fn full_axes_span_zero_to_one() {
    let options = PlotOptions {
        axes: Axes::Full,
        label_step: 0.0,
        ..PlotOptions::default()
    };
    let svg = render_svg(&example()[..1], &options).expect("svg");
    let elements = parse(&svg);
    let texts: Vec<&str> = elements
        .iter()
        .filter(|e| e.0 == "text")
        .map(|e| e.2.as_str())
        .collect();
    assert!(
        texts.contains(&"0.00") && texts.contains(&"1.00"),
        "{texts:?}"
    );
    // With step 0 no threshold is labelled: no ring, no text in the curve's colour.
    assert!(
        !elements
            .iter()
            .any(|e| e.0 == "circle" && attr(&e.1, "r") == Some("6"))
    );
    assert!(
        !elements
            .iter()
            .any(|e| e.0 == "text" && attr(&e.1, "fill") == Some("#1F77B4"))
    );
    assert_eq!(elements.iter().filter(|e| e.0 == "circle").count(), 5);
}

#[test]
fn coinciding_labelled_points_share_a_label() {
    let flat = curve("flat", &[(0.4, 0.5, 0.5), (0.3, 0.5, 0.5), (0.2, 0.4, 0.6)]);
    let svg = render_svg(&[flat], &PlotOptions::default()).expect("svg");
    let texts: Vec<String> = parse(&svg)
        .into_iter()
        .filter(|e| e.0 == "text")
        .map(|e| e.2)
        .collect();
    assert!(texts.iter().any(|t| t == "0.40–0.30"), "{texts:?}");
    assert!(texts.iter().any(|t| t == "0.20"));
}

#[test]
fn reports_errors() {
    assert!(matches!(
        render_svg(&[], &PlotOptions::default()),
        Err(PlotError::NoPoints)
    ));
    let empty = curve("empty", &[]);
    assert!(matches!(
        render_svg(&[empty], &PlotOptions::default()),
        Err(PlotError::NoPoints)
    ));
    let bad = curve("bad", &[(0.5, 0.5, f64::NAN)]);
    assert!(matches!(
        render_svg(&[bad], &PlotOptions::default()),
        Err(PlotError::InvalidPoint { index: 0, .. })
    ));
    let over = curve("over", &[(0.5, 0.5, 0.5), (0.4, 1.2, 0.5)]);
    assert!(matches!(
        render_svg(&[over], &PlotOptions::default()),
        Err(PlotError::InvalidPoint { index: 1, .. })
    ));
    let tiny = PlotOptions {
        width: 0,
        ..PlotOptions::default()
    };
    assert!(matches!(
        render_svg(&example(), &tiny),
        Err(PlotError::EmptySize { .. })
    ));
}

/// A sweep's curve crowded at the top right, where users tune: 51 thresholds from 0 to 1,
/// recall and precision both near 1 for most of them (as l3s-gn1's text curve is).
fn crowded(name: &str, shift: f64) -> Curve {
    let points: Vec<(f64, f64, f64)> = (0..=50)
        .map(|k| {
            let t = f64::from(k) / 50.0;
            let recall = (0.5 + 0.5 * t.powf(0.2) - shift).clamp(0.0, 1.0);
            let precision = (1.0 - 0.4 * t.powi(8) - shift).clamp(0.0, 1.0);
            (t, recall, precision)
        })
        .collect();
    curve(name, &points)
}

/// A label's text and its box: left, top, right, bottom.
type LabelBox = (String, [f64; 4]);

/// The threshold labels of a plot (texts in a curve's colour) as boxes, with a font's width of
/// 0.6 em a character (the estimate the plot places them by), and the drawing's size.
fn label_boxes(svg: &str) -> (Vec<LabelBox>, (f64, f64)) {
    let elements = parse(svg);
    let root = &elements[0].1;
    let size = (
        attr(root, "width").expect("width").parse().expect("number"),
        attr(root, "height")
            .expect("height")
            .parse()
            .expect("number"),
    );
    let boxes = elements
        .iter()
        .filter(|e| e.0 == "text" && matches!(attr(&e.1, "fill"), Some("#1F77B4" | "#D62728")))
        .map(|e| {
            let num = |k| {
                attr(&e.1, k)
                    .expect("attribute")
                    .parse::<f64>()
                    .expect("number")
            };
            let (x, y, font) = (num("x"), num("y"), num("font-size"));
            let w = e.2.chars().count() as f64 * 0.6 * font;
            (e.2.clone(), [x, y, x + w, y + font])
        })
        .collect();
    (boxes, size)
}

#[test]
fn crowded_labels_neither_overlap_nor_leave_the_frame_and_the_recommended_is_marked() {
    let curves = [crowded("blocks", 0.03), crowded("text (macro)", 0.0)];
    let options = PlotOptions {
        recommended: Some(0.7),
        ..PlotOptions::default()
    };
    let svg = render_svg(&curves, &options).expect("svg");
    let (boxes, (width, _)) = label_boxes(&svg);
    assert!(boxes.len() >= 6, "some labels placed: {boxes:?}");
    for (i, (a, ra)) in boxes.iter().enumerate() {
        // Inside the frame: the plot's right margin is 20 pixels.
        assert!(
            ra[0] >= 0.0 && ra[2] <= width - 20.0,
            "{a} cut at the edge: {ra:?}"
        );
        for (b, rb) in &boxes[i + 1..] {
            let apart = ra[2] <= rb[0] || rb[2] <= ra[0] || ra[3] <= rb[1] || rb[3] <= ra[1];
            assert!(apart, "{a} {ra:?} overlaps {b} {rb:?}");
        }
    }
    // The recommended threshold: a black ring on each curve, its label, and the legend's word.
    let elements = parse(&svg);
    let black = elements
        .iter()
        .filter(|e| e.0 == "circle" && attr(&e.1, "r") == Some("9"))
        .filter(|e| attr(&e.1, "stroke") == Some("#000000"))
        .count();
    assert_eq!(black, 2 + 1, "a ring per curve and the legend's");
    let texts: Vec<&str> = elements
        .iter()
        .filter(|e| e.0 == "text")
        .map(|e| e.2.as_str())
        .collect();
    assert!(
        texts.contains(&"black ring: T = 0.70, recommended by the model"),
        "{texts:?}"
    );
    assert!(boxes.iter().any(|(t, _)| t == "0.70"), "{boxes:?}");
}
