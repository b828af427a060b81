//! Resampling a layer onto another mesh: each new value gathered from the old layer through a
//! [`ResamplePlan`] (computed by point location, for instance with `delaunay::resample`),
//! the layer's [`Interpolation`] policy deciding how.
//!
//! * **Vertex layers** blend the three corners of each new vertex's stencil with its weights,
//!   exactly as a face split blends them: `Lerp`/`Nlerp`/`Slerp` barycentrically, `MaxWeight`
//!   the heaviest corner (what discrete layers such as plate ids use), `MinValue`/`MaxValue`
//!   over the corners, `KeepSrc`/`KeepDest` the first/last corner. A stencil that names one
//!   vertex only (all corners equal, or a single non-zero weight) copies its value bit for
//!   bit, so resampling onto the same points gives back the same values.
//! * **Face and edge layers** copy the value of their source element (the plan says which),
//!   as a split copies a face's or an edge's value to its descendants.
//! * The gathers run on all cores (feature `rayon`), each value from its own inputs, so the
//!   result does not depend on the thread count.
//! * Policies that produce no value (`DontCare`, `Reset`, `ResetLayer`, `DropLayer`) give
//!   every element the initial value, and so does an element whose source is invalid (a dead
//!   slot of the new mesh).

use crate::info::Interpolation;
use crate::kind::{ElementKind, Kind};
use crate::layer::Layer;
use crate::replay::Replay;
use crate::storage::{CHUNK, Dense};
use crate::value::LayerValue;
use core::fmt;
use quadedge::{Edge, Face, Vertex};

/// Where each value of a resampled layer comes from, indexed by the new mesh's slots. The
/// lengths are the new layer's lengths: `vertex_corners.len()` vertex slots, `faces.len()`
/// face slots, `edges.len()` directed edge slots (twice the quad-edge slots).
#[derive(Clone, Copy, Debug, Default)]
pub struct ResamplePlan<'a> {
    /// Per new vertex: three old vertices (all [`Vertex::INVALID`]: the initial value).
    pub vertex_corners: &'a [[Vertex; 3]],
    /// Per new vertex: the corners' weights (finite, non-negative, not all zero).
    pub vertex_weights: &'a [[f32; 3]],
    /// Per new face: the old face whose value it takes ([`Face::INVALID`]: the initial value).
    pub faces: &'a [Face],
    /// Per new directed primal edge (`2q`, `2q + 1`): the old directed primal edge it matches
    /// ([`Edge::INVALID`]: the initial value). Undirected layers read the even entry; dual
    /// layers map dual edge `i` like primal edge `i` (the dual crossing it).
    pub edges: &'a [Edge],
}

/// Why a layer could not be resampled with a plan. The layer is never changed.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ResampleError {
    /// Two arrays of the plan that must have the same length do not (or the edge array has an
    /// odd length).
    Lengths {
        /// What disagrees.
        what: &'static str,
        /// One length.
        len: usize,
        /// The length it should have.
        expected: usize,
    },
    /// A source id is past the end of the old layer (or a dual id where a primal one is due).
    BadSource {
        /// The kind of the new element.
        kind: ElementKind,
        /// The new element's slot.
        slot: usize,
        /// The raw source id.
        source: u32,
    },
    /// A vertex stencil's weights are negative, not finite, or all zero.
    BadWeights {
        /// The new vertex's slot.
        slot: usize,
    },
}

impl fmt::Display for ResampleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResampleError::Lengths {
                what,
                len,
                expected,
            } => write!(
                f,
                "resample plan: {what} has {len} entries, expected {expected}"
            ),
            ResampleError::BadSource { kind, slot, source } => write!(
                f,
                "resample plan: the source {source} of {kind} slot {slot} is not an element of the old mesh"
            ),
            ResampleError::BadWeights { slot } => {
                write!(
                    f,
                    "resample plan: the weights of vertex slot {slot} are not usable"
                )
            }
        }
    }
}

impl std::error::Error for ResampleError {}

impl ResamplePlan<'_> {
    /// Checks that the plan's arrays agree with each other: as many weights as corners, an
    /// even number of directed edges.
    ///
    /// # Errors
    /// [`ResampleError::Lengths`].
    pub fn check_lengths(&self) -> Result<(), ResampleError> {
        if self.vertex_weights.len() != self.vertex_corners.len() {
            return Err(ResampleError::Lengths {
                what: "vertex_weights",
                len: self.vertex_weights.len(),
                expected: self.vertex_corners.len(),
            });
        }
        if !self.edges.len().is_multiple_of(2) {
            return Err(ResampleError::Lengths {
                what: "edges (directed: even)",
                len: self.edges.len(),
                expected: self.edges.len() + 1,
            });
        }
        Ok(())
    }

    /// Checks one vertex stencil's weights.
    ///
    /// # Errors
    /// [`ResampleError::BadWeights`].
    pub fn check_weights(w: [f32; 3], slot: usize) -> Result<(), ResampleError> {
        let ok = w.iter().all(|x| x.is_finite() && *x >= 0.0) && w.iter().any(|x| *x > 0.0);
        if ok {
            Ok(())
        } else {
            Err(ResampleError::BadWeights { slot })
        }
    }
}

