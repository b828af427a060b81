//! Planned batches against one insertion at a time: the same mesh, positions, ids and
//! journal, on one and two threads.

use super::*;
use crate::{Sphere, is_delaunay, remove};
use quadedge::{Change, Vertex};
use testkit::Rng;

/// A sphere with dead slots (removals reuse them) and a batch of points with hints: spread
/// over the sphere, and clumped (close points, whose plans touch each other).
fn setup(seed: u64) -> (Mesh, Vec<DVec3>, Vec<(DVec3, Face)>) {
    let (mut mesh, pos) = sphere::fibonacci_sphere(4000, 1.0, 0.3, seed).unwrap();
    let gone: Vec<Vertex> = mesh.vertices().step_by(31).collect();
    for v in gone {
        remove(&Sphere, &mut mesh, &pos, v).unwrap();
    }
    let mut rng = Rng::new(seed);
    let faces: Vec<Face> = mesh.faces().collect();
    let centre = rng.unit_dvec3();
    let mut points: Vec<(DVec3, Face)> = Vec::new();
    for k in 0..600 {
        let p = if k % 3 == 0 {
            (centre + 0.05 * rng.unit_dvec3()).normalize()
        } else {
            rng.unit_dvec3()
        };
        let hint = match k % 7 {
            // The face the point is in, a face far away, none.
            0..=3 => locate(&Sphere, &mesh, &pos, p, None)
                .unwrap()
                .face(&mesh)
                .unwrap(),
            4 | 5 => faces[rng.below(faces.len())],
            _ => Face::INVALID,
        };
        points.push((p, hint));
    }
    (mesh, pos, points)
}

/// What a run of insertions made: each insertion and its slot's stale position, the
/// journal, and the refusal that stopped it.
type Run = (
    Vec<(Inserted, Option<DVec3>)>,
    Vec<Change>,
    Option<(usize, DelaunayError)>,
);

/// One insertion at a time (`batch` false) or [`insert_in_order`], journaled.
fn run(mesh: &mut Mesh, pos: &mut Vec<DVec3>, points: &[(DVec3, Face)], batch: bool) -> Run {
    let rec = mesh.record_changes().unwrap();
    let mut out = Vec::new();
    let err = if batch {
        insert_in_order(&Sphere, mesh, pos, points, |k, ins, stale| {
            assert_eq!(k, out.len());
            out.push((ins, stale));
        })
        .err()
    } else {
        let mut last: Option<Face> = None;
        points.iter().enumerate().find_map(|(k, &(p, hint))| {
            let start = if mesh.is_face_alive(hint) {
                Some(hint)
            } else {
                last
            };
            match insert_keeping(&Sphere, mesh, pos, p, start) {
                Ok(r) => {
                    last = mesh.vertex_faces(r.0.vertex).next();
                    out.push(r);
                    None
                }
                Err(e) => Some((k, e)),
            }
        })
    };
    (out, mesh.stop_recording(rec).unwrap(), err)
}

fn one_by_one(mesh: &mut Mesh, pos: &mut Vec<DVec3>, points: &[(DVec3, Face)]) -> Run {
    run(mesh, pos, points, false)
}

fn batched(mesh: &mut Mesh, pos: &mut Vec<DVec3>, points: &[(DVec3, Face)]) -> Run {
    run(mesh, pos, points, true)
}

#[test]
fn a_planned_batch_is_one_insertion_at_a_time_bit_for_bit() {
    for seed in [1, 2] {
        let (mesh, pos, points) = setup(seed);
        let (mut m1, mut p1) = (mesh.clone(), pos.clone());
        let serial = one_by_one(&mut m1, &mut p1, &points);
        assert!(serial.2.is_none());
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let (mut m2, mut p2) = (mesh.clone(), pos.clone());
            let batch = pool.install(|| batched(&mut m2, &mut p2, &points));
            assert!(m1 == m2, "seed {seed}, {threads} threads: the mesh");
            let bits = |p: &[DVec3]| -> Vec<[u64; 3]> {
                p.iter().map(|x| x.to_array().map(f64::to_bits)).collect()
            };
            assert_eq!(bits(&p1), bits(&p2));
            assert_eq!(serial.0, batch.0);
            assert!(serial.1 == batch.1, "the journal");
            assert!(batch.2.is_none());
        }
        // Dead slots were reused (their stale positions returned), and the mesh is Delaunay.
        assert!(serial.0.iter().filter(|r| r.1.is_some()).count() > 100);
        assert_eq!(is_delaunay(&Sphere, &m1, &p1), Ok(()));
    }
}

/// Most plans of spread points are kept; clumped ones are made afresh (both paths run).
#[test]
fn plans_are_kept_unless_an_earlier_insertion_touched_them() {
    let (mesh, pos, points) = setup(3);
    let (m, p) = (&mesh, &pos[..]);
    let plans: Vec<Planned> = points
        .iter()
        .map(|&(x, hint)| plan(&Sphere, m, p, x, hint))
        .collect();
    let planned = plans.iter().filter(|pl| pl.face.is_valid()).count();
    // Hints that are dead or invalid have no plan; the rest nearly all do.
    assert!(planned > 400, "{planned}");
    // Every read face is alive and the split face comes first.
    for pl in plans.iter().filter(|pl| pl.face.is_valid()) {
        assert_eq!(pl.reads()[0], pl.face);
        assert!(pl.reads().iter().all(|&f| mesh.is_face_alive(f)));
        assert!(pl.flips().len() <= MAX_FLIPS);
    }
}

#[test]
fn a_refused_point_stops_the_batch_where_one_at_a_time_stops() {
    let (mesh, pos, mut points) = setup(4);
    // A point of the batch again, later: a duplicate of the vertex made for it.
    points.insert(400, (points[150].0, points[150].1));
    let (mut m1, mut p1) = (mesh.clone(), pos.clone());
    let serial = one_by_one(&mut m1, &mut p1, &points);
    let (mut m2, mut p2) = (mesh.clone(), pos.clone());
    let batch = batched(&mut m2, &mut p2, &points);
    assert!(matches!(serial.2, Some((400, DelaunayError::Duplicate(_)))));
    assert_eq!(serial.2, batch.2);
    assert_eq!(serial.0, batch.0);
    assert!(m1 == m2 && serial.1 == batch.1);
    // A small batch is not planned ahead: the same result.
    let (mut m3, mut p3) = (mesh.clone(), pos.clone());
    let few = batched(&mut m3, &mut p3, &points[..MIN_PLANNED - 1]);
    let (mut m4, mut p4) = (mesh, pos);
    let one = one_by_one(&mut m4, &mut p4, &points[..MIN_PLANNED - 1]);
    assert!(m3 == m4 && few.0 == one.0 && few.1 == one.1);
}
