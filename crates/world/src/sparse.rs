//! Writes of listed elements of a layer, at the cost of the list: the values are checked
//! first (ids in range, values in the layer's range when it validates itself), then written
//! in place, so nothing needs a way back and no copy of the layer is kept for one. A layer a
//! snapshot or a [`History`](crate::History) shares is still copied once (copy-on-write),
//! as any write does.

use crate::{World, WorldError};
use layers::{Kind, LayerError, LayerInfo, LayerValue};

impl World {
    /// Sets the layer `info` at `ids[k]` to `value(k)` for every `k`, as one write (a later
    /// entry for the same id wins). The cost is that of the list, not of the layer: nothing
    /// is copied for a rollback, because every id and value is checked before the first
    /// write. Use it for a few entries of a large layer (the vertices an edit made); to
    /// rewrite most of a layer, [`World::lock_layer`] or [`World::update_layer`].
    ///
    /// ```
    /// use layers::{LayerInfo, VertexKind};
    /// use quadedge::Vertex;
    /// const HEIGHT: LayerInfo<f32, VertexKind> =
    ///     LayerInfo::new("height").range(0.0, 9.0).auto_validate(true);
    /// let mut world = world::World::fibonacci_sphere(100, 1.0, 0.3, 1).unwrap();
    /// world.lock_layer(&HEIGHT).unwrap().commit().unwrap();
    /// let at = [Vertex::new(3), Vertex::new(7)];
    /// world.set_layer_values(&HEIGHT, &at, |k| 1.0 + k as f32).unwrap();
    /// assert_eq!(world.layer(&HEIGHT).unwrap()[Vertex::new(7)], 2.0);
    /// // Out of range: refused, nothing written.
    /// assert!(world.set_layer_values(&HEIGHT, &at, |k| 8.5 + k as f32).is_err());
    /// assert_eq!(world.layer(&HEIGHT).unwrap()[Vertex::new(3)], 1.0);
    /// ```
    ///
    /// # Errors
    ///
    /// Nothing is written on error: [`WorldError::NoSuchLayer`] when the world has no layer
    /// of that name (this write creates none), [`WorldError::LayerMismatch`] or
    /// [`WorldError::LayerSettingsDiffer`] as for [`World::lock_layer`],
    /// [`WorldError::PastTheEnd`] for the first id past the layer's end, and
    /// [`WorldError::Invalid`] ([`LayerError::OutOfRange`]) for the first value outside the
    /// range of a layer that validates itself; for a layer loaded from a file, the decode
    /// errors of [`World::try_layer`].
    pub fn set_layer_values<T: LayerValue, K: Kind>(
        &mut self,
        info: &LayerInfo<T, K>,
        ids: &[K::Id],
        value: impl Fn(usize) -> T,
    ) -> Result<(), WorldError> {
        let i = self
            .slot_index(info.name())
            .ok_or_else(|| WorldError::NoSuchLayer(info.name().to_string()))?;
        self.check_layer(info)?;
        let layer = self.layers[i].get::<T, K>()?;
        let len = layer.len();
        if let Some(&id) = ids.iter().find(|&&id| K::index(id) >= len) {
            return Err(WorldError::PastTheEnd {
                layer: info.name().to_string(),
                element: K::KIND.element(K::index(id)),
                len,
            });
        }
        let values: Vec<T> = (0..ids.len()).map(value).collect();
        if info.is_auto_validated()
            && let Some(k) = values.iter().position(|v| !info.accepts(v))
        {
            return Err(WorldError::Invalid(LayerError::OutOfRange {
                layer: info.name().to_string(),
                element: K::KIND.element(K::index(ids[k])),
                value: format!("{:?}", values[k]),
                min: info.min_value().map(|m| format!("{m:?}")),
                max: info.max_value().map(|m| format!("{m:?}")),
            }));
        }
        if ids.is_empty() {
            return Ok(());
        }
        let stamp = self.tick();
        let slot = &mut self.layers[i];
        let s = slot.get_mut::<T, K>()?.as_mut_slice();
        for (&id, v) in ids.iter().zip(values) {
            s[K::index(id)] = v;
        }
        slot.version = stamp;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::{History, World, WorldError};
    use layers::{LayerInfo, VertexKind};
    use quadedge::Vertex;

    const H: LayerInfo<f32, VertexKind> = LayerInfo::new("h").range(-1.0, 1.0).auto_validate(true);
    const FREE: LayerInfo<u32, VertexKind> = LayerInfo::new("free");

    fn world() -> World {
        let mut w = World::fibonacci_sphere(200, 1.0, 0.3, 2).unwrap();
        w.update_layer(&H, |l| l.fill(0.5)).unwrap();
        w.update_layer(&FREE, |l| l.fill(7)).unwrap();
        w
    }

    #[test]
    fn writes_only_the_listed_entries_and_stamps_the_version() {
        let mut w = world();
        let before = w.layer(&FREE).unwrap().to_vec();
        let version = w.layer_version("free");
        let at: Vec<Vertex> = [5, 190, 17, 5].map(Vertex::new).to_vec();
        w.set_layer_values(&FREE, &at, |k| 100 + k as u32).unwrap();
        let after = w.layer(&FREE).unwrap().as_slice();
        for (i, (&a, &b)) in after.iter().zip(&before).enumerate() {
            let expect = match i {
                5 => 103, // the later entry wins
                190 => 101,
                17 => 102,
                _ => b,
            };
            assert_eq!(a, expect, "{i}");
        }
        assert!(w.layer_version("free") > version);
        // An empty list writes nothing.
        let version = w.layer_version("free");
        w.set_layer_values(&FREE, &[], |_| 0).unwrap();
        assert_eq!(w.layer_version("free"), version);
    }

    #[test]
    fn refusals_leave_the_world_as_it_was() {
        let mut w = world();
        let before = w.clone();
        let n = w.layer(&H).unwrap().len() as u32;
        let past = [Vertex::new(1), Vertex::new(n)];
        assert!(matches!(
            w.set_layer_values(&FREE, &past, |_| 1),
            Err(WorldError::PastTheEnd { len, .. }) if len == n as usize
        ));
        let ok = [Vertex::new(1), Vertex::new(2)];
        assert!(matches!(
            w.set_layer_values(&H, &ok, |k| if k == 1 { 2.0 } else { 0.0 }),
            Err(WorldError::Invalid(_))
        ));
        assert!(matches!(
            w.set_layer_values(&LayerInfo::<f32, VertexKind>::new("none"), &ok, |_| 0.0),
            Err(WorldError::NoSuchLayer(_))
        ));
        assert!(matches!(
            w.set_layer_values(&LayerInfo::<f32, VertexKind>::new("free"), &ok, |_| 0.0),
            Err(WorldError::LayerMismatch { .. })
        ));
        assert!(w == before);
        assert_eq!(w.layer_version("h"), before.layer_version("h"));
    }

    #[test]
    fn a_shared_layer_is_copied_not_written_through() {
        let mut w = world();
        let snapshot = w.clone();
        let mut history = History::new(1 << 20);
        history.commit("start", &mut w);
        w.set_layer_values(&FREE, &[Vertex::new(4)], |_| 9).unwrap();
        assert_eq!(snapshot.layer(&FREE).unwrap()[Vertex::new(4)], 7);
        assert_eq!(w.layer(&FREE).unwrap()[Vertex::new(4)], 9);
        history.commit("set", &mut w);
        assert!(history.undo(&mut w).is_some());
        assert_eq!(w.layer(&FREE).unwrap()[Vertex::new(4)], 7);
        assert!(history.redo(&mut w).is_some());
        assert_eq!(w.layer(&FREE).unwrap()[Vertex::new(4)], 9);
    }
}
