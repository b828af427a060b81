//! Resampling onto a fresh sphere built once and turned: a simulation that resamples again
//! and again keeps one fresh sphere and lands each resample on it turned by another rotation,
//! instead of triangulating a new sphere every time (two thirds of a resample's time).
//!
//! A rotation (and a scaling) keeps every orientation and circle test of the mesh in exact
//! arithmetic, so the turned mesh is the Delaunay triangulation of the turned points up to
//! the rounding of their coordinates. That rounding can flip the sign of a test on a quad
//! that was almost cocircular: every face and edge is tested again, exactly, on all cores,
//! and a mesh that fails is repaired by the exact restore (flips) and checked in full.

use super::report::EditReport;
use super::{EditError, Geometry, check_triangulation, fault, fresh_sphere};
use crate::World;
use delaunay::{RestoreOptions, Surface};
use glam::{DQuat, DVec3};
use margins::Margins;
use quadedge::{Edge, Mesh, Vertex};
use rayon::prelude::*;
use std::sync::{Arc, OnceLock};

mod margins;

/// A fresh sphere (a mesh and its positions, the exact Delaunay triangulation of them) kept
/// to resample onto many times with [`World::resample_onto_turned`]. Cloning shares it.
#[derive(Clone)]
pub struct FreshSphere {
    mesh: Arc<Mesh>,
    positions: Arc<[DVec3]>,
    radius: f64,
    /// What its positions prove about every turn, found at the first resample onto it.
    margins: Arc<OnceLock<Option<Margins>>>,
}

impl core::fmt::Debug for FreshSphere {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FreshSphere")
            .field("vertices", &self.mesh.vertex_count())
            .field("radius", &self.radius)
            .finish()
    }
}

impl FreshSphere {
    /// The sphere [`World::fibonacci_sphere`] makes for these settings.
    ///
    /// # Errors
    /// [`EditError::Generate`] as [`World::fibonacci_sphere`].
    pub fn fibonacci(n: usize, radius: f64, jitter: f64, seed: u64) -> Result<Self, EditError> {
        let (mesh, positions) = fresh_sphere(n, radius, jitter, seed)?;
        Ok(Self {
            mesh: Arc::new(mesh),
            positions: positions.into(),
            radius,
            margins: Arc::default(),
        })
    }

    /// The mesh and positions of a sphere world (its other layers are not kept); the mesh is
    /// shared with the world until one of them is edited.
    ///
    /// # Errors
    /// [`EditError::NoGeometry`] for a world without positions or on the plane.
    pub fn from_world(world: &World) -> Result<Self, EditError> {
        let Some(Geometry::Sphere { radius }) = world.geometry() else {
            return Err(EditError::NoGeometry);
        };
        Ok(Self {
            mesh: world.mesh.clone(),
            positions: world.positions().into(),
            radius,
            margins: Arc::default(),
        })
    }

    /// Its vertex count.
    pub fn vertex_count(&self) -> usize {
        self.mesh.vertex_count()
    }

    /// Its radius.
    pub fn radius(&self) -> f64 {
        self.radius
    }
}

impl FreshSphere {
    /// Is the template's mesh the Delaunay triangulation of its `turned` positions (scaled
    /// by `scale` to the sphere of `radius`)? As [`certified`], testing exactly only the quads
    /// the template's [`Margins`] leave open (and every vertex's radius) when they apply.
    fn certified(&self, turned: &[DVec3], radius: f64, scale: f64) -> bool {
        let margins = (self.margins)
            .get_or_init(|| Margins::of(&self.mesh, &self.positions, self.radius))
            .as_ref()
            .filter(|_| Margins::cover(scale));
        let Some(margins) = margins else {
            return certified(&self.mesh, turned, radius);
        };
        let on_sphere = Geometry::Sphere { radius };
        let mesh = &*self.mesh;
        let vertex = |i: usize| {
            !mesh.is_vertex_alive(Vertex::new(i as u32)) || on_sphere.contains(turned[i])
        };
        (0..mesh.vertex_slots()).into_par_iter().all(vertex)
            && margins
                .weak()
                .par_iter()
                .all(|&q| quad_ok(mesh, turned, radius, q as usize))
    }
}

/// How far from a unit quaternion a turn may be (rounding of a composed rotation).
const UNIT_TOLERANCE: f64 = 1e-9;

