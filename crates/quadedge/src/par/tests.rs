//! `check_par()` reports exactly what `check()` reports, on corrupted meshes too, whatever the
//! thread count.

use crate::{Edge, Face, Mesh, Vertex, shapes};

use testkit::thread_pools as pools;

/// The shared test generator, enough to scatter corruptions.
fn next(x: &mut testkit::Rng) -> u64 {
    x.next_u64()
}

/// Writes `g` at position `i` (modulo its length) of array `field`.
fn corrupt(m: &mut Mesh, field: u64, i: u64, g: u32) {
    let at = |len: usize| (i % len as u64) as usize;
    match field {
        0 => {
            let i = at(m.vertex_edge.len());
            m.vertex_edge[i] = Edge::from_raw(g);
        }
        1 => {
            let i = at(m.face_edge.len());
            m.face_edge[i] = Edge::from_raw(g);
        }
        2 => {
            let i = at(m.primal_origin.len());
            m.primal_origin[i] = Vertex::new(g);
        }
        3 => {
            let i = at(m.primal_next.len());
            m.primal_next[i] = Edge::from_raw(g);
        }
        4 => {
            let i = at(m.dual_origin.len());
            m.dual_origin[i] = Face::new(g);
        }
        _ => {
            let i = at(m.dual_next.len());
            m.dual_next[i] = Edge::from_raw(g);
        }
    }
}

#[test]
fn check_par_reports_the_same_first_error_as_check_whatever_the_thread_count() {
    // ~9000 vertices, 54 000 directed edges: a dozen chunks per scan.
    let (n, t) = shapes::icosahedron_grid(30);
    let good = Mesh::from_triangles(n, &t).unwrap();
    let pools = pools();
    for pool in &pools {
        assert_eq!(pool.install(|| good.check_par()), Ok(()));
    }
    let mut seed = testkit::Rng::new(0x2545_f491_4f6c_dd1d);
    let mut errors = 0;
    for case in 0..120 {
        let mut m = good.clone();
        // One to four corruptions, usually in different chunks: the lowest index must win.
        for _ in 0..=(case % 4) {
            let field = next(&mut seed) % 6;
            let i = next(&mut seed);
            let g = match next(&mut seed) % 4 {
                0 => u32::MAX,
                1 => next(&mut seed) as u32,
                _ => (next(&mut seed) % (2 * good.primal_origin.len() as u64)) as u32,
            };
            corrupt(&mut m, field, i, g);
        }
        let want = m.check();
        errors += want.is_err() as usize;
        for pool in &pools {
            assert_eq!(pool.install(|| m.check_par()), want, "case {case}");
        }
    }
    assert!(errors > 100, "only {errors} of 120 corruptions found");
}
