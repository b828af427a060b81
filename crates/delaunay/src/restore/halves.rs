//! Lawson's flips of a large restore on two cores: the mesh in two parts
//! ([`quadedge::Mesh::edit_in_parts`]), each flipping only quads whose four corners it owns,
//! then the edges a part could not flip, on one core.
//!
//! A vertex's part is the side of a plane it lies on (a fixed axis, the plane through the
//! median of the stack's origins along it): a function of the positions and of the stack,
//! never of the thread count. A part pops its own edges (those whose origin it owns), tests
//! each reading only its own rings (the quad's corners come off the origin's ring, and an edge
//! with an end a part owns is flipped by no other part), flips it when it owns the four
//! corners and defers it otherwise. So each part's flips depend only on the mesh before, and
//! the repair is the same for any thread count. The deferred edges then go through the serial
//! Lawson loop, part 0's first; an edge a part tested and dropped keeps its quad until a flip
//! beside it, which queues it again, so the end is Delaunay as after the serial loop.

use crate::check::{finite4, is_reflex};
use crate::flips::lawson_collect;
use crate::{DelaunayError, Surface};
use glam::DVec3;
use quadedge::{Edge, Mesh, MeshError, MeshPart, PartError, Vertex};

/// Below this many starting edges one core flips them all.
pub(super) const PARTS_MIN: usize = 256;

/// The axis across which the parts are cut (any fixed direction would do).
pub(super) const AXIS: DVec3 = DVec3::new(
    0.267_261_241_912_424_4,
    0.534_522_483_824_848_8,
    0.801_783_725_737_273_2,
);

/// What one part did.
#[derive(Default)]
pub(super) struct PartOut {
    pub(super) flips: usize,
    /// Edges left to the serial pass (a corner owned by the other part), in the order met.
    pub(super) deferred: Vec<Edge>,
    /// Edges whose flip would fold or duplicate (checked once everything is done).
    pub(super) stuck: Vec<Edge>,
    /// The corners of every flipped quad.
    pub(super) flipped: Vec<Vertex>,
    pub(super) error: Option<DelaunayError>,
}

/// [`crate::flips::lawson_tracked`] from `stack` (each entry a live or dead edge, tested when
/// popped), its first flips made in two parts at once, the rest on one core; the corners of
/// every flipped quad are pushed to `flipped`. Returns the number of flips.
pub(super) fn lawson_in_parts<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &[DVec3],
    stack: Vec<Edge>,
    limit: usize,
    flipped: &mut Vec<Vertex>,
) -> Result<usize, DelaunayError> {
    // A plane through the median of the live stack entries' origins: the parts start with
    // about as many edges each.
    let live = stack.iter().filter(|e| mesh.is_edge_alive(**e));
    let origins = live.filter_map(|&e| positions.get(mesh.origin(e).index()));
    let cut = Slabs::at_quantiles(AXIS, origins, 2);
    let owner = |v: Vertex| match positions.get(v.index()) {
        Some(p) => cut.part(*p),
        None => 2,
    };
    // Each edge goes to the part owning its origin (read now, before the parts edit).
    let mut own: [Vec<Edge>; 2] = Default::default();
    for &e in &stack {
        if let Some(list) = mesh
            .is_edge_alive(e)
            .then(|| own.get_mut(usize::from(owner(mesh.origin(e)))))
            .flatten()
        {
            list.push(e);
        }
    }
    let outs = mesh.edit_in_parts(&owner, |part| {
        let mut out = PartOut::default();
        let mut stack = own[usize::from(part.part())].clone();
        if let Err(err) = lawson_part(surface, part, positions, &mut stack, limit, &mut out) {
            out.error = Some(err);
        }
        out
    });
    let [p0, p1] = outs;
    if let Some(err) = p0.error.or(p1.error) {
        return Err(err);
    }
    let mut flips = p0.flips + p1.flips;
    flipped.extend_from_slice(&p0.flipped);
    flipped.extend_from_slice(&p1.flipped);
    let mut stack = p0.deferred;
    stack.extend_from_slice(&p1.deferred);
    let mut stuck = p0.stuck;
    stuck.extend_from_slice(&p1.stuck);
    let left = limit.saturating_sub(flips);
    flips += lawson_collect(
        surface,
        mesh,
        positions,
        &mut stack,
        left,
        &mut stuck,
        Some(flipped),
    )?;
    for e in stuck {
        if mesh.is_edge_alive(e) && is_reflex(surface, mesh, positions, e)? {
            return Err(DelaunayError::NotDelaunay(e));
        }
    }
    Ok(flips)
}

