//! The subduction fronts' rows across a resample (`PLATE_RATES_TRENCH=1`): per ordered pair
//! of plates `(a, b)` whose boundary closes, where `a`'s front row stands against the old
//! boundary before and after the resample. For a vertex `x`, `s(x)` is its distance to the
//! nearest old vertex of `b` less that to the nearest old vertex of `a` (the old Voronoi
//! boundary is `s = 0`, and `s` is about twice the distance behind it). Before: the mean `s`
//! of `a`'s old front row (its gap to `b`); after: the mean `s` of `a`'s new front row
//! against the same old rows. Half their difference is how far the resample moved `a`'s
//! front row towards `b` (km): if `a` overrides and the front keeps its offset from
//! `a`'s row, `b` loses that much along the boundary's length.

use glam::DVec3;
use planet::tectonics::{PLATE, POSITION, Plate, world_ops};
use quadedge::Vertex;
use std::collections::BTreeMap;
use world::World;

/// Cosine of the relative motion with the edge above which an edge counts as closing.
const CLOSING_COS: f64 = 0.1;

/// Per ordered pair `(a, b)`, `a`'s front vertices on closing edges to `b` (each once).
fn fronts(world: &World, plates: &[Plate]) -> BTreeMap<(u32, u32), Vec<Vertex>> {
    let mesh = world.mesh();
    let plate = world.layer(&PLATE).expect("plates");
    let pos = world.layer(&POSITION).expect("positions");
    let mut out = BTreeMap::<(u32, u32), Vec<Vertex>>::new();
    for v in mesh.vertices() {
        let a = plate[v];
        let Some(pa) = plates.get(a as usize) else {
            continue;
        };
        let x = pos[v];
        let mut seen = Vec::new();
        for u in mesh.neighbors(v) {
            let b = plate[u];
            if b == a || seen.contains(&b) {
                continue;
            }
            let Some(pb) = plates.get(b as usize) else {
                continue;
            };
            let d = pos[u] - x;
            let rel = pb.velocity(x) - pa.velocity(x);
            if -rel.dot(d) > CLOSING_COS * rel.length() * d.length() {
                seen.push(b);
                out.entry((a, b)).or_default().push(v);
            }
        }
    }
    out
}

/// The distances (km) from `p` to the nearest vertices of plates `a` and `b` of `old`, by the
/// rings (up to five) around the nearest vertex of `old`.
fn near(
    old: &World,
    p: DVec3,
    (a, b): (u32, u32),
    hint: &mut Option<quadedge::Face>,
) -> Option<(f64, f64)> {
    let (v0, f) = world_ops::nearest_vertex(old, p, *hint)?;
    *hint = Some(f);
    let mesh = old.mesh();
    let plate = old.layer(&PLATE).expect("plates");
    let pos = old.layer(&POSITION).expect("positions");
    let (mut da, mut db) = (f64::INFINITY, f64::INFINITY);
    let mut ring = vec![v0];
    let mut seen = vec![v0];
    for _ in 0..5 {
        for &v in &ring {
            let d = pos[v].distance(p);
            if plate[v] == a {
                da = da.min(d);
            } else if plate[v] == b {
                db = db.min(d);
            }
        }
        let mut next = Vec::new();
        for &v in &ring {
            for u in mesh.neighbors(v) {
                if !seen.contains(&u) {
                    seen.push(u);
                    next.push(u);
                }
            }
        }
        ring = next;
    }
    (da.is_finite() && db.is_finite()).then_some((da, db))
}

/// Prints, per closing pair with at least 20 front vertices, the mean `s` of `a`'s front row
/// before and after the resample, and the shift towards `b` (see the module docs).
pub fn report(old: &World, new: &World, plates: &[Plate], spacing: f64, size: &str, step: usize) {
    let (f_old, f_new) = (fronts(old, plates), fronts(new, plates));
    let (pos_old, pos_new) = (world_ops::positions(old), world_ops::positions(new));
    let mean_s = |vs: &[Vertex], pos: &[DVec3], a, b| {
        let mut hint = None;
        let s: Vec<f64> = vs
            .iter()
            .filter_map(|&v| near(old, pos[v.index()], (a, b), &mut hint).map(|(da, db)| db - da))
            .collect();
        (s.iter().sum::<f64>() / s.len().max(1) as f64, s.len())
    };
    let mut total = 0.0;
    for (&(a, b), vs) in &f_old {
        let Some(ws) = f_new.get(&(a, b)) else {
            continue;
        };
        if vs.len() < 20 {
            continue;
        }
        let (s0, n0) = mean_s(vs, pos_old, a, b);
        let (s1, n1) = mean_s(ws, pos_new, a, b);
        let shift = 0.5 * (s0 - s1);
        // The boundary's length: the front row's count times the spacing.
        let area = shift * n0 as f64 * spacing;
        total += area.abs();
        eprintln!(
            "trench {size} step {step} {a}->{b}: n {n0}/{n1} s {:.3}/{:.3} h, shift {:.3} h = {shift:.1} km, x len {:.0} thousand km2",
            s0 / spacing,
            s1 / spacing,
            shift / spacing,
            area / 1e3
        );
    }
    eprintln!(
        "trench {size} step {step} total |shift x len| {:.0} thousand km2",
        total / 1e3
    );
}
