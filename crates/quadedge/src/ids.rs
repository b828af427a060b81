//! Typed element ids.
//!
//! Every id is a `u32` index into the mesh's flat arrays; all bits set means "no element".
//! [`Edge`] packs two flags into its bits so that the quad-edge algebra is pure bit arithmetic:
//!
//! ```text
//! bit 31      : 1 = dual edge (between faces), 0 = primal edge (between vertices)
//! bits 30..1  : quad-edge number q
//! bit 0       : which of the two directed edges of that kind (0 = base, 1 = sym)
//! ```
//!
//! The four edges of quad-edge `q` are primal `2q`, dual `2q`, primal `2q+1`, dual `2q+1`, in
//! `rot` order, so `rot`, `sym`, `inv_rot` and `base` never touch memory.

use core::fmt;

/// The raw id that names no element, of any kind (all bits set): the raw value of
/// [`Vertex::INVALID`], [`Face::INVALID`] and [`Edge::INVALID`], "no twin" in the half-edge
/// buffers of [`Mesh::from_half_edges`](crate::Mesh::from_half_edges), and the marker of a
/// dead element in a [`Remap`](crate::Remap).
pub const NONE: u32 = u32::MAX;

/// Bit 31 of an edge id: set on dual edges.
pub const DUAL_BIT: u32 = 1 << 31;

/// Most directed primal edges a mesh may hold: edge indices stay below `2^31 - 2`, so that
/// neither a dual edge id nor the `DEAD_VERTEX` marker can collide with [`NONE`].
pub(crate) const MAX_DIRECTED_EDGES: usize = (1 << 31) - 4;

