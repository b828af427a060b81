//! Starting faces for point location from random positions on a sphere.
//!
//! A walk from a far hint costs a number of steps proportional to the distance (about √n on a
//! sphere of n vertices). A [`HintGrid`] remembers one face per cell of a cube map of
//! directions, so a query starts a cell's width (about one edge) from its answer and walks a
//! step or two. Cells are found without trigonometry: the dominant axis of the direction picks
//! the cube face, the other two coordinates divided by it (a gnomonic projection) the cell.

use crate::{DelaunayError, Location, Surface, locate};
use glam::DVec3;
use quadedge::{Face, Mesh};
use rayon::prelude::*;

/// One face per cell of a cube map of directions around the origin, built in one pass over the
/// faces: a good starting point for [`locate`] from arbitrary positions on a sphere centred at
/// the origin (the cell of a face is that of its corners' sum).
///
/// The grid holds face ids only: after edits a hint may be a dead face; [`HintGrid::locate`]
/// then starts from the first live face instead (correct, just slower). Rebuild the grid, or
/// [`HintGrid::remember`] new answers, to keep hints close.
///
/// ```
/// use delaunay::internals::HintGrid;
/// use delaunay::{Location, Sphere, locate};
/// let (mesh, pos) = sphere::fibonacci_sphere(5000, 1.0, 0.0, 3).unwrap();
/// let grid = HintGrid::new(&mesh, &pos);
/// let p = glam::DVec3::new(-0.4, 0.1, 0.6).normalize();
/// let near = grid.locate(&Sphere, &mesh, &pos, p).unwrap();
/// assert_eq!(near, locate(&Sphere, &mesh, &pos, p, None).unwrap());
/// ```
#[derive(Clone, Debug)]
pub struct HintGrid {
    /// Cells per cube-face side.
    side: usize,
    /// `6 · side²` faces, [`Face::INVALID`] only when the mesh had no face.
    cells: Vec<Face>,
}

impl HintGrid {
    /// About this many mesh faces per cell: a cell is then about an edge wide.
    const FACES_PER_CELL: f64 = 2.0;
    /// Bounds the grid's memory whatever the mesh size (`6 · 2048²` cells, 100 MB).
    const MAX_SIDE: usize = 2048;

    /// A grid sized for `mesh` (about two faces per cell), filled from its live faces; cells no
    /// face centre fell in take the face of the cell before them.
    pub fn new(mesh: &Mesh, positions: &[DVec3]) -> Self {
        Self::with_faces_per_cell(mesh, positions, Self::FACES_PER_CELL)
    }

    /// [`HintGrid::new`] with about `faces_per_cell` mesh faces per cell (below one: more
    /// cells than faces, a query starts nearer its answer for more memory). Non-finite or
    /// non-positive densities take the default; the side is capped at 2048 cells.
    pub fn with_faces_per_cell(mesh: &Mesh, positions: &[DVec3], faces_per_cell: f64) -> Self {
        let density = if faces_per_cell.is_finite() && faces_per_cell > 0.0 {
            faces_per_cell
        } else {
            Self::FACES_PER_CELL
        };
        let cells_wanted = mesh.face_count() as f64 / density;
        let side = ((cells_wanted / 6.0).sqrt() as usize).clamp(1, Self::MAX_SIDE);
        Self::of_faces(mesh, positions, side, mesh.faces())
    }

    /// A grid of `side` cells per cube-face side holding `faces` (the last one in a cell
    /// wins), empty cells filled from their neighbours.
    fn of_faces(
        mesh: &Mesh,
        positions: &[DVec3],
        side: usize,
        faces: impl Iterator<Item = Face>,
    ) -> Self {
        let mut grid = Self {
            side,
            cells: vec![Face::INVALID; 6 * side * side],
        };
        for f in faces {
            let [a, b, c] = mesh.face_vertices(f);
            let corner = |v: quadedge::Vertex| positions.get(v.index()).copied();
            if let (Some(a), Some(b), Some(c)) = (corner(a), corner(b), corner(c)) {
                let i = grid.cell(a + b + c);
                grid.cells[i] = f;
            }
        }
        grid.fill_empty_cells(mesh.faces().next().unwrap_or(Face::INVALID));
        grid
    }

