//! Element kinds: which part of the mesh a layer is attached to.

use core::fmt;
use quadedge::{Edge, Face, Mesh, Vertex};
use serde::{Deserialize, Serialize};

/// The six kinds of mesh element a layer can hold one value per.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ElementKind {
    /// Primal vertices (Voronoi cells).
    Vertex,
    /// Primal triangles (Voronoi corners).
    Face,
    /// Undirected primal edges: one value per quad-edge.
    Edge,
    /// Directed primal edges: one value per direction.
    DirectedEdge,
    /// Undirected dual edges: one value per quad-edge.
    DualEdge,
    /// Directed dual edges: one value per direction.
    DirectedDualEdge,
}

impl ElementKind {
    /// All six kinds.
    pub const ALL: [ElementKind; 6] = [
        ElementKind::Vertex,
        ElementKind::Face,
        ElementKind::Edge,
        ElementKind::DirectedEdge,
        ElementKind::DualEdge,
        ElementKind::DirectedDualEdge,
    ];

    /// The length a layer of this kind has for a mesh of these slot counts (saturating: sizes
    /// read from a file may be absurd, and are refused by the caller, never wrapped).
    pub const fn slots(self, sizes: Sizes) -> usize {
        match self {
            ElementKind::Vertex => sizes.vertices,
            ElementKind::Face => sizes.faces,
            ElementKind::Edge | ElementKind::DualEdge => sizes.quads,
            ElementKind::DirectedEdge | ElementKind::DirectedDualEdge => {
                sizes.quads.saturating_mul(2)
            }
        }
    }

    /// Storage slots per quad-edge (2 for the directed kinds, else 1; for remaps).
    pub const fn per_quad(self) -> usize {
        if self.is_directed() { 2 } else { 1 }
    }

    /// Is this one of the four edge kinds?
    pub const fn is_edge(self) -> bool {
        !matches!(self, ElementKind::Vertex | ElementKind::Face)
    }

    /// Does this kind store one value per direction?
    pub const fn is_directed(self) -> bool {
        matches!(
            self,
            ElementKind::DirectedEdge | ElementKind::DirectedDualEdge
        )
    }

    /// The element with this storage index, for messages (indexes past the u32 id space
    /// saturate).
    pub const fn element(self, index: usize) -> ElementId {
        let i = if index > u32::MAX as usize {
            u32::MAX
        } else {
            index as u32
        };
        match self {
            ElementKind::Vertex => ElementId::Vertex(Vertex::new(i)),
            ElementKind::Face => ElementId::Face(Face::new(i)),
            ElementKind::Edge => ElementId::Edge(Edge::of_quad(i)),
            ElementKind::DirectedEdge => ElementId::Edge(Edge::primal(i)),
            ElementKind::DualEdge => ElementId::Edge(Edge::of_quad(i).rot()),
            ElementKind::DirectedDualEdge => ElementId::Edge(Edge::dual(i)),
        }
    }
}

impl fmt::Display for ElementKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ElementKind::Vertex => "vertex",
            ElementKind::Face => "face",
            ElementKind::Edge => "edge",
            ElementKind::DirectedEdge => "directed edge",
            ElementKind::DualEdge => "dual edge",
            ElementKind::DirectedDualEdge => "directed dual edge",
        })
    }
}

/// Any element id, for error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ElementId {
    /// A vertex.
    Vertex(Vertex),
    /// A face.
    Face(Face),
    /// An edge (primal or dual; undirected layers name the base edge or its `rot()`).
    Edge(Edge),
}

impl fmt::Display for ElementId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ElementId::Vertex(v) => write!(f, "{v}"),
            ElementId::Face(x) => write!(f, "{x}"),
            ElementId::Edge(e) => write!(f, "{e}"),
        }
    }
}

/// Slot counts of a mesh: the lengths every layer must have.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Sizes {
    /// [`Mesh::vertex_slots`].
    pub vertices: usize,
    /// [`Mesh::face_slots`].
    pub faces: usize,
    /// [`Mesh::quad_slots`].
    pub quads: usize,
}

impl Sizes {
    /// The slot counts of `mesh`.
    pub fn of(mesh: &Mesh) -> Self {
        Self {
            vertices: mesh.vertex_slots(),
            faces: mesh.face_slots(),
            quads: mesh.quad_slots(),
        }
    }
}

