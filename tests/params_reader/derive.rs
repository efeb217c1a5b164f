//! The reader the page used before `crate::tree`, kept as its oracle: serde's derive over the same
//! tree, through this `Deserializer` (src/web/js_tree.rs at 308f2f5, with `JsTree` renamed `Old` and the tree's
//! variants read from `netcode_lab::tree::Tree`). Errors are `TreeError`s, so both readers' words and paths come
//! out through the same `field()` / `message()`.

use netcode_lab::tree::{whole, Tree, TreeError, Whole};
use serde::de::value::StringDeserializer;
use serde::de::{self, DeserializeSeed, Error as _, IntoDeserializer, Unexpected, Visitor};

type Error = TreeError;

/// A tree read by serde's derive.
#[derive(Clone, Debug)]
pub enum Old {
    Null,
    Bool(bool),
    Number(f64),
    Text(String),
    List(Vec<Old>),
    Object(Vec<(String, Old)>),
}

impl From<Tree> for Old {
    fn from(tree: Tree) -> Old {
        match tree {
            Tree::Null => Old::Null,
            Tree::Bool(b) => Old::Bool(b),
            Tree::Number(n) => Old::Number(n),
            Tree::Text(s) => Old::Text(s),
            Tree::List(items) => Old::List(items.into_iter().map(Old::from).collect()),
            Tree::Object(entries) => Old::Object(entries.into_iter().map(|(k, v)| (k, Old::from(v))).collect()),
        }
    }
}

impl Old {
    fn unexpected(&self) -> Unexpected<'_> {
        match self {
            Old::Null => Unexpected::Unit,
            Old::Bool(b) => Unexpected::Bool(*b),
            Old::Number(n) => match whole(*n) {
                Some(Whole::Unsigned(u)) => Unexpected::Unsigned(u),
                Some(Whole::Signed(i)) => Unexpected::Signed(i),
                None => Unexpected::Float(*n),
            },
            Old::Text(s) => Unexpected::Str(s),
            Old::List(_) => Unexpected::Seq,
            Old::Object(_) => Unexpected::Map,
        }
    }

    fn refuse<'de, V: Visitor<'de>, T>(&self, visitor: &V) -> Result<T, Error> {
        // serde's own words (its `de::Error::invalid_type`), not the reader's copy of them (`TreeError::invalid_type`).
        Err(<Error as de::Error>::invalid_type(self.unexpected(), visitor))
    }
}

impl<'de> IntoDeserializer<'de, Error> for Old {
    type Deserializer = Old;
    fn into_deserializer(self) -> Old {
        self
    }
}

impl<'de> de::Deserializer<'de> for Old {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Old::Null => visitor.visit_unit(),
            Old::Bool(b) => visitor.visit_bool(b),
            Old::Number(n) if n == 0.0 && n.is_sign_negative() => visitor.visit_f64(n),
            Old::Number(n) => match whole(n) {
                Some(Whole::Unsigned(u)) => visitor.visit_u64(u),
                Some(Whole::Signed(i)) => visitor.visit_i64(i),
                None => visitor.visit_f64(n),
            },
            Old::Text(s) => visitor.visit_string(s),
            Old::List(items) => visit_list(items, visitor),
            Old::Object(entries) => visit_object(entries, visitor),
        }
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Old::Number(n) => visitor.visit_f64(n),
            other => other.refuse(&visitor),
        }
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_f64(visitor)
    }

    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Old::Number(n) => match whole(n) {
                Some(Whole::Unsigned(u)) => visitor.visit_u64(u),
                Some(Whole::Signed(i)) => visitor.visit_i64(i),
                None => visitor.visit_f64(n),
            },
            other => other.refuse(&visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Old::Null => visitor.visit_none(),
            other => visitor.visit_some(other),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _: &'static str, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Old::List(items) => visit_list(items, visitor),
            other => other.refuse(&visitor),
        }
    }

    /// An object only: serde's derive would read an array as the fields in order (`[5]` as `{seed: 5}`).
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Old::Object(entries) => visit_object(entries, visitor),
            other => other.refuse(&visitor),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_map(visitor)
    }

    /// A name (a string) picks a unit variant; anything else is refused (the parameters have no data variants).
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self {
            Old::Text(name) => visitor.visit_enum(name.into_deserializer()),
            other => other.refuse(&visitor),
        }
    }

    fn deserialize_u8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_u64(visitor)
    }
    fn deserialize_u16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_u64(visitor)
    }
    fn deserialize_u32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_u64(visitor)
    }
    fn deserialize_i8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_u64(visitor)
    }
    fn deserialize_i16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_u64(visitor)
    }
    fn deserialize_i32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_u64(visitor)
    }
    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_u64(visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i128 u128 char str string bytes byte_buf unit unit_struct tuple tuple_struct identifier ignored_any
    }
}

fn visit_list<'de, V: Visitor<'de>>(items: Vec<Old>, visitor: V) -> Result<V::Value, Error> {
    let len = items.len();
    let mut seq = List { items: items.into_iter(), index: 0 };
    let value = visitor.visit_seq(&mut seq)?;
    if !seq.items.as_slice().is_empty() {
        return Err(Error::invalid_length(len, &"fewer elements in the array"));
    }
    Ok(value)
}

fn visit_object<'de, V: Visitor<'de>>(entries: Vec<(String, Old)>, visitor: V) -> Result<V::Value, Error> {
    visitor.visit_map(&mut Entries { entries: entries.into_iter(), current: None })
}

/// An array's items, each error named with its index.
struct List {
    items: std::vec::IntoIter<Old>,
    index: usize,
}

impl<'de> de::SeqAccess<'de> for List {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
        let Some(item) = self.items.next() else { return Ok(None) };
        let index = self.index;
        self.index += 1;
        seed.deserialize(item).map(Some).map_err(|e| e.at_index(index))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

/// An object's entries, each error named with its key (an unknown key names itself).
struct Entries {
    entries: std::vec::IntoIter<(String, Old)>,
    current: Option<(String, Old)>,
}

impl<'de> de::MapAccess<'de> for Entries {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        let Some((key, value)) = self.entries.next() else { return Ok(None) };
        let read = seed.deserialize(StringDeserializer::<Error>::new(key.clone()));
        let read = read.map_err(|e| e.at_key(&key))?;
        self.current = Some((key, value));
        Ok(Some(read))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let (key, value) = self.current.take().ok_or_else(|| Error::custom("a value without its key"))?;
        seed.deserialize(value).map_err(|e| e.at_key(&key))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}
