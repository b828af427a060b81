//! Unstructured layers: named key–value data that is sparse or not tied to the mesh
//! (settlements, points of interest, generator settings).
//!
//! Nesting is bounded by [`MAX_DEPTH`] when saving and loading, and dropping a value never
//! recurses, so neither a hostile file nor a value built in memory can overflow the stack.

mod ids;
mod serde_impl;
mod value;

pub use ids::journal_moves_ids;
pub use value::{MAX_DEPTH, Value, ValueType};

use core::fmt;
use quadedge::{Edge, Face, Vertex};
use std::collections::BTreeMap;

/// Why a typed [`Dict`] getter failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DictError {
    /// No entry with this key.
    Missing {
        /// The key looked up.
        key: String,
    },
    /// The entry holds another type.
    WrongType {
        /// The key looked up.
        key: String,
        /// The type asked for.
        expected: ValueType,
        /// The type stored.
        found: ValueType,
    },
}

impl fmt::Display for DictError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DictError::Missing { key } => write!(f, "no entry `{key}`"),
            DictError::WrongType {
                key,
                expected,
                found,
            } => write!(f, "entry `{key}`: expected {expected}, found {found}"),
        }
    }
}

impl std::error::Error for DictError {}

/// Named values with ordered keys (a `BTreeMap`, so iteration and serialised output are
/// stable across runs — saved worlds diff cleanly).
///
/// ```
/// use layers::{Dict, DictError, Value, ValueType};
/// let mut settings = Dict::new();
/// settings.set("seed", 42);
/// settings.set("sea_level", 0.3);
/// settings.set("name", "Terra");
/// settings.dict_mut("plates").unwrap().set("count", 12);
/// assert_eq!(settings.get_i64("seed"), Ok(42));
/// assert_eq!(settings.get_f64("sea_level"), Ok(0.3));
/// assert_eq!(settings.get_dict("plates").unwrap().get_i64("count"), Ok(12));
/// assert_eq!(
///     settings.get_bool("name"),
///     Err(DictError::WrongType { key: "name".into(), expected: ValueType::Bool, found: ValueType::String })
/// );
/// assert_eq!(settings.keys().collect::<Vec<_>>(), ["name", "plates", "sea_level", "seed"]);
/// ```
///
/// Mesh ids stored as [`Value::Vertex`], [`Value::Face`] or [`Value::Edge`] follow the mesh
/// ([`Dict::apply_changes`]): compaction renumbers them, and an id whose element is deleted
/// becomes [`Value::Null`].
///
/// Equality compares floats bit for bit (a `NaN` equals its clone).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dict {
    pub(crate) entries: BTreeMap<String, Value>,
}

