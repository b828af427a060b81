//! [`Value`]: what a [`Dict`] entry holds.

use super::Dict;
use core::fmt;
use quadedge::{Edge, Face, Vertex};

/// Deepest nesting of lists and dictionaries that a [`Dict`] may have to be saved or loaded
/// ([`Dict::depth`]): deeper data is refused with an error instead of overflowing the stack.
pub const MAX_DEPTH: usize = 128;

/// A value in a [`Dict`].
///
/// Equality compares floats bit for bit, so a `NaN` equals its clone and `0.0` differs from
/// `-0.0`. Dropping never recurses, whatever the depth.
#[derive(Clone, Debug, Default)]
pub enum Value {
    /// Nothing (an explicit "unset"; also what a stored id becomes when its element dies).
    #[default]
    Null,
    /// A boolean.
    Bool(bool),
    /// A signed integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// A string.
    String(String),
    /// An ordered list.
    List(Vec<Value>),
    /// A nested dictionary.
    Dict(Dict),
    /// A vertex id: renumbered by compaction, `Null` once the vertex is deleted.
    Vertex(Vertex),
    /// A face id: renumbered by compaction, `Null` once the face is deleted.
    Face(Face),
    /// An edge id (primal or dual, either direction): renumbered by compaction, `Null` once
    /// its quad-edge is deleted.
    Edge(Edge),
}

/// The type of a [`Value`], for errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueType {
    /// [`Value::Null`].
    Null,
    /// [`Value::Bool`].
    Bool,
    /// [`Value::Int`].
    Int,
    /// [`Value::Float`].
    Float,
    /// [`Value::String`].
    String,
    /// [`Value::List`].
    List,
    /// [`Value::Dict`].
    Dict,
    /// [`Value::Vertex`].
    Vertex,
    /// [`Value::Face`].
    Face,
    /// [`Value::Edge`].
    Edge,
}

impl fmt::Display for ValueType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ValueType::Null => "null",
            ValueType::Bool => "bool",
            ValueType::Int => "integer",
            ValueType::Float => "float",
            ValueType::String => "string",
            ValueType::List => "list",
            ValueType::Dict => "dict",
            ValueType::Vertex => "vertex id",
            ValueType::Face => "face id",
            ValueType::Edge => "edge id",
        })
    }
}

impl Value {
    /// The value's type.
    pub fn value_type(&self) -> ValueType {
        match self {
            Value::Null => ValueType::Null,
            Value::Bool(_) => ValueType::Bool,
            Value::Int(_) => ValueType::Int,
            Value::Float(_) => ValueType::Float,
            Value::String(_) => ValueType::String,
            Value::List(_) => ValueType::List,
            Value::Dict(_) => ValueType::Dict,
            Value::Vertex(_) => ValueType::Vertex,
            Value::Face(_) => ValueType::Face,
            Value::Edge(_) => ValueType::Edge,
        }
    }

    /// How deeply lists and dictionaries nest in this value (0 for a scalar, 1 for a flat
    /// list). Iterative, so it answers for any depth.
    pub fn depth(&self) -> usize {
        let mut deepest = 0;
        let mut stack = vec![(self, 0usize)];
        while let Some((v, d)) = stack.pop() {
            match v {
                Value::List(l) => {
                    deepest = deepest.max(d + 1);
                    stack.extend(l.iter().map(|x| (x, d + 1)));
                }
                Value::Dict(x) => {
                    deepest = deepest.max(d + 1);
                    stack.extend(x.entries.values().map(|x| (x, d + 1)));
                }
                _ => {}
            }
        }
        deepest
    }

    /// Is this a mesh id (vertex, face or edge)?
    pub fn is_id(&self) -> bool {
        matches!(self, Value::Vertex(_) | Value::Face(_) | Value::Edge(_))
    }
}

/// Bit-for-bit equality; iterative over lists and dictionaries, so any depth compares.
impl PartialEq for Value {
    fn eq(&self, other: &Self) -> bool {
        let mut stack = vec![(self, other)];
        while let Some((a, b)) = stack.pop() {
            let same = match (a, b) {
                (Value::Null, Value::Null) => true,
                (Value::Bool(x), Value::Bool(y)) => x == y,
                (Value::Int(x), Value::Int(y)) => x == y,
                (Value::Float(x), Value::Float(y)) => x.to_bits() == y.to_bits(),
                (Value::String(x), Value::String(y)) => x == y,
                (Value::Vertex(x), Value::Vertex(y)) => x == y,
                (Value::Face(x), Value::Face(y)) => x == y,
                (Value::Edge(x), Value::Edge(y)) => x == y,
                (Value::List(x), Value::List(y)) => {
                    stack.extend(x.iter().zip(y));
                    x.len() == y.len()
                }
                (Value::Dict(x), Value::Dict(y)) => {
                    let keys = x.entries.keys().eq(y.entries.keys());
                    stack.extend(x.entries.values().zip(y.entries.values()));
                    keys
                }
                _ => false,
            };
            if !same {
                return false;
            }
        }
        true
    }
}

/// Moves nested children onto a heap stack before they drop, so a value nested a million
/// levels deep drops in a loop instead of a million stack frames.
impl Drop for Value {
    fn drop(&mut self) {
        let mut stack = Vec::new();
        take_children(self, &mut stack);
        while let Some(mut v) = stack.pop() {
            take_children(&mut v, &mut stack);
            // `v` now has no children: its own drop returns at once.
        }
    }
}

fn take_children(v: &mut Value, stack: &mut Vec<Value>) {
    match v {
        Value::List(l) => stack.append(l),
        Value::Dict(d) => stack.extend(core::mem::take(&mut d.entries).into_values()),
        _ => {}
    }
}

macro_rules! from_value {
    ($($t:ty => $v:ident $(as $c:ty)?),*) => {$(
        impl From<$t> for Value {
            fn from(x: $t) -> Self {
                Value::$v(x $(as $c)?)
            }
        }
    )*};
}
from_value!(bool => Bool, i64 => Int, i32 => Int as i64, u32 => Int as i64, f64 => Float,
    f32 => Float as f64, String => String, Vec<Value> => List, Dict => Dict,
    Vertex => Vertex, Face => Face, Edge => Edge);

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::String(s.to_owned())
    }
}

impl From<()> for Value {
    fn from(_: ()) -> Self {
        Value::Null
    }
}
