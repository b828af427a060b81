//! Geometry on the sphere: distances, areas, Voronoi corners and cells, mesh quality.
//!
//! Every function takes the mesh plus a positions slice indexed by vertex id (as stored in a
//! vertex layer) and assumes the points lie on a sphere around the origin; the radius is taken
//! from the points themselves. All arithmetic is `f64`.
//!
//! # Panics
//! The functions that take a mesh panic if `positions` is shorter than
//! [`Topology::vertex_slots`] (a programming error, like indexing past a slice).

use glam::DVec3;
use quadedge::{Face, Topology, Vertex};

/// The angle between `a` and `b` seen from the origin, in radians (`0..=π`).
///
/// `atan2(|a × b|, a · b)` is accurate for tiny and for near-antipodal angles, where `acos` and
/// `asin` lose half their digits.
#[inline]
pub fn central_angle(a: DVec3, b: DVec3) -> f64 {
    a.cross(b).length().atan2(a.dot(b))
}

/// Great-circle distance between two points on a sphere around the origin (the sphere's radius
/// is the mean of their distances from the origin).
///
/// ```
/// use glam::DVec3;
/// let d = sphere::geometry::great_circle_distance(DVec3::X * 2.0, DVec3::Y * 2.0);
/// assert!((d - std::f64::consts::PI).abs() < 1e-15);
/// ```
#[inline]
pub fn great_circle_distance(a: DVec3, b: DVec3) -> f64 {
    central_angle(a, b) * 0.5 * (a.length() + b.length())
}

/// Signed solid angle of the spherical triangle `a, b, c` (directions from the origin; lengths
/// do not matter): positive when counter-clockwise seen from outside. Its absolute value is
/// the area on the unit sphere.
///
/// Van Oosterom & Strackee (1983): `tan(Ω/2) = a·(b×c) / (1 + a·b + b·c + c·a)` on unit
/// vectors, evaluated with `atan2` so that it stays accurate for tiny and for large triangles
/// (up to a hemisphere and beyond, where the denominator turns negative).
#[inline]
pub fn solid_angle(a: DVec3, b: DVec3, c: DVec3) -> f64 {
    let (a, b, c) = (a.normalize(), b.normalize(), c.normalize());
    let num = a.dot(b.cross(c));
    let den = 1.0 + a.dot(b) + b.dot(c) + c.dot(a);
    2.0 * num.atan2(den)
}

/// Area of the spherical triangle `a, b, c` on the sphere of the given radius.
///
/// ```
/// use glam::DVec3;
/// // One octant of the unit sphere: 4π / 8.
/// let a = sphere::geometry::spherical_triangle_area(DVec3::X, DVec3::Y, DVec3::Z, 1.0);
/// assert!((a - std::f64::consts::FRAC_PI_2).abs() < 1e-15);
/// ```
#[inline]
pub fn spherical_triangle_area(a: DVec3, b: DVec3, c: DVec3, radius: f64) -> f64 {
    solid_angle(a, b, c).abs() * radius * radius
}

/// The circumcentre of spherical triangle `a, b, c` (counter-clockwise from outside), on the
/// sphere of the given radius: the direction of the normal of the triangle's plane, the point
/// equidistant from the three corners. This is the Voronoi vertex of the face.
///
/// The normal is computed as `(b − a) × (c − a)`, whose rounding error is relative to the
/// triangle's size, not to the sphere's.
#[inline]
pub fn circumcenter(a: DVec3, b: DVec3, c: DVec3, radius: f64) -> DVec3 {
    (b - a).cross(c - a).normalize() * radius
}

/// The sphere's radius as the mean distance of the live vertices from the origin.
///
/// Takes any [`Topology`] (a `Mesh` or a `FrozenMesh`).
///
/// # Panics
///
/// When `positions` is shorter than the mesh's vertex slots.
pub fn mean_radius(mesh: &impl Topology, positions: &[DVec3]) -> f64 {
    check_len(mesh, positions);
    let (sum, n) = mesh.vertices().fold((0.0, 0usize), |(s, n), v| {
        (s + positions[v.index()].length(), n + 1)
    });
    if n == 0 { 0.0 } else { sum / n as f64 }
}

/// The circumcentre of every face (the Voronoi vertices), indexed by face id over
/// [`Topology::face_slots`]; removed faces get `DVec3::NAN`. Each lies on the sphere through the
/// face's corners (radius: their mean length).
///
/// Takes any [`Topology`] (a `Mesh` or a `FrozenMesh`).
///
/// # Panics
///
/// When `positions` is shorter than the mesh's vertex slots.
///
/// ```
/// let (mesh, pos) = sphere::icosphere(1, 1.0).unwrap();
/// let cc = sphere::geometry::circumcenters(&mesh, &pos);
/// assert_eq!(cc.len(), mesh.face_slots());
/// for f in mesh.faces() {
///     let d: Vec<f64> = mesh.face_vertices(f).iter().map(|v| cc[f.index()].distance(pos[v.index()])).collect();
///     assert!((d[0] - d[1]).abs() < 1e-12 && (d[0] - d[2]).abs() < 1e-12);
/// }
/// ```
pub fn circumcenters(mesh: &impl Topology, positions: &[DVec3]) -> Vec<DVec3> {
    check_len(mesh, positions);
    let mut out = vec![DVec3::NAN; mesh.face_slots()];
    for f in mesh.faces() {
        let [a, b, c] = corners(mesh, positions, f);
        let r = (a.length() + b.length() + c.length()) / 3.0;
        out[f.index()] = circumcenter(a, b, c, r);
    }
    out
}

