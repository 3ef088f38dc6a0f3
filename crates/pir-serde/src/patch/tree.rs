//! An owned, editable JSON tree: the form an op's JSON takes while patches
//! rewrite it. Only patched ops are converted; everything else is read
//! straight from the zero-copy document.

use pir_json::{Kind, Value, Writer};

/// An owned JSON value. Objects keep their member order.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// An integer above `i64::MAX`.
    UInt(u64),
    /// A number with a fraction or exponent.
    Float(f64),
    /// A string.
    Str(String),
    /// An array.
    Arr(Vec<Json>),
    /// An object.
    Obj(Vec<(String, Json)>),
}

impl Json {
    /// Copies a document value.
    pub fn from_value(v: Value<'_>) -> Json {
        match v.kind() {
            Kind::Null => Json::Null,
            Kind::Bool => Json::Bool(v.as_bool().unwrap_or_default()),
            Kind::Number => {
                if let Some(i) = v.as_i64().filter(|_| v.is_integer()) {
                    Json::Int(i)
                } else if let Some(u) = v.as_u64().filter(|_| v.is_integer()) {
                    Json::UInt(u)
                } else {
                    Json::Float(v.as_f64().unwrap_or_default())
                }
            }
            Kind::String => Json::Str(v.as_str().unwrap_or_default().into_owned()),
            Kind::Array => Json::Arr(
                v.array()
                    .into_iter()
                    .flatten()
                    .map(Json::from_value)
                    .collect(),
            ),
            Kind::Object => Json::Obj(
                v.object()
                    .into_iter()
                    .flatten()
                    .map(|(k, v)| (k.into_owned(), Json::from_value(v)))
                    .collect(),
            ),
        }
    }

    /// Writes the value (object members in their order).
    pub fn write(&self, w: &mut Writer<'_>) {
        match self {
            Json::Null => w.null(),
            Json::Bool(b) => w.bool(*b),
            Json::Int(i) => w.i64(*i),
            Json::UInt(u) => w.u64(*u),
            Json::Float(f) => w.f64(*f),
            Json::Str(s) => w.string(s),
            Json::Arr(items) => {
                w.begin_array();
                for item in items {
                    item.write(w);
                }
                w.end_array();
            }
            Json::Obj(members) => {
                w.begin_object();
                for (k, v) in members {
                    w.key(k);
                    v.write(w);
                }
                w.end_object();
            }
        }
    }

    /// Serializes to compact JSON bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let mut w = Writer::compact(&mut out).any_key_order();
        self.write(&mut w);
        out
    }

    /// Member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Member `key` of an object, mutably.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Json> {
        match self {
            Json::Obj(m) => m.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Sets member `key` (replacing it, or appending it).
    pub fn set(&mut self, key: &str, value: Json) {
        if let Json::Obj(m) = self {
            match m.iter_mut().find(|(k, _)| k == key) {
                Some(entry) => entry.1 = value,
                None => m.push((key.to_owned(), value)),
            }
        }
    }

    /// Removes member `key`.
    pub fn remove(&mut self, key: &str) -> Option<Json> {
        match self {
            Json::Obj(m) => {
                let i = m.iter().position(|(k, _)| k == key)?;
                Some(m.remove(i).1)
            }
            _ => None,
        }
    }

    /// The string value.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The array elements.
    pub fn as_array_mut(&mut self) -> Option<&mut Vec<Json>> {
        match self {
            Json::Arr(a) => Some(a),
            _ => None,
        }
    }

    /// A `{"#": id}` object.
    pub fn tagged(id: &str) -> Json {
        Json::Obj(vec![("#".into(), Json::Str(id.into()))])
    }

    /// A `{"#": id, "D": data}` object.
    pub fn tagged_with(id: &str, data: Json) -> Json {
        Json::Obj(vec![("#".into(), Json::Str(id.into())), ("D".into(), data)])
    }

    /// Applies `f` to every object of the tree (depth first, parents first).
    pub fn visit_objects_mut(&mut self, f: &mut impl FnMut(&mut Json)) {
        match self {
            Json::Obj(_) => {
                f(self);
                if let Json::Obj(m) = self {
                    for (_, v) in m.iter_mut() {
                        v.visit_objects_mut(f);
                    }
                }
            }
            Json::Arr(items) => {
                for item in items {
                    item.visit_objects_mut(f);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn document_values_round_trip_through_the_tree() {
        let text = r##"{"#":"1.x","A":[{"AT":{"#":"0.a_f32","D":0.20000000298023224},"N":"s"}],"I":[{"%":0}],"big":18446744073709551615,"n":null,"t":true}"##;
        let doc = pir_json::parse(text.as_bytes()).unwrap();
        let tree = Json::from_value(doc.root());
        assert_eq!(String::from_utf8(tree.to_bytes()).unwrap(), text);
    }
}