mod sealed {
    pub trait Sealed {}
}

/// Compile-time element kind of a [`Layer`](crate::Layer): fixes the id type used to index it,
/// so `positions[face]` on a vertex layer does not compile.
///
/// Sealed: the six markers below are all there is.
pub trait Kind: sealed::Sealed + Copy + Default + Send + Sync + 'static {
    /// The id type that indexes a layer of this kind.
    type Id: Copy + fmt::Debug;
    /// The runtime kind.
    const KIND: ElementKind;
    /// Storage index of an id.
    fn index(id: Self::Id) -> usize;
    /// The id of a storage index (the inverse of [`Kind::index`]).
    fn id(index: usize) -> Self::Id;
}

macro_rules! kind {
    ($(#[$doc:meta])* $name:ident, $id:ty, $kind:ident, |$x:ident| $index:expr, |$i:ident| $from:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;
        impl sealed::Sealed for $name {}
        impl Kind for $name {
            type Id = $id;
            const KIND: ElementKind = ElementKind::$kind;
            #[inline(always)]
            fn index($x: $id) -> usize {
                $index
            }
            #[inline(always)]
            fn id($i: usize) -> $id {
                $from
            }
        }
    };
}

kind!(
    /// One value per vertex, indexed by [`Vertex`].
    VertexKind, Vertex, Vertex, |v| v.index(), |i| Vertex::new(i as u32)
);
kind!(
    /// One value per face, indexed by [`Face`].
    FaceKind, Face, Face, |f| f.index(), |i| Face::new(i as u32)
);
kind!(
    /// One value per undirected primal edge (quad-edge), indexed by a primal [`Edge`] of either
    /// direction. Ids yielded by iteration are base edges.
    EdgeKind, Edge, Edge,
    |e| { debug_assert!(e.is_primal(), "dual edge {e:?} used on a primal edge layer"); e.quad() },
    |i| Edge::of_quad(i as u32)
);
kind!(
    /// One value per directed primal edge, indexed by a primal [`Edge`].
    DirectedEdgeKind, Edge, DirectedEdge,
    |e| { debug_assert!(e.is_primal(), "dual edge {e:?} used on a primal edge layer"); e.index() },
    |i| Edge::primal(i as u32)
);
kind!(
    /// One value per undirected dual edge (quad-edge), indexed by a dual [`Edge`] of either
    /// direction. Ids yielded by iteration are `base().rot()`.
    DualEdgeKind, Edge, DualEdge,
    |e| { debug_assert!(e.is_dual(), "primal edge {e:?} used on a dual edge layer"); e.quad() },
    |i| Edge::of_quad(i as u32).rot()
);
kind!(
    /// One value per directed dual edge, indexed by a dual [`Edge`].
    DirectedDualEdgeKind, Edge, DirectedDualEdge,
    |e| { debug_assert!(e.is_dual(), "primal edge {e:?} used on a dual edge layer"); e.index() },
    |i| Edge::dual(i as u32)
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_through_indexes() {
        fn check<K: Kind>(n: usize)
        where
            K::Id: PartialEq,
        {
            for i in 0..n {
                assert_eq!(K::index(K::id(i)), i, "{:?}", K::KIND);
            }
        }
        check::<VertexKind>(10);
        check::<FaceKind>(10);
        check::<EdgeKind>(10);
        check::<DirectedEdgeKind>(10);
        check::<DualEdgeKind>(10);
        check::<DirectedDualEdgeKind>(10);
        assert_eq!(EdgeKind::index(Edge::primal(7)), 3);
        assert_eq!(DirectedEdgeKind::index(Edge::primal(7)), 7);
        assert_eq!(DualEdgeKind::index(Edge::primal(7).rot()), 3);
        let absurd = Sizes {
            vertices: usize::MAX,
            faces: 0,
            quads: usize::MAX / 2 + 1,
        };
        assert_eq!(ElementKind::DirectedEdge.slots(absurd), usize::MAX);
        assert_eq!(
            ElementKind::Vertex.element(1 << 40),
            ElementId::Vertex(Vertex::new(u32::MAX))
        );
        assert_eq!(
            ElementKind::DirectedDualEdge.slots(Sizes {
                vertices: 1,
                faces: 2,
                quads: 3
            }),
            6
        );
    }
}
