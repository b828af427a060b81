//! A readable, deterministic text dump of the topology (for snapshots and debugging).

use crate::{Face, Mesh};
use core::fmt::Write;

impl Mesh {
    /// A readable listing of the whole topology, stable across runs:
    /// counts, each live vertex with its neighbours counter-clockwise and the face left of each
    /// outgoing edge (`-` for a hole), each live face with its corners and neighbours, and the
    /// free lists.
    ///
    /// ```
    /// let m = quadedge::Mesh::from_triangles(3, &[[0, 1, 2]]).unwrap();
    /// assert!(m.describe().contains("v0: v1(f0) v2(-)"));
    /// ```
    pub fn describe(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "vertices {} edges {} faces {} (slots {}/{}/{})",
            self.vertex_count(),
            self.undirected_edge_count(),
            self.face_count(),
            self.vertex_slots(),
            self.quad_slots(),
            self.face_slots()
        );
        for v in self.vertices() {
            let _ = write!(s, "{v:?}:");
            // Start the listing at the smallest neighbour so the text does not depend on which
            // outgoing edge the vertex happens to store.
            let start = self.outgoing(v).min_by_key(|&e| self.dest(e));
            if let Some(start) = start {
                for e in self.ring(start) {
                    let f = self.left(e);
                    let _ = write!(s, " {:?}({})", self.dest(e), face_name(f));
                }
            } else {
                s.push_str(" isolated");
            }
            s.push('\n');
        }
        for f in self.faces() {
            let vs = self.face_vertices(f);
            let k = (0..3).min_by_key(|&i| vs[i]).unwrap_or(0);
            let ns = self.face_neighbors(f);
            let _ = writeln!(
                s,
                "{f:?}: {:?} {:?} {:?} | across {} {} {}",
                vs[k],
                vs[(k + 1) % 3],
                vs[(k + 2) % 3],
                face_name(ns[k]),
                face_name(ns[(k + 1) % 3]),
                face_name(ns[(k + 2) % 3])
            );
        }
        let _ = writeln!(
            s,
            "free: vertices {:?} faces {:?} quads {:?}",
            self.free_vertices, self.free_faces, self.free_quads
        );
        s
    }
}

fn face_name(f: Face) -> String {
    if f.is_valid() {
        format!("{f:?}")
    } else {
        "-".to_string()
    }
}
