//! Dual centres on the plane: the point that stands for each real triangle in the dual mesh
//! (circumcentre, centroid or a blend pulled inside the triangle), and the face layer that
//! holds them (Red Blob's `t_coords`). The choice itself is [`DualCentre`], shared with the
//! sphere.

use crate::repair::is_ghost_face;
use crate::{POSITION, PlanarMap, PlaneError};
use glam::{DVec2, DVec3};
use layers::{FaceKind, Interpolation, LayerInfo};
use quadedge::{Mesh, Vertex};
pub use sphere::dual::{CellOptions, DualCentre};
use world::World;

/// Per face: its dual point (`z = 0`); `NaN` for ghost faces, which have none.
pub const DUAL_POINT: LayerInfo<DVec3, FaceKind> =
    LayerInfo::new("dual_point").interpolation(Interpolation::Reset);

/// The circumcentre of a triangle (floating point: for drawing, not for decisions).
pub(crate) fn circumcentre(a: DVec2, b: DVec2, c: DVec2) -> DVec2 {
    let (b, c) = (b - a, c - a);
    let d = 2.0 * b.perp_dot(c);
    let (b2, c2) = (b.length_squared(), c.length_squared());
    a + DVec2::new(c.y * b2 - b.y * c2, b.x * c2 - c.x * b2) / d
}

/// The dual point of the counter-clockwise triangle `a, b, c`: see [`DualCentre`]. A blend
/// weight outside `0.0..=1.0` is clamped into it (NaN reads as 0); [`dual_points`] refuses
/// such weights instead.
///
/// ```
/// use glam::DVec2;
/// use plane::{DualCentre, dual_point};
/// // An obtuse triangle: its circumcentre lies below the base, the others inside.
/// let (a, b, c) = (DVec2::new(0.0, 0.0), DVec2::new(4.0, 0.0), DVec2::new(2.0, 0.5));
/// assert!(dual_point(a, b, c, DualCentre::Circumcentre).y < 0.0);
/// assert_eq!(dual_point(a, b, c, DualCentre::Centroid), DVec2::new(2.0, 0.5 / 3.0));
/// let p = dual_point(a, b, c, DualCentre::Blend(0.9));
/// assert!(p.y > 0.0 && p.y < 0.5 / 3.0);
/// ```
pub fn dual_point(a: DVec2, b: DVec2, c: DVec2, choice: DualCentre) -> DVec2 {
    let g = (a + b + c) / 3.0;
    match choice {
        DualCentre::Circumcentre => circumcentre(a, b, c),
        DualCentre::Centroid => g,
        DualCentre::Blend(t) => {
            let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
            let q = circumcentre(a, b, c);
            if !q.is_finite() {
                return g;
            }
            // The first edge the segment g → q leaves through; (v − u) × (p − u) > 0 inside.
            let mut exit = 1.0f64;
            for (u, v) in [(a, b), (b, c), (c, a)] {
                let (sg, sq) = ((v - u).perp_dot(g - u), (v - u).perp_dot(q - u));
                if sq < 0.0 && sg > 0.0 {
                    exit = exit.min(sg / (sg - sq));
                }
            }
            g + (t * exit) * (q - g)
        }
    }
}

/// Checks a choice, in this crate's error.
pub(crate) fn checked(choice: DualCentre) -> Result<DualCentre, PlaneError> {
    choice.validate().map_err(|_| PlaneError::InvalidArgument {
        name: "blend",
        value: match choice {
            DualCentre::Blend(t) => t,
            _ => f64::NAN,
        },
    })
}

/// The dual point of every face of `mesh` by face slot, from `positions` (by vertex id);
/// ghost (a corner is `ghost`) and removed faces get `NaN`.
pub(crate) fn points_of(
    mesh: &Mesh,
    positions: &[DVec3],
    ghost: Vertex,
    choice: DualCentre,
) -> Vec<DVec3> {
    let mut out = vec![DVec3::NAN; mesh.face_slots()];
    for f in mesh.faces() {
        if !is_ghost_face(mesh, ghost, f) {
            let [a, b, c] = mesh.face_vertices(f).map(|v| {
                positions
                    .get(v.index())
                    .map_or(DVec2::NAN, |p| p.truncate())
            });
            out[f.index()] = dual_point(a, b, c, choice).extend(0.0);
        }
    }
    out
}

/// The dual point of every face of the map, by face slot (`z = 0`; `NaN` for ghost and
/// removed faces): the data of a face layer.
///
/// # Errors
/// [`PlaneError::InvalidArgument`] (`"blend"`) for a blend weight outside `0.0..=1.0`.
///
/// ```
/// use plane::DualCentre;
/// let pts = plane::poisson_disc(10.0, 8.0, 1.0, 3).unwrap();
/// let map = plane::triangulate(&pts.points).unwrap();
/// let g = plane::dual_points(&map, DualCentre::Centroid).unwrap();
/// assert_eq!(g.len(), map.mesh.face_slots());
/// assert!(map.real_faces().all(|f| g[f.index()].is_finite()));
/// ```
pub fn dual_points(map: &PlanarMap, choice: DualCentre) -> Result<Vec<DVec3>, PlaneError> {
    let choice = checked(choice)?;
    Ok(points_of(&map.mesh, &map.positions, map.ghost, choice))
}

/// Writes the [`DUAL_POINT`] face layer of a map world from its [`POSITION`] layer (creating
/// the layer if needed); `ghost` is the map's ghost vertex.
///
/// # Errors
/// [`PlaneError::InvalidArgument`] for a bad blend weight, [`PlaneError::NotPlanarMap`] when
/// the world has no position layer or the dual layer cannot be locked; the world is unchanged.
///
/// ```
/// use plane::{DUAL_POINT, DualCentre};
/// let o = plane::MapOptions { width: 20.0, height: 10.0, spacing: 1.0, seed: 2 };
/// let (mut world, map) = plane::map_world(&o).unwrap();
/// plane::set_dual_layer(&mut world, map.ghost, DualCentre::Blend(0.5)).unwrap();
/// let f = map.real_faces().next().unwrap();
/// assert!(world.layer(&DUAL_POINT).unwrap()[f].is_finite());
/// ```
pub fn set_dual_layer(
    world: &mut World,
    ghost: Vertex,
    choice: DualCentre,
) -> Result<(), PlaneError> {
    let choice = checked(choice)?;
    let positions = world
        .layer(&POSITION)
        .ok_or(PlaneError::NotPlanarMap("no position layer"))?
        .to_vec();
    let points = points_of(world.mesh(), &positions, ghost, choice);
    let mut layer = world
        .lock_layer(&DUAL_POINT)
        .map_err(|_| PlaneError::NotPlanarMap("dual point layer"))?;
    for (i, p) in points.into_iter().enumerate() {
        layer[quadedge::Face::new(i as u32)] = p;
    }
    layer
        .commit()
        .map_err(|_| PlaneError::NotPlanarMap("dual point layer"))
}
