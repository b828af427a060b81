//! All or nothing: an edit made of many edits that either all stay or all go.

use crate::Mesh;

impl Mesh {
    /// Runs `edit` and keeps what it changed only when it returns `Ok`. On `Err` the topology
    /// is put back bit-identical (free lists included) and the change journal loses the records
    /// the edit added, so an algorithm made of many edits (flips that may get stuck, for
    /// instance) can fail half-way and still leave nothing changed.
    ///
    /// With no undo log on, the edit runs under a private one ([`Mesh::start_undo_log`]) that
    /// is played back on failure; with the caller's undo log on, the writes it recorded since
    /// the call are played back and dropped from it. Either way the cost is proportional to
    /// what the edit wrote, never a copy of the mesh.
    ///
    /// Contract: `edit` must not start or stop undo logs. If it stops the private log, the
    /// failure cannot be undone and is returned as it is (debug builds assert).
    ///
    /// # Errors
    /// The error `edit` returned, with the mesh as it was before the call.
    ///
    /// ```
    /// use quadedge::{Mesh, MeshError, shapes};
    /// let (n, t) = shapes::octahedron();
    /// let mut m = Mesh::from_triangles(n, &t).unwrap();
    /// let before = m.clone();
    /// let [e, f] = [0, 5].map(|q| quadedge::Edge::of_quad(q));
    /// // Two flips, then a failure: the flips are rolled back.
    /// let r: Result<(), MeshError> = m.atomically(|m| {
    ///     m.flip(e)?;
    ///     m.flip(f)?;
    ///     Err(MeshError::DeadEdge(e))
    /// });
    /// assert!(r.is_err());
    /// assert_eq!(m, before);
    /// ```
    pub fn atomically<T, E>(
        &mut self,
        edit: impl FnOnce(&mut Mesh) -> Result<T, E>,
    ) -> Result<T, E> {
        let journal_len = self.journal.as_ref().map(|j| (j.changes.len(), j.skipped));
        if let Some(mark) = self.undo_mark() {
            // The caller's log keeps recording; its tail since the mark is the way back.
            let result = edit(self);
            if result.is_err() {
                self.rollback_to_mark(mark);
                self.truncate_journal(journal_len);
            }
            return result;
        }
        // A fresh log records nothing before the first write: starting one cannot fail here.
        let started = self.start_undo_log().is_ok();
        let result = edit(self);
        let log = self.stop_undo_log_untrimmed();
        debug_assert!(
            started && log.is_ok(),
            "atomically: the edit stopped the undo log"
        );
        if let Ok(log) = log {
            if result.is_err() && self.undo(&log).is_ok() {
                self.truncate_journal(journal_len);
            }
            // The private log's buffer serves the next edit.
            self.recycle_undo_log(log);
        }
        result
    }

    /// Drops the journal records past `len`, and the skipped flips and moves past `skipped`
    /// (`None`: no journal was on).
    fn truncate_journal(&mut self, len: Option<(usize, u64)>) {
        if let (Some(j), Some((len, skipped))) = (self.journal.as_mut(), len) {
            j.changes.truncate(len);
            j.skipped = skipped;
        }
    }
}
