//! Measures of a planet that do not depend on its sampling: areas from the Voronoi cells,
//! fractions and percentiles weighted by area, elevation averaged over latitude-longitude
//! blocks (for comparing the same planet at two resolutions).

use super::plates::{lonely_fraction, pieces_per_plate};
use super::{ELEVATION, PLATE, world_ops};
use quadedge::{Face, Mesh};
use rayon::prelude::*;
use sphere::geometry::voronoi_areas;
use world::World;

/// A planet's vital figures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Live vertices.
    pub vertices: usize,
    /// Fraction of the surface above sea level (0 m), by area.
    pub land_fraction: f64,
    /// Elevation (m) at the 1st, 5th, 25th, 50th, 75th, 95th, 99th percentiles of the area.
    pub percentiles: Vec<(u8, f32)>,
    /// Lowest and highest elevation (m).
    pub min_m: f32,
    /// See `min_m`.
    pub max_m: f32,
    /// Area (km²) of each plate id (0 for plates with no vertex left).
    pub plate_areas_km2: Vec<f64>,
    /// Plates with at least one vertex.
    pub live_plates: usize,
    /// Fraction of vertices with no neighbour on their own plate.
    pub lonely_fraction: f64,
    /// Plates in more than one connected piece: a main piece and terranes, each of at least
    /// [`super::TERRANE_MIN_KM2`] after a clean-up.
    pub split_plates: usize,
}

/// Area (km²) of each plate id below `plates`, from the vertices' Voronoi cells.
pub fn plate_areas(world: &World, plates: usize) -> Vec<f64> {
    let mut out = vec![0.0; plates];
    let Some(plate) = world.layer(&PLATE) else {
        return out;
    };
    let areas = voronoi_areas(
        world.mesh(),
        world_ops::positions(world),
        &Default::default(),
    );
    for v in world.mesh().vertices() {
        if let Some(a) = out.get_mut(plate[v] as usize) {
            *a += areas[v.index()];
        }
    }
    out
}

/// Every plate's area (km²) from the triangles, a third of each to each corner's plate,
/// given the triangles' flat areas by face slot ([`face_areas`]) and scaled so the plates sum
/// to the sphere's `4πr²`: within a boundary row's share of the Voronoi measure, at a small
/// fraction of its cost (no circumcentres, no angles), for decisions such as which plate
/// rifts.
pub(super) fn plate_areas_from_faces(
    world: &World,
    faces: &[f64],
    plates: usize,
    radius: f64,
) -> Vec<f64> {
    let mut out = vec![0.0; plates];
    let Some(plate) = world.layer(&PLATE) else {
        return out;
    };
    let mesh = world.mesh();
    let chunks = fold_face_chunks(
        mesh,
        || (vec![0.0; plates], 0.0),
        |(sums, total), f| {
            let third = faces[f.index()] / 3.0;
            *total += faces[f.index()];
            for v in mesh.face_vertices(f) {
                if let Some(a) = sums.get_mut(plate[v] as usize) {
                    *a += third;
                }
            }
        },
    );
    let mut total = 0.0;
    for (sums, t) in chunks {
        total += t;
        out.iter_mut().zip(sums).for_each(|(a, s)| *a += s);
    }
    let scale = 4.0 * std::f64::consts::PI * radius * radius / total.max(f64::MIN_POSITIVE);
    out.iter_mut().for_each(|a| *a *= scale);
    out
}

/// Face slots in one chunk of [`fold_face_chunks`]: fixed, so that the chunks' sums, added
/// in order, have the same bits for any thread count.
const FACE_CHUNK: usize = 1 << 14;

/// `add` folded over the live faces of each chunk of [`FACE_CHUNK`] face slots, from
/// `start`, the chunks on all cores; the chunks' results in slot order.
pub(super) fn fold_face_chunks<T: Send>(
    mesh: &Mesh,
    start: impl Fn() -> T + Sync,
    add: impl Fn(&mut T, Face) + Sync,
) -> Vec<T> {
    let slots = mesh.face_slots();
    (0..slots.div_ceil(FACE_CHUNK))
        .into_par_iter()
        .map(|c| {
            let mut acc = start();
            for f in c * FACE_CHUNK..((c + 1) * FACE_CHUNK).min(slots) {
                let f = Face::new(f as u32);
                if mesh.is_face_alive(f) {
                    add(&mut acc, f);
                }
            }
            acc
        })
        .collect()
}

/// Every live triangle's flat area (km²) by face slot, on all cores.
pub(super) fn face_areas(world: &World) -> Vec<f64> {
    let (mesh, pos) = (world.mesh(), world_ops::positions(world));
    (0..mesh.face_slots() as u32)
        .into_par_iter()
        .with_min_len(4096)
        .map(|f| {
            let f = Face::new(f);
            if !mesh.is_face_alive(f) {
                return 0.0;
            }
            let [a, b, c] = mesh.face_vertices(f).map(|v| pos[v.index()]);
            0.5 * (b - a).cross(c - a).length()
        })
        .collect()
}

