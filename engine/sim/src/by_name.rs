//! Reads a JSON value into the scenario's types with every field given by name.
//!
//! serde's derived `Deserialize` takes a struct from a list as well as from an object, its
//! fields by position, and an internally tagged enum (`behavior`, `background`, `traffic`)
//! from a list whose first element is the tag; so `"run": [10]` read as
//! `{ "duration_ms": 10 }`, round `deny_unknown_fields`. [`ByName`] is `serde_json`'s own
//! deserializer over a borrowed [`Value`], but for that: where a type reads an object (a
//! struct, a map, a tagged enum) a list is refused, at any depth, with a rule in the file's
//! terms. The lists the format has (`nodes`, a path, a sweep's values, …) are read as before:
//! a type that reads a list asks for one. It costs one match per value and no copy.
//!
//! ```text
//!   "run": [10]                   ->  run: must be an object { "duration_ms": … }, not a list …
//!   "behavior": ["on_off", 5, 5]  ->  connections[0].behavior: must be an object { "kind": … }, not a list …
//! ```

use serde::de::{
    self, value::BorrowedStrDeserializer, DeserializeSeed, Deserializer, EnumAccess, Error as _, MapAccess, SeqAccess,
    VariantAccess, Visitor,
};
use serde_json::{Error, Map, Value};

/// Why a list is refused where an object belongs (after "must be an object { … }, not a list").
const BY_NAME: &str = "(fields are named, not given by position)";

/// `value` read as a `T`, every problem with its JSON path.
pub(crate) fn deserialize<'a, T: de::Deserialize<'a>>(
    value: &'a Value,
) -> Result<T, serde_path_to_error::Error<Error>> {
    serde_path_to_error::deserialize(ByName(value))
}

/// A JSON value whose objects must be objects (see the module documentation).
pub(crate) struct ByName<'a>(pub(crate) &'a Value);

fn an_object_not_a_list(first_field: Option<&str>) -> Error {
    let example = first_field.map_or_else(|| "{ … }".to_string(), |f| format!("{{ \"{f}\": … }}"));
    Error::custom(format!("must be an object {example}, not a list {BY_NAME}"))
}

/// Internally tagged enums read themselves with `deserialize_any` (to find the tag among the
/// fields), so the type is known only by what its visitor expects: serde_derive's words,
/// pinned by `validation::a_list_where_an_object_belongs_is_refused_naming_the_field`.
fn is_tagged_enum<'de, V: Visitor<'de>>(visitor: &V) -> bool {
    struct Expecting<'a, V>(&'a V);
    impl<'de, V: Visitor<'de>> std::fmt::Display for Expecting<'_, V> {
        fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            self.0.expecting(f)
        }
    }
    Expecting(visitor).to_string().starts_with("internally tagged enum")
}

fn visit_list<'de, V: Visitor<'de>>(items: &'de [Value], visitor: V) -> Result<V::Value, Error> {
    let mut seq = Elements(items.iter());
    let out = visitor.visit_seq(&mut seq)?;
    match seq.0.len() {
        0 => Ok(out),
        _ => Err(Error::invalid_length(items.len(), &"fewer elements in array")),
    }
}

fn visit_object<'de, V: Visitor<'de>>(map: &'de Map<String, Value>, visitor: V) -> Result<V::Value, Error> {
    let mut entries = Entries { iter: map.iter(), value: None };
    let out = visitor.visit_map(&mut entries)?;
    match entries.iter.len() {
        0 => Ok(out),
        _ => Err(Error::invalid_length(map.len(), &"fewer elements in map")),
    }
}

/// Scalars read exactly as `serde_json` reads them (none of these visits a list's elements);
/// elsewhere too, what is not a list where an object belongs gets `serde_json`'s own words.
macro_rules! as_serde_json {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            self.0.$method(visitor)
        }
    )*};
}

impl<'de> Deserializer<'de> for ByName<'de> {
    type Error = Error;

    as_serde_json! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f32 deserialize_f64 deserialize_char deserialize_str deserialize_string
        deserialize_bytes deserialize_byte_buf deserialize_unit deserialize_identifier
    }

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            // Every tagged enum of the format is tagged `kind` (`fields::KindFields`).
            Value::Array(_) if is_tagged_enum(&visitor) => Err(an_object_not_a_list(Some("kind"))),
            Value::Array(items) => visit_list(items, visitor),
            Value::Object(map) => visit_object(map, visitor),
            scalar => scalar.deserialize_any(visitor),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.0 {
            Value::Array(_) => Err(an_object_not_a_list(fields.first().copied())),
            Value::Object(map) => visit_object(map, visitor),
            other => other.deserialize_struct(name, fields, visitor),
        }
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Array(_) => Err(an_object_not_a_list(Some("name"))),
            Value::Object(map) => visit_object(map, visitor),
            other => other.deserialize_map(visitor),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Array(items) => visit_list(items, visitor),
            other => other.deserialize_seq(visitor),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    /// An externally tagged enum: its variant's name (`"network"`), or an object with the
    /// variant's name as its one key (`{ "connection": "C1" }`).
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.0 {
            Value::String(name) => visitor.visit_enum(Variant { name, value: None }),
            Value::Object(map) if map.len() == 1 => {
                let (name, value) = map.iter().next().expect("one entry");
                visitor.visit_enum(Variant { name, value: Some(value) })
            }
            Value::Array(_) => Err(Error::custom(format!(
                "must be one of {} (or an object with one of them as its key), not a list",
                variants.join(", ")
            ))),
            // Its words for an object of several keys, a number, …
            other => other.deserialize_enum(name, variants, visitor),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }
}

struct Elements<'de>(std::slice::Iter<'de, Value>);

impl<'de> SeqAccess<'de> for Elements<'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
        self.0.next().map(|v| seed.deserialize(ByName(v))).transpose()
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

struct Entries<'de> {
    iter: serde_json::map::Iter<'de>,
    value: Option<&'de Value>,
}

impl<'de> MapAccess<'de> for Entries<'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        let Some((key, value)) = self.iter.next() else { return Ok(None) };
        self.value = Some(value);
        seed.deserialize(BorrowedStrDeserializer::new(key)).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let value = self.value.take().ok_or_else(|| Error::custom("a value asked for before its key"))?;
        seed.deserialize(ByName(value))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// A variant's name, and its value when it has one.
struct Variant<'de> {
    name: &'de str,
    value: Option<&'de Value>,
}

impl<'de> EnumAccess<'de> for Variant<'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<(T::Value, Self), Error> {
        let name = seed.deserialize(BorrowedStrDeserializer::new(self.name))?;
        Ok((name, self))
    }
}

impl<'de> VariantAccess<'de> for Variant<'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        match self.value {
            Some(v) => de::Deserialize::deserialize(ByName(v)),
            None => Ok(()),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        match self.value {
            Some(v) => seed.deserialize(ByName(v)),
            None => Err(Error::invalid_type(de::Unexpected::UnitVariant, &"an object with the variant's value")),
        }
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Some(v) => ByName(v).deserialize_seq(visitor),
            None => Err(Error::invalid_type(de::Unexpected::UnitVariant, &"a tuple variant")),
        }
    }

    fn struct_variant<V: Visitor<'de>>(self, fields: &'static [&'static str], visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Some(v) => ByName(v).deserialize_struct("", fields, visitor),
            None => Err(Error::invalid_type(de::Unexpected::UnitVariant, &"a struct variant")),
        }
    }
}
