//! The undo log: random edit sequences undone step by step back to the start and redone,
//! compared with saved clones at every step; logs refused on any other state.

use quadedge::{Mesh, MeshError, UndoLog, Vertex, shapes};
use testkit::edits::{START_MESHES, apply, pick_op, start_mesh};
use testkit::{Rng, live_primal_edge};

fn octahedron() -> Mesh {
    let (n, t) = shapes::octahedron();
    Mesh::from_triangles(n, &t).unwrap()
}

/// Runs `steps` random edits with the undo log on; returns the states (`states[i]` before
/// step `i`, plus the final one) and the log of each step.
fn record(start: usize, seed: u64, steps: usize) -> (Mesh, Vec<Mesh>, Vec<UndoLog>) {
    let mut m = start_mesh(start);
    let mut rng = Rng::new(seed);
    m.start_undo_log().unwrap();
    let mut states = vec![m.clone()];
    let mut logs = Vec::new();
    for _ in 0..steps {
        let op = pick_op(&m, &mut rng);
        let accepted = apply(&mut m, op).is_ok();
        m.check().unwrap();
        let log = m.take_undo_log().unwrap();
        if !accepted {
            assert!(log.is_empty(), "{op:?} was rejected but logged {log:?}");
        } else if m != *states.last().unwrap() {
            assert!(
                !log.is_empty(),
                "{op:?} changed the mesh but logged nothing"
            );
        }
        states.push(m.clone());
        logs.push(log);
    }
    (m, states, logs)
}

/// Records `steps` random edits per start mesh and seed, undoes them one by one back to the
/// start and redoes them, comparing with the saved clones and running `check()` at every
/// step; returns the number of steps that changed something.
fn undo_and_redo_everything(seeds: u64, steps: usize) -> usize {
    let mut undone = 0;
    for start in 0..START_MESHES {
        for seed in 1..=seeds {
            let (mut m, states, logs) = record(start, seed * 7919 + start as u64, steps);
            for i in (0..logs.len()).rev() {
                m.undo(&logs[i]).unwrap();
                assert_eq!(
                    m, states[i],
                    "undo of step {i} (start {start}, seed {seed})"
                );
                m.check().unwrap();
                undone += !logs[i].is_empty() as usize;
            }
            for i in 0..logs.len() {
                m.redo(&logs[i]).unwrap();
                assert_eq!(m, states[i + 1], "redo of step {i}");
                m.check().unwrap();
            }
        }
    }
    undone
}

#[test]
fn random_sequences_undo_to_every_saved_state_and_redo() {
    let undone = undo_and_redo_everything(3, 60);
    assert!(undone > 500, "only {undone} non-empty steps undone");
}

/// The long run, for `cargo xtask stress`.
#[test]
#[ignore]
fn stress_undo_sequences() {
    let undone = undo_and_redo_everything(40, 400);
    assert!(undone > 50_000, "only {undone} non-empty steps undone");
}

#[test]
fn a_log_is_refused_by_any_other_state_and_leaves_it_unchanged() {
    let (mut m, states, logs) = record(2, 42, 30);
    // The last and first steps that changed something (empty logs keep the state).
    let last = (0..logs.len())
        .rev()
        .find(|&i| !logs[i].is_empty())
        .unwrap();
    let i = (0..logs.len()).find(|&i| !logs[i].is_empty()).unwrap();
    assert!(i < last);
    // Not the end state of an earlier log.
    assert_eq!(m.undo(&logs[i]), Err(MeshError::UndoStateMismatch));
    // Redo of a log at its end state.
    assert_eq!(m.redo(&logs[last]), Err(MeshError::UndoStateMismatch));
    // An equal mesh built separately is not the same state.
    let mut twin = start_mesh(2);
    assert_eq!(twin, states[0]);
    assert_eq!(twin.redo(&logs[0]), Err(MeshError::UndoStateMismatch));
    assert_eq!(twin, states[0]);
    let mut empty = Mesh::new();
    assert_eq!(empty.undo(&logs[last]), Err(MeshError::UndoStateMismatch));
    let mut other = states[last + 1].clone();
    // A clone is the same state.
    other.undo(&logs[last]).unwrap();
    assert_eq!(other, states[last]);
    // Undoing twice is refused.
    assert_eq!(other.undo(&logs[last]), Err(MeshError::UndoStateMismatch));
    assert_eq!(other, states[last]);
    assert_eq!(m, *states.last().unwrap());
    // Another mesh entirely.
    let mut o = octahedron();
    let before = o.clone();
    for log in &logs {
        assert_eq!(o.undo(log), Err(MeshError::UndoStateMismatch));
        assert_eq!(o.redo(log), Err(MeshError::UndoStateMismatch));
    }
    assert_eq!(o, before);
    m.stop_undo_log().unwrap();
}

