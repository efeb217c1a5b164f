//! The reader: [`Read`] for numbers, booleans, options and arrays, one non-generic function per kind of value,
//! and what a group of parameters ([`Group`]) and a choice of names ([`Names`]) give it — both written by
//! `#[derive(Params)]` / `#[derive(Choice)]` from the group's own statement. Each function raises the error
//! serde's derive raises for the same value (the comments say which visitor's), so the words do not change with
//! the reader.

use super::{whole, Tree, TreeError, Whole};
use serde::de::{Error as _, Unexpected};

/// A parameter type read from a [`Tree`] into its place (a group is never moved whole: in wasm every move of a
/// large group was a copy of its bytes, unrolled, at every field that holds one).
pub trait Read: Sized {
    /// Reads `tree` into `slot`; on an error `slot` holds a partly read value (the caller drops the whole).
    fn read_into(slot: &mut Self, tree: Tree) -> Result<(), TreeError>;

    /// A fresh value read from `tree` (a group starts from its `Default`, as `#[serde(default)]` does).
    fn read(tree: Tree) -> Result<Self, TreeError>
    where
        Self: Default,
    {
        let mut value = Self::default();
        Self::read_into(&mut value, tree)?;
        Ok(value)
    }
}

/// A choice of names (a unit-variant enum): its names as the documents spell them, in declaration order.
pub trait Names: Sized + Copy + 'static {
    const NAMES: &'static [&'static str];
    const VALUES: &'static [Self];
}

impl Read for f64 {
    /// serde's f64: any number as it is (NaN, -0, 5e-324: the range checks name them later).
    #[inline(never)]
    fn read_into(slot: &mut Self, tree: Tree) -> Result<(), TreeError> {
        match tree {
            Tree::Number(n) => {
                *slot = n;
                Ok(())
            }
            other => Err(TreeError::invalid_type(other.unexpected(), "f64")),
        }
    }
}

impl Read for bool {
    /// serde's bool visitor reached through `deserialize_any`: a number it refuses keeps `-0` as a float.
    #[inline(never)]
    fn read_into(slot: &mut Self, tree: Tree) -> Result<(), TreeError> {
        match tree {
            Tree::Bool(b) => {
                *slot = b;
                Ok(())
            }
            other => Err(TreeError::invalid_type(other.unexpected_as_read(), "a boolean")),
        }
    }
}

/// serde's unsigned visitors (`expecting` is the type's name): a whole number up to `max`; a negative one, or one
/// beyond `max`, is an invalid value; any other number (2.5, 1e20, NaN) the wrong type.
#[inline(never)]
fn unsigned(tree: Tree, max: u64, expecting: &'static str) -> Result<u64, TreeError> {
    match tree {
        Tree::Number(n) => match whole(n) {
            Some(Whole::Unsigned(u)) if u <= max => Ok(u),
            Some(Whole::Unsigned(u)) => Err(TreeError::invalid_value(Unexpected::Unsigned(u), expecting)),
            Some(Whole::Signed(i)) => Err(TreeError::invalid_value(Unexpected::Signed(i), expecting)),
            None => Err(TreeError::invalid_type(Unexpected::Float(n), expecting)),
        },
        other => Err(TreeError::invalid_type(other.unexpected(), expecting)),
    }
}

impl Read for u64 {
    #[inline(never)]
    fn read_into(slot: &mut Self, tree: Tree) -> Result<(), TreeError> {
        *slot = unsigned(tree, u64::MAX, "u64")?;
        Ok(())
    }
}

impl Read for u32 {
    #[inline(never)]
    fn read_into(slot: &mut Self, tree: Tree) -> Result<(), TreeError> {
        *slot = unsigned(tree, u32::MAX.into(), "u32")? as u32;
        Ok(())
    }
}

impl Read for usize {
    /// As wide as the target's `usize` (32 bits in wasm), as serde's is.
    #[inline(never)]
    fn read_into(slot: &mut Self, tree: Tree) -> Result<(), TreeError> {
        *slot = unsigned(tree, usize::MAX as u64, "usize")? as usize;
        Ok(())
    }
}

impl<T: Read + Default> Read for Option<T> {
    /// `null` (and `undefined`) is `None`.
    #[inline(never)]
    fn read_into(slot: &mut Self, tree: Tree) -> Result<(), TreeError> {
        match tree {
            Tree::Null => {
                *slot = None;
                Ok(())
            }
            other => T::read_into(slot.insert(T::default()), other),
        }
    }
}

