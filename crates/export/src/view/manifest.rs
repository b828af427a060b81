//! `manifest.json`: what the page needs to map `mesh.bin` and `frames.bin` into typed arrays.

use super::{Class, Scale, Sections, Values, ViewData};
use std::fmt::Write as _;

/// `(min, max)` of a layer over the mesh and every frame, so colours compare across steps
/// (categorical: over the ids other than `u32::MAX`; `(0, 0)` when there are none).
fn range(data: &ViewData, name: &str) -> (f64, f64) {
    let frames = data.frames.iter().flat_map(|f| &f.layers);
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for l in data.layers.iter().chain(frames).filter(|l| l.name == name) {
        match l.values {
            Values::Scalar(v, _) => v.iter().for_each(|&x| {
                lo = lo.min(x as f64);
                hi = hi.max(x as f64);
            }),
            Values::Categorical(v) | Values::Named(v, _) => {
                v.iter().filter(|&&x| x != u32::MAX).for_each(|&x| {
                    lo = lo.min(x as f64);
                    hi = hi.max(x as f64);
                });
            }
        }
    }
    if lo <= hi { (lo, hi) } else { (0.0, 0.0) }
}

/// A JSON string literal.
fn json_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `{"name": …, "color": [r, g, b] or null}`.
fn class_json(c: &Class) -> String {
    let color = match c.color {
        Some([r, g, b]) => format!("[{r}, {g}, {b}]"),
        None => "null".into(),
    };
    format!("{{\"name\": {}, \"color\": {color}}}", json_str(c.name))
}

pub(super) fn manifest(data: &ViewData, s: &Sections, frame_size: u64) -> String {
    let mut j = String::new();
    let _ = write!(
        j,
        "{{\n  \"format\": \"quadworld-view\",\n  \"version\": 1,\n  \"vertices\": {},\n  \
         \"triangles\": {},\n  \"mesh\": {{\"file\": \"mesh.bin\", \"positions\": 0, \
         \"triangles\": {}, \"ids\": {}, \"coarse\": {}, \"coarse_triangles\": {}}},\n  \
         \"layers\": [",
        data.positions.len(),
        data.triangles.len(),
        s.triangles,
        s.ids,
        s.coarse,
        data.coarse.len()
    );
    for (i, l) in data.layers.iter().enumerate() {
        let (lo, hi) = range(data, l.name);
        let scale = match l.values {
            Values::Scalar(_, Scale::Sequential) => "\"sequential\"".to_string(),
            Values::Scalar(_, Scale::Terrain { sea_level }) => {
                format!("{{\"terrain\": {sea_level}}}")
            }
            Values::Categorical(_) | Values::Named(..) => "\"categorical\"".to_string(),
        };
        let classes = match l.values {
            Values::Named(_, classes) => {
                let named: Vec<String> = classes.iter().map(class_json).collect();
                format!(", \"classes\": [{}]", named.join(", "))
            }
            _ => String::new(),
        };
        let _ = write!(
            j,
            "{}\n    {{\"name\": {}, \"kind\": \"{}\", \"unit\": {}, \"offset\": {}, \
             \"min\": {lo}, \"max\": {hi}, \"scale\": {scale}{classes}}}",
            if i == 0 { "" } else { "," },
            json_str(l.name),
            l.values.kind(),
            json_str(l.unit),
            s.layers[i],
        );
    }
    j += "\n  ],\n  \"relief\": ";
    j += &match data.relief {
        Some(r) => format!(
            "{{\"layer\": {}, \"scale\": {}}}",
            json_str(r.layer),
            r.scale
        ),
        None => "null".into(),
    };
    j += ",\n  \"frames\": ";
    if data.frames.is_empty() {
        j += "null\n}\n";
        return j;
    }
    let names: Vec<String> = data.frames[0]
        .layers
        .iter()
        .map(|l| json_str(l.name))
        .collect();
    let steps: Vec<String> = data.frames.iter().map(|f| f.step.to_string()).collect();
    let _ = write!(
        j,
        "{{\"file\": \"frames.bin\", \"layers\": [{}], \"steps\": [{}], \"bytes_per_frame\": {}}}\n}}\n",
        names.join(", "),
        steps.join(", "),
        frame_size
    );
    j
}
