//! Parallel iteration (feature `rayon`): the same elements in the same order as the sequential
//! iterators, and `check_par()` agreeing with `check()`, with 1, 2 and 4 threads.
#![cfg(feature = "rayon")]

use quadedge::{Edge, Face, Mesh, Vertex, shapes};
use rayon::prelude::*;
use testkit::Rng;
use testkit::edits::{apply, pick_op, start_mesh};

use testkit::thread_pools as pools;

/// A mesh of several chunks with holes in every id space.
fn holed_mesh() -> Mesh {
    let (n, t) = shapes::icosahedron_grid(30);
    let mut m = Mesh::from_triangles(n, &t).unwrap();
    let mut rng = Rng::new(17);
    let mut removed = 0;
    while removed < 2000 {
        let e = Edge::of_quad(rng.below(m.quad_slots()) as u32);
        removed += m.collapse(e, 0.5).is_ok() as usize;
    }
    assert!(m.has_holes());
    m
}

#[test]
fn parallel_iterators_yield_the_sequential_order_with_any_thread_count() {
    let mut meshes = vec![holed_mesh(), Mesh::new()];
    for start in [0, 3, 6] {
        let mut m = start_mesh(start);
        let mut rng = Rng::new(start as u64 + 5);
        for _ in 0..80 {
            let op = pick_op(&m, &mut rng);
            let _ = apply(&mut m, op);
        }
        meshes.push(m);
    }
    for m in &meshes {
        let vertices: Vec<Vertex> = m.vertices().collect();
        let faces: Vec<Face> = m.faces().collect();
        let undirected: Vec<Edge> = m.undirected_edges().collect();
        let directed: Vec<Edge> = m.directed_edges().collect();
        for pool in &pools() {
            pool.install(|| {
                assert_eq!(m.par_vertices().collect::<Vec<_>>(), vertices);
                assert_eq!(m.par_faces().collect::<Vec<_>>(), faces);
                assert_eq!(m.par_undirected_edges().collect::<Vec<_>>(), undirected);
                assert_eq!(m.par_directed_edges().collect::<Vec<_>>(), directed);
                assert_eq!(m.check_par(), m.check());
            });
        }
    }
}

#[test]
fn a_parallel_neighbour_sum_is_bit_identical_to_the_sequential_one() {
    let m = holed_mesh();
    let seq: Vec<f64> = (0..m.vertex_slots())
        .map(|i| {
            let v = Vertex::new(i as u32);
            if !m.is_vertex_alive(v) {
                return 0.0;
            }
            m.neighbors(v).map(|w| (w.raw() as f64).sqrt()).sum()
        })
        .collect();
    for pool in &pools() {
        let par: Vec<f64> = pool.install(|| {
            (0..m.vertex_slots())
                .into_par_iter()
                .with_min_len(quadedge::PAR_CHUNK)
                .map(|i| {
                    let v = Vertex::new(i as u32);
                    if !m.is_vertex_alive(v) {
                        return 0.0;
                    }
                    m.neighbors(v).map(|w| (w.raw() as f64).sqrt()).sum()
                })
                .collect()
        });
        assert!(
            par.iter()
                .zip(&seq)
                .all(|(a, b)| a.to_bits() == b.to_bits())
        );
    }
}
