//! Certifying a repair on a closed surface in time proportional to what it changed, instead
//! of one O(n) count of the covering ([`crate::check::check_covering`]).
//!
//! Call `changed` every vertex whose star the repair changed: the relocated vertices, the
//! vertices whose stars the relocations flipped (`touched`), and the four corners of every
//! quad that a Lawson flip retriangulated. A face with no corner in `changed` is a face of the
//! mesh before the repair (its three edges were never flipped), with the same corners at the
//! same positions; every face the repair made has all its corners in `changed`.
//!
//! * **Every face is counter-clockwise**: the faces around `changed` are tested; a face
//!   elsewhere is as it was, and was counter-clockwise unless the fold scan found it folded
//!   (then it must have a corner in `changed`, that is, be gone or tested). Faces with no
//!   moved corner are taken as counter-clockwise, as everywhere in [`crate::restore`] (the
//!   mesh was a triangulation before the move).
//! * **The covering** is then the number of faces holding a point in general position
//!   ([`crate::covering`]). After a whole-mesh fold scan that recorded the faces holding the
//!   probe, the count after the repair is those of them with no corner in `changed` plus the
//!   faces around `changed` that hold it ([`certify_scanned`]). Without that scan, the
//!   windings of the vertices whose stars or neighbours' positions changed decide
//!   ([`certify_windings`]): with every face counter-clockwise, the mesh covers the sphere
//!   `1 + Σ (w(v) − 1) / 2` times, and every other vertex winds as before, once.

use super::{folded_faces, par};
use crate::covering::{Probe, winding};
use crate::{DelaunayError, Surface};
use glam::DVec3;
use quadedge::{Face, Mesh, Vertex};

/// The first vertex of sorted `changed` with a clockwise or flat face around it.
fn refuse_folds_around<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    changed: &[Vertex],
) -> Result<(), DelaunayError> {
    if changed.len() >= par::PAR_MIN {
        return match par::first_folded(surface, mesh, positions, changed)? {
            Some(v) => Err(DelaunayError::FoldUnresolved(v)),
            None => Ok(()),
        };
    }
    for &v in changed {
        if mesh.is_vertex_alive(v) && folded_faces(surface, mesh, positions, v)? > 0 {
            return Err(DelaunayError::FoldUnresolved(v));
        }
    }
    Ok(())
}

/// After a whole-mesh fold scan (`folded`: the corners of the faces it found clockwise or
/// flat; `holding`: of the faces it found holding the probe), with `changed` sorted and
/// deduplicated: `Ok` when the repaired mesh has no fold left and covers the sphere once;
/// [`DelaunayError::FoldUnresolved`] or [`DelaunayError::Covering`] (with the exact count)
/// otherwise.
pub(super) fn certify_scanned<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    changed: &[Vertex],
    folded: &[[Vertex; 3]],
    holding: &[[Vertex; 3]],
) -> Result<(), DelaunayError> {
    refuse_folds_around(surface, mesh, positions, changed)?;
    let touches = |f: &[Vertex; 3]| f.iter().any(|v| changed.binary_search(v).is_ok());
    if let Some(f) = folded.iter().find(|f| !touches(f)) {
        // Never flipped, so still there and still folded.
        let owner = f.iter().copied().min().unwrap_or(Vertex::INVALID);
        return Err(DelaunayError::FoldUnresolved(owner));
    }
    let kept = holding.iter().filter(|f| !touches(f)).count();
    let probe = Probe::new(surface, [DVec3::ZERO; 3]);
    let mut new: Vec<Face> = Vec::new();
    for &v in changed {
        if !mesh.is_vertex_alive(v) {
            continue;
        }
        for e in mesh.outgoing(v) {
            let f = mesh.left(e);
            if !f.is_valid() {
                continue;
            }
            let corners = mesh.face_vertices(f).map(|u| positions[u.index()]);
            if probe.in_face(surface, corners) {
                new.push(f);
            }
        }
    }
    new.sort_unstable();
    new.dedup();
    match kept + new.len() {
        1 => Ok(()),
        times => Err(DelaunayError::Covering { times }),
    }
}

/// Without a whole-mesh scan, after the fold test of every face around `moved`: `Ok(true)`
/// when the repaired mesh has no fold left around `changed` (both sorted, deduplicated) and
/// every vertex whose winding the restore could change winds once, so that the mesh covers
/// the sphere once (given that it did before the move); `Ok(false)` when a winding is not
/// one (the caller counts the covering); [`DelaunayError::FoldUnresolved`] for a fold left.
///
/// A face around `moved` with no corner in `changed` is as the fold test saw it (none of its
/// edges was flipped), and every face it found folded had its owner relocated or was flipped
/// away: such faces need no second test. The windings to check are those of `moved`,
/// `changed` and, unless `rigid` (every vertex outside `moved` moved, if at all, with all its
/// neighbours by one rotation, so that its winding is as before), the neighbours of `moved`.
pub(super) fn certify_windings<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    moved: &[Vertex],
    changed: &[Vertex],
    rigid: bool,
) -> Result<bool, DelaunayError> {
    // A vertex winds as before unless it moved, its star changed or a neighbour moved.
    let mut wind: Vec<Vertex> = Vec::with_capacity(8 * moved.len() + changed.len());
    wind.extend_from_slice(changed);
    for &v in moved {
        wind.push(v);
        if !rigid {
            wind.extend(mesh.neighbors(v));
        }
    }
    par::sort_dedup(&mut wind, mesh.vertex_slots());
    if wind.len() >= par::PAR_MIN {
        // `changed` is part of `wind`: one walk of each ring for both tests.
        return par::folds_then_windings(surface, mesh, positions, &wind, changed);
    }
    refuse_folds_around(surface, mesh, positions, changed)?;
    Ok(wind
        .iter()
        .all(|&u| !mesh.is_vertex_alive(u) || winding(surface, mesh, positions, u) == 1))
}

