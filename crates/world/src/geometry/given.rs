//! Insertion with the new vertices' values given by the caller.
//!
//! A caller that computes the data of the vertices it inserts (new ocean floor: its plate,
//! age, depth) would otherwise pay twice: the journal replay interpolates a value for every
//! new vertex in every layer, and the caller then overwrites it. With [`NewValues`] the
//! caller names the vertex layers it gives values for; those layers skip the replay and take
//! the given values directly, in one pass. The result is the world that the same insertion
//! followed by [`World::set_layer_values`] on each named layer makes, bit for bit: an
//! insertion's journal changes a vertex layer only at the new vertices (and its length), so
//! nothing else is left out.

use super::edits::PositionWrites;
use super::near::rounds_on;
use super::report::EditReport;
use super::{EditError, POSITION_NAME};
use crate::slot::Slot;
use crate::{World, WorldError};
use glam::DVec3;
use layers::{Interpolation, LayerError, LayerInfo, LayerValue, Sizes, VertexKind};
use quadedge::{Change, Face, Mesh, Vertex};
use std::any::Any;
use std::marker::PhantomData;

/// Values given for the new vertices of an insertion, one column per vertex layer (see
/// [`World::insert_points_in_rounds_with`]). A column holds one value per new vertex, in the
/// order of the rounds and, within a round, of its points.
#[derive(Default)]
pub struct NewValues {
    columns: Vec<Box<dyn Column>>,
}

/// A column of [`NewValues`] holding values of type `T` (a handle: copy it freely).
pub struct ColumnId<T> {
    index: usize,
    _type: PhantomData<fn() -> T>,
}

impl<T> Clone for ColumnId<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for ColumnId<T> {}

impl std::fmt::Debug for NewValues {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.columns.iter().map(|c| (c.name(), c.len())))
            .finish()
    }
}

/// Why values given with an insertion were refused (the world is unchanged).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ValuesError {
    /// A column holds another number of values than the insertion made vertices.
    Count {
        /// The layer's name.
        layer: String,
        /// Vertices the insertion made.
        expected: usize,
        /// Values the column holds.
        given: usize,
    },
    /// Two columns name the same layer.
    Twice(String),
    /// The position layer: the insertion's points are its values.
    Positions,
    /// The layer's interpolation resets or drops the whole layer on an insertion, so the
    /// replay changes more than the new vertices' values.
    WholeLayer(String),
}

impl std::fmt::Display for ValuesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ValuesError::Count {
                layer,
                expected,
                given,
            } => write!(
                f,
                "layer `{layer}`: {given} values given for {expected} new vertices"
            ),
            ValuesError::Twice(name) => write!(f, "layer `{name}` is given values twice"),
            ValuesError::Positions => write!(f, "the position layer cannot be given values"),
            ValuesError::WholeLayer(name) => write!(
                f,
                "layer `{name}` resets or drops itself on an insertion: it cannot be given values"
            ),
        }
    }
}

impl std::error::Error for ValuesError {}

impl NewValues {
    /// No columns.
    pub fn new() -> Self {
        Self::default()
    }

    /// A column for the vertex layer `info` (checked against the world's layer when the
    /// insertion starts).
    pub fn column<T: LayerValue>(&mut self, info: &LayerInfo<T, VertexKind>) -> ColumnId<T> {
        self.columns.push(Box::new(Values {
            info: info.clone(),
            values: Vec::new(),
        }));
        ColumnId {
            index: self.columns.len() - 1,
            _type: PhantomData,
        }
    }

    /// The values of column `id`, to push to (in the order of the points).
    ///
    /// # Panics
    /// For a handle from another `NewValues` of other columns (a programming error).
    pub fn values_mut<T: LayerValue>(&mut self, id: ColumnId<T>) -> &mut Vec<T> {
        let column: &mut dyn Any = self.columns[id.index].as_any_mut();
        &mut column
            .downcast_mut::<Values<T>>()
            .expect("a column handle of this NewValues")
            .values
    }