impl<T: LayerValue, K: Kind> Layer<T, K> {
    /// This layer carried onto another mesh by `plan` (see the [module](self) docs for the
    /// rules): a new layer with the same description, as long as the plan says for the
    /// layer's kind.
    ///
    /// # Errors
    /// [`ResampleError`] when the plan is inconsistent, names an element past the end of this
    /// layer, or holds unusable weights; `self` is unchanged.
    ///
    /// ```
    /// use layers::{Layer, LayerInfo, VertexKind, resample::ResamplePlan};
    /// use quadedge::Vertex;
    /// let h = Layer::from_values(LayerInfo::<f32, VertexKind>::new("h"), vec![0.0, 10.0, 20.0]);
    /// let v = |i| Vertex::new(i);
    /// let corners = [[v(0), v(1), v(2)], [v(2); 3]];
    /// let weights = [[0.5, 0.25, 0.25], [1.0, 0.0, 0.0]];
    /// let plan = ResamplePlan { vertex_corners: &corners, vertex_weights: &weights, ..Default::default() };
    /// assert_eq!(h.resampled(&plan).unwrap().as_slice(), [7.5, 20.0]);
    /// ```
    pub fn resampled(&self, plan: &ResamplePlan<'_>) -> Result<Self, ResampleError> {
        plan.check_lengths()?;
        let policy = self.info().interpolation_policy();
        let values = match K::KIND {
            ElementKind::Vertex => self.gather_vertices(plan, policy)?,
            ElementKind::Face => {
                let f = plan.faces;
                let src = |i: usize| f[i].is_valid().then(|| f[i].raw());
                self.copy_from(&src, f.len(), policy)?
            }
            ElementKind::Edge | ElementKind::DualEdge => {
                let src = |i: usize| primal_source(plan.edges[2 * i], true);
                self.copy_from(&src, plan.edges.len() / 2, policy)?
            }
            ElementKind::DirectedEdge | ElementKind::DirectedDualEdge => {
                let src = |i: usize| primal_source(plan.edges[i], false);
                self.copy_from(&src, plan.edges.len(), policy)?
            }
        };
        Ok(Self {
            info: self.info().clone(),
            data: Dense::from_vec(values),
            writes: 0,
        })
    }

    fn gather_vertices(
        &self,
        plan: &ResamplePlan<'_>,
        policy: Interpolation,
    ) -> Result<Vec<T>, ResampleError> {
        let old = self.as_slice();
        let one = |slot: usize| -> Result<T, ResampleError> {
            let c = plan.vertex_corners[slot];
            let w = plan.vertex_weights[slot];
            let init = *self.info().initial_value();
            if !c[0].is_valid() && !c[1].is_valid() && !c[2].is_valid() {
                return Ok(init);
            }
            let bad = |k: usize| ResampleError::BadSource {
                kind: ElementKind::Vertex,
                slot,
                source: c[k].raw(),
            };
            let a = old.get(c[0].index()).ok_or_else(|| bad(0))?;
            let b = old.get(c[1].index()).ok_or_else(|| bad(1))?;
            let d = old.get(c[2].index()).ok_or_else(|| bad(2))?;
            ResamplePlan::check_weights(w, slot)?;
            let single = match (w[0] > 0.0, w[1] > 0.0, w[2] > 0.0) {
                _ if c[0] == c[1] && c[1] == c[2] => Some(a),
                (true, false, false) => Some(a),
                (false, true, false) => Some(b),
                (false, false, true) => Some(d),
                _ => None,
            };
            Ok(match single {
                Some(v) if policy.produces_value() => *v,
                _ => Replay::<T, K>::blend3(policy, [a, b, d], w).unwrap_or(init),
            })
        };
        self.gather(plan.vertex_corners.len(), one)
    }

    /// New values copied from old slots (`None`: the initial value).
    fn copy_from(
        &self,
        sources: &(impl Fn(usize) -> Option<u32> + Sync),
        len: usize,
        policy: Interpolation,
    ) -> Result<Vec<T>, ResampleError> {
        let init = *self.info().initial_value();
        let old = self.as_slice();
        let copy = policy.produces_value();
        self.gather(len, |slot| match sources(slot) {
            None => Ok(init),
            Some(i) => match old.get(i as usize) {
                Some(v) if copy => Ok(*v),
                Some(_) => Ok(init),
                None => Err(ResampleError::BadSource {
                    kind: K::KIND,
                    slot,
                    source: i,
                }),
            },
        })
    }

    /// `len` new values, value `slot` from `one(slot)`: on all cores in fixed chunks, the
    /// error of the lowest slot when any (so the same for any thread count).
    fn gather(
        &self,
        len: usize,
        one: impl Fn(usize) -> Result<T, ResampleError> + Sync,
    ) -> Result<Vec<T>, ResampleError> {
        let mut out = vec![*self.info().initial_value(); len];
        let fill = |(k, chunk): (usize, &mut [T])| -> Result<(), ResampleError> {
            for (j, value) in chunk.iter_mut().enumerate() {
                *value = one(k * CHUNK + j)?;
            }
            Ok(())
        };
        #[cfg(feature = "rayon")]
        let results: Vec<_> = {
            use rayon::prelude::*;
            out.par_chunks_mut(CHUNK).enumerate().map(fill).collect()
        };
        #[cfg(not(feature = "rayon"))]
        let results: Vec<_> = out.chunks_mut(CHUNK).enumerate().map(fill).collect();
        results.into_iter().collect::<Result<(), _>>()?;
        Ok(out)
    }
}

/// The storage index an edge source names: its quad-edge (`undirected`) or its directed
/// index; `None` for [`Edge::INVALID`]. A dual id reads as an index past any layer's end.
fn primal_source(e: Edge, undirected: bool) -> Option<u32> {
    if !e.is_valid() {
        None
    } else if e.is_dual() {
        Some(u32::MAX)
    } else if undirected {
        Some(e.quad() as u32)
    } else {
        Some(e.raw())
    }
}
