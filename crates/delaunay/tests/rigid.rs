//! The restore of a motion by rigid pieces (`restore_rigid_band`): the same repair as the
//! general restore of the band, whatever the labels' length, and no panic on labels that lie.

mod common;

use common::{Rng, from_scratch, triangle_set};
use delaunay::{RestoreOptions, Sphere, is_delaunay, restore_rigid_band, restore_with_changes};
use glam::{DQuat, DVec3};
use quadedge::{Mesh, Vertex};

/// Labels by nearest of `plates` random centres; each plate turned about a random axis by up
/// to `angle`. Returns the labels and the band (vertices with a neighbour on another plate).
fn turn_plates(
    mesh: &Mesh,
    pos: &mut [DVec3],
    plates: usize,
    angle: f64,
    rng: &mut Rng,
) -> (Vec<u32>, Vec<Vertex>) {
    let centres: Vec<DVec3> = (0..plates).map(|_| rng.unit_dvec3()).collect();
    let turns: Vec<DQuat> = (0..plates)
        .map(|_| DQuat::from_axis_angle(rng.unit_dvec3(), angle * (rng.unit_f64() * 2.0 - 1.0)))
        .collect();
    let labels: Vec<u32> = pos
        .iter()
        .map(|p| {
            (0..plates)
                .max_by(|&a, &b| p.dot(centres[a]).total_cmp(&p.dot(centres[b])))
                .unwrap() as u32
        })
        .collect();
    for v in mesh.vertices() {
        let i = v.index();
        pos[i] = (turns[labels[i] as usize] * pos[i]).normalize();
    }
    let band = testkit::border_vertices(mesh, &labels);
    (labels, band)
}

fn mean_edge(n: usize) -> f64 {
    (8.0 * std::f64::consts::PI / (n as f64 * 3f64.sqrt())).sqrt()
}

/// Rigid pieces turned by up to several cells (folds and relocations included): the rigid
/// restore gives the general restore's mesh, stats and changed vertices, a Delaunay mesh equal
/// to one built from scratch; labels cut short (a vertex beyond them is on no piece) change
/// nothing either.
#[test]
fn rigid_band_restore_repairs_as_the_general_one() {
    let options = RestoreOptions::default();
    let mut relocated = 0;
    for (n, seed, plates) in [(3000, 1, 4), (8000, 2, 7), (20000, 3, 12)] {
        let (mut mesh, mut pos) = sphere::fibonacci_sphere(n, 1.0, 0.4, seed).unwrap();
        let mut rng = Rng::new(seed);
        for cells in [0.5, 2.5, 4.0] {
            let (labels, band) =
                turn_plates(&mesh, &mut pos, plates, cells * mean_edge(n), &mut rng);
            let mut general = mesh.clone();
            let mut expect = Vec::new();
            let s = restore_with_changes(
                &Sphere,
                &mut general,
                &mut pos,
                Some(&band),
                &options,
                &mut expect,
            )
            .unwrap();
            for cut in [labels.len(), labels.len() / 2] {
                let mut rigid = mesh.clone();
                let mut changed = Vec::new();
                let t = restore_rigid_band(
                    &Sphere,
                    &mut rigid,
                    &mut pos,
                    &band,
                    &labels[..cut],
                    &options,
                    &mut changed,
                )
                .unwrap();
                assert_eq!((s, &expect), (t, &changed), "n {n} cells {cells} cut {cut}");
                assert!(rigid == general);
            }
            relocated += s.relocated;
            mesh = general;
            assert_eq!(is_delaunay(&Sphere, &mesh, &pos), Ok(()));
            assert_eq!(triangle_set(&mesh), from_scratch(&mesh, &pos));
        }
    }
    assert!(relocated > 100, "the motions should fold: {relocated}");
}

/// Labels that lie (every vertex on one piece, or random pieces) cannot make the restore
/// panic: it either repairs or refuses with the mesh unchanged, and the mesh stays a valid
/// quad-edge structure.
#[test]
fn lying_labels_do_not_panic() {
    let options = RestoreOptions::default();
    let (mesh, mut pos) = sphere::fibonacci_sphere(4000, 1.0, 0.4, 9).unwrap();
    let mut rng = Rng::new(9);
    let (labels, band) = turn_plates(&mesh, &mut pos, 6, 3.0 * mean_edge(4000), &mut rng);
    let random: Vec<u32> = labels
        .iter()
        .map(|_| (rng.unit_f64() * 3.0) as u32)
        .collect();
    for lie in [vec![0; labels.len()], random, vec![u32::MAX; 7]] {
        let mut m = mesh.clone();
        let mut changed = Vec::new();
        match restore_rigid_band(
            &Sphere,
            &mut m,
            &mut pos,
            &band,
            &lie,
            &options,
            &mut changed,
        ) {
            Ok(_) => m.check().unwrap(),
            Err(_) => assert!(m == mesh && changed.is_empty()),
        }
    }
}

/// Plates turned far enough that the band's fold tests, Lawson's start and the certificate's
/// windings take the parallel paths (a band of at least 2048 vertices, but at most an eighth
/// of them, beyond which whole-mesh scans take over): the repair is the same mesh, stats and
/// changed vertices on 1, 2 and 4 threads, and Delaunay.
#[test]
fn rigid_band_restore_is_the_same_on_any_thread_count() {
    let options = RestoreOptions::default();
    let n = 60000;
    let (mesh, mut pos) = sphere::fibonacci_sphere(n, 1.0, 0.4, 4).unwrap();
    let mut rng = Rng::new(4);
    let (labels, band) = turn_plates(&mesh, &mut pos, 8, 5.0 * mean_edge(n), &mut rng);
    let parallel = 2048..n / 8;
    assert!(parallel.contains(&band.len()), "band {}", band.len());
    let runs: Vec<_> = testkit::thread_pools()
        .iter()
        .map(|pool| {
            pool.install(|| {
                let mut m = mesh.clone();
                let mut changed = Vec::new();
                let s = restore_rigid_band(
                    &Sphere,
                    &mut m,
                    &mut pos,
                    &band,
                    &labels,
                    &options,
                    &mut changed,
                )
                .unwrap();
                (m, s, changed)
            })
        })
        .collect();
    let (first, s, changed) = &runs[0];
    assert!(s.relocated > 100 && changed.len() > 2048, "{s:?}");
    assert_eq!(is_delaunay(&Sphere, first, &pos), Ok(()));
    assert_eq!(triangle_set(first), from_scratch(first, &pos));
    for (m, t, c) in &runs[1..] {
        assert!(m == first);
        assert_eq!((t, c), (s, changed));
    }
}