#[test]
fn an_edit_after_the_log_was_taken_invalidates_it() {
    let mut m = octahedron();
    m.start_undo_log().unwrap();
    let e = m.directed_edges().next().unwrap();
    m.flip(e).unwrap();
    let log = m.stop_undo_log().unwrap();
    // An edit with the log off.
    let e = m.directed_edges().nth(3).unwrap();
    m.split(e, 0.5).unwrap();
    let edited = m.clone();
    assert_eq!(m.undo(&log), Err(MeshError::UndoStateMismatch));
    assert_eq!(m, edited);
    // An edit with the log on, not yet taken.
    let mut m = octahedron();
    m.start_undo_log().unwrap();
    m.flip(m.directed_edges().next().unwrap()).unwrap();
    let log = m.take_undo_log().unwrap();
    m.add_vertex();
    assert_eq!(m.undo(&log), Err(MeshError::UndoStateMismatch));
    // A clone taken mid-recording accepts neither direction.
    let mut mid = m.clone();
    assert_eq!(mid.redo(&log), Err(MeshError::UndoStateMismatch));
}

#[test]
fn undo_while_recording_is_itself_undoable() {
    let mut m = octahedron();
    let start = m.clone();
    m.start_undo_log().unwrap();
    let r = m
        .split_face(quadedge::Face::new(2), [0.2, 0.3, 0.5])
        .unwrap();
    m.collapse(m.vertex_edge(r.vertex), 0.5).unwrap();
    let after = m.clone();
    let log = m.take_undo_log().unwrap();
    m.undo(&log).unwrap();
    assert_eq!(m, start);
    // The undo was recorded: undoing it redoes the edits.
    let undo_log = m.take_undo_log().unwrap();
    assert_eq!(undo_log.len(), log.len());
    m.undo(&undo_log).unwrap();
    assert_eq!(m, after);
    m.check().unwrap();
}

#[test]
fn compaction_is_recorded_whole_and_undone_exactly() {
    let mut m = octahedron();
    m.start_undo_log().unwrap();
    let e = m.find_edge(Vertex::new(0), Vertex::new(2)).unwrap();
    m.collapse(e, 0.5).unwrap();
    let holed = m.clone();
    let _ = m.take_undo_log().unwrap();
    m.compact();
    let compacted = m.clone();
    let log = m.take_undo_log().unwrap();
    assert_eq!(log.len(), 1);
    assert!(log.heap_bytes() >= holed.heap_bytes());
    m.undo(&log).unwrap();
    assert_eq!(m, holed);
    m.redo(&log).unwrap();
    assert_eq!(m, compacted);
}

#[test]
fn log_size_follows_the_edit_not_the_mesh() {
    // The same flip on a small and on a larger mesh records the same writes.
    let mut sizes = Vec::new();
    for k in [2, 40] {
        let (n, t) = shapes::icosahedron_grid(k);
        let mut m = Mesh::from_triangles(n, &t).unwrap();
        m.start_undo_log().unwrap();
        m.flip(m.directed_edges().next().unwrap()).unwrap();
        let flip = m.take_undo_log().unwrap();
        let e = m.directed_edges().nth(5).unwrap();
        m.split(e, 0.5).unwrap();
        let split = m.take_undo_log().unwrap();
        let e = m.directed_edges().nth(9).unwrap();
        m.collapse(e, 0.5).unwrap();
        let collapse = m.take_undo_log().unwrap();
        for log in [&flip, &split, &collapse] {
            assert!(log.heap_bytes() <= 2048, "{log:?}");
        }
        sizes.push(flip.len());
    }
    assert_eq!(sizes[0], sizes[1]);
}