/// Debug builds: a local verdict agrees with the whole-mesh check it stands for (every face
/// counter-clockwise, the sphere covered once).
#[cfg(debug_assertions)]
pub(super) fn cross_check<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    verdict: &Result<bool, DelaunayError>,
) {
    let full = crate::check::check_covering(surface, mesh, positions);
    match verdict {
        Ok(true) => assert_eq!(full, Ok(()), "a local certificate accepted a bad mesh"),
        Err(DelaunayError::FoldUnresolved(_)) => assert!(
            matches!(full, Err(DelaunayError::Inverted(_))),
            "a fold the whole-mesh check does not see: {full:?}"
        ),
        Err(DelaunayError::Covering { times }) => assert_eq!(
            full,
            Err(DelaunayError::Covering { times: *times }),
            "a covering count that differs from the whole-mesh one"
        ),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Sphere;

    /// Every face counter-clockwise and every edge locally Delaunay, the sphere covered twice
    /// (a pentagon walked twice round the equator, branched at the poles).
    fn double_cover() -> (Mesh, Vec<DVec3>) {
        let k = 5u32;
        let mut pos = vec![DVec3::Z, DVec3::NEG_Z];
        for i in 0..k {
            let t = 2.0 * std::f64::consts::TAU * f64::from(i) / f64::from(k);
            pos.push(DVec3::new(t.cos(), t.sin(), 0.0));
        }
        let tris: Vec<[u32; 3]> = (0..k)
            .flat_map(|i| {
                let (a, b) = (2 + i, 2 + (i + 1) % k);
                [[a, b, 0], [b, a, 1]]
            })
            .collect();
        (Mesh::from_triangles(pos.len(), &tris).unwrap(), pos)
    }

    fn all(mesh: &Mesh) -> Vec<Vertex> {
        mesh.vertices().collect()
    }

    #[test]
    fn a_double_cover_is_refused_by_both_certificates() {
        let (mesh, pos) = double_cover();
        let changed = all(&mesh);
        assert_eq!(
            certify_scanned(&Sphere, &mesh, &pos, &changed, &[], &[]),
            Err(DelaunayError::Covering { times: 2 })
        );
        // The poles wind twice: the windings cannot certify.
        let poles = [Vertex::new(0)];
        assert_eq!(
            certify_windings(&Sphere, &mesh, &pos, &poles, &[], false),
            Ok(false)
        );
        assert_eq!(
            certify_windings(&Sphere, &mesh, &pos, &[], &changed, false),
            Ok(false)
        );
    }

    #[test]
    fn the_octahedron_is_certified_and_the_count_is_exact() {
        let (mesh, pos) = testkit::octahedron();
        let changed = all(&mesh);
        assert_eq!(
            certify_scanned(&Sphere, &mesh, &pos, &changed, &[], &[]),
            Ok(())
        );
        assert_eq!(
            certify_windings(&Sphere, &mesh, &pos, &changed, &[], false),
            Ok(true)
        );
        // Nothing changed: the faces recorded as holding the probe are the count.
        let probe = Probe::new(&Sphere, [DVec3::ZERO; 3]);
        let holding: Vec<[Vertex; 3]> = mesh
            .faces()
            .map(|f| mesh.face_vertices(f))
            .filter(|c| probe.in_face(&Sphere, c.map(|v| pos[v.index()])))
            .collect();
        assert_eq!(holding.len(), 1);
        assert_eq!(
            certify_scanned(&Sphere, &mesh, &pos, &[], &[], &holding),
            Ok(())
        );
        // A recorded face that a change touched is counted from the mesh, not twice.
        let touched = holding[0].to_vec();
        let mut sorted = touched.clone();
        sorted.sort_unstable();
        assert_eq!(
            certify_scanned(&Sphere, &mesh, &pos, &sorted, &[], &holding),
            Ok(())
        );
        // Forgetting the recorded face leaves no face holding the probe: refused.
        assert_eq!(
            certify_scanned(&Sphere, &mesh, &pos, &[], &[], &[]),
            Err(DelaunayError::Covering { times: 0 })
        );
    }

    #[test]
    fn a_fold_left_is_refused() {
        let (mesh, mut pos) = testkit::octahedron();
        // The north pole pushed past the equator edge +x → +y: faces around it turn over.
        pos[4] = DVec3::new(1.0, 1.0, -0.2).normalize();
        let v = Vertex::new(4);
        assert!(folded_faces(&Sphere, &mesh, &pos, v).unwrap() > 0);
        // Left after a repair that changed its star (a moved vertex alone is taken as
        // tested by the fold scan, which would have relocated it).
        assert_eq!(
            certify_windings(&Sphere, &mesh, &pos, &[], &[v], false),
            Err(DelaunayError::FoldUnresolved(v))
        );
        // A folded face the repair never touched is still there.
        let folded: Vec<[Vertex; 3]> = mesh
            .faces()
            .map(|f| mesh.face_vertices(f))
            .filter(|c| {
                let [a, b, d] = c.map(|u| pos[u.index()]);
                Sphere.orient(a, b, d) <= 0.0
            })
            .collect();
        assert!(!folded.is_empty());
        assert!(matches!(
            certify_scanned(&Sphere, &mesh, &pos, &[], &folded, &[]),
            Err(DelaunayError::FoldUnresolved(_))
        ));
        // Touched, it is found around the changed vertex.
        assert_eq!(
            certify_scanned(&Sphere, &mesh, &pos, &[v], &folded, &[]),
            Err(DelaunayError::FoldUnresolved(v))
        );
    }
}