impl World {
    /// Moves the world onto `fresh` turned by `turn` about the sphere's centre and scaled to
    /// the world's radius, in place, carrying every layer over as
    /// [`World::resample_fresh_sphere`] does; the positions are the turned points. The mesh
    /// is `fresh`'s, certified exactly against the turned points (and repaired by flips in
    /// the rare case the rounding of the turn broke a circle test), so no sphere is built.
    ///
    /// ```
    /// use glam::{DQuat, DVec3};
    /// use world::{FreshSphere, World};
    /// let mut world = World::fibonacci_sphere(4000, 6371.0, 0.3, 1).unwrap();
    /// let fresh = FreshSphere::fibonacci(3000, 1.0, 0.3, 2).unwrap();
    /// let turn = DQuat::from_axis_angle(DVec3::new(1.0, 2.0, 3.0).normalize(), 0.7);
    /// world.resample_onto_turned(&fresh, turn).unwrap();
    /// assert_eq!(world.mesh().vertex_count(), 3000);
    /// assert!((world.positions()[0].length() - 6371.0).abs() < 1e-9 * 6371.0);
    /// ```
    ///
    /// # Errors
    /// The world unchanged: [`EditError::NoGeometry`] for a world without positions or on
    /// the plane; [`EditError::Turn`] for a turn that is not a finite unit quaternion;
    /// [`EditError::Delaunay`] when the turned mesh could not be repaired; layers as
    /// [`World::resample`].
    pub fn resample_onto_turned(
        &mut self,
        fresh: &FreshSphere,
        turn: DQuat,
    ) -> Result<EditReport, EditError> {
        let Some(geometry @ Geometry::Sphere { radius }) = self.geometry() else {
            return Err(EditError::NoGeometry);
        };
        if !(turn.is_finite() && (turn.length() - 1.0).abs() <= UNIT_TOLERANCE) {
            return Err(EditError::Turn(turn));
        }
        // The mesh is copied (the world will edit it) on one core while the other turns,
        // certifies and carries the layers onto the template, which reads the same topology.
        let scale = radius / fresh.radius;
        let (mut mesh, carried) = rayon::join(
            || Mesh::clone(&fresh.mesh),
            || {
                let mut positions: Vec<DVec3> = Vec::with_capacity(fresh.positions.len());
                (fresh.positions.par_iter())
                    .map(|&p| (turn * p) * scale)
                    .collect_into_vec(&mut positions);
                match fresh.certified(&positions, radius, scale) {
                    true => self.carried(&fresh.mesh, positions).map(Ok),
                    false => Ok(Err(positions)),
                }
            },
        );
        let layers = match carried? {
            Ok(layers) => layers,
            Err(mut positions) => {
                // A template shared with a world may carry its logs: none for this repair.
                mesh.discard_journal();
                let _ = mesh.stop_undo_log();
                // Rare: a quad so close to cocircular that the rounding of the turn flipped
                // its circle test (or faces too large for the local certificate). Flips
                // repair it; the full check is the certificate.
                let options = RestoreOptions::default();
                delaunay::restore(&delaunay::Sphere, &mut mesh, &mut positions, None, &options)?;
                check_triangulation(&mesh, &positions, geometry)?;
                self.carried(&mesh, positions)?
            }
        };
        fault::stage("resample: turned sphere")?;
        self.install_carried(mesh, layers)
    }
}

/// Is `mesh` the Delaunay triangulation of the turned `positions`? Every live vertex on the
/// sphere of `radius`, every face counter-clockwise and every edge locally Delaunay, tested
/// exactly on all cores, edge by edge (both faces of each edge: the arrays are read in order,
/// only the opposite corners and the positions are looked up). The covering (which local
/// tests cannot see) is the template's: the turn is a homotopy of the map from the mesh onto
/// the sphere, and the rounding moves each point by a few units in the last place, so the
/// map's degree (once) is kept as long as each face stays within an open hemisphere, which
/// faces whose corners are closer than the radius are by far. A larger face is not certified
/// here (the caller checks in full).
fn certified(mesh: &Mesh, positions: &[DVec3], radius: f64) -> bool {
    (0..mesh.quad_slots())
        .into_par_iter()
        .all(|q| quad_ok(mesh, positions, radius, q))
}

/// The certificate's tests of quad `q`: a dead quad passes; a live edge has a face on each
/// side, its ends on the sphere, a length under the radius, both faces counter-clockwise and
/// the quad locally Delaunay.
fn quad_ok(mesh: &Mesh, positions: &[DVec3], radius: f64, q: usize) -> bool {
    let s = delaunay::Sphere;
    let on_sphere = Geometry::Sphere { radius };
    let e = Edge::of_quad(q as u32);
    if !mesh.is_edge_alive(e) {
        return true;
    }
    if !(mesh.left(e).is_valid() && mesh.right(e).is_valid()) {
        return false;
    }
    // The faces a, b, c on the left and b, a, d on the right.
    let (a, b) = (mesh.origin(e), mesh.dest(e));
    let c = mesh.dest(mesh.origin_next(e));
    let d = mesh.dest(mesh.origin_next(e.sym()));
    let [pa, pb, pc, pd] = [a, b, c, d].map(|v| positions[v.index()]);
    on_sphere.contains(pa)
        && on_sphere.contains(pb)
        && pa.distance_squared(pb) < radius * radius
        && s.orient(pa, pb, pc) > 0.0
        && s.orient(pb, pa, pd) > 0.0
        && s.in_circle(pa, pb, pc, pd) <= 0.0
}
