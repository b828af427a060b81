//! A world that knows its geometry: positions are part of the world, and every geometric
//! edit (move, insert, remove, refine, resample) is one all-or-nothing world operation that
//! keeps the mesh the exact Delaunay triangulation of its positions, with every layer
//! following.
//!
//! The positions live in one vertex layer named [`POSITION_NAME`] that the library declares
//! (great-circle interpolation on the sphere, linear in the plane); user code reads them with
//! [`World::positions`] and never declares or copies them. The geometry is read off that
//! layer, so it survives save and load with nothing added to the file.

mod bounded;
mod edits;
pub(crate) mod fault;
#[cfg(test)]
mod fault_tests;
mod given;
#[cfg(test)]
mod given_tests;
mod near;
mod query;
mod refine;
mod report;
mod resample;
mod rigid;
#[cfg(test)]
mod rigid_tests;
mod turned;

pub use edits::MoveOptions;
pub use given::{ColumnId, NewValues, ValuesError};
pub use query::Sample;
pub use report::EditReport;
pub use turned::FreshSphere;

use crate::{LayerInfo, World, WorldError};
use delaunay::DelaunayError;
use glam::DVec3;
use layers::{Interpolation, VertexKind};
use quadedge::{Mesh, Vertex};

/// The name of the position layer of a world with geometry.
pub const POSITION_NAME: &str = "position";

/// Positions on a sphere: blended along great circles, so a vertex made on an edge or in a
/// face stays on the sphere. The one declaration of a sphere world's position layer (read it
/// with [`World::positions`]; name it only to hand it to low-level code).
pub static SPHERE_POSITION: LayerInfo<DVec3, VertexKind> =
    LayerInfo::new(POSITION_NAME).interpolation(Interpolation::Slerp);

/// Positions in the plane (`z = 0`): blended linearly. The one declaration of a map world's
/// position layer.
pub static PLANE_POSITION: LayerInfo<DVec3, VertexKind> =
    LayerInfo::new(POSITION_NAME).interpolation(Interpolation::Lerp);

/// The surface a world's vertices live on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Geometry {
    /// A sphere centred at the origin.
    Sphere {
        /// Its radius, in the world's length unit (km for a planet).
        radius: f64,
    },
    /// The plane `z = 0` (a flat map closed by a ghost vertex).
    Plane,
}

impl Geometry {
    /// The point of the surface nearest to `p` (the radial projection on the sphere, `z = 0`
    /// in the plane); `None` for the sphere's centre or a non-finite point.
    pub fn project(self, p: DVec3) -> Option<DVec3> {
        let q = match self {
            Geometry::Sphere { radius } => p.try_normalize()? * radius,
            Geometry::Plane => DVec3::new(p.x, p.y, 0.0),
        };
        q.is_finite().then_some(q)
    }

    /// Is `p` on the surface (within `1e-9` of the radius on the sphere, `z == 0` in the
    /// plane)? Positions are stored exactly as given, so they must already be on it.
    pub fn contains(self, p: DVec3) -> bool {
        p.is_finite()
            && match self {
                Geometry::Sphere { radius } => (p.length() - radius).abs() <= 1e-9 * radius,
                Geometry::Plane => p.z == 0.0,
            }
    }

    fn info(self) -> &'static LayerInfo<DVec3, VertexKind> {
        match self {
            Geometry::Sphere { .. } => &SPHERE_POSITION,
            Geometry::Plane => &PLANE_POSITION,
        }
    }
}

/// Why a geometric world operation refused. The world is unchanged: mesh, positions, every
/// layer, dictionaries, versions and any history following it are exactly as before.
#[derive(Debug)]
#[non_exhaustive]
pub enum EditError {
    /// The world has no positions (it was made with [`World::new`] from a bare mesh).
    NoGeometry,
    /// Input item `index` (a point or a vertex of the call's list) was refused: why, in
    /// `error` (a dead vertex, a point off the surface, a duplicate, …).
    Item {
        /// Its index in the call's input.
        index: usize,
        /// Why.
        error: DelaunayError,
    },
    /// The point is not on the world's surface (see [`Geometry::contains`]).
    OffSurface {
        /// Its index in the call's input.
        index: usize,
    },
    /// The Delaunay maintenance refused or could not finish (see [`DelaunayError`]).
    Delaunay(DelaunayError),
    /// Refinement refused its options or size field.
    Adapt(delaunay::AdaptError),
    /// Making the fresh mesh of a resample failed.
    Generate(sphere::SphereError),
    /// A resample's turn is not a finite unit quaternion.
    Turn(glam::DQuat),
    /// A layer could not be carried over (a resample), or a stored layer could not be read.
    Resample(crate::resample::ResampleError),
    /// The positions layer could not be read (a damaged file), or a layer given values
    /// ([`NewValues`]) is missing, of another type or settings, or refuses a value.
    World(WorldError),
    /// Values given for new vertices ([`NewValues`]) do not fit the insertion.
    Values(ValuesError),
    /// A failure forced by this crate's tests at the named stage.
    #[cfg(test)]
    Injected(&'static str),
}

impl core::fmt::Display for EditError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            EditError::NoGeometry => write!(f, "the world has no positions"),
            EditError::Item { index, error } => write!(f, "input item {index}: {error}"),
            EditError::OffSurface { index } => {
                write!(f, "input item {index} is not on the world's surface")
            }
            EditError::Delaunay(e) => write!(f, "{e}"),
            EditError::Adapt(e) => write!(f, "{e}"),
            EditError::Generate(e) => write!(f, "{e}"),
            EditError::Turn(q) => write!(f, "the turn {q} is not a finite unit quaternion"),
            EditError::Resample(e) => write!(f, "{e}"),
            EditError::World(e) => write!(f, "{e}"),
            EditError::Values(e) => write!(f, "{e}"),
            #[cfg(test)]
            EditError::Injected(stage) => write!(f, "failure forced at {stage}"),
        }
    }
}