macro_rules! getter {
    ($(#[$doc:meta])* $name:ident, $t:ty, $vt:ident, $pat:pat => $out:expr) => {
        $(#[$doc])*
        ///
        /// # Errors
        ///
        /// [`DictError::Missing`] without an entry `key`, [`DictError::WrongType`] when it
        /// holds another type.
        pub fn $name(&self, key: &str) -> Result<$t, DictError> {
            match self.require(key)? {
                $pat => Ok($out),
                other => Err(DictError::WrongType {
                    key: key.to_owned(),
                    expected: ValueType::$vt,
                    found: other.value_type(),
                }),
            }
        }
    };
}

impl Dict {
    /// An empty dictionary.
    pub const fn new() -> Self {
        Self {
            entries: BTreeMap::new(),
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// No entries?
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Is there an entry `key`?
    pub fn contains_key(&self, key: &str) -> bool {
        self.entries.contains_key(key)
    }

    /// The entry `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.entries.get(key)
    }

    /// The entry `key` for writing.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.entries.get_mut(key)
    }

    fn require(&self, key: &str) -> Result<&Value, DictError> {
        self.entries.get(key).ok_or_else(|| DictError::Missing {
            key: key.to_owned(),
        })
    }

    /// Sets `key` to `value`, returning the previous value.
    pub fn set(&mut self, key: impl Into<String>, value: impl Into<Value>) -> Option<Value> {
        self.entries.insert(key.into(), value.into())
    }

    /// Removes `key`, returning its value.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        self.entries.remove(key)
    }

    /// Entries in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.entries.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// Keys in order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.entries.keys().map(String::as_str)
    }

    getter!(
        /// The bool at `key`.
        get_bool, bool, Bool, Value::Bool(b) => *b
    );
    getter!(
        /// The integer at `key`.
        get_i64, i64, Int, Value::Int(i) => *i
    );
    /// The number at `key`; integers are widened (so `1` written by hand reads as `1.0`).
    ///
    /// # Errors
    ///
    /// [`DictError::Missing`], or [`DictError::WrongType`] for a value that is no number.
    pub fn get_f64(&self, key: &str) -> Result<f64, DictError> {
        match self.require(key)? {
            Value::Float(f) => Ok(*f),
            Value::Int(i) => Ok(*i as f64),
            other => Err(DictError::WrongType {
                key: key.to_owned(),
                expected: ValueType::Float,
                found: other.value_type(),
            }),
        }
    }
    getter!(
        /// The string at `key`.
        get_str, &str, String, Value::String(s) => s.as_str()
    );
    getter!(
        /// The list at `key`.
        get_list, &[Value], List, Value::List(l) => l.as_slice()
    );
    getter!(
        /// The nested dictionary at `key`.
        get_dict, &Dict, Dict, Value::Dict(d) => d
    );
    getter!(
        /// The vertex id at `key`.
        get_vertex, Vertex, Vertex, Value::Vertex(v) => *v
    );
    getter!(
        /// The face id at `key`.
        get_face, Face, Face, Value::Face(f) => *f
    );
    getter!(
        /// The edge id at `key`.
        get_edge, Edge, Edge, Value::Edge(e) => *e
    );

    /// How deeply lists and dictionaries nest inside (an empty or flat dictionary is 1).
    /// Iterative, so it answers for any depth; saving refuses more than [`MAX_DEPTH`].
    pub fn depth(&self) -> usize {
        1 + self.entries.values().map(Value::depth).max().unwrap_or(0)
    }

    /// The nested dictionary at `key` for writing, created empty if missing.
    ///
    /// # Errors
    ///
    /// [`DictError::WrongType`] when `key` holds something else.
    pub fn dict_mut(&mut self, key: &str) -> Result<&mut Dict, DictError> {
        let v = self
            .entries
            .entry(key.to_owned())
            .or_insert_with(|| Value::Dict(Dict::new()));
        match v {
            Value::Dict(d) => Ok(d),
            other => Err(DictError::WrongType {
                key: key.to_owned(),
                expected: ValueType::Dict,
                found: other.value_type(),
            }),
        }
    }

    /// The list at `key` for writing, created empty if missing.
    ///
    /// # Errors
    ///
    /// [`DictError::WrongType`] when `key` holds something else.
    pub fn list_mut(&mut self, key: &str) -> Result<&mut Vec<Value>, DictError> {
        let v = self
            .entries
            .entry(key.to_owned())
            .or_insert_with(|| Value::List(Vec::new()));
        match v {
            Value::List(l) => Ok(l),
            other => Err(DictError::WrongType {
                key: key.to_owned(),
                expected: ValueType::List,
                found: other.value_type(),
            }),
        }
    }
}

impl FromIterator<(String, Value)> for Dict {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(iter: I) -> Self {
        Self {
            entries: iter.into_iter().collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_getters_report_missing_and_wrong_type() {
        let mut d = Dict::new();
        d.set("n", 3);
        d.set("x", 1.5f32);
        d.set("flag", true);
        d.set("nothing", ());
        d.list_mut("cities").unwrap().push("Ur".into());
        assert_eq!(d.get_f64("n"), Ok(3.0));
        assert_eq!(d.get_f64("x"), Ok(1.5));
        assert_eq!(d.get_bool("flag"), Ok(true));
        assert_eq!(d.get_list("cities").unwrap(), [Value::from("Ur")]);
        assert_eq!(
            d.get_i64("missing"),
            Err(DictError::Missing {
                key: "missing".into()
            })
        );
        assert_eq!(
            d.get_i64("x").unwrap_err().to_string(),
            "entry `x`: expected integer, found float"
        );
        assert!(d.dict_mut("n").is_err());
        assert!(d.list_mut("flag").is_err());
        assert_eq!(d.remove("flag"), Some(Value::Bool(true)));
        assert_eq!(d.len(), 4);
    }

    #[test]
    fn serde_round_trip_keeps_key_order() {
        let mut d = Dict::new();
        d.set("b", 2);
        d.set("a", Value::List(vec![1.into(), "x".into(), Value::Null]));
        d.dict_mut("c").unwrap().set("z", false);
        let json = serde_json::to_string(&d).unwrap();
        assert_eq!(
            json,
            r#"{"a":{"List":[{"Int":1},{"String":"x"},"Null"]},"b":{"Int":2},"c":{"Dict":{"z":{"Bool":false}}}}"#
        );
        let back: Dict = serde_json::from_str(&json).unwrap();
        assert_eq!(back, d);
    }
}
