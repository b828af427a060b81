//! Equality and `Debug` of worlds.

use crate::World;

impl PartialEq for World {
    /// Same mesh, generator state, dictionaries and layer contents, floats compared bit for
    /// bit (a `NaN` equals itself), whatever the layers' encoding state: a layer still
    /// encoded with pending journals is decoded for the comparison. Only a layer whose type
    /// this process has never held (so it cannot be decoded) is compared by its stored bytes
    /// and journals.
    /// Versions are not compared.
    fn eq(&self, other: &Self) -> bool {
        *self.mesh == *other.mesh
            && *self.rng == *other.rng
            && self.dicts.len() == other.dicts.len()
            && self
                .dicts
                .iter()
                .zip(&other.dicts)
                .all(|(a, b)| a.0 == b.0 && a.1.0 == b.1.0)
            && self.layers.len() == other.layers.len()
            && self
                .layers
                .iter()
                .zip(&other.layers)
                .all(|(a, b)| a.same_contents(b))
    }
}

impl core::fmt::Debug for World {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("World")
            .field("mesh", &*self.mesh)
            .field(
                "layers",
                &self
                    .layers
                    .iter()
                    .map(|s| (&s.name, s.kind, &s.type_key))
                    .collect::<Vec<_>>(),
            )
            .field("dicts", &self.dicts.keys().collect::<Vec<_>>())
            .finish()
    }
}
