//! A journal that counts flips and vertex moves instead of recording them
//! (`Mesh::skip_rewires`): every other change is recorded as before, in the same order, the
//! count is the number of records left out, one at a time and in parts on any thread count,
//! and an edit rolled back takes its count back.

use quadedge::{Change, Edge, Face, Mesh, MeshError, Vertex, shapes};
use testkit::Rng;

fn grid() -> Mesh {
    let (n, t) = shapes::icosahedron_grid(10);
    Mesh::from_triangles(n, &t).unwrap()
}

fn is_rewire(c: &Change) -> bool {
    matches!(c, Change::Flip(_) | Change::VertexMoved(_))
}

/// Random flips, face splits, vertex moves (of the split vertices) and collapses.
fn edit(m: &mut Mesh, seed: u64) {
    let mut rng = Rng::new(seed);
    for step in 0..600 {
        match step % 6 {
            0..=2 => {
                let _ = m.flip(Edge::of_quad(rng.below(m.quad_slots()) as u32));
            }
            3 => {
                let f = Face::new(rng.below(m.face_slots()) as u32);
                if let Ok(s) = m.split_face(f, [0.2, 0.3, 0.5]) {
                    let target = Face::new(rng.below(m.face_slots()) as u32);
                    let _ = m.move_vertex(s.vertex, target);
                }
            }
            4 => {
                let _ = m.collapse(Edge::of_quad(rng.below(m.quad_slots()) as u32), 0.5);
            }
            _ => {
                let _ = m.split(Edge::of_quad(rng.below(m.quad_slots()) as u32), 0.5);
            }
        }
    }
}

#[test]
fn skipped_journal_is_the_full_one_without_flips_and_moves() {
    for seed in 1..6 {
        let mut full = grid();
        let rec = full.record_changes().unwrap();
        edit(&mut full, seed);
        let all = full.stop_recording(rec).unwrap();
        let mut skip = grid();
        let rec = skip.record_changes().unwrap();
        skip.skip_rewires(&rec).unwrap();
        edit(&mut skip, seed);
        let n = skip.skipped_rewires(&rec).unwrap();
        let kept = skip.stop_recording(rec).unwrap();
        assert_eq!(skip, full, "the same edits, seed {seed}");
        let rewires = all.iter().filter(|c| is_rewire(c)).count();
        assert!(rewires > 100 && all.iter().any(|c| matches!(c, Change::VertexMoved(_))));
        assert_eq!(n, rewires as u64);
        let rest: Vec<Change> = all.into_iter().filter(|c| !is_rewire(c)).collect();
        assert!(!rest.is_empty());
        assert_eq!(kept, rest);
    }
}

#[test]
fn a_new_recording_records_flips_again() {
    let mut m = grid();
    let rec = m.record_changes().unwrap();
    m.skip_rewires(&rec).unwrap();
    edit(&mut m, 9);
    let _ = m.stop_recording(rec).unwrap();
    let rec = m.record_changes().unwrap();
    assert_eq!(m.skipped_rewires(&rec), Ok(0));
    edit(&mut m, 10);
    let changes = m.take_changes(&rec).unwrap();
    assert!(changes.iter().any(|c| matches!(c, Change::Flip(_))));
    assert_eq!(m.skipped_rewires(&rec), Ok(0));
}

#[test]
fn only_the_owner_switches_or_reads_the_count() {
    let mut m = grid();
    let mut other = grid();
    let foreign = other.record_changes().unwrap();
    assert_eq!(m.skip_rewires(&foreign), Err(MeshError::NotRecording));
    assert_eq!(m.skipped_rewires(&foreign), Err(MeshError::NotRecording));
    let rec = m.record_changes().unwrap();
    assert_eq!(m.skip_rewires(&foreign), Err(MeshError::NotRecording));
    // The refused switch changed nothing: flips are still recorded.
    let e = m.find_edge(Vertex::new(0), m.neighbors(Vertex::new(0)).next().unwrap());
    m.flip(e.unwrap()).unwrap();
    assert_eq!(m.skipped_rewires(&rec), Ok(0));
    assert_eq!(m.take_changes(&rec).unwrap().len(), 1);
    let _ = other.stop_recording(foreign).unwrap();
}

#[test]
fn a_rolled_back_edit_takes_its_count_back() {
    let mut m = grid();
    let before = m.clone();
    let rec = m.record_changes().unwrap();
    m.skip_rewires(&rec).unwrap();
    edit(&mut m, 3);
    let (n, kept) = (
        m.skipped_rewires(&rec).unwrap(),
        m.take_changes(&rec).unwrap(),
    );
    assert!(n > 0);
    let r: Result<(), MeshError> = m.atomically(|m| {
        edit(m, 4);
        Err(MeshError::NotRecording)
    });
    assert!(r.is_err());
    assert_eq!(m.skipped_rewires(&rec), Ok(n));
    assert!(m.take_changes(&rec).unwrap().is_empty());
    assert_ne!(m, before);
    assert!(!kept.is_empty());
}

#[cfg(feature = "rayon")]
#[test]
fn flips_in_parts_are_counted_as_one_at_a_time_on_any_thread_count() {
    let owner = |v: Vertex| (v.raw() % 300 / 100) as u8;
    for seed in 1..4 {
        let mut rng = Rng::new(seed);
        let base = grid();
        let edges: Vec<Edge> = (0..300)
            .map(|_| Edge::of_quad(rng.below(base.quad_slots()) as u32))
            .collect();
        for pool in testkit::thread_pools() {
            let mut m = base.clone();
            let rec = m.record_changes().unwrap();
            m.skip_rewires(&rec).unwrap();
            m.split_face(Face::new(0), [0.2, 0.3, 0.5]).unwrap();
            let [a, b] = pool.install(|| {
                m.edit_in_parts(&owner, |part| {
                    edges.iter().filter(|&&e| part.flip(e).is_ok()).count()
                })
            });
            assert!(a > 0 && b > 0);
            assert_eq!(m.skipped_rewires(&rec), Ok((a + b) as u64));
            let kept = m.stop_recording(rec).unwrap();
            assert!(matches!(kept[..], [Change::FaceSplit(_)]));
            // The same mesh as with a full journal.
            let mut full = base.clone();
            let rec = full.record_changes().unwrap();
            full.split_face(Face::new(0), [0.2, 0.3, 0.5]).unwrap();
            pool.install(|| {
                full.edit_in_parts(&owner, |part| {
                    edges.iter().filter(|&&e| part.flip(e).is_ok()).count()
                })
            });
            let all = full.stop_recording(rec).unwrap();
            assert_eq!(m, full);
            assert_eq!(all.len(), 1 + a + b);
        }
    }
}
