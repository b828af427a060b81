//! PathEngine's square, exactly: two free triangles, one stitch, one cut.

use quadedge::{Change, Mesh, StitchRecord, UnstitchRecord, Vertex, VertexSplitRecord};

fn v(i: u32) -> Vertex {
    Vertex::new(i)
}

#[test]
fn the_seed_square() {
    let mut m = Mesh::new();
    let rec = m.record_changes().unwrap();
    let f1 = m.add_free_triangle().unwrap();
    let f2 = m.add_free_triangle().unwrap();
    assert_eq!(
        (m.face_vertices(f1), m.face_vertices(f2)),
        ([v(0), v(1), v(2)], [v(3), v(4), v(5)])
    );
    let e1 = m.face_edges(f1)[2]; // v2 -> v0
    let e2 = m.face_edges(f2)[1]; // v4 -> v5
    let e5 = m.face_edges(f2)[2]; // v5 -> v3, PathEngine's edge 5
    m.take_changes(&rec).unwrap();
    assert_eq!(m.connect_edges(e1, e2), Ok(e1));
    m.check().unwrap();
    // v5 merged into v2, v4 into v0: PathEngine's dead vertices.
    assert_eq!((m.vertex_count(), m.vertex_slots()), (4, 6));
    assert!(!m.is_vertex_alive(v(4)) && !m.is_vertex_alive(v(5)));
    assert_eq!(m.face_vertices(f2), [v(3), v(0), v(2)]);
    assert_eq!((m.left(e1), m.right(e1)), (f1, f2));
    // PathEngine's `vertFirstEdge(2) == 5`: vertex 2's fan starts with the former v5 -> v3.
    assert_eq!(m.vertex_edge(v(2)), e5);
    assert_eq!(m.origin(e5), v(2));
    assert!(m.vertices().all(|x| m.fan_count(x) == 1));
    assert_eq!(
        m.take_changes(&rec).unwrap(),
        [Change::Stitch(StitchRecord {
            edge: e1,
            removed_edge: e2.base(),
            removed: [v(5), v(4)]
        })]
    );
    // Cut again: both ends split, the dead ids come back (last freed first).
    let n = m.disconnect_edge(e1).unwrap();
    m.check().unwrap();
    assert_eq!(m.vertex_count(), 6);
    assert_eq!(m.face_vertices(f1), [v(0), v(1), v(2)]);
    assert_eq!((m.origin(n), m.dest(n)), (v(5), v(4)));
    assert_eq!(m.face_vertices(f2), [v(3), v(5), v(4)]);
    assert_eq!(
        m.take_changes(&rec).unwrap(),
        [
            Change::Unstitch(UnstitchRecord {
                edge: e1,
                new_edge: n
            }),
            Change::VertexSplit(VertexSplitRecord {
                from: v(2),
                vertex: v(4)
            }),
            Change::VertexSplit(VertexSplitRecord {
                from: v(0),
                vertex: v(5)
            }),
        ]
    );
}

#[test]
fn the_example_prints_the_seed_counts() {
    let out = std::process::Command::new(env!("CARGO"))
        .args([
            "run",
            "-q",
            "-p",
            "quadworld-quadedge",
            "--example",
            "stitch_square",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "live vertices: 4, dead vertices: 2\nlive vertices: 6\n"
    );
}

#[test]
fn a_failing_batch_of_stitches_changes_nothing() {
    use quadedge::MeshError;
    let mut m = Mesh::new();
    let f1 = m.add_free_triangle().unwrap();
    let f2 = m.add_free_triangle().unwrap();
    let rec = m.record_changes().unwrap();
    let before = m.clone();
    let (e1, e2) = (m.face_edges(f1)[2], m.face_edges(f2)[1]);
    let other = m.face_edges(f2)[0];
    // The first pair stitches, the second names an edge the first one removed.
    assert_eq!(
        m.connect_edge_pairs(&[(e1, e2), (other, e2)]),
        Err(MeshError::DeadEdge(e2))
    );
    assert!(m == before);
    assert!(m.take_changes(&rec).unwrap().is_empty());
    // Two pairs whose second would fold an edge into a loop: refused as a whole.
    let [a0, a1, _] = m.face_edges(f1);
    let [b0, b1, _] = m.face_edges(f2);
    let r = m.connect_edge_pairs(&[(a0, b0), (a1, b1)]);
    assert!(
        matches!(r, Err(MeshError::WouldDuplicateEdge { .. })),
        "{r:?}"
    );
    assert!(m == before);
    // With an undo log on, the same (the batch runs on a copy).
    m.start_undo_log().unwrap();
    assert!(m.connect_edge_pairs(&[(e1, e2), (other, e2)]).is_err());
    assert!(m == before);
    m.connect_edge_pairs(&[(e1, e2)]).unwrap();
    m.check().unwrap();
    assert_eq!(m.vertex_count(), 4);
}
