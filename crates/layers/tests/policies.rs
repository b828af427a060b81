//! Every policy against every journal event, with exact expected values, on hand-written
//! journals (the conventions of `quadedge::journal`).

use layers::{
    ApplyOutcome, DirectedDualEdgeKind, DirectedEdgeKind, DualEdgeKind, EdgeKind, FaceKind,
    Interpolation, Kind, Layer, LayerInfo, OnChange, Sizes, VertexKind,
};
use quadedge::{Change, CollapseRecord, Edge, Face, FlipRecord, Remap, SplitRecord, Vertex};

const X: u32 = Remap::DEAD;
const INIT: f32 = -1.0;

fn v(i: u32) -> Vertex {
    Vertex::new(i)
}
fn f(i: u32) -> Face {
    Face::new(i)
}
fn e(i: u32) -> Edge {
    Edge::primal(i)
}
fn sizes(vertices: usize, faces: usize, quads: usize) -> Sizes {
    Sizes {
        vertices,
        faces,
        quads,
    }
}

fn layer<K: Kind>(values: &[f32], on: OnChange, interp: Interpolation) -> Layer<f32, K> {
    let info = LayerInfo::new("test")
        .initial(INIT)
        .on_change(on)
        .interpolation(interp);
    Layer::from_values(info, values.to_vec())
}

/// Applies `changes`; `None` when the layer asked to be removed.
fn run<K: Kind>(
    values: &[f32],
    on: OnChange,
    interp: Interpolation,
    changes: &[Change],
    s: Sizes,
) -> Option<Vec<f32>> {
    let mut l = layer::<K>(values, on, interp);
    match l.apply_changes(changes, s) {
        ApplyOutcome::Remove => None,
        _ => {
            assert_eq!(l.len(), K::KIND.slots(s));
            Some(l.to_vec())
        }
    }
}

const VERTS: [f32; 4] = [1.0, 2.0, 4.0, 8.0];

/// Split of edge v1 → v2 (quad 1, edge e2) at t = 0.25, new vertex v4, new half e7 (quad 3,
/// odd direction so orientation matters), cross edges e8 (quad 4) and none, new face f2 cut
/// from f0 and no right side (boundary).
fn split() -> Change {
    Change::Split(SplitRecord {
        origin: v(1),
        dest: v(2),
        t: 0.25,
        vertex: v(4),
        edge: e(2),
        new_edge: e(7),
        cross_edges: [e(8), Edge::INVALID],
        faces: [(f(2), f(0)), (Face::INVALID, Face::INVALID)],
    })
}
const SPLIT_SIZES: Sizes = Sizes {
    vertices: 5,
    faces: 3,
    quads: 5,
};

#[test]
fn split_vertex_for_every_interpolation() {
    // origin 2.0 (weight 0.75), dest 4.0 (weight 0.25).
    let expect = |p| match p {
        Interpolation::DontCare | Interpolation::Reset => Some(vec![1., 2., 4., 8., INIT]),
        Interpolation::ResetLayer => Some(vec![INIT; 5]),
        Interpolation::DropLayer => None,
        Interpolation::KeepSrc | Interpolation::MinValue | Interpolation::MaxWeight => {
            Some(vec![1., 2., 4., 8., 2.])
        }
        Interpolation::KeepDest | Interpolation::MaxValue | Interpolation::MinWeight => {
            Some(vec![1., 2., 4., 8., 4.])
        }
        Interpolation::Lerp | Interpolation::Nlerp | Interpolation::Slerp => {
            Some(vec![1., 2., 4., 8., 2.5])
        }
    };
    for p in Interpolation::ALL {
        for on in OnChange::ALL {
            let got = run::<VertexKind>(&VERTS, on, p, &[split()], SPLIT_SIZES);
            assert_eq!(got, expect(p), "{p:?} {on:?}");
        }
    }
}