/// The figures of `world` with `plates` plate ids.
pub fn summarize(world: &World, plates: usize) -> Summary {
    let mesh = world.mesh();
    let pos = world_ops::positions(world);
    let areas = voronoi_areas(mesh, pos, &Default::default());
    let empty: &[f32] = &[];
    let h = world.layer(&ELEVATION).map_or(empty, |l| l.as_slice());
    let mut pairs: Vec<(f32, f64)> = mesh
        .vertices()
        .filter_map(|v| Some((*h.get(v.index())?, areas[v.index()])))
        .collect();
    pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let total: f64 = pairs.iter().map(|p| p.1).sum();
    let land: f64 = pairs.iter().filter(|p| p.0 > 0.0).map(|p| p.1).sum();
    let mut percentiles = Vec::new();
    let mut acc = 0.0;
    let mut wanted = [1u8, 5, 25, 50, 75, 95, 99].into_iter().peekable();
    for &(z, a) in &pairs {
        acc += a;
        while let Some(&q) = wanted.peek() {
            if acc >= total * f64::from(q) / 100.0 {
                percentiles.push((q, z));
                wanted.next();
            } else {
                break;
            }
        }
    }
    let plate_slice = world.layer(&PLATE).map(|l| l.as_slice()).unwrap_or(&[]);
    let plate_areas_km2 = plate_areas(world, plates);
    let (lonely, split) = if plate_slice.len() >= mesh.vertex_slots() {
        let pieces = pieces_per_plate(mesh, plate_slice, plates);
        (
            lonely_fraction(mesh, plate_slice),
            pieces.iter().filter(|&&n| n > 1).count(),
        )
    } else {
        (0.0, 0)
    };
    Summary {
        vertices: mesh.vertex_count(),
        land_fraction: if total > 0.0 { land / total } else { 0.0 },
        percentiles,
        min_m: pairs.first().map_or(0.0, |p| p.0),
        max_m: pairs.last().map_or(0.0, |p| p.0),
        live_plates: plate_areas_km2.iter().filter(|&&a| a > 0.0).count(),
        plate_areas_km2,
        lonely_fraction: lonely,
        split_plates: split,
    }
}

/// Mean elevation (m) over blocks of `degrees` × `degrees` of latitude and longitude,
/// weighted by the vertices' cell areas; row-major from the north, `NaN` for empty blocks.
/// Blocks 5° wide (about 550 km) compare planets at features wider than ~500 km.
pub fn binned_elevation(world: &World, degrees: f64) -> (usize, usize, Vec<f64>) {
    let cols = (360.0 / degrees).round().max(1.0) as usize;
    let rows = (180.0 / degrees).round().max(1.0) as usize;
    let mut sum = vec![0.0; cols * rows];
    let mut weight = vec![0.0; cols * rows];
    let pos = world_ops::positions(world);
    let areas = voronoi_areas(world.mesh(), pos, &Default::default());
    let Some(h) = world.layer(&ELEVATION) else {
        return (cols, rows, vec![f64::NAN; cols * rows]);
    };
    for v in world.mesh().vertices() {
        let d = pos[v.index()].normalize();
        let lat = d.z.clamp(-1.0, 1.0).asin();
        let lon = d.y.atan2(d.x);
        let r =
            (((std::f64::consts::FRAC_PI_2 - lat) / std::f64::consts::PI) * rows as f64) as usize;
        let c = (((lon + std::f64::consts::PI) / std::f64::consts::TAU) * cols as f64) as usize;
        let k = r.min(rows - 1) * cols + c.min(cols - 1);
        sum[k] += f64::from(h[v]) * areas[v.index()];
        weight[k] += areas[v.index()];
    }
    let out = sum
        .iter()
        .zip(&weight)
        .map(|(s, w)| if *w > 0.0 { s / w } else { f64::NAN })
        .collect();
    (cols, rows, out)
}

/// Pearson correlation of two equal-length series over the entries where both are finite.
pub fn correlation(a: &[f64], b: &[f64]) -> f64 {
    let pairs: Vec<(f64, f64)> = a
        .iter()
        .zip(b)
        .filter(|(x, y)| x.is_finite() && y.is_finite())
        .map(|(x, y)| (*x, *y))
        .collect();
    let n = pairs.len() as f64;
    if n < 2.0 {
        return 0.0;
    }
    let (ma, mb) = (
        pairs.iter().map(|p| p.0).sum::<f64>() / n,
        pairs.iter().map(|p| p.1).sum::<f64>() / n,
    );
    let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
    for (x, y) in pairs {
        sab += (x - ma) * (y - mb);
        saa += (x - ma).powi(2);
        sbb += (y - mb).powi(2);
    }
    if saa > 0.0 && sbb > 0.0 {
        sab / (saa * sbb).sqrt()
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tectonics::write;

    #[test]
    fn plate_areas_from_faces_weigh_caps_right_with_the_same_bits_on_any_thread_count() {
        let (r, n) = (6371.0, 40_000);
        let mut world = World::fibonacci_sphere(n, r, 0.3, 9).unwrap();
        // Plate 1 a cap of 2,000 km angular radius, plate 2 the rest; id 3 has no vertex.
        let plate: Vec<u32> = world
            .positions()
            .iter()
            .map(|p| {
                if p.normalize().z > (2000.0 / r).cos() {
                    1
                } else {
                    2
                }
            })
            .collect();
        write(&mut world, &PLATE, &plate).unwrap();
        let faces = face_areas(&world);
        let on = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| plate_areas_from_faces(&world, &faces, 4, r))
        };
        let areas = on(1);
        assert_eq!(areas, on(3));
        let sphere = 4.0 * std::f64::consts::PI * r * r;
        let cap = 2.0 * std::f64::consts::PI * r * r * (1.0 - (2000.0 / r).cos());
        assert_eq!((areas[0], areas[3]), (0.0, 0.0));
        assert!((areas.iter().sum::<f64>() / sphere - 1.0).abs() < 1e-12);
        // Within a boundary row's share (cells about 200 km wide along a 12,000 km circle).
        assert!((areas[1] / cap - 1.0).abs() < 0.02, "{} / {cap}", areas[1]);
    }
}