    /// The values of column `id`.
    ///
    /// # Panics
    /// As [`NewValues::values_mut`].
    pub fn values<T: LayerValue>(&self, id: ColumnId<T>) -> &[T] {
        let column: &dyn Any = self.columns[id.index].as_any();
        &column
            .downcast_ref::<Values<T>>()
            .expect("a column handle of this NewValues")
            .values
    }

    /// Every column holds a value for each vertex of `rounds`, one the layer accepts.
    fn check_counts(&self, rounds: &[Vec<Vertex>]) -> Result<(), EditError> {
        let new: Vec<Vertex> = rounds.iter().flatten().copied().collect();
        for c in &self.columns {
            if c.len() != new.len() {
                return Err(EditError::Values(ValuesError::Count {
                    layer: c.name().to_string(),
                    expected: new.len(),
                    given: c.len(),
                }));
            }
            c.validate(&new)?;
        }
        Ok(())
    }

    /// Empties every column (the columns stay).
    pub fn clear(&mut self) {
        for c in &mut self.columns {
            c.clear();
        }
    }
}

/// One typed column, behind the type-free interface the world uses.
struct Values<T: LayerValue> {
    info: LayerInfo<T, VertexKind>,
    values: Vec<T>,
}

trait Column: Send + Sync + Any {
    fn name(&self) -> &str;
    fn len(&self) -> usize;
    fn clear(&mut self);
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
    /// The world's layer of this name has this column's type and settings, and an
    /// interpolation that writes new vertices only.
    fn check(&self, world: &mut World) -> Result<(), EditError>;
    /// Every value is one the layer accepts (auto-validated layers); `new` are the vertices
    /// the values are for.
    fn validate(&self, new: &[Vertex]) -> Result<(), EditError>;
    /// The layer at `sizes`' length, the new vertices holding their values.
    fn write(&self, slot: &mut Slot, new: &[Vertex], sizes: Sizes);
}

impl<T: LayerValue> Column for Values<T> {
    fn name(&self) -> &str {
        self.info.name()
    }
    fn len(&self) -> usize {
        self.values.len()
    }
    fn clear(&mut self) {
        self.values.clear();
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }

    fn check(&self, world: &mut World) -> Result<(), EditError> {
        let name = self.info.name();
        if name == POSITION_NAME {
            return Err(EditError::Values(ValuesError::Positions));
        }
        if world.slot_index(name).is_none() {
            return Err(EditError::World(WorldError::NoSuchLayer(name.to_string())));
        }
        world.check_layer(&self.info).map_err(EditError::World)?;
        match self.info.interpolation_policy() {
            Interpolation::ResetLayer | Interpolation::DropLayer => {
                Err(EditError::Values(ValuesError::WholeLayer(name.to_string())))
            }
            _ => Ok(()),
        }
    }

    fn validate(&self, new: &[Vertex]) -> Result<(), EditError> {
        let info = &self.info;
        match self.values.iter().position(|v| !info.accepts(v)) {
            Some(k) if info.is_auto_validated() => Err(EditError::World(WorldError::Invalid(
                LayerError::OutOfRange {
                    layer: info.name().to_string(),
                    element: layers::ElementKind::Vertex.element(new[k].index()),
                    value: format!("{:?}", self.values[k]),
                    min: info.min_value().map(|m| format!("{m:?}")),
                    max: info.max_value().map(|m| format!("{m:?}")),
                },
            ))),
            _ => Ok(()),
        }
    }

    fn write(&self, slot: &mut Slot, new: &[Vertex], sizes: Sizes) {
        // Typed by `check` before the edit began.
        let Ok(layer) = slot.get_mut::<T, VertexKind>() else {
            return;
        };
        let initial = *layer.info().initial_value();
        let values = layer.values_vec_mut();
        values.resize(sizes.vertices, initial);
        for (v, &x) in new.iter().zip(&self.values) {
            if let Some(slot) = values.get_mut(v.index()) {
                *slot = x;
            }
        }
    }
}