/// The area of every vertex's Voronoi cell on the sphere, indexed by vertex id over
/// [`Topology::vertex_slots`] (0 for removed or isolated vertices, and for vertices on a
/// boundary, whose cells are open).
///
/// Each cell is summed as signed spherical triangles `(site, cc_i, cc_i+1)` over consecutive
/// faces around the site, which is exact for cells whose circumcentres fall outside their
/// triangles (obtuse faces) too. On a closed mesh the triangles tile the sphere, so the areas
/// sum to `4πr²` up to rounding (relative error far below `1e-9`).
///
/// Takes any [`Topology`] (a `Mesh` or a `FrozenMesh`).
///
/// # Panics
///
/// When `positions` is shorter than the mesh's vertex slots.
///
/// The cell corners go where `options` says ([`CellOptions`](crate::dual::CellOptions),
/// circumcentres by default); the cells of any choice tile a closed mesh, so their areas
/// still sum to `4πr²`.
///
/// ```
/// use sphere::dual::{CellOptions, DualCentre};
/// let (mesh, pos) = sphere::fibonacci_sphere(1000, 2.0, 0.3, 1).unwrap();
/// let want = 4.0 * std::f64::consts::PI * 4.0;
/// let total: f64 = sphere::geometry::voronoi_areas(&mesh, &pos, &CellOptions::default()).iter().sum();
/// assert!((total - want).abs() < 1e-9 * want);
/// let centroids = CellOptions::with_centre(DualCentre::Centroid).unwrap();
/// let a = sphere::geometry::voronoi_areas(&mesh, &pos, &centroids);
/// assert!((a.iter().sum::<f64>() - want).abs() < 1e-9 * want);
/// ```
pub fn voronoi_areas(
    mesh: &impl Topology,
    positions: &[DVec3],
    options: &crate::dual::CellOptions,
) -> Vec<f64> {
    let points = match options.centre() {
        crate::dual::DualCentre::Circumcentre => circumcenters(mesh, positions),
        centre => crate::dual::points_at(mesh, positions, centre),
    };
    cell_areas(mesh, positions, &points)
}

/// The signed-triangle area of every closed cell around the given dual points.
fn cell_areas(mesh: &impl Topology, positions: &[DVec3], cc: &[DVec3]) -> Vec<f64> {
    let mut out = vec![0.0; mesh.vertex_slots()];
    for v in mesh.vertices() {
        if mesh.is_boundary_vertex(v) {
            continue;
        }
        out[v.index()] = cell_area(mesh, positions, cc, v);
    }
    out
}

fn cell_area(mesh: &impl Topology, positions: &[DVec3], cc: &[DVec3], v: Vertex) -> f64 {
    let site = positions[v.index()];
    let mut faces = mesh.vertex_faces(v);
    let Some(first) = faces.next() else {
        return 0.0;
    };
    let mut prev = cc[first.index()];
    let mut sum = 0.0;
    for f in faces.chain(core::iter::once(first)) {
        let cur = cc[f.index()];
        sum += solid_angle(site, prev, cur);
        prev = cur;
    }
    sum * site.length_squared()
}

/// Summary of edge lengths and angles of a mesh.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshQuality {
    /// Shortest edge (great-circle length).
    pub min_edge: f64,
    /// Mean edge length.
    pub mean_edge: f64,
    /// Longest edge.
    pub max_edge: f64,
    /// `max_edge / min_edge`: 1 for a perfectly uniform mesh.
    pub edge_ratio: f64,
    /// Smallest corner angle of any face, in radians (angle of the flat triangle through the
    /// three corners; for small faces the spherical angle differs by a fraction of the
    /// spherical excess). An equilateral mesh has π/3.
    pub min_angle: f64,
}