#[test]
fn split_edges_for_every_interpolation() {
    let und = [10., 20., 30.];
    let dir = [10., 11., 20., 21., 30., 31.];
    for p in Interpolation::ALL {
        let (u, d) = match p {
            Interpolation::DropLayer => (None, None),
            Interpolation::ResetLayer => (Some(vec![INIT; 5]), Some(vec![INIT; 10])),
            Interpolation::DontCare => (
                Some(vec![10., 20., 30., INIT, INIT]),
                Some(vec![10., 11., 20., 21., 30., 31., INIT, INIT, INIT, INIT]),
            ),
            Interpolation::Reset => (
                Some(vec![10., INIT, 30., INIT, INIT]),
                Some(vec![10., 11., INIT, INIT, 30., 31., INIT, INIT, INIT, INIT]),
            ),
            // e7 descends from e2 and e6 = e7.sym() from e3 = e2.sym().
            _ => (
                Some(vec![10., 20., 30., 20., INIT]),
                Some(vec![10., 11., 20., 21., 30., 31., 21., 20., INIT, INIT]),
            ),
        };
        let on = OnChange::Keep;
        assert_eq!(
            run::<EdgeKind>(&und, on, p, &[split()], SPLIT_SIZES),
            u,
            "{p:?}"
        );
        assert_eq!(
            run::<DualEdgeKind>(&und, on, p, &[split()], SPLIT_SIZES),
            u,
            "{p:?}"
        );
        assert_eq!(
            run::<DirectedEdgeKind>(&dir, on, p, &[split()], SPLIT_SIZES),
            d,
            "{p:?}"
        );
        assert_eq!(
            run::<DirectedDualEdgeKind>(&dir, on, p, &[split()], SPLIT_SIZES),
            d,
            "{p:?}"
        );
    }
}

#[test]
fn split_faces_for_every_interpolation() {
    let faces = [100., 200.];
    for p in Interpolation::ALL {
        let want = match p {
            Interpolation::DropLayer => None,
            Interpolation::ResetLayer => Some(vec![INIT; 3]),
            Interpolation::DontCare => Some(vec![100., 200., INIT]),
            Interpolation::Reset => Some(vec![INIT, 200., INIT]),
            _ => Some(vec![100., 200., 100.]),
        };
        let got = run::<FaceKind>(&faces, OnChange::Keep, p, &[split()], SPLIT_SIZES);
        assert_eq!(got, want, "{p:?}");
    }
}

fn collapse() -> Change {
    Change::Collapse(CollapseRecord {
        origin: v(1),
        dest: v(2),
        t: 0.25,
        survivor: v(1),
        removed: v(2),
        removed_edges: [e(2), e(4), Edge::INVALID],
        removed_faces: [f(1), Face::INVALID],
    })
}

#[test]
fn collapse_vertex_for_every_policy_pair() {
    for p in Interpolation::ALL {
        for on in OnChange::ALL {
            let survivor = match p {
                Interpolation::DontCare => Some(2.),
                Interpolation::Reset | Interpolation::ResetLayer => Some(INIT),
                Interpolation::DropLayer => None,
                Interpolation::KeepSrc | Interpolation::MinValue | Interpolation::MaxWeight => {
                    Some(2.)
                }
                Interpolation::KeepDest | Interpolation::MaxValue | Interpolation::MinWeight => {
                    Some(4.)
                }
                Interpolation::Lerp | Interpolation::Nlerp | Interpolation::Slerp => Some(2.5),
            };
            let want = survivor.and_then(|s| {
                let base = if p == Interpolation::ResetLayer {
                    [INIT; 4]
                } else {
                    VERTS
                };
                match on {
                    OnChange::Keep => Some(vec![base[0], s, base[2], base[3]]),
                    OnChange::ResetAffected => Some(vec![base[0], s, INIT, base[3]]),
                    OnChange::ResetAll => Some(vec![INIT; 4]),
                    OnChange::RemoveLayer => None,
                }
            });
            let got = run::<VertexKind>(&VERTS, on, p, &[collapse()], sizes(4, 2, 3));
            assert_eq!(got, want, "{p:?} {on:?}");
        }
    }
}

#[test]
fn collapse_edges_and_faces_follow_on_change() {
    let und = [10., 20., 30.];
    let dir = [10., 11., 20., 21., 30., 31.];
    let faces = [100., 200.];
    let s = sizes(4, 2, 3);
    for p in Interpolation::ALL {
        for on in OnChange::ALL {
            let (u, d, fa) = match on {
                OnChange::Keep => (Some(und.to_vec()), Some(dir.to_vec()), Some(faces.to_vec())),
                OnChange::ResetAffected => (
                    Some(vec![10., INIT, INIT]),
                    Some(vec![10., 11., INIT, INIT, INIT, INIT]),
                    Some(vec![100., INIT]),
                ),
                OnChange::ResetAll => (
                    Some(vec![INIT; 3]),
                    Some(vec![INIT; 6]),
                    Some(vec![INIT; 2]),
                ),
                OnChange::RemoveLayer => (None, None, None),
            };
            let c = [collapse()];
            assert_eq!(run::<EdgeKind>(&und, on, p, &c, s), u, "{p:?} {on:?}");
            assert_eq!(run::<DualEdgeKind>(&und, on, p, &c, s), u);
            assert_eq!(run::<DirectedEdgeKind>(&dir, on, p, &c, s), d);
            assert_eq!(run::<DirectedDualEdgeKind>(&dir, on, p, &c, s), d);
            assert_eq!(run::<FaceKind>(&faces, on, p, &c, s), fa);
        }
    }
}

