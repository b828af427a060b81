//! [`Error`]: one type every error of the library converts into.

use core::fmt;

/// Any error of the library. Each operation family keeps its own precise error type; this
/// one only gathers them, so that `?` works in a program that uses several.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// A geometric world operation ([`world::EditError`]).
    Edit(world::EditError),
    /// Locks, layers and files of a world ([`world::WorldError`]).
    World(world::WorldError),
    /// Resampling a world by a plan ([`world::resample::ResampleError`]).
    Resample(world::resample::ResampleError),
    /// A layer's values ([`layers::LayerError`]).
    Layer(layers::LayerError),
    /// Mesh topology ([`quadedge::MeshError`]).
    Mesh(quadedge::MeshError),
    /// Delaunay maintenance on bare meshes ([`delaunay::DelaunayError`]).
    Delaunay(delaunay::DelaunayError),
    /// Sphere generators ([`sphere::SphereError`]).
    Sphere(sphere::SphereError),
    /// Flat maps ([`plane::PlaneError`]).
    #[cfg(feature = "plane")]
    Plane(plane::PlaneError),
    /// Files and pictures ([`export::ExportError`]).
    #[cfg(feature = "export")]
    Export(export::ExportError),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Edit(e) => e.fmt(f),
            Error::World(e) => e.fmt(f),
            Error::Resample(e) => e.fmt(f),
            Error::Layer(e) => e.fmt(f),
            Error::Mesh(e) => e.fmt(f),
            Error::Delaunay(e) => e.fmt(f),
            Error::Sphere(e) => e.fmt(f),
            #[cfg(feature = "plane")]
            Error::Plane(e) => e.fmt(f),
            #[cfg(feature = "export")]
            Error::Export(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(match self {
            Error::Edit(e) => e,
            Error::World(e) => e,
            Error::Resample(e) => e,
            Error::Layer(e) => e,
            Error::Mesh(e) => e,
            Error::Delaunay(e) => e,
            Error::Sphere(e) => e,
            #[cfg(feature = "plane")]
            Error::Plane(e) => e,
            #[cfg(feature = "export")]
            Error::Export(e) => e,
        })
    }
}

macro_rules! from {
    ($($variant:ident($t:ty)),* $(,)?) => {$(
        impl From<$t> for Error {
            fn from(e: $t) -> Self {
                Error::$variant(e)
            }
        }
    )*};
}

from!(
    Edit(world::EditError),
    World(world::WorldError),
    Resample(world::resample::ResampleError),
    Layer(layers::LayerError),
    Mesh(quadedge::MeshError),
    Delaunay(delaunay::DelaunayError),
    Sphere(sphere::SphereError),
);
#[cfg(feature = "plane")]
from!(Plane(plane::PlaneError));
#[cfg(feature = "export")]
from!(Export(export::ExportError));