macro_rules! element_id {
    ($(#[$doc:meta])* $name:ident, $prefix:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[repr(transparent)]
        pub struct $name(pub(crate) u32);

        impl $name {
            /// The id that names no element (all bits set).
            pub const INVALID: Self = Self(NONE);

            /// The id with this index.
            #[inline]
            pub const fn new(index: u32) -> Self {
                Self(index)
            }

            /// The index into per-element arrays.
            #[inline]
            pub const fn index(self) -> usize {
                self.0 as usize
            }

            /// The raw `u32`.
            #[inline]
            pub const fn raw(self) -> u32 {
                self.0
            }

            /// `false` for [`Self::INVALID`].
            #[inline]
            pub const fn is_valid(self) -> bool {
                self.0 != NONE
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::INVALID
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                if self.is_valid() {
                    write!(f, concat!($prefix, "{}"), self.0)
                } else {
                    f.write_str(concat!($prefix, "-"))
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Debug::fmt(self, f)
            }
        }

        impl From<u32> for $name {
            #[inline]
            fn from(i: u32) -> Self {
                Self(i)
            }
        }
    };
}

element_id!(
    /// A vertex of the primal (Delaunay) mesh, i.e. a face (Voronoi cell) of the dual mesh.
    Vertex,
    "v"
);
element_id!(
    /// A triangle of the primal mesh, i.e. a vertex (Voronoi corner) of the dual mesh.
    Face,
    "f"
);

/// A directed edge, primal (vertex to vertex) or dual (face to face).
///
/// ```
/// use quadedge::Edge;
/// let e = Edge::primal(6);
/// assert_eq!(e.rot(), Edge::dual(6));
/// assert_eq!(e.sym(), Edge::primal(7));
/// assert_eq!(e.rot().rot(), e.sym());
/// assert_eq!(e.rot().rot().rot().rot(), e);
/// assert_eq!(e.inv_rot(), Edge::dual(7));
/// assert_eq!(format!("{:?} {:?}", e, e.rot()), "e6 e6*");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(transparent)]
pub struct Edge(pub(crate) u32);

impl Edge {
    /// The id that names no edge (all bits set).
    pub const INVALID: Self = Self(NONE);

    /// The primal directed edge with this index (`2q` or `2q + 1`).
    #[inline]
    pub const fn primal(index: u32) -> Self {
        Self(index & !DUAL_BIT)
    }

    /// The dual directed edge with this index (`2q` or `2q + 1`).
    #[inline]
    pub const fn dual(index: u32) -> Self {
        Self(index | DUAL_BIT)
    }

    /// The base primal edge of quad-edge `q`.
    #[inline]
    pub const fn of_quad(q: u32) -> Self {
        Self(q << 1)
    }

    /// Builds an edge from its raw bits.
    #[inline]
    pub const fn from_raw(raw: u32) -> Self {
        Self(raw)
    }

    /// The raw bits.
    #[inline]
    pub const fn raw(self) -> u32 {
        self.0
    }

    /// `false` for [`Self::INVALID`].
    #[inline]
    pub const fn is_valid(self) -> bool {
        self.0 != NONE
    }

    /// Index into the primal or dual per-edge arrays (the dual bit cleared).
    #[inline]
    pub const fn index(self) -> usize {
        (self.0 & !DUAL_BIT) as usize
    }

    /// Number of the quad-edge this edge belongs to.
    #[inline]
    pub const fn quad(self) -> usize {
        ((self.0 & !DUAL_BIT) >> 1) as usize
    }

    /// Is this an edge of the dual (Voronoi) mesh?
    #[inline]
    pub const fn is_dual(self) -> bool {
        self.0 & DUAL_BIT != 0
    }

    /// Is this an edge of the primal (Delaunay) mesh?
    #[inline]
    pub const fn is_primal(self) -> bool {
        self.0 & DUAL_BIT == 0
    }

    /// The canonical (primal, even) edge of this quad-edge.
    #[inline]
    pub const fn base(self) -> Self {
        Self(self.0 & !(DUAL_BIT | 1))
    }

    /// Is this the even edge of its kind (`base()` or `base().rot()`)?
    #[inline]
    pub const fn is_even(self) -> bool {
        self.0 & 1 == 0
    }

    /// The same edge pointing the other way.
    #[inline]
    pub const fn sym(self) -> Self {
        Self(self.0 ^ 1)
    }

    /// The edge rotated 90° counter-clockwise: the dual edge from the right to the left face
    /// of a primal edge, or the primal edge from the left to the right vertex of a dual edge.
    #[inline]
    pub const fn rot(self) -> Self {
        Self((self.0 ^ DUAL_BIT) ^ (self.0 >> 31))
    }

    /// The edge rotated 90° clockwise (`rot` three times).
    #[inline]
    pub const fn inv_rot(self) -> Self {
        Self((self.0 ^ DUAL_BIT) ^ ((self.0 >> 31) ^ 1))
    }
}

impl Default for Edge {
    fn default() -> Self {
        Self::INVALID
    }
}

impl fmt::Debug for Edge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.is_valid() {
            f.write_str("e-")
        } else if self.is_dual() {
            write!(f, "e{}*", self.index())
        } else {
            write!(f, "e{}", self.index())
        }
    }
}

impl fmt::Display for Edge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rot_cycle_visits_the_four_edges_of_a_quad_edge() {
        for q in [0u32, 1, 77, (1 << 30) - 1] {
            let e = Edge::of_quad(q);
            let cycle = [e, e.rot(), e.rot().rot(), e.rot().rot().rot()];
            assert_eq!(
                cycle,
                [
                    Edge::primal(2 * q),
                    Edge::dual(2 * q),
                    Edge::primal(2 * q + 1),
                    Edge::dual(2 * q + 1)
                ]
            );
            for x in cycle {
                assert_eq!(x.rot().inv_rot(), x);
                assert_eq!(x.inv_rot().rot(), x);
                assert_eq!(x.sym(), x.rot().rot());
                assert_eq!(x.inv_rot(), x.rot().rot().rot());
                assert_eq!(x.base(), e);
                assert_eq!(x.quad(), q as usize);
            }
        }
    }

    #[test]
    fn debug_output_is_readable() {
        assert_eq!(format!("{:?}", Vertex::new(12)), "v12");
        assert_eq!(format!("{:?}", Face::new(3)), "f3");
        assert_eq!(format!("{:?}", Edge::primal(7)), "e7");
        assert_eq!(format!("{:?}", Edge::dual(7)), "e7*");
        assert_eq!(format!("{:?}", Edge::INVALID), "e-");
        assert_eq!(format!("{:?}", Vertex::INVALID), "v-");
        assert!(!Face::default().is_valid());
    }
}