/// serde's Vec: an array, each item read by `item` and each refusal named with its index.
pub fn list<T>(tree: Tree, item: impl Fn(Tree) -> Result<T, TreeError>) -> Result<Vec<T>, TreeError> {
    match tree {
        Tree::List(items) => {
            let mut out = Vec::with_capacity(items.len());
            for (index, value) in items.into_iter().enumerate() {
                out.push(item(value).map_err(|e| e.at_index(index))?);
            }
            Ok(out)
        }
        other => Err(TreeError::invalid_type(other.unexpected(), "a sequence")),
    }
}

/// The derive's struct visitor: an object only (an array would read as the fields in order), its entries in
/// the object's order; `set` reads a known key into the value being built and says `false` for an unknown one,
/// which is refused naming the known `fields`. Every refusal is named with its key.
#[inline(never)]
pub fn object(
    tree: Tree,
    expecting: &'static str,
    fields: &'static [&'static str],
    set: &mut dyn FnMut(&str, Tree) -> Result<bool, TreeError>,
) -> Result<(), TreeError> {
    let Tree::Object(entries) = tree else { return Err(TreeError::invalid_type(tree.unexpected(), expecting)) };
    // serde's derive refuses a field met twice before it reads the second value, and names the object, not the
    // field (`script[0]`: "duplicate field `keys`"): a JSON text, unlike a JavaScript object, can say a key twice.
    debug_assert!(fields.len() <= 64, "{expecting}: more fields than the duplicate check's bits");
    let mut seen = 0u64;
    for (key, value) in entries {
        if let Some(i) = fields.iter().position(|f| *f == key) {
            if seen & (1 << i) != 0 {
                return Err(TreeError::duplicate_field(fields[i]));
            }
            seen |= 1 << i;
        }
        match set(&key, value) {
            Ok(true) => {}
            Ok(false) => return Err(TreeError::unknown_field(&key, fields).at_key(&key)),
            Err(e) => return Err(e.at_key(&key)),
        }
    }
    Ok(())
}

/// The derive's enum visitor: a name (a string) picks a unit variant; anything else is refused.
#[inline(never)]
pub fn name(tree: Tree, expecting: &'static str, names: &'static [&'static str]) -> Result<usize, TreeError> {
    match tree {
        Tree::Text(name) => {
            names.iter().position(|n| *n == name).ok_or_else(|| TreeError::unknown_variant(&name, names))
        }
        other => Err(TreeError::invalid_type(other.unexpected(), expecting)),
    }
}

/// The same enum read from serde's buffer (`Content`), as a flattened group's fields are: a name, or an object
/// of one name whose value is `null` (`{"snap": null}`: the externally tagged form of a unit variant).
#[inline(never)]
pub fn buffered_name(tree: Tree, names: &'static [&'static str]) -> Result<usize, TreeError> {
    let (name, value) = match tree {
        Tree::Text(name) => (name, None),
        Tree::Object(entries) if entries.len() == 1 => {
            let (name, value) = entries.into_iter().next().expect("one entry");
            (name, Some(value))
        }
        Tree::Object(_) => return Err(TreeError::invalid_value(Unexpected::Map, "map with a single key")),
        other => return Err(TreeError::invalid_type(other.unexpected_as_read(), "string or map")),
    };
    let index = names.iter().position(|n| *n == name).ok_or_else(|| TreeError::unknown_variant(&name, names))?;
    match value {
        None | Some(Tree::Null) => Ok(index),
        Some(other) => Err(TreeError::invalid_type(other.unexpected_as_read(), "unit")),
    }
}

/// A group of parameters read key by key: its keys in declaration order (the order serde lists them in when it
/// refuses an unknown key) and how one key's value is read into it (`false`: not one of its keys). A group that
/// holds another's keys beside its own (`compare::PlaygroundParams`) reads them through it.
pub trait Group: Default {
    const KEYS: &'static [&'static str];
    /// serde's name for the group, in its refusals (`struct SimParams`).
    const EXPECTING: &'static str;
    fn read_key(&mut self, key: &str, value: Tree) -> Result<bool, TreeError>;
}