/// Edge-length statistics and the smallest angle, over live edges and faces.
/// Returns `None` for a mesh without edges.
///
/// Takes any [`Topology`] (a `Mesh` or a `FrozenMesh`).
///
/// # Panics
///
/// When `positions` is shorter than the mesh's vertex slots.
///
/// ```
/// let (mesh, pos) = sphere::icosphere(2, 1.0).unwrap();
/// let q = sphere::geometry::mesh_quality(&mesh, &pos).unwrap();
/// assert!(q.edge_ratio < 1.3 && q.min_angle > 0.9);
/// ```
pub fn mesh_quality(mesh: &impl Topology, positions: &[DVec3]) -> Option<MeshQuality> {
    check_len(mesh, positions);
    let (mut lo, mut hi, mut sum, mut n) = (f64::INFINITY, 0.0f64, 0.0, 0usize);
    // Each undirected edge once, from its endpoint with the smaller id.
    for v in mesh.vertices() {
        let p = positions[v.index()];
        for w in mesh.neighbors(v).filter(|w| w.index() > v.index()) {
            let l = great_circle_distance(p, positions[w.index()]);
            lo = lo.min(l);
            hi = hi.max(l);
            sum += l;
            n += 1;
        }
    }
    if n == 0 {
        return None;
    }
    let mut min_angle = core::f64::consts::PI;
    for f in mesh.faces() {
        let p = corners(mesh, positions, f);
        for k in 0..3 {
            let (a, b, c) = (p[k], p[(k + 1) % 3], p[(k + 2) % 3]);
            min_angle = min_angle.min(central_angle(b - a, c - a));
        }
    }
    Some(MeshQuality {
        min_edge: lo,
        mean_edge: sum / n as f64,
        max_edge: hi,
        edge_ratio: hi / lo,
        min_angle,
    })
}

#[inline]
fn corners(mesh: &impl Topology, positions: &[DVec3], f: Face) -> [DVec3; 3] {
    mesh.face_vertices(f).map(|v| positions[v.index()])
}

#[inline]
fn check_len(mesh: &impl Topology, positions: &[DVec3]) {
    assert!(
        positions.len() >= mesh.vertex_slots(),
        "positions ({}) must cover every vertex slot ({})",
        positions.len(),
        mesh.vertex_slots()
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::f64::consts::PI;

    #[test]
    fn angles_and_areas() {
        assert!((central_angle(DVec3::X, DVec3::NEG_X) - PI).abs() < 1e-15);
        assert!((central_angle(DVec3::X, DVec3::new(1.0, 1e-12, 0.0)) - 1e-12).abs() < 1e-24);
        // Orientation gives the sign.
        assert!(solid_angle(DVec3::X, DVec3::Y, DVec3::Z) > 0.0);
        assert!(solid_angle(DVec3::X, DVec3::Z, DVec3::Y) < 0.0);
        // A triangle larger than a hemisphere: the complement of an octant seen the other way.
        let big = solid_angle(DVec3::X, DVec3::Z, DVec3::Y);
        assert!((big + PI / 2.0).abs() < 1e-15);
        // Tiny triangle: area ≈ flat area.
        let e = 1e-6;
        let a = spherical_triangle_area(
            DVec3::Z,
            DVec3::new(e, 0.0, 1.0),
            DVec3::new(0.0, e, 1.0),
            1.0,
        );
        assert!((a / (e * e / 2.0) - 1.0).abs() < 1e-6);
    }

    #[test]
    fn octahedron_cells_are_equal() {
        let p = vec![
            DVec3::X,
            DVec3::NEG_X,
            DVec3::Y,
            DVec3::NEG_Y,
            DVec3::Z,
            DVec3::NEG_Z,
        ];
        let (mesh, _) = crate::sphere_mesh(&p).unwrap();
        let areas = voronoi_areas(&mesh, &p, &Default::default());
        for a in areas {
            assert!((a - 4.0 * PI / 6.0).abs() < 1e-12);
        }
        let q = mesh_quality(&mesh, &p).unwrap();
        assert!((q.edge_ratio - 1.0).abs() < 1e-12);
        assert!((q.min_angle - PI / 3.0).abs() < 1e-12);
        assert!((mean_radius(&mesh, &p) - 1.0).abs() < 1e-15);
    }

    #[test]
    fn frozen_mesh_gives_the_same_geometry() {
        let (mut mesh, p) = crate::fibonacci_sphere(2000, 3.0, 0.3, 9).unwrap();
        // Freezing wants quad-edges and faces in sweep order: renumber them, vertices kept.
        let identity: Vec<u32> = (0..2000).collect();
        mesh.reorder_vertices(&identity).unwrap();
        let frozen = quadedge::FrozenMesh::freeze(&mesh).unwrap();
        assert_eq!(mean_radius(&frozen, &p), mean_radius(&mesh, &p));
        let (a, b) = (circumcenters(&frozen, &p), circumcenters(&mesh, &p));
        assert!(
            a.iter()
                .zip(&b)
                .all(|(x, y)| x == y || (x.is_nan() && y.is_nan()))
        );
        assert_eq!(
            voronoi_areas(&frozen, &p, &Default::default()),
            voronoi_areas(&mesh, &p, &Default::default())
        );
        assert_eq!(mesh_quality(&frozen, &p), mesh_quality(&mesh, &p));
        // Every undirected edge counted once: the mean over the edge list agrees.
        let mean = mesh
            .undirected_edges()
            .map(|e| great_circle_distance(p[mesh.origin(e).index()], p[mesh.dest(e).index()]))
            .sum::<f64>()
            / mesh.undirected_edge_count() as f64;
        let q = mesh_quality(&mesh, &p).unwrap();
        assert!((q.mean_edge - mean).abs() < 1e-12 * mean);
    }
}
