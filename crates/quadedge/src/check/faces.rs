//! Faces: triangles of three distinct corners, consistent with their edges.

use super::{ensure, scan};
use crate::{Face, Mesh, MeshError};

impl Mesh {
    pub(super) fn check_faces(&self, par: bool) -> Result<(), MeshError> {
        let nf = self.face_edge.len();
        scan(nf, par, |f| {
            let e = self.face_edge[f];
            if !e.is_valid() {
                return Ok(());
            }
            let face = Face::new(f as u32);
            ensure!(
                e.is_primal() && self.is_edge_alive(e),
                "{face:?} points to dead edge {e:?}"
            );
            ensure!(
                self.left(e) == face,
                "{face:?} points to {e:?} whose left face is {:?}",
                self.left(e)
            );
            let e3 = self.left_next(self.left_next(self.left_next(e)));
            ensure!(e3 == e, "{face:?} is not a triangle");
            let [a, b, c] = self.face_vertices(face);
            ensure!(a != b && b != c && a != c, "{face:?} repeats a vertex");
            Ok(())
        })?;
        let mut left_count = vec![0u8; nf];
        for i in 0..self.primal_origin.len() {
            if self.primal_origin[i & !1].is_valid() {
                let f = self.dual_origin[i ^ 1];
                if f.is_valid() {
                    left_count[f.index()] = left_count[f.index()].saturating_add(1);
                }
            }
        }
        scan(nf, par, |f| {
            let c = left_count[f];
            if self.face_edge[f].is_valid() {
                ensure!(c == 3, "f{f} is the left face of {c} edges");
            }
            Ok(())
        })
    }
}