impl std::error::Error for EditError {}

impl From<DelaunayError> for EditError {
    fn from(e: DelaunayError) -> Self {
        EditError::Delaunay(e)
    }
}

impl World {
    /// A world whose vertices sit at `positions` (indexed by vertex index) on `geometry`.
    /// The mesh must be the exact Delaunay triangulation of the positions (checked: one exact
    /// pass over the mesh); the positions become the world's position layer.
    ///
    /// ```
    /// use world::{Geometry, World};
    /// let (mesh, points) = sphere::fibonacci_sphere(500, 6371.0, 0.0, 1).unwrap();
    /// let world = World::with_positions(mesh, points, Geometry::Sphere { radius: 6371.0 }, 7).unwrap();
    /// assert_eq!(world.geometry(), Some(Geometry::Sphere { radius: 6371.0 }));
    /// ```
    ///
    /// # Errors
    /// [`EditError::Item`] for a position that is missing or not finite,
    /// [`EditError::OffSurface`] for one off the surface, [`EditError::Delaunay`] when the
    /// mesh is not the Delaunay triangulation of the positions.
    pub fn with_positions(
        mesh: Mesh,
        positions: Vec<DVec3>,
        geometry: Geometry,
        seed: u64,
    ) -> Result<World, EditError> {
        check_triangulation(&mesh, &positions, geometry)?;
        Ok(World::with_trusted_positions(
            mesh, positions, geometry, seed,
        ))
    }

    /// [`World::with_positions`] for a mesh this crate made itself (Delaunay by construction).
    pub(crate) fn with_trusted_positions(
        mesh: Mesh,
        mut positions: Vec<DVec3>,
        geometry: Geometry,
        seed: u64,
    ) -> World {
        // Room for an eighth more vertices, so that the first insertions of a living planet
        // (and of every copy made for writing, which keeps the room) do not reallocate the
        // whole mesh; room never written costs no physical memory. Only a hint: without the
        // memory, the mesh grows when it must.
        let mut mesh = mesh;
        let room = mesh.vertex_slots() / 8;
        let _ = mesh.reserve(room);
        let mut world = World::new(mesh, seed);
        positions.reserve(room);
        positions.resize(world.mesh.vertex_slots(), DVec3::ZERO);
        let i = world.ensure_layer(geometry.info());
        let layer = world.layers[i]
            .get_mut::<DVec3, VertexKind>()
            .expect("a fresh typed layer");
        *layer.values_vec_mut() = positions;
        world
    }

    /// A planet: `n` points of a Fibonacci lattice on a sphere of `radius` (each moved in its
    /// tangent plane by up to `jitter` of the spacing, seeded; `0.0` for the exact lattice),
    /// triangulated exactly, numbered along a Hilbert curve so that neighbours have nearby
    /// ids, with its positions in the world.
    ///
    /// ```
    /// let world = world::World::fibonacci_sphere(10_000, 6371.0, 0.3, 42).unwrap();
    /// assert_eq!(world.mesh().vertex_count(), 10_000);
    /// assert!((world.positions()[0].length() - 6371.0).abs() < 1e-9);
    /// ```
    ///
    /// # Errors
    /// [`EditError::Generate`] for a count below 4 or beyond [`sphere::MAX_POINTS`], a radius
    /// outside [`sphere::RADII`], a jitter outside `0.0..1.0`, or memory this machine cannot
    /// grant.
    pub fn fibonacci_sphere(
        n: usize,
        radius: f64,
        jitter: f64,
        seed: u64,
    ) -> Result<World, EditError> {
        let (mesh, positions) = fresh_sphere(n, radius, jitter, seed)?;
        Ok(World::with_trusted_positions(
            mesh,
            positions,
            Geometry::Sphere { radius },
            seed,
        ))
    }

