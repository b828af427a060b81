//! Plate-like motions for tests, benches and examples: every point turns about the axis of
//! the nearest of a few random plate centres, by a random angle around a given size, which
//! moves neighbours apart where plates meet (folds included when the angle is large).

use crate::Rng;
use glam::{DQuat, DVec3};
use quadedge::{Mesh, Vertex};

impl Rng {
    /// A uniformly random unit vector as a `DVec3`.
    pub fn unit_dvec3(&mut self) -> DVec3 {
        DVec3::from_array(self.unit_vector())
    }
}

/// One rotation per point: the turn of the plate whose (random) centre is nearest, among
/// `plates` plates turning by `angle · [0.5, 1.5)` radians about random axes.
///
/// ```
/// let pos = [glam::DVec3::X, glam::DVec3::Y];
/// let turns = testkit::plate_turns(&pos, 3, 0.01, &mut testkit::Rng::new(1));
/// assert_eq!(turns.len(), 2);
/// assert!(turns.iter().all(|q| q.angle_between(glam::DQuat::IDENTITY) < 0.03));
/// ```
///
/// # Panics
///
/// When `plates` is 0.
pub fn plate_turns(pos: &[DVec3], plates: usize, angle: f64, rng: &mut Rng) -> Vec<DQuat> {
    let (region, turns) = plate_regions(pos, plates, angle, rng);
    region.iter().map(|&r| turns[r as usize]).collect()
}

/// The plates of [`plate_turns`] as regions: each point's plate (the nearest random centre)
/// and each plate's turn, for a motion by rigid regions (`World::turn_regions`). The same
/// draws as [`plate_turns`].
///
/// ```
/// let pos = [glam::DVec3::X, glam::DVec3::Y];
/// let (region, turns) = testkit::plate_regions(&pos, 3, 0.01, &mut testkit::Rng::new(1));
/// assert_eq!((region.len(), turns.len()), (2, 3));
/// let each = testkit::plate_turns(&pos, 3, 0.01, &mut testkit::Rng::new(1));
/// assert_eq!(each[1], turns[region[1] as usize]);
/// ```
///
/// # Panics
///
/// When `plates` is 0.
pub fn plate_regions(
    pos: &[DVec3],
    plates: usize,
    angle: f64,
    rng: &mut Rng,
) -> (Vec<u32>, Vec<DQuat>) {
    assert!(plates > 0, "plate_turns needs at least one plate");
    let centres: Vec<DVec3> = (0..plates).map(|_| rng.unit_dvec3()).collect();
    let turns: Vec<DQuat> = (0..plates)
        .map(|_| DQuat::from_axis_angle(rng.unit_dvec3(), angle * (0.5 + rng.unit_f64())))
        .collect();
    let region = pos
        .iter()
        .map(|p| {
            let nearest = (0..plates)
                .max_by(|&a, &b| p.dot(centres[a]).total_cmp(&p.dot(centres[b])))
                .unwrap_or(0);
            nearest as u32
        })
        .collect();
    (region, turns)
}

/// The live vertices with a neighbour of another label (the band a plate-like motion folds
/// and flips), in id order; `labels` is indexed by vertex slot.
///
/// ```
/// let (mesh, _) = testkit::octahedron();
/// let labels = [0, 0, 0, 0, 0, 1]; // one pole on its own
/// let band = testkit::border_vertices(&mesh, &labels);
/// assert_eq!(band.len(), 5); // the pole and its four neighbours, not the other pole
/// ```
pub fn border_vertices(mesh: &Mesh, labels: &[u32]) -> Vec<Vertex> {
    mesh.vertices()
        .filter(|&v| {
            mesh.neighbors(v)
                .any(|u| labels[u.index()] != labels[v.index()])
        })
        .collect()
}
