//! Records are JSON objects, and only objects.
//!
//! serde's derived structs also accept an *array* of the field values in declaration order, so
//! `[1, 10.0, 10.05, 0, 0, 10, 0]` would silently read as a snapshot. A trace is read by other tools and written
//! by hand: only `{…}` is a record. These helpers ask the deserializer for a map and hand it to the derived
//! code, so an array gives "expected an object, found an array" with its path, and every other check (unknown
//! keys, missing keys, types) stays the derived one. Arrays of records are read by `limits.rs`, which also
//! counts them.

use serde::de::value::MapAccessDeserializer;
use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use std::fmt;
use std::marker::PhantomData;

/// A `T` that was written as a JSON object.
#[derive(Debug)]
pub(super) struct Object<T>(pub T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(ObjectVisitor(PhantomData))
    }
}

struct ObjectVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjectVisitor<T> {
    type Value = Object<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        T::deserialize(MapAccessDeserializer::new(map)).map(Object)
    }
}

/// An optional object (`null` = absent).
pub(super) fn optional_object<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    Ok(Option::<Object<T>>::deserialize(d)?.map(|o| o.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Pair {
        a: u32,
        b: u32,
    }

    #[test]
    fn an_object_reads_and_an_array_does_not() {
        let ok: Object<Pair> = serde_json::from_str(r#"{"a": 1, "b": 2}"#).unwrap();
        assert_eq!(ok.0, Pair { a: 1, b: 2 });
        assert!(serde_json::from_str::<Pair>("[1, 2]").is_ok(), "what the derive alone accepts");
        let err = serde_json::from_str::<Object<Pair>>("[1, 2]").unwrap_err().to_string();
        assert!(err.starts_with("invalid type: sequence, expected an object"), "{err}");
    }
}