    /// A coarser grid for `mesh` from every `stride`-th face slot only (about two sampled
    /// faces per cell): `stride` times cheaper to build, for callers whose queries mostly
    /// start from their previous answer and use the grid only now and then. The cells of the
    /// sampled faces are found on all cores, then written in slot order (the last face of a
    /// cell wins, as in one pass over the faces).
    pub fn sampled(mesh: &Mesh, positions: &[DVec3], stride: usize) -> Self {
        let stride = stride.max(1);
        let cells_wanted = mesh.face_count() as f64 / (Self::FACES_PER_CELL * stride as f64);
        let side = ((cells_wanted / 6.0).sqrt() as usize).clamp(1, Self::MAX_SIDE);
        let mut grid = Self {
            side,
            cells: vec![Face::INVALID; 6 * side * side],
        };
        // Cells number at most `6 · 2048²`: `u32::MAX` is no cell.
        let cell = |k: usize| -> u32 {
            let f = Face::new((k * stride) as u32);
            if !mesh.is_face_alive(f) {
                return u32::MAX;
            }
            let corner = |v: quadedge::Vertex| positions.get(v.index()).copied();
            match mesh.face_vertices(f).map(corner) {
                [Some(a), Some(b), Some(c)] => grid.cell(a + b + c) as u32,
                _ => u32::MAX,
            }
        };
        let cells: Vec<u32> = (0..mesh.face_slots().div_ceil(stride))
            .into_par_iter()
            .map(cell)
            .collect();
        for (k, &i) in cells.iter().enumerate() {
            if i != u32::MAX {
                grid.cells[i as usize] = Face::new((k * stride) as u32);
            }
        }
        grid.fill_empty_cells(mesh.faces().next().unwrap_or(Face::INVALID));
        grid
    }

    /// Gives every cell that no face centre fell in the face of a neighbouring cell on the
    /// same side of the cube, growing from the filled cells one ring per pass, so that its
    /// hint stays a few cells from it; a side with no filled cell at all (a tiny mesh) takes
    /// `fallback`.
    fn fill_empty_cells(&mut self, fallback: Face) {
        let n = self.side;
        for side in self.cells.chunks_mut(n * n) {
            if side.iter().all(|f| !f.is_valid()) {
                side.fill(fallback);
                continue;
            }
            while side.iter().any(|f| !f.is_valid()) {
                let before = side.to_vec();
                for i in 0..n {
                    for j in 0..n {
                        if before[i * n + j].is_valid() {
                            continue;
                        }
                        let near = [
                            (i.wrapping_sub(1), j),
                            (i + 1, j),
                            (i, j.wrapping_sub(1)),
                            (i, j + 1),
                        ]
                        .into_iter()
                        .filter(|&(a, b)| a < n && b < n)
                        .map(|(a, b)| before[a * n + b])
                        .find(|f| f.is_valid());
                        if let Some(f) = near {
                            side[i * n + j] = f;
                        }
                    }
                }
            }
        }
    }

    /// The number of cells (`6 · side²`).
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// The cell of direction `p` (any finite vector; NaN and zero fall in cell 0).
    fn cell(&self, p: DVec3) -> usize {
        let a = p.abs();
        let (axis, u, v, m) = if a.x >= a.y && a.x >= a.z {
            (0, p.y, p.z, p.x)
        } else if a.y >= a.z {
            (1, p.z, p.x, p.y)
        } else {
            (2, p.x, p.y, p.z)
        };
        let face = 2 * axis + (m < 0.0) as usize;
        let scale = 0.5 * self.side as f64 / m.abs();
        // `as usize` saturates: NaN and negatives give 0; the `min` keeps the edge inside.
        let i = ((u * scale + 0.5 * self.side as f64) as usize).min(self.side - 1);
        let j = ((v * scale + 0.5 * self.side as f64) as usize).min(self.side - 1);
        (face * self.side + i) * self.side + j
    }

    /// The remembered face for direction `p` ([`Face::INVALID`] for a grid of an empty mesh).
    /// It may have died since: check with [`Mesh::is_face_alive`] before passing it on.
    pub fn hint(&self, p: DVec3) -> Face {
        self.cells[self.cell(p)]
    }

    /// Remembers `f` as the hint of the cell of `p` (for instance an answer, after edits).
    pub fn remember(&mut self, p: DVec3, f: Face) {
        let i = self.cell(p);
        self.cells[i] = f;
    }

    /// [`locate`] `p`, starting from the cell's face when it is still alive, else from the
    /// mesh's first face.
    ///
    /// # Errors
    /// As [`locate`].
    pub fn locate<S: Surface>(
        &self,
        surface: &S,
        mesh: &Mesh,
        positions: &[DVec3],
        p: DVec3,
    ) -> Result<Location, DelaunayError> {
        let f = self.hint(p);
        let start = (f.index() < mesh.face_slots() && mesh.is_face_alive(f)).then_some(f);
        locate(surface, mesh, positions, p, start)
    }
}