#[test]
fn flip_changes_the_edge_and_both_faces() {
    let flip = [Change::Flip(FlipRecord {
        edge: e(3),
        old: [v(2), v(1)],
        new: [v(0), v(3)],
        faces: [f(0), f(2)],
    })];
    let s = sizes(4, 3, 3);
    let und = [10., 20., 30.];
    let dir = [10., 11., 20., 21., 30., 31.];
    let faces = [100., 200., 300.];
    for p in Interpolation::ALL {
        for on in OnChange::ALL {
            let (u, d, fa) = match on {
                OnChange::Keep => (Some(und.to_vec()), Some(dir.to_vec()), Some(faces.to_vec())),
                OnChange::ResetAffected => (
                    Some(vec![10., INIT, 30.]),
                    Some(vec![10., 11., INIT, INIT, 30., 31.]),
                    Some(vec![INIT, 200., INIT]),
                ),
                OnChange::ResetAll => (
                    Some(vec![INIT; 3]),
                    Some(vec![INIT; 6]),
                    Some(vec![INIT; 3]),
                ),
                OnChange::RemoveLayer => (None, None, None),
            };
            assert_eq!(run::<EdgeKind>(&und, on, p, &flip, s), u, "{p:?} {on:?}");
            assert_eq!(run::<DualEdgeKind>(&und, on, p, &flip, s), u);
            assert_eq!(run::<DirectedEdgeKind>(&dir, on, p, &flip, s), d);
            assert_eq!(run::<DirectedDualEdgeKind>(&dir, on, p, &flip, s), d);
            assert_eq!(run::<FaceKind>(&faces, on, p, &flip, s), fa);
            // Vertices are not touched by a flip.
            assert_eq!(
                run::<VertexKind>(&VERTS, on, p, &flip, s),
                Some(VERTS.to_vec())
            );
        }
    }
}

#[test]
fn removals_follow_on_change() {
    let s = sizes(4, 3, 3);
    for on in OnChange::ALL {
        let expect = |vals: &[f32], hit: &[usize]| match on {
            OnChange::Keep => Some(vals.to_vec()),
            OnChange::ResetAffected => Some(
                vals.iter()
                    .enumerate()
                    .map(|(i, &x)| if hit.contains(&i) { INIT } else { x })
                    .collect(),
            ),
            OnChange::ResetAll => Some(vec![INIT; vals.len()]),
            OnChange::RemoveLayer => None,
        };
        let p = Interpolation::Lerp;
        let vr = [Change::VertexRemoved(v(2))];
        assert_eq!(
            run::<VertexKind>(&VERTS, on, p, &vr, s),
            expect(&VERTS, &[2])
        );
        let fr = [Change::FaceRemoved(f(1))];
        let faces = [100., 200., 300.];
        assert_eq!(run::<FaceKind>(&faces, on, p, &fr, s), expect(&faces, &[1]));
        let er = [Change::EdgeRemoved(e(4))];
        let und = [10., 20., 30.];
        let dir = [10., 11., 20., 21., 30., 31.];
        assert_eq!(run::<EdgeKind>(&und, on, p, &er, s), expect(&und, &[2]));
        assert_eq!(run::<DualEdgeKind>(&und, on, p, &er, s), expect(&und, &[2]));
        assert_eq!(
            run::<DirectedEdgeKind>(&dir, on, p, &er, s),
            expect(&dir, &[4, 5])
        );
        assert_eq!(
            run::<DirectedDualEdgeKind>(&dir, on, p, &er, s),
            expect(&dir, &[4, 5])
        );
        // Other kinds ignore the event.
        assert_eq!(run::<FaceKind>(&faces, on, p, &vr, s), Some(faces.to_vec()));
        assert_eq!(
            run::<VertexKind>(&VERTS, on, p, &er, s),
            Some(VERTS.to_vec())
        );
    }
}

