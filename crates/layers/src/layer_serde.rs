//! Serde for [`Layer`]: `{ kind, type_key, info, values }`, checked on the way back so data
//! never lands in a layer of another type.

use crate::info::LayerInfo;
use crate::kind::{ElementKind, Kind};
use crate::layer::Layer;
use crate::storage::Dense;
use crate::value::LayerValue;
use core::fmt;
use serde::de::{self, DeserializeOwned, SeqAccess, Visitor};
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

struct Seq<'a, T>(&'a Dense<T>);

impl<T: LayerValue> Serialize for Seq<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.as_slice())
    }
}

struct SeqOwned<T>(Dense<T>);

impl<'de, T: LayerValue + DeserializeOwned> Deserialize<'de> for SeqOwned<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(core::marker::PhantomData<T>);
        impl<'de, T: LayerValue> Visitor<'de> for V<T> {
            type Value = Dense<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a sequence of layer values")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Dense<T>, A::Error> {
                // The hint comes from the input: cap what it may reserve up front.
                let mut v = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 16));
                while let Some(x) = seq.next_element::<T>()? {
                    v.push(x);
                }
                v.shrink_to_fit();
                Ok(Dense::from_vec(v))
            }
        }
        d.deserialize_seq(V(core::marker::PhantomData))
            .map(SeqOwned)
    }
}

/// Serialized as `{ kind, type_key, info, values }`; `kind` and `type_key` are checked on
/// the way back so data never lands in a layer of another type.
impl<T: LayerValue, K: Kind> Serialize for Layer<T, K> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Layer", 4)?;
        st.serialize_field("kind", &K::KIND)?;
        st.serialize_field("type_key", T::TYPE_KEY)?;
        st.serialize_field("info", &self.info)?;
        st.serialize_field("values", &Seq(&self.data))?;
        st.end()
    }
}

#[derive(Deserialize)]
#[serde(bound(deserialize = "T: LayerValue"), rename = "Layer")]
struct Owned<T, K> {
    kind: ElementKind,
    type_key: String,
    info: LayerInfo<T, K>,
    values: SeqOwned<T>,
}

impl<'de, T: LayerValue, K: Kind> Deserialize<'de> for Layer<T, K> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let o = Owned::<T, K>::deserialize(d)?;
        if o.kind != K::KIND {
            return Err(de::Error::custom(format_args!(
                "layer `{}` is a {} layer, expected {}",
                o.info.name(),
                o.kind,
                K::KIND
            )));
        }
        if o.type_key != T::TYPE_KEY {
            return Err(de::Error::custom(format_args!(
                "layer `{}` holds `{}`, expected `{}`",
                o.info.name(),
                o.type_key,
                T::TYPE_KEY
            )));
        }
        Ok(Layer {
            info: o.info,
            data: o.values.0,
            writes: 0,
        })
    }
}