/// Most cut planes of [`Slabs`] (four slabs). The planes a cut does not use lie at infinity,
/// so that [`Slabs::part`] is the same three tests for any cut (a loop over the used planes
/// only held about a tenth of the relocation parts' samples).
const PLANES_MAX: usize = 3;

/// The parts of a cut into slabs across an axis by parallel planes: slab `i` (the points
/// beyond `i` of the planes) goes to part `i % 2`. A pure function of the point, never of the
/// thread count.
#[derive(Clone, Copy, Debug)]
pub(super) struct Slabs {
    axis: DVec3,
    at: [f64; PLANES_MAX],
}

impl Slabs {
    /// `slabs` slabs (at least 1, at most `PLANES_MAX + 1`) of about as many of the points
    /// each: planes at their quantiles along `axis` (non-finite keys left out). Two slabs
    /// are the plane through the median.
    pub(super) fn at_quantiles<'a>(
        axis: DVec3,
        points: impl Iterator<Item = &'a DVec3>,
        slabs: usize,
    ) -> Self {
        let mut keys: Vec<f64> = points
            .map(|p| axis.dot(*p))
            .filter(|k| k.is_finite())
            .collect();
        let n = slabs.clamp(1, PLANES_MAX + 1) - 1;
        let mut at = [f64::INFINITY; PLANES_MAX];
        // Each quantile selected in what lies above the one before.
        let (len, mut from) = (keys.len(), 0);
        for (j, t) in at.iter_mut().enumerate().take(n) {
            let i = len * (j + 1) / (n + 1);
            if i >= len {
                break;
            }
            let (_, m, _) = keys[from..].select_nth_unstable_by(i - from, f64::total_cmp);
            *t = *m;
            from = i;
        }
        Self { axis, at }
    }

    /// The part of a point at `p` (0 for a non-finite key): the parity of the planes it lies
    /// beyond.
    #[inline]
    pub(super) fn part(&self, p: DVec3) -> u8 {
        let k = self.axis.dot(p);
        let [a, b, c] = self.at;
        u8::from(k > a) ^ u8::from(k > b) ^ u8::from(k > c)
    }
}