#[test]
fn log_switches_are_typed_errors() {
    let mut m = octahedron();
    assert_eq!(m.take_undo_log().unwrap_err(), MeshError::UndoLogOff);
    assert_eq!(m.stop_undo_log().unwrap_err(), MeshError::UndoLogOff);
    assert!(!m.is_undo_logging());
    m.start_undo_log().unwrap();
    assert_eq!(m.start_undo_log(), Err(MeshError::UndoLogOn));
    assert!(m.is_undo_logging());
    let log = m.stop_undo_log().unwrap();
    assert!(log.is_empty());
    // An empty log fits its own state both ways.
    m.undo(&log).unwrap();
    m.redo(&log).unwrap();
}

#[test]
fn a_clone_shares_the_state_and_keeps_recording() {
    // As a copy-on-write history does: the shared mesh is cloned, then the clone is edited.
    let mut m = octahedron();
    let start = m.clone();
    m.start_undo_log().unwrap();
    m.flip(m.directed_edges().next().unwrap()).unwrap();
    let mut c = m.clone();
    c.split(c.directed_edges().nth(4).unwrap(), 0.25).unwrap();
    let both = c.clone();
    let log = c.take_undo_log().unwrap();
    // The clone's log holds the flip made before the clone and the split after it.
    c.undo(&log).unwrap();
    assert_eq!(c, start);
    c.redo(&log).unwrap();
    assert_eq!(c, both);
    // The original went on alone: its log holds the flip only, and fits it only.
    let own = m.take_undo_log().unwrap();
    assert!(own.len() < log.len());
    assert_eq!(c.undo(&own), Err(MeshError::UndoStateMismatch));
    m.undo(&own).unwrap();
    assert_eq!(m, start);
}

/// `atomically` with the caller's log on: a failing batch of random edits (compactions
/// included) is taken back by playing the log's tail, so the mesh is bit-identical and the
/// log still undoes every kept batch exactly back to the start.
#[test]
fn a_failed_atomic_batch_under_the_callers_log_leaves_no_trace() {
    let mut rolled_back = 0;
    for start in 0..START_MESHES {
        let mut m = start_mesh(start);
        let first = m.clone();
        let mut rng = Rng::new(31 + start as u64);
        m.start_undo_log().unwrap();
        for batch in 0..30 {
            let before = m.clone();
            let fail = batch % 2 == 0;
            let r: Result<(), MeshError> = m.atomically(|m| {
                for _ in 0..5 {
                    let op = pick_op(m, &mut rng);
                    let _ = apply(m, op);
                }
                if batch % 6 == 0 {
                    m.compact();
                }
                if fail {
                    Err(MeshError::UndoLogOff)
                } else {
                    Ok(())
                }
            });
            assert_eq!(r.is_err(), fail);
            m.check().unwrap();
            if fail {
                assert_eq!(m, before, "start {start}, batch {batch}");
                rolled_back += 1;
            }
        }
        let log = m.take_undo_log().unwrap();
        m.undo(&log).unwrap();
        assert_eq!(m, first, "start {start}");
    }
    assert!(rolled_back > 0);
}

/// A flip is logged as one record: many flips in one log (some undone by later ones, ends
/// handing their edge on, faces renamed) undo to the exact start and redo to the exact end,
/// and a failed atomic batch of flips leaves nothing.
#[test]
fn many_flips_in_one_log_undo_and_redo_exactly() {
    let (n, t) = shapes::icosahedron_grid(6);
    let mut m = Mesh::from_triangles(n, &t).unwrap();
    let start = m.clone();
    let mut rng = Rng::new(17);
    m.start_undo_log().unwrap();
    let mut flips = 0;
    for _ in 0..3000 {
        if let Some(e) = live_primal_edge(&m, &mut rng)
            && m.flip(e).is_ok()
        {
            flips += 1;
        }
    }
    m.check().unwrap();
    let end = m.clone();
    let log = m.take_undo_log().unwrap();
    assert!(flips > 2000 && log.len() == flips, "{flips} flips, {log:?}");
    assert!(log.heap_bytes() <= 16 * flips, "{log:?}");
    m.undo(&log).unwrap();
    assert_eq!(m, start);
    m.redo(&log).unwrap();
    assert_eq!(m, end);
    // A failed batch of flips under a private log.
    let r: Result<(), MeshError> = m.atomically(|m| {
        for _ in 0..500 {
            if let Some(e) = live_primal_edge(m, &mut rng) {
                let _ = m.flip(e);
            }
        }
        Err(MeshError::UndoLogOff)
    });
    assert!(r.is_err());
    assert_eq!(m, end);
    m.undo(&log).unwrap();
    assert_eq!(m, start);
}
