//! The values kinds hold — a type, dims, a layout, a string, ... — each
//! written, read, printed and parsed one way in every kind that holds it.
//!
//! A kind declared with [`declare_kinds!`](crate::declare_kinds) or
//! [`json_fields!`](crate::json_fields) gets its JSON and text from its
//! fields' implementations of these traits:
//!
//! - [`JsonField`]: the field as one element of the kind's `"D"` data;
//! - [`ExactField`]: the same read from text spelled exactly as the writer
//!   spells it (see [`TypeDef::decode_exact`](crate::TypeDef::decode_exact)),
//!   lent to the caller by a borrowed key so a kind the context holds is found
//!   without building one;
//! - [`TextField`]: the field as Paddle prints it.

use std::borrow::Borrow;
use std::hash::Hash;

use crate::attributes::Attribute;
use crate::builtin::{self, parse_layout, DataLayout, DenseTensorType};
use crate::context::IrContext;
use crate::parser::{ParseError, Parser};
use crate::printer::Printer;
use crate::serial::{self, DecodeError, EncodeError, ExactJson, FieldInput, JsonPath, JsonWriter};
use crate::types::Type;

/// A value a kind holds as one element of its `"D"` data in Paddle's JSON
/// (a type, dims, a layout, ...): written and read the same way in every
/// kind that holds it. [`json_fields!`](crate::json_fields) builds a kind's
/// `encode` and `decode` from its fields.
pub trait JsonField: Sized {
    /// Writes the value.
    fn encode_field(&self, ctx: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError>;
    /// Reads a value from its JSON.
    fn decode_field(input: FieldInput<'_>) -> Result<Self, DecodeError>;
}

/// A [`JsonField`] that can also be read from text spelled exactly as
/// [`JsonField::encode_field`] writes it, without a document.
pub trait ExactField: JsonField {
    /// The borrowed form the field is looked up by: it hashes and compares
    /// as the field does (`str` for `Box<str>`, the field itself for a
    /// value without allocations).
    type Key: ?Sized + Hash + PartialEq;

    /// What [`ExactField::read_exact`] gives: the field, or a borrowed form
    /// of it that lends its key (`&str` from the text for `Box<str>`).
    type Read<'t>: Borrow<Self::Key>;

    /// Reads the value; `None` when the text is spelled any other way, or
    /// holds a value [`JsonField::decode_field`] refuses.
    fn read_exact<'t>(ctx: &IrContext, text: &mut ExactJson<'t>) -> Option<Self::Read<'t>>;

    /// The field's key.
    fn key(&self) -> &Self::Key;

    /// The field holding `key`.
    fn from_key(key: &Self::Key) -> Self;

    /// Reads an owned value (see [`ExactField::read_exact`]).
    fn decode_field_exact(ctx: &IrContext, text: &mut ExactJson<'_>) -> Option<Self> {
        Self::read_exact(ctx, text).map(|read| Self::from_key(read.borrow()))
    }
}

/// The [`ExactField`] items of a field that is its own key (a value
/// without allocations, or one whose reading builds it anyway): written
/// inside the impl, which then gives only `read_exact`.
#[macro_export]
macro_rules! field_is_its_key {
    () => {
        type Key = Self;
        type Read<'t> = Self;
        fn key(&self) -> &Self {
            self
        }
        fn from_key(key: &Self) -> Self {
            Clone::clone(key)
        }
    };
}

/// The [`JsonField`] and [`ExactField`] of a value Paddle writes as a name
/// (`"NCHW"`, `"float32"`): `$ty::$name(&self) -> &str` gives the name,
/// `$parse(&str) -> Option<$ty>` reads it back, `$what` says what is
/// unknown in an error.
#[macro_export]
macro_rules! named_field {
    ($ty:ty, $what:literal, $name:ident, $parse:path) => {
        impl $crate::field::JsonField for $ty {
            #[inline]
            fn encode_field(
                &self,
                _: &$crate::IrContext,
                w: &mut $crate::serial::JsonWriter<'_>,
            ) -> Result<(), $crate::serial::EncodeError> {
                w.string(self.$name());
                Ok(())
            }
            fn decode_field(
                input: $crate::serial::FieldInput<'_>,
            ) -> Result<Self, $crate::serial::DecodeError> {
                let path = input.path;
                let s = $crate::serial::string(input.value, path)?;
                $parse(&s).ok_or_else(|| {
                    $crate::serial::DecodeError::at(path, format!("unknown {} `{s}`", $what))
                })
            }
        }

        impl $crate::field::ExactField for $ty {
            $crate::field_is_its_key!();
            #[inline]
            fn read_exact(
                _: &$crate::IrContext,
                text: &mut $crate::serial::ExactJson<'_>,
            ) -> Option<Self> {
                $parse(text.string()?)
            }
        }
    };
}

/// A value as Paddle prints it inside a kind's text, and read back.
pub trait TextField: Sized {
    /// Prints the value (either form, see [`Printer::is_typed`]).
    fn print_field(&self, p: &mut Printer<'_>);
    /// Parses what [`TextField::print_field`] writes.
    fn parse_field(p: &mut Parser<'_>) -> Result<Self, ParseError>;
}

/// Types and attributes held as fields: their own JSON objects.
macro_rules! handle_field {
    ($($handle:ty),*) => {$(
        impl JsonField for $handle {
            #[inline]
            fn encode_field(&self, ctx: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
                serial::encode_kind(ctx, *self, w)
            }
            fn decode_field(input: FieldInput<'_>) -> Result<Self, DecodeError> {
                serial::decode_kind(input.ctx, input.value, input.path)
            }
        }

        impl ExactField for $handle {
            field_is_its_key!();
            #[inline]
            fn read_exact(ctx: &IrContext, text: &mut ExactJson<'_>) -> Option<Self> {
                serial::decode_kind_exact(ctx, text)
            }
        }
    )*};
}
handle_field!(Type, Attribute);

impl TextField for Type {
    fn print_field(&self, p: &mut Printer<'_>) {
        p.print_type(*self);
    }
    fn parse_field(p: &mut Parser<'_>) -> Result<Type, ParseError> {
        p.parse_type()
    }
}

named_field!(DataLayout, "data layout", as_str, DataLayout::parse);

impl TextField for DataLayout {
    fn print_field(&self, p: &mut Printer<'_>) {
        p.write_str(self.as_str());
    }
    fn parse_field(p: &mut Parser<'_>) -> Result<Self, ParseError> {
        parse_layout(p)
    }
}

/// Integers: a JSON number, printed in decimal; a value out of the
/// field's range is an error where it is read.
macro_rules! int_field {
    ($($int:ty),*) => {$(
        impl JsonField for $int {
            #[inline]
            fn encode_field(&self, _: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
                w.i64(i64::from(*self));
                Ok(())
            }
            fn decode_field(input: FieldInput<'_>) -> Result<Self, DecodeError> {
                let v = serial::int(input.value, input.path)?;
                <$int>::try_from(v)
                    .map_err(|_| DecodeError::at(input.path, format!("{v} does not fit in {}", stringify!($int))))
            }
        }

        impl ExactField for $int {
            field_is_its_key!();
            #[inline]
            fn read_exact(_: &IrContext, text: &mut ExactJson<'_>) -> Option<Self> {
                <$int>::try_from(text.int()?).ok()
            }
        }

        impl TextField for $int {
            fn print_field(&self, p: &mut Printer<'_>) {
                p.write_i64(i64::from(*self));
            }
            fn parse_field(p: &mut Parser<'_>) -> Result<Self, ParseError> {
                p.cur.skip_ws();
                let start = p.cur.pos();
                let v = p.cur.int("an integer")?;
                <$int>::try_from(v).map_err(|_| {
                    p.error_at(start, p.cur.pos() - start, format!("{v} does not fit in {}", stringify!($int)))
                })
            }
        }
    )*};
}
int_field!(i32, i64);

impl JsonField for bool {
    #[inline]
    fn encode_field(&self, _: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
        w.bool(*self);
        Ok(())
    }
    fn decode_field(input: FieldInput<'_>) -> Result<bool, DecodeError> {
        serial::boolean(input.value, input.path)
    }
}

impl ExactField for bool {
    field_is_its_key!();
    #[inline]
    fn read_exact(_: &IrContext, text: &mut ExactJson<'_>) -> Option<Self> {
        text.boolean()
    }
}

impl TextField for bool {
    fn print_field(&self, p: &mut Printer<'_>) {
        p.write_str(if *self { "true" } else { "false" });
    }
    fn parse_field(p: &mut Parser<'_>) -> Result<bool, ParseError> {
        if p.cur.eat_keyword("true") {
            Ok(true)
        } else if p.cur.eat_keyword("false") {
            Ok(false)
        } else {
            Err(p.expected("`true` or `false`"))
        }
    }
}

impl JsonField for Box<str> {
    #[inline]
    fn encode_field(&self, _: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
        w.string(self);
        Ok(())
    }
    fn decode_field(input: FieldInput<'_>) -> Result<Self, DecodeError> {
        Ok(serial::string(input.value, input.path)?.into())
    }
}

impl ExactField for Box<str> {
    type Key = str;
    type Read<'t> = &'t str;
    #[inline]
    fn read_exact<'t>(_: &IrContext, text: &mut ExactJson<'t>) -> Option<&'t str> {
        text.string()
    }
    fn key(&self) -> &str {
        self
    }
    fn from_key(key: &str) -> Self {
        key.into()
    }
}

impl TextField for Box<str> {
    fn print_field(&self, p: &mut Printer<'_>) {
        p.write_quoted(self);
    }
    fn parse_field(p: &mut Parser<'_>) -> Result<Self, ParseError> {
        Ok(p.parse_string()?.into())
    }
}

/// A list of fields is a JSON array of them (dims are a list of `i64`).
impl<T: JsonField> JsonField for Box<[T]> {
    #[inline]
    fn encode_field(&self, ctx: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
        w.begin_array();
        for item in self.iter() {
            item.encode_field(ctx, w)?;
        }
        w.end_array();
        Ok(())
    }
    fn decode_field(input: FieldInput<'_>) -> Result<Self, DecodeError> {
        let items = serial::array(input.value, input.path)?;
        let mut out = Vec::with_capacity(items.len());
        for (i, value) in items.enumerate() {
            out.push(T::decode_field(FieldInput {
                value,
                path: &JsonPath::Index(input.path, i),
                ..input
            })?);
        }
        Ok(out.into())
    }
}

impl<T: ExactField + Clone + Hash + PartialEq> ExactField for Box<[T]> {
    type Key = [T];
    type Read<'t> = Vec<T>;
    #[inline]
    fn read_exact(ctx: &IrContext, text: &mut ExactJson<'_>) -> Option<Vec<T>> {
        let mut items = Vec::new();
        text.array(|t| {
            items.push(T::decode_field_exact(ctx, t)?);
            Some(())
        })?;
        Some(items)
    }
    fn key(&self) -> &[T] {
        self
    }
    fn from_key(key: &[T]) -> Self {
        key.into()
    }
}

impl TextField for Box<[i64]> {
    fn print_field(&self, p: &mut Printer<'_>) {
        p.write_int_list(self);
    }
    fn parse_field(p: &mut Parser<'_>) -> Result<Self, ParseError> {
        Ok(p.parse_int_list()?.into())
    }
}

impl TextField for Box<[Type]> {
    fn print_field(&self, p: &mut Printer<'_>) {
        p.write_list(self, |p, t| p.print_type(t));
    }
    fn parse_field(p: &mut Parser<'_>) -> Result<Self, ParseError> {
        let types = p.parse_list("[", "]", "vector element types", Parser::parse_type)?;
        Ok(types.into())
    }
}

/// A dense tensor's data: the `[dtype, dims, layout, lod, offset]` array,
/// printed `<2x3xf32>` (the typed form adds what differs from the defaults),
/// as in `tensor<…>` and every kind that holds a dense tensor's data.
impl JsonField for DenseTensorType {
    #[inline]
    fn encode_field(&self, ctx: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
        self.encode_data(ctx, w)
    }
    fn decode_field(input: FieldInput<'_>) -> Result<Self, DecodeError> {
        DenseTensorType::decode_data(input.ctx, input.value, input.path)
    }
}

impl ExactField for DenseTensorType {
    field_is_its_key!();
    #[inline]
    fn read_exact(ctx: &IrContext, text: &mut ExactJson<'_>) -> Option<Self> {
        DenseTensorType::decode_data_exact(ctx, text)
    }
}

impl TextField for DenseTensorType {
    fn print_field(&self, p: &mut Printer<'_>) {
        p.write_str("<");
        builtin::print_shape_and_dtype(p, &self.dims, self.dtype);
        builtin::TensorExtras::print(p, self.layout, &self.lod, self.offset);
        p.write_str(">");
    }
    fn parse_field(p: &mut Parser<'_>) -> Result<Self, ParseError> {
        DenseTensorType::parse_body(p)
    }
}

/// The error for text of a kind Paddle prints without what it is made of
/// (`keyword` started at `start`): only the typed form reads back.
pub fn needs_typed_form(p: &Parser<'_>, keyword: &str, start: usize, kind: &str) -> ParseError {
    p.error_at(
        start,
        keyword.len(),
        format!(
            "{kind}: Paddle's print leaves out what the type is made of, so it cannot be read back; \
             print the program with `--typed`"
        ),
    )
}
