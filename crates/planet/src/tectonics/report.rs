//! What a step did and what it cost, stage by stage.

/// Seconds per stage of one step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StageTimes {
    pub motion: f64,
    pub subduction: f64,
    pub creation: f64,
    pub relief: f64,
    pub cleanup: f64,
    pub rift: f64,
    pub resample: f64,
}

impl StageTimes {
    /// `(name, seconds)` per stage, in order.
    pub fn named(&self) -> [(&'static str, f64); 7] {
        [
            ("motion", self.motion),
            ("subduction", self.subduction),
            ("creation", self.creation),
            ("relief", self.relief),
            ("cleanup", self.cleanup),
            ("rift", self.rift),
            ("resample", self.resample),
        ]
    }

    pub(super) fn add(&mut self, o: &StageTimes) {
        self.motion += o.motion;
        self.subduction += o.subduction;
        self.creation += o.creation;
        self.relief += o.relief;
        self.cleanup += o.cleanup;
        self.rift += o.rift;
        self.resample += o.resample;
    }
}

/// What one step did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepReport {
    /// What restoring the Delaunay mesh after the motion took.
    pub restore: delaunay::RestoreStats,
    /// Vertices of oceanic crust consumed at subduction fronts.
    pub subducted: usize,
    /// Vertices of new oceanic crust made in the gaps.
    pub created: usize,
    /// Continental vertices taken up by collisions: the faster plate's crust shortened into
    /// the other plate's margin (never by subduction).
    pub shortened: usize,
    /// Ocean-floor vertices turned continental by the continental budget (arcs and the
    /// debris of thickened crust accreted at continental margins).
    pub accreted: usize,
    /// Vertices of small continental terranes re-plated whole onto the plate they collided
    /// with (suturing: under [`super::SUTURE_MAX_KM2`]).
    pub sutured: usize,
    /// Vertices moved to a neighbouring plate by the clean-up (stray pieces).
    pub reassigned: usize,
    /// The plate made by rifting in this step.
    pub rifted: Option<u32>,
    /// Whether the world was resampled onto a fresh sphere.
    pub resampled: bool,
    /// Live vertices after the step.
    pub vertices: usize,
    /// Boundary edges converging / separating (relief sources).
    pub converging: usize,
    /// See `converging`.
    pub separating: usize,
    /// Seconds per stage.
    pub times: StageTimes,
    /// Wall time of the step (s).
    pub seconds: f64,
}