impl World {
    /// [`World::insert_points_in_rounds`] with the new vertices' values given for the vertex
    /// layers `values` has columns for: `next` also gets `values` and pushes to each column
    /// one value per point it returns. Those layers skip the journal replay (which would
    /// interpolate values the caller overwrites) and take the given values: the world is the
    /// one the same insertion followed by [`World::set_layer_values`] on each layer makes,
    /// bit for bit (undo, redo and save see nothing else). Every column is emptied first;
    /// after success it holds the values written.
    ///
    /// ```
    /// use layers::{LayerInfo, VertexKind};
    /// use world::{NewValues, World};
    /// const AGE: LayerInfo<f32, VertexKind> = LayerInfo::new("age");
    /// let mut world = World::fibonacci_sphere(1000, 1.0, 0.3, 1).unwrap();
    /// world.update_layer(&AGE, |a| a.fill(5.0)).unwrap();
    /// let mut values = NewValues::new();
    /// let age = values.column(&AGE);
    /// let (rounds, _) = world
    ///     .insert_points_in_rounds_with(1, &mut values, |mesh, pos, _, values| {
    ///         let f = mesh.faces().next().unwrap();
    ///         let [a, b, c] = mesh.face_vertices(f).map(|v| pos[v.index()]);
    ///         values.values_mut(age).push(0.0); // new crust, not the corners' 5.0
    ///         vec![((a + b + c).normalize(), f)]
    ///     })
    ///     .unwrap();
    /// assert_eq!(world.layer(&AGE).unwrap()[rounds[0][0]], 0.0);
    /// ```
    ///
    /// # Errors
    /// The world unchanged, no vertex inserted, the columns emptied: those of
    /// [`World::insert_points_in_rounds`]; [`EditError::World`] for a column whose layer is
    /// missing ([`WorldError::NoSuchLayer`]), of another type or settings, or refuses a value
    /// (an auto-validated range); [`EditError::Values`] for a column of the wrong length, a
    /// layer named twice, the position layer, or a layer whose interpolation resets or drops
    /// it on insertion.
    pub fn insert_points_in_rounds_with(
        &mut self,
        max_rounds: usize,
        values: &mut NewValues,
        next: impl FnMut(&Mesh, &[DVec3], &[Vertex], &mut NewValues) -> Vec<(DVec3, Face)>,
    ) -> Result<(Vec<Vec<Vertex>>, EditReport), EditError> {
        self.rounds_with(max_rounds, values, next, true)
    }

    /// [`World::insert_points_in_rounds_with`] without its report (which reads the whole
    /// journal on one core), for a caller that knows what changed: a Delaunay insertion
    /// makes and flips only edges that end at a new vertex once it is done (each split and
    /// each flip leaves its edges at the vertex being inserted), so the new vertices' rings
    /// hold every edge the edit made or changed.
    ///
    /// # Errors
    /// As [`World::insert_points_in_rounds_with`], the world unchanged.
    pub fn insert_points_in_rounds_with_unreported(
        &mut self,
        max_rounds: usize,
        values: &mut NewValues,
        next: impl FnMut(&Mesh, &[DVec3], &[Vertex], &mut NewValues) -> Vec<(DVec3, Face)>,
    ) -> Result<Vec<Vec<Vertex>>, EditError> {
        self.rounds_with(max_rounds, values, next, false)
            .map(|(rounds, _)| rounds)
    }