/// The Lawson loop of one part: pops the part's stack, tests each edge off its owned end's
/// ring, flips the reflex edges whose quad the part owns, defers the others.
pub(super) fn lawson_part<S: Surface, O: Fn(Vertex) -> u8 + Sync>(
    surface: &S,
    part: &mut MeshPart<'_, O>,
    positions: &[DVec3],
    stack: &mut Vec<Edge>,
    limit: usize,
    out: &mut PartOut,
) -> Result<(), DelaunayError> {
    while let Some(e) = stack.pop() {
        if !part.is_edge_alive(e) {
            continue;
        }
        // The quad read off an owned end; `[a, b, c, d]` as `is_reflex` reads it for `e`.
        let quad = match (part.quad(e), part.quad(e.sym())) {
            (Some(q), _) => q,
            (None, Some([b, a, d, c])) => [a, b, c, d],
            (None, None) => {
                out.deferred.push(e);
                continue;
            }
        };
        let [pa, pb, pc, pd] = finite4(positions, quad)?;
        if surface.in_circle(pa, pb, pc, pd) <= 0.0 {
            continue;
        }
        if !quad.iter().all(|&v| part.owns(v)) {
            out.deferred.push(e);
            continue;
        }
        if out.flips >= limit {
            return Err(DelaunayError::FlipLimit(out.flips));
        }
        let e = e.base();
        let [a, b, c, d] = match part.quad(e) {
            Some(q) => q,
            None => {
                out.deferred.push(e);
                continue;
            }
        };
        let [pa, pb, pc, pd] = [a, b, c, d].map(|v| positions[v.index()]);
        // The flipped faces (d, c, a) and (c, d, b) must turn counter-clockwise.
        if surface.orient(pd, pc, pa) <= 0.0 || surface.orient(pc, pd, pb) <= 0.0 {
            out.stuck.push(e);
            continue;
        }
        let es = e.sym();
        let around = [
            part.origin_prev(es),
            part.origin_next(e).sym(),
            part.origin_prev(e),
            part.origin_next(es).sym(),
        ];
        match part.flip(e) {
            Ok(_) => {
                out.flips += 1;
                stack.extend_from_slice(&around);
                out.flipped.extend([a, b, c, d]);
            }
            Err(PartError::Mesh(MeshError::FlipWouldDuplicate(_))) => out.stuck.push(e),
            Err(PartError::NotOwned) => out.deferred.push(e),
            Err(PartError::Mesh(err)) => return Err(err.into()),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{AXIS, Slabs};
    use glam::DVec3;

    /// Points crowded on one side of the axis (most keys near 0.9, a few spread below).
    fn skewed(n: usize) -> Vec<DVec3> {
        (0..n)
            .map(|i| {
                let t = i as f64 / n as f64;
                let k = if i % 8 == 0 {
                    -1.0 + 1.8 * t
                } else {
                    0.9 + 0.05 * t * t
                };
                AXIS * k + DVec3::new(0.3, -0.1, 0.05) * (i % 7) as f64
            })
            .collect()
    }

    /// Quantile slabs hold as many of the points each (within one), and the parts alternate
    /// slab by slab, so a skewed batch still splits in halves.
    #[test]
    fn slabs_hold_equal_counts_of_a_skewed_batch() {
        let points = skewed(10_001);
        for slabs in [1, 2, 3, 4] {
            let cut = Slabs::at_quantiles(AXIS, points.iter(), slabs);
            let mut per_slab = vec![0usize; slabs];
            let mut per_part = [0usize; 2];
            for p in &points {
                let k = AXIS.dot(*p);
                let slab = cut.at.iter().filter(|&&t| k > t).count();
                per_slab[slab] += 1;
                per_part[usize::from(cut.part(*p))] += 1;
                assert_eq!(usize::from(cut.part(*p)), slab % 2);
            }
            let (lo, hi) = (points.len() / slabs, points.len().div_ceil(slabs));
            for (i, &c) in per_slab.iter().enumerate() {
                assert!(
                    c + 1 >= lo && c <= hi + 1,
                    "{slabs} slabs: slab {i} holds {c}"
                );
            }
            if slabs % 2 == 0 {
                assert!(per_part[0].abs_diff(per_part[1]) <= slabs, "{per_part:?}");
            }
        }
    }

    /// Two slabs are the plane through the median; no points give one part; non-finite
    /// points are left out of the quantiles and go to part 0.
    #[test]
    fn two_slabs_are_the_median_plane() {
        let points = skewed(999);
        let mut keys: Vec<f64> = points.iter().map(|p| AXIS.dot(*p)).collect();
        keys.sort_unstable_by(f64::total_cmp);
        let median = keys[keys.len() / 2];
        let cut = Slabs::at_quantiles(AXIS, points.iter(), 2);
        for p in &points {
            assert_eq!(cut.part(*p), u8::from(AXIS.dot(*p) > median));
        }
        let mut with_nan = points.clone();
        with_nan.push(DVec3::NAN);
        let same = Slabs::at_quantiles(AXIS, with_nan.iter(), 2);
        assert_eq!(same.at, cut.at);
        assert_eq!(cut.part(DVec3::NAN), 0);
        let none = Slabs::at_quantiles(AXIS, [].iter(), 4);
        assert_eq!(none.part(AXIS), 0);
        assert_eq!(none.part(-AXIS), 0);
    }
}
