//! Serde for [`Dict`] and [`Value`] with the nesting bounded by [`MAX_DEPTH`] both ways: a
//! hostile file of deeply nested lists is refused before it can overflow the stack, and so
//! is saving a value built that deep in memory.
//!
//! The encoding is what `#[derive]` would give (externally tagged enum, a dictionary as a
//! map), so JSON reads `{"seed":{"Int":42}}`.

use super::Dict;
use super::value::{MAX_DEPTH, Value};
use core::fmt;
use serde::de::{self, DeserializeSeed, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor};
use serde::ser::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;

const VARIANTS: &[&str] = &[
    "Null", "Bool", "Int", "Float", "String", "List", "Dict", "Vertex", "Face", "Edge",
];

fn too_deep() -> String {
    format!("lists and dictionaries nest deeper than {MAX_DEPTH} levels")
}

impl Serialize for Dict {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.depth() > MAX_DEPTH {
            return Err(S::Error::custom(too_deep()));
        }
        SerDict(self).serialize(s)
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.depth() > MAX_DEPTH {
            return Err(S::Error::custom(too_deep()));
        }
        Ser(self).serialize(s)
    }
}

/// Serialises without checking the depth again (the caller checked once, iteratively).
struct Ser<'a>(&'a Value);
struct SerDict<'a>(&'a Dict);
struct SerList<'a>(&'a [Value]);

impl Serialize for SerDict<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.entries.iter().map(|(k, v)| (k, Ser(v))))
    }
}

impl Serialize for SerList<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(Ser))
    }
}

impl Serialize for Ser<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let n = |i: u32| VARIANTS[i as usize];
        match self.0 {
            Value::Null => s.serialize_unit_variant("Value", 0, n(0)),
            Value::Bool(x) => s.serialize_newtype_variant("Value", 1, n(1), x),
            Value::Int(x) => s.serialize_newtype_variant("Value", 2, n(2), x),
            Value::Float(x) => s.serialize_newtype_variant("Value", 3, n(3), x),
            Value::String(x) => s.serialize_newtype_variant("Value", 4, n(4), x),
            Value::List(x) => s.serialize_newtype_variant("Value", 5, n(5), &SerList(x)),
            Value::Dict(x) => s.serialize_newtype_variant("Value", 6, n(6), &SerDict(x)),
            Value::Vertex(x) => s.serialize_newtype_variant("Value", 7, n(7), x),
            Value::Face(x) => s.serialize_newtype_variant("Value", 8, n(8), x),
            Value::Edge(x) => s.serialize_newtype_variant("Value", 9, n(9), x),
        }
    }
}

impl<'de> Deserialize<'de> for Dict {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        DictSeed { depth: 1 }.deserialize(d)
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        ValueSeed { depth: 0 }.deserialize(d)
    }
}

/// The variant index (binary formats) or name (text formats).
struct Tag(usize);

impl<'de> Deserialize<'de> for Tag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Tag;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a value variant")
            }
            fn visit_u64<E: de::Error>(self, i: u64) -> Result<Tag, E> {
                match usize::try_from(i) {
                    Ok(i) if i < VARIANTS.len() => Ok(Tag(i)),
                    _ => Err(E::invalid_value(de::Unexpected::Unsigned(i), &self)),
                }
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Tag, E> {
                match VARIANTS.iter().position(|v| *v == s) {
                    Some(i) => Ok(Tag(i)),
                    None => Err(E::unknown_variant(s, VARIANTS)),
                }
            }
        }
        d.deserialize_identifier(V)
    }
}

/// A value inside a container at nesting `depth` (0 at the top level).
struct ValueSeed {
    depth: usize,
}

impl<'de> DeserializeSeed<'de> for ValueSeed {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_enum("Value", VARIANTS, self)
    }
}

impl<'de> Visitor<'de> for ValueSeed {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a dictionary value")
    }
    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Value, A::Error> {
        let (Tag(tag), v) = data.variant::<Tag>()?;
        let inner = self.depth + 1;
        Ok(match tag {
            0 => {
                v.unit_variant()?;
                Value::Null
            }
            1 => Value::Bool(v.newtype_variant()?),
            2 => Value::Int(v.newtype_variant()?),
            3 => Value::Float(v.newtype_variant()?),
            4 => Value::String(v.newtype_variant()?),
            5 => Value::List(v.newtype_variant_seed(ListSeed { depth: inner })?),
            6 => Value::Dict(v.newtype_variant_seed(DictSeed { depth: inner })?),
            7 => Value::Vertex(v.newtype_variant()?),
            8 => Value::Face(v.newtype_variant()?),
            _ => Value::Edge(v.newtype_variant()?),
        })
    }
}

/// A list at nesting `depth` (1 for a top-level list).
struct ListSeed {
    depth: usize,
}

impl<'de> DeserializeSeed<'de> for ListSeed {
    type Value = Vec<Value>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<Value>, D::Error> {
        if self.depth > MAX_DEPTH {
            return Err(de::Error::custom(too_deep()));
        }
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for ListSeed {
    type Value = Vec<Value>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of values")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Value>, A::Error> {
        // No pre-allocation from the claimed length: a hostile length costs nothing.
        let mut out = Vec::new();
        while let Some(v) = seq.next_element_seed(ValueSeed { depth: self.depth })? {
            out.push(v);
        }
        Ok(out)
    }
}

/// A dictionary at nesting `depth` (1 for a top-level dictionary).
struct DictSeed {
    depth: usize,
}

impl<'de> DeserializeSeed<'de> for DictSeed {
    type Value = Dict;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Dict, D::Error> {
        if self.depth > MAX_DEPTH {
            return Err(de::Error::custom(too_deep()));
        }
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for DictSeed {
    type Value = Dict;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a dictionary")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Dict, A::Error> {
        let mut entries = BTreeMap::new();
        while let Some(k) = map.next_key::<String>()? {
            let v = map.next_value_seed(ValueSeed { depth: self.depth })?;
            if entries.insert(k, v).is_some() {
                return Err(de::Error::custom("duplicate key"));
            }
        }
        Ok(Dict { entries })
    }
}