    /// [`World::insert_points_in_rounds_with`], with or without its report.
    fn rounds_with(
        &mut self,
        max_rounds: usize,
        values: &mut NewValues,
        mut next: impl FnMut(&Mesh, &[DVec3], &[Vertex], &mut NewValues) -> Vec<(DVec3, Face)>,
        report: bool,
    ) -> Result<(Vec<Vec<Vertex>>, EditReport), EditError> {
        values.clear();
        self.geometry().ok_or(EditError::NoGeometry)?;
        for (k, c) in values.columns.iter().enumerate() {
            if values.columns[..k].iter().any(|d| d.name() == c.name()) {
                return Err(EditError::Values(ValuesError::Twice(c.name().to_string())));
            }
            c.check(self)?;
        }
        let edit = |g, mesh: &mut Mesh, positions: &mut Vec<DVec3>| {
            // Shared by the rounds (which push values) and the check that ends them.
            let cell = std::cell::RefCell::new(&mut *values);
            let mut round =
                |m: &Mesh, p: &[DVec3], new: &[Vertex]| next(m, p, new, &mut cell.borrow_mut());
            let check = |rounds: &[Vec<Vertex>]| cell.borrow().check_counts(rounds);
            let rounds = rounds_on(g, mesh, positions, max_rounds, &mut round, check)?;
            let new: Vec<Vertex> = rounds.iter().flatten().copied().collect();
            Ok((rounds, new, std::mem::take(*cell.borrow_mut())))
        };
        let result = self.geometric_edit_replayed(
            PositionWrites::Appended,
            report,
            edit,
            |w, changes, len, (_, new, given)| w.replay_given(changes, len, new, given),
        );
        match result {
            Ok(((rounds, _, given), report)) => {
                *values = given;
                Ok((rounds, report))
            }
            Err(e) => {
                values.clear();
                Err(e)
            }
        }
    }

    /// Ends an insertion with given values: the given layers (and the positions the edit
    /// wrote) are taken out of the replay, which the other layers see as usual, then get
    /// their values. A journal with anything but an insertion's records (none comes from
    /// [`World::insert_points_in_rounds_with`]) is replayed into every layer first.
    fn replay_given(
        &mut self,
        changes: Vec<Change>,
        len: usize,
        new: &[Vertex],
        given: &NewValues,
    ) {
        let sizes = Sizes::of(&self.mesh);
        let inserts_only = changes.iter().all(|c| {
            matches!(
                c,
                Change::Split(_)
                    | Change::FaceSplit(_)
                    | Change::Flip(_)
                    | Change::VerticesAdded { .. }
                    | Change::FaceAdded(_)
                    | Change::EdgeAdded(_)
            )
        });
        let position_len = self
            .slot_index(POSITION_NAME)
            .and_then(|i| self.layers[i].get::<DVec3, VertexKind>().ok())
            .map(|l| l.len());
        if !inserts_only {
            self.replay_lent(changes, len);
        } else {
            // The positions hold the points the insertion wrote at every new slot: taken
            // out too when they are already of the mesh's length.
            let mut out: Vec<&str> = given.columns.iter().map(|c| c.name()).collect();
            if position_len == Some(sizes.vertices) {
                out.push(POSITION_NAME);
            }
            let order: Vec<String> = self.layers.iter().map(|s| s.name.clone()).collect();
            let (taken, rest): (Vec<Slot>, Vec<Slot>) = std::mem::take(&mut self.layers)
                .into_iter()
                .partition(|s| out.contains(&s.name.as_str()));
            self.layers = rest;
            let no_ids = self.dicts.values().all(|(d, _)| !d.has_ids());
            if self.layers.is_empty() && no_ids {
                // Nothing else reads the journal (the replay would copy it to share it).
                self.mesh_version = self.tick();
                self.recycle_journal(changes);
            } else if taken.iter().any(|s| s.name == POSITION_NAME) {
                self.apply_journal(changes);
            } else {
                self.replay_lent(changes, len);
            }
            // Back in their places (the replay may have dropped a layer by its policy).
            let mut rest = std::mem::take(&mut self.layers).into_iter().peekable();
            let mut taken = taken.into_iter().peekable();
            for name in &order {
                if taken.peek().is_some_and(|s| &s.name == name) {
                    self.layers.extend(taken.next());
                } else if rest.peek().is_some_and(|s| &s.name == name) {
                    self.layers.extend(rest.next());
                }
            }
        }
        for c in &given.columns {
            let stamp = self.tick();
            if let Some(i) = self.slot_index(c.name()) {
                let slot = &mut self.layers[i];
                c.write(slot, new, sizes);
                slot.version = stamp;
            }
        }
    }
}