#[test]
fn added_and_reused_ids_start_from_the_initial_value() {
    for p in Interpolation::ALL {
        for on in OnChange::ALL {
            // Reuse v1 and v2, append v4 and v5.
            let c = [
                Change::VerticesAdded {
                    first: v(1),
                    count: 2,
                },
                Change::VerticesAdded {
                    first: v(4),
                    count: 2,
                },
            ];
            assert_eq!(
                run::<VertexKind>(&VERTS, on, p, &c, sizes(6, 0, 0)),
                Some(vec![1., INIT, INIT, 8., INIT, INIT])
            );
            let c = [Change::FaceAdded(f(0)), Change::FaceAdded(f(3))];
            assert_eq!(
                run::<FaceKind>(&[100., 200.], on, p, &c, sizes(0, 4, 0)),
                Some(vec![INIT, 200., INIT, INIT])
            );
            let c = [Change::EdgeAdded(e(2)), Change::EdgeAdded(e(6))];
            assert_eq!(
                run::<EdgeKind>(&[10., 20., 30.], on, p, &c, sizes(0, 0, 4)),
                Some(vec![10., INIT, 30., INIT])
            );
            assert_eq!(
                run::<DirectedDualEdgeKind>(
                    &[10., 11., 20., 21., 30., 31.],
                    on,
                    p,
                    &c,
                    sizes(0, 0, 4)
                ),
                Some(vec![10., 11., INIT, INIT, 30., 31., INIT, INIT])
            );
        }
    }
}

#[test]
fn compaction_permutes_every_kind() {
    let remap = Remap {
        vertices: vec![0, X, 1, 2],
        faces: vec![X, 0, 1],
        quads: vec![0, X, 1],
    };
    let c = [Change::Compact(remap)];
    let s = sizes(3, 2, 2);
    for p in Interpolation::ALL {
        for on in OnChange::ALL {
            assert_eq!(
                run::<VertexKind>(&VERTS, on, p, &c, s),
                Some(vec![1., 4., 8.])
            );
            assert_eq!(
                run::<FaceKind>(&[100., 200., 300.], on, p, &c, s),
                Some(vec![200., 300.])
            );
            assert_eq!(
                run::<EdgeKind>(&[10., 20., 30.], on, p, &c, s),
                Some(vec![10., 30.])
            );
            assert_eq!(
                run::<DualEdgeKind>(&[10., 20., 30.], on, p, &c, s),
                Some(vec![10., 30.])
            );
            assert_eq!(
                run::<DirectedEdgeKind>(&[10., 11., 20., 21., 30., 31.], on, p, &c, s),
                Some(vec![10., 11., 30., 31.])
            );
            assert_eq!(
                run::<DirectedDualEdgeKind>(&[10., 11., 20., 21., 30., 31.], on, p, &c, s),
                Some(vec![10., 11., 30., 31.])
            );
        }
    }
}

#[test]
fn events_compose_in_order() {
    // Split, then compact away v0, then split the new vertex's edge again.
    let mut l = layer::<VertexKind>(&VERTS, OnChange::Keep, Interpolation::Lerp);
    let second = Change::Split(SplitRecord {
        origin: v(3),
        dest: v(2),
        t: 0.5,
        vertex: v(4),
        edge: e(0),
        new_edge: e(10),
        cross_edges: [Edge::INVALID; 2],
        faces: [(Face::INVALID, Face::INVALID); 2],
    });
    let c = [
        split(), // v4 = 2.5
        Change::Compact(Remap {
            vertices: vec![X, 0, 1, 2, 3],
            faces: vec![],
            quads: vec![],
        }), // [2, 4, 8, 2.5]
        second,  // v4 = lerp(2.5, 8, 0.5)
    ];
    assert_eq!(l.apply_changes(&c, sizes(5, 0, 6)), ApplyOutcome::Changed);
    assert_eq!(l.to_vec(), [2., 4., 8., 2.5, 5.25]);
    let before = l.write_count();
    assert_eq!(
        l.apply_changes(&[], sizes(5, 0, 6)),
        ApplyOutcome::Unchanged
    );
    assert_eq!(l.write_count(), before);
}

#[test]
fn malformed_journals_do_not_panic() {
    let mut l = layer::<VertexKind>(&VERTS, OnChange::ResetAffected, Interpolation::Lerp);
    let c = [
        Change::VertexRemoved(Vertex::INVALID),
        Change::VertexRemoved(v(100)),
        Change::Split(SplitRecord {
            origin: v(50),
            dest: Vertex::INVALID,
            t: 0.5,
            vertex: v(6),
            edge: Edge::INVALID,
            new_edge: Edge::INVALID,
            cross_edges: [Edge::INVALID; 2],
            faces: [(Face::INVALID, Face::INVALID); 2],
        }),
        Change::Compact(Remap::default()),
    ];
    let _ = l.apply_changes(&c, sizes(2, 0, 0));
    assert_eq!(l.len(), 2);
}
