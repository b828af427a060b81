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
/// `-0.0`. Cloning, comparing and dropping never recurse, whatever the depth; `Debug` prints
/// [`MAX_DEPTH`] levels and `…` below.
#[derive(Default)]
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

/// A copy built without recursion: the source's nodes in pre-order, then rebuilt from the
/// last to the first, each list or dictionary taking its children's copies off a stack.
impl Clone for Value {
    fn clone(&self) -> Self {
        let mut order = Vec::new();
        let mut todo = vec![self];
        while let Some(v) = todo.pop() {
            order.push(v);
            match v {
                Value::List(l) => todo.extend(l.iter().rev()),
                Value::Dict(d) => todo.extend(d.entries.values().rev()),
                _ => {}
            }
        }
        let mut built: Vec<Value> = Vec::new();
        for v in order.into_iter().rev() {
            let copy = match v {
                Value::Null => Value::Null,
                Value::Bool(x) => Value::Bool(*x),
                Value::Int(x) => Value::Int(*x),
                Value::Float(x) => Value::Float(*x),
                Value::String(x) => Value::String(x.clone()),
                Value::Vertex(x) => Value::Vertex(*x),
                Value::Face(x) => Value::Face(*x),
                Value::Edge(x) => Value::Edge(*x),
                // The first child's copy is on top.
                Value::List(l) => {
                    let children = built.split_off(built.len() - l.len());
                    Value::List(children.into_iter().rev().collect())
                }
                Value::Dict(d) => {
                    let children = built.split_off(built.len() - d.entries.len());
                    let entries = d.entries.keys().cloned().zip(children.into_iter().rev());
                    Value::Dict(Dict {
                        entries: entries.collect(),
                    })
                }
            };
            built.push(copy);
        }
        built.pop().unwrap_or_default()
    }
}

/// The derived format, down to [`MAX_DEPTH`] levels of lists and dictionaries.
impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Limited(self, MAX_DEPTH).fmt(f)
    }
}

/// A value printed with `levels` more levels of nesting allowed.
struct Limited<'a>(&'a Value, usize);

impl fmt::Debug for Limited<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Limited(v, levels) = *self;
        match v {
            Value::Null => f.write_str("Null"),
            Value::Bool(x) => f.debug_tuple("Bool").field(x).finish(),
            Value::Int(x) => f.debug_tuple("Int").field(x).finish(),
            Value::Float(x) => f.debug_tuple("Float").field(x).finish(),
            Value::String(x) => f.debug_tuple("String").field(x).finish(),
            Value::Vertex(x) => f.debug_tuple("Vertex").field(x).finish(),
            Value::Face(x) => f.debug_tuple("Face").field(x).finish(),
            Value::Edge(x) => f.debug_tuple("Edge").field(x).finish(),
            Value::List(_) | Value::Dict(_) if levels == 0 => f.write_str("…"),
            Value::List(l) => f.debug_tuple("List").field(&Items(l, levels - 1)).finish(),
            Value::Dict(d) => f
                .debug_tuple("Dict")
                .field(&Entries(d, levels - 1))
                .finish(),
        }
    }
}

/// A list's items, each with `levels` more levels allowed.
struct Items<'a>(&'a [Value], usize);

impl fmt::Debug for Items<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.0.iter().map(|v| Limited(v, self.1)))
            .finish()
    }
}

/// A dictionary as its derived `Debug` prints it, values with `levels` more levels allowed.
struct Entries<'a>(&'a Dict, usize);

impl fmt::Debug for Entries<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        struct Map<'a>(&'a Dict, usize);
        impl fmt::Debug for Map<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_map()
                    .entries(self.0.entries.iter().map(|(k, v)| (k, Limited(v, self.1))))
                    .finish()
            }
        }
        f.debug_struct("Dict")
            .field("entries", &Map(self.0, self.1))
            .finish()
    }
}