    /// The surface the world lives on; `None` for a world without positions.
    pub fn geometry(&self) -> Option<Geometry> {
        let i = self.slot_index(POSITION_NAME)?;
        let (_, policy) = self.layers[i].policies();
        Some(match policy {
            Interpolation::Slerp => Geometry::Sphere {
                radius: self.mesh.vertices().next().map_or(1.0, |v| {
                    self.positions().get(v.index()).map_or(1.0, |p| p.length())
                }),
            },
            _ => Geometry::Plane,
        })
    }

    /// The vertex positions, indexed by vertex index (dead slots hold stale values); empty
    /// for a world without positions.
    pub fn positions(&self) -> &[DVec3] {
        self.slot_index(POSITION_NAME)
            .and_then(|i| self.layers[i].get::<DVec3, VertexKind>().ok())
            .map_or(&[], |l| l.as_slice())
    }

    /// The position of `v`; `None` for a dead or out-of-range vertex.
    pub fn position(&self, v: Vertex) -> Option<DVec3> {
        self.mesh
            .is_vertex_alive(v)
            .then(|| self.positions().get(v.index()).copied())
            .flatten()
    }

    /// The positions as `f32`, for renderers and exporters that want them so.
    pub fn positions_f32(&self) -> Vec<glam::Vec3> {
        self.positions().iter().map(|p| p.as_vec3()).collect()
    }
}

/// `mesh` is the exact Delaunay triangulation of `positions`, every live vertex with a finite
/// position on the surface.
pub(crate) fn check_triangulation(
    mesh: &Mesh,
    positions: &[DVec3],
    geometry: Geometry,
) -> Result<(), EditError> {
    check_positions(mesh, positions, geometry)?;
    let violation = match geometry {
        Geometry::Sphere { .. } => delaunay::is_delaunay(&delaunay::Sphere, mesh, positions),
        Geometry::Plane => delaunay::is_delaunay(&delaunay::Plane, mesh, positions),
    };
    match violation {
        Ok(()) => Ok(()),
        Err(Ok(v)) => Err(EditError::Delaunay(violation_error(v))),
        Err(Err(e)) => Err(EditError::Delaunay(e)),
    }
}

/// Every live vertex has a finite position on the surface.
fn check_positions(mesh: &Mesh, positions: &[DVec3], geometry: Geometry) -> Result<(), EditError> {
    if let Geometry::Sphere { radius } = geometry
        && !(radius.is_finite() && radius > 0.0)
    {
        return Err(EditError::Generate(sphere::SphereError::InvalidRadius(
            radius,
        )));
    }
    for v in mesh.vertices() {
        let index = v.index();
        match positions.get(index) {
            None => {
                return Err(EditError::Item {
                    index,
                    error: DelaunayError::PositionsTooShort {
                        len: positions.len(),
                        needed: mesh.vertex_slots(),
                    },
                });
            }
            Some(p) if !p.is_finite() => {
                return Err(EditError::Item {
                    index,
                    error: DelaunayError::NonFinite(Some(v)),
                });
            }
            Some(&p) if !geometry.contains(p) => return Err(EditError::OffSurface { index }),
            Some(_) => {}
        }
    }
    Ok(())
}

/// The error that names a violation of the Delaunay property.
fn violation_error(v: delaunay::Violation) -> DelaunayError {
    match v {
        delaunay::Violation::Inverted(f) => DelaunayError::Inverted(f),
        delaunay::Violation::NotDelaunay(e) => DelaunayError::NotDelaunay(e),
        delaunay::Violation::NotTriangulated(f) => DelaunayError::NotTriangulated(f),
        delaunay::Violation::Covering { times } => DelaunayError::Covering { times },
        delaunay::Violation::Hull(e) => DelaunayError::NotConvex(e),
    }
}

/// A Fibonacci sphere in Hilbert order (see [`World::fibonacci_sphere`]).
pub(crate) fn fresh_sphere(
    n: usize,
    radius: f64,
    jitter: f64,
    seed: u64,
) -> Result<(Mesh, Vec<DVec3>), EditError> {
    if jitter == 0.0 {
        // The exact lattice has its own fast path; renumber it along the curve afterwards.
        let (mut mesh, mut positions) =
            sphere::fibonacci_sphere(n, radius, 0.0, seed).map_err(EditError::Generate)?;
        sphere::hilbert_sort_mesh(&mut mesh, &mut positions)
            .expect("a fresh lattice has no holes and one position per vertex");
        return Ok((mesh, positions));
    }
    // Built from the moved lattice's rings on all cores, already in Hilbert order.
    sphere::perturbed_fibonacci_sphere(n, radius, sphere::Perturbation::Tangent(jitter), seed)
        .map_err(EditError::Generate)
}
