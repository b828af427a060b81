//! `lock_mesh_and_positions` lends the positions layer's own storage (copied once, as any
//! written layer guard's, since the guard holds the values as locked for its rollback; never
//! copied back), and the caller's values win over the journal replay.

use glam::DVec3;
use layers::{Interpolation, LayerInfo, VertexKind};
use quadedge::{Mesh, Vertex, shapes};
use world::{History, World};

const POS: LayerInfo<DVec3, VertexKind> =
    LayerInfo::new("position").interpolation(Interpolation::Slerp);

fn world() -> World {
    let (n, t) = shapes::icosahedron_grid(4);
    let mut w = World::new(Mesh::from_triangles(n, &t).unwrap(), 1);
    w.update_layer(&POS, |l| {
        for (i, p) in l.as_mut_slice().iter_mut().enumerate() {
            *p = DVec3::new(i as f64, 1.0, 0.0);
        }
    })
    .unwrap();
    w
}

#[test]
fn the_positions_are_lent_not_copied() {
    let mut w = world();
    let before = {
        let mut g = w.lock_mesh_and_positions(&POS).unwrap();
        let (_, pos) = g.parts();
        let lent = pos.as_ptr();
        assert_eq!(g.parts().1.as_ptr(), lent, "copied once at most");
        g.parts().1[3].x = -1.0;
        g.commit();
        lent
    };
    let p = w.layer(&POS).unwrap();
    assert_eq!(
        p.as_slice().as_ptr(),
        before,
        "the layer's own storage, not copied back"
    );
    assert_eq!(p[Vertex::new(3)].x, -1.0);
    // Shared by a history: copied once, the committed state keeps its values.
    let mut h = History::new(usize::MAX);
    h.commit("a", &mut w);
    let version = w.layer_version("position");
    {
        let mut g = w.lock_mesh_and_positions(&POS).unwrap();
        g.parts().1[3].x = -2.0;
        g.commit();
    }
    assert_ne!(w.layer(&POS).unwrap().as_slice().as_ptr(), before);
    assert!(w.layer_version("position") > version);
    h.commit("b", &mut w);
    h.undo(&mut w).unwrap();
    assert_eq!(w.layer(&POS).unwrap()[Vertex::new(3)].x, -1.0);
}

/// A vertex added in a freed slot, a split's new vertex past the end and a collapse's
/// survivor: the caller's values win over the interpolation the replay writes.
#[test]
fn the_callers_values_win_over_the_replay() {
    let mut w = world();
    let n0 = w.mesh().vertex_slots();
    let mut g = w.lock_mesh_and_positions(&POS).unwrap();
    let (mesh, pos) = g.parts();
    let e = mesh.vertex_edge(Vertex::new(5));
    let c = mesh.collapse(e, 0.5).unwrap();
    pos[c.survivor.index()] = DVec3::new(7.0, 7.0, 7.0);
    let e = mesh.vertex_edge(Vertex::new(20));
    let s = mesh.split(e, 0.5).unwrap();
    assert!(s.vertex.index() < n0, "reuses the freed slot");
    pos[s.vertex.index()] = DVec3::new(8.0, 8.0, 8.0);
    let e = mesh.vertex_edge(Vertex::new(30));
    let s2 = mesh.split(e, 0.5).unwrap();
    assert_eq!(s2.vertex.index(), n0);
    pos.push(DVec3::new(9.0, 9.0, 9.0));
    g.commit();
    let p = w.layer(&POS).unwrap();
    assert_eq!(p.len(), n0 + 1);
    assert_eq!(p[c.survivor], DVec3::new(7.0, 7.0, 7.0));
    assert_eq!(p[s.vertex], DVec3::new(8.0, 8.0, 8.0));
    assert_eq!(p[s2.vertex], DVec3::new(9.0, 9.0, 9.0));
    assert_eq!(p[Vertex::new(2)], DVec3::new(2.0, 1.0, 0.0));
    w.mesh().check().unwrap();
}

/// A compaction inside the guard: the `Vec` is read by the final indices.
#[test]
fn a_compaction_inside_the_guard_reads_final_indices() {
    let mut w = world();
    let mut g = w.lock_mesh_and_positions(&POS).unwrap();
    let (mesh, pos) = g.parts();
    let e = mesh.vertex_edge(Vertex::new(1));
    mesh.collapse(e, 0.5).unwrap();
    mesh.compact();
    let n = mesh.vertex_slots();
    pos.truncate(n);
    for (i, p) in pos.iter_mut().enumerate() {
        *p = DVec3::splat(i as f64);
    }
    g.commit();
    let p = w.layer(&POS).unwrap();
    assert_eq!(p.len(), n);
    assert!(
        p.iter()
            .enumerate()
            .all(|(i, x)| *x == DVec3::splat(i as f64))
    );
}
