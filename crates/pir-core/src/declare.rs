//! Kinds declared once: a type or attribute kind whose data are fields of
//! known kinds ([`crate::field`]) gets its struct, its Paddle JSON (encode,
//! decode and the exact reader), its print and its parse from one
//! declaration in [`declare_kinds!`](crate::declare_kinds); kinds whose
//! Paddle format is irregular keep hand-written `TypeDef`/`AttrDef` impls,
//! and may still build their JSON with [`json_fields!`](crate::json_fields).

/// The `encode`, `decode` and `decode_exact` of a type or attribute kind
/// whose JSON is `{"#":ID,"D":[field, ...]}` (ID its first `JSON_IDS`), from
/// its fields in order (each an [`ExactField`](crate::field::ExactField)):
/// written inside the kind's `impl TypeDef` (`json_fields!(type: dtype,
/// dims, layout);`) or `impl AttrDef` (`json_fields!(attr: ...)`). The
/// kind's JSON is then declared once, and reading gives the path of a
/// wrong element.
#[macro_export]
macro_rules! json_fields {
    (type: $($field:ident),+ $(,)?) => {
        $crate::json_fields!(@impl intern_type, Type: $($field),+);
    };
    (attr: $($field:ident),+ $(,)?) => {
        $crate::json_fields!(@impl intern_attr, Attribute: $($field),+);
    };
    (@impl $intern:ident, $handle:ident: $($field:ident),+) => {
        fn encode(
            &self,
            ctx: &$crate::IrContext,
            w: &mut $crate::serial::JsonWriter<'_>,
        ) -> Result<(), $crate::serial::EncodeError> {
            $crate::serial::begin_tagged(w, Self::JSON_IDS[0]);
            w.begin_array();
            $($crate::field::JsonField::encode_field(&self.$field, ctx, w)?;)+
            w.end_array();
            w.end_object();
            Ok(())
        }
        fn decode(
            input: $crate::serial::DecodeInput<'_>,
        ) -> Result<$crate::$handle, $crate::serial::DecodeError> {
            const N: usize = [$(stringify!($field)),+].len();
            let ctx = input.ctx;
            let (data, dpath) = input.data()?;
            let [$($field),+] = $crate::serial::array_n::<N>(data, &dpath)?;
            let mut index = 0usize;
            let mut next = || {
                index += 1;
                index - 1
            };
            Ok(ctx.$intern(Self {
                $($field: $crate::field::JsonField::decode_field($crate::serial::FieldInput {
                    ctx,
                    value: $field,
                    path: &dpath.index(next()),
                })?,)+
            }))
        }
        fn decode_exact(
            ctx: &$crate::IrContext,
            _: &str,
            text: &mut $crate::serial::ExactJson<'_>,
        ) -> Option<$crate::$handle> {
            let value = $crate::serial::decode_data_exact(text, |text| {
                text.nest(|text| {
                    text.eat_byte(b'[')?;
                    $crate::json_fields!(@exact ctx, text: $($field),+);
                    text.eat_byte(b']')?;
                    Some(Self { $($field),+ })
                })
            })?;
            Some(ctx.$intern(value))
        }
    };
    // Reads the fields in order, a comma between each two.
    (@exact $ctx:ident, $text:ident: $first:ident $(, $rest:ident)*) => {
        let $first = $crate::field::ExactField::decode_field_exact($ctx, $text)?;
        $(
            $text.eat_byte(b',')?;
            let $rest = $crate::field::ExactField::decode_field_exact($ctx, $text)?;
        )*
    };
}

/// Declares type and attribute kinds, each once: the struct, its
/// `TypeDef`/`AttrDef` (print, parse, Paddle JSON encode/decode and the
/// exact reader, all from its fields), and one function registering them all
/// (call it from the dialect's `register`). Adding a regular kind is adding
/// an entry here.
///
/// Three shapes of kind:
///
/// - `attr Name(Field) { name: "...", json: "...", tag: "..." [, self_describing: true]
///   [, keywords: &[...]] [, parse: path] }`: JSON `{"#":json,"D":field}`,
///   printed as the field prints, parsed as it parses (or by `parse`, a
///   `fn(&mut Parser, Expect) -> Result<Attribute, ParseError>`).
/// - `type Name(Field) { name: "...", json: "...", keyword: "..." }`: JSON
///   as above, printed as the keyword followed by the field.
/// - `type Name { dtype: Type, dims: Box<[i64]>, more: Kind, ... } { name: "...",
///   json: "...", keyword: "..." [, untyped: "..."] }`: JSON `{"#":json,"D":[dtype,
///   dims, more, ...]}`, printed `keyword<2x3xf32>`, the typed form adding
///   `, more:…` for each further field (Paddle's print leaves them out, so
///   only the typed form reads back); `untyped` replaces Paddle's whole print.
///
/// Field kinds are those implementing [`TextField`](crate::field::TextField)
/// and [`ExactField`](crate::field::ExactField). Each item takes its doc
/// comment and any further attributes (`#[derive(Copy)]`).
///
/// ```
/// pir_core::declare_kinds! {
///     /// Registers the kinds below.
///     pub fn register_example_kinds;
///
///     /// A flag (`x.a_flag`).
///     #[derive(Copy)]
///     attr FlagAttr(bool) { name: "x.flag", json: "x.a_flag", tag: "x.Flag" }
/// }
/// let ctx = pir_core::IrContext::new();
/// register_example_kinds(&ctx);
/// let flag = ctx.intern_attr(FlagAttr(true));
/// assert_eq!(ctx.display_attr(flag), "true");
/// ```
#[macro_export]
macro_rules! declare_kinds {
    (
        $(#[$register_doc:meta])* $register_vis:vis fn $register:ident;
        $($(#[$meta:meta])* $form:ident $name:ident $data:tt $spec:tt)*
    ) => {
        $($crate::declare_kinds!(@kind $(#[$meta])* $form $name $data $spec);)*

        $(#[$register_doc])*
        $register_vis fn $register(ctx: &$crate::IrContext) {
            $($crate::declare_kinds!(@register ctx $form $name);)*
        }
    };

    (@register $ctx:ident attr $name:ident) => { $ctx.register_attr::<$name>() };
    (@register $ctx:ident type $name:ident) => { $ctx.register_type::<$name>() };

    // An attribute holding one field.
    (@kind $(#[$meta:meta])* attr $name:ident ($field:ty) {
        name: $kind:literal, json: $json:expr, tag: $tag:literal
        $(, self_describing: $self_describing:literal)?
        $(, keywords: $keywords:expr)?
        $(, parse: $parse:path)?
        $(,)?
    }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub struct $name(pub $field);

        impl $crate::AttrDef for $name {
            const NAME: &'static str = $kind;
            const JSON_IDS: &'static [&'static str] = &[$json];
            const TAG: &'static str = $tag;
            $(const SELF_DESCRIBING: bool = $self_describing;)?
            $(const KEYWORDS: &'static [&'static str] = $keywords;)?
            fn print(&self, p: &mut $crate::printer::Printer<'_>) {
                $crate::field::TextField::print_field(&self.0, p)
            }
            fn parse(
                p: &mut $crate::parser::Parser<'_>,
                expect: $crate::parser::Expect,
            ) -> Result<$crate::Attribute, $crate::parser::ParseError> {
                $crate::declare_kinds!(@parse p, expect, $name, intern_attr $(, $parse)?)
            }
            $crate::declare_kinds!(@one_field $name, $field, $json, Attribute, intern_attr);
        }
        $crate::declare_kinds!(@intern_key $name, $field, Attribute, intern_attr_by);
    };
    (@parse $p:ident, $expect:ident, $name:ident, $intern:ident) => {{
        let _ = $expect;
        let value = $crate::field::TextField::parse_field($p)?;
        Ok($p.ctx().$intern($name(value)))
    }};
    (@parse $p:ident, $expect:ident, $name:ident, $intern:ident, $parse:path) => {
        $parse($p, $expect)
    };

    // A type holding one field, printed after its keyword.
    (@kind $(#[$meta:meta])* type $name:ident ($field:ty) {
        name: $kind:literal, json: $json:expr, keyword: $keyword:literal $(,)?
    }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub struct $name(pub $field);

        impl $crate::TypeDef for $name {
            const NAME: &'static str = $kind;
            const JSON_IDS: &'static [&'static str] = &[$json];
            const KEYWORDS: &'static [&'static str] = &[$keyword];
            fn print(&self, p: &mut $crate::printer::Printer<'_>) {
                p.write_str($keyword);
                $crate::field::TextField::print_field(&self.0, p)
            }
            fn parse(
                p: &mut $crate::parser::Parser<'_>,
                _: &str,
                _: usize,
            ) -> Result<$crate::Type, $crate::parser::ParseError> {
                let value = $crate::field::TextField::parse_field(p)?;
                Ok(p.ctx().intern_type($name(value)))
            }
            $crate::declare_kinds!(@one_field $name, $field, $json, Type, intern_type);
        }
        $crate::declare_kinds!(@intern_key $name, $field, Type, intern_type_by);
    };

    // A tensor-like type: element type, dims, and further fields the typed
    // form prints by name.
    (@kind $(#[$meta:meta])* type $name:ident {
        $(#[$dtype_meta:meta])* dtype: Type,
        $(#[$dims_meta:meta])* dims: Box<[i64]>,
        $($(#[$field_meta:meta])* $field:ident: $field_ty:ty),+ $(,)?
    } {
        name: $kind:literal, json: $json:expr, keyword: $keyword:literal
        $(, untyped: $untyped:literal)?
        $(,)?
    }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub struct $name {
            $(#[$dtype_meta])* pub dtype: $crate::Type,
            $(#[$dims_meta])* pub dims: Box<[i64]>,
            $($(#[$field_meta])* pub $field: $field_ty,)+
        }

        impl $crate::TypeDef for $name {
            const NAME: &'static str = $kind;
            const JSON_IDS: &'static [&'static str] = &[$json];
            const KEYWORDS: &'static [&'static str] = &[$($untyped,)? $keyword];
            fn print(&self, p: &mut $crate::printer::Printer<'_>) {
                $(if !p.is_typed() {
                    p.write_str($untyped);
                    return;
                })?
                p.write_str(concat!($keyword, "<"));
                $crate::builtin::print_shape_and_dtype(p, &self.dims, self.dtype);
                if p.is_typed() {
                    $(
                        p.write_str(concat!(", ", stringify!($field), ":"));
                        $crate::field::TextField::print_field(&self.$field, p);
                    )+
                }
                p.write_str(">");
            }
            fn parse(
                p: &mut $crate::parser::Parser<'_>,
                keyword: &str,
                start: usize,
            ) -> Result<$crate::Type, $crate::parser::ParseError> {
                if keyword != $keyword {
                    return Err($crate::field::needs_typed_form(p, keyword, start, Self::NAME));
                }
                p.cur.expect("<", concat!("to open the `", $keyword, "` type"))?;
                let (dims, dtype) = p.parse_dims_and_dtype()?;
                if !p.cur.looking_at(",") {
                    return Err($crate::field::needs_typed_form(p, keyword, start, Self::NAME));
                }
                $(
                    p.cur.expect(",", concat!("before `", stringify!($field), "`"))?;
                    p.cur.skip_ws();
                    p.cur.expect(stringify!($field), "")?;
                    p.cur.expect(":", concat!("after `", stringify!($field), "`"))?;
                    let $field = $crate::field::TextField::parse_field(p)?;
                )+
                p.cur.expect(">", concat!("to close the `", $keyword, "` type"))?;
                Ok(p.ctx().intern_type($name {
                    dtype,
                    dims: dims.into(),
                    $($field,)+
                }))
            }
            $crate::json_fields!(type: dtype, dims, $($field),+);
        }
    };

    // The JSON of a kind holding one field: `{"#":json,"D":field}`. The exact
    // reader looks the kind up by the field's key, so reading a kind the
    // context holds builds nothing.
    (@intern_key $name:ident, $field:ty, $handle:ident, $intern_by:ident) => {
        impl $name {
            /// Interns the kind holding the field whose key is `key`,
            /// building it only when the context holds none.
            pub fn intern_key(
                ctx: &$crate::IrContext,
                key: &<$field as $crate::field::ExactField>::Key,
            ) -> $crate::$handle {
                use $crate::field::ExactField;
                ctx.$intern_by(
                    key,
                    |kind: &$name| kind.0.key() == key,
                    || $name(<$field as ExactField>::from_key(key)),
                )
            }
        }
    };
    (@one_field $name:ident, $field:ty, $json:expr, $handle:ident, $intern:ident) => {
        fn encode(
            &self,
            ctx: &$crate::IrContext,
            w: &mut $crate::serial::JsonWriter<'_>,
        ) -> Result<(), $crate::serial::EncodeError> {
            $crate::serial::begin_tagged(w, $json);
            $crate::field::JsonField::encode_field(&self.0, ctx, w)?;
            w.end_object();
            Ok(())
        }
        fn decode(
            input: $crate::serial::DecodeInput<'_>,
        ) -> Result<$crate::$handle, $crate::serial::DecodeError> {
            let (value, path) = input.data()?;
            let ctx = input.ctx;
            let field = $crate::serial::FieldInput { ctx, value, path: &path };
            let value = <$field as $crate::field::JsonField>::decode_field(field)?;
            Ok(ctx.$intern($name(value)))
        }
        fn decode_exact(
            ctx: &$crate::IrContext,
            _: &str,
            text: &mut $crate::serial::ExactJson<'_>,
        ) -> Option<$crate::$handle> {
            $crate::serial::decode_data_exact(text, |text| {
                let read = <$field as $crate::field::ExactField>::read_exact(ctx, text)?;
                Some($name::intern_key(ctx, ::core::borrow::Borrow::borrow(&read)))
            })
        }
    };
}

/// Declares a fieldless enum each of whose variants has two names (a JSON
/// spelling and a printed one, say), with the lookups both ways: `ALL`,
/// and for each name a getter (`fn(self) -> &'static str`), a finder by the
/// name (`fn(&str) -> Option<Self>`) and the list of every variant's name.
/// Each variant's doc names its first name.
///
/// ```
/// pir_core::named_enum! {
///     /// A direction.
///     pub enum Direction;
///     /// The word for it.
///     fn word, from_word, ALL_WORDS;
///     /// Its letter.
///     fn letter, from_letter, ALL_LETTERS;
///     Up => "up", "u";
///     Down => "down", "d";
/// }
/// assert_eq!(Direction::from_letter("d"), Some(Direction::Down));
/// assert_eq!(Direction::Up.word(), "up");
/// assert_eq!(Direction::ALL_WORDS, ["up", "down"]);
/// ```
#[macro_export]
macro_rules! named_enum {
    (
        $(#[$meta:meta])* $vis:vis enum $name:ident;
        $(#[$first_doc:meta])* fn $first:ident, $from_first:ident, $all_first:ident;
        $(#[$second_doc:meta])* fn $second:ident, $from_second:ident, $all_second:ident;
        $($(#[$variant_meta:meta])* $variant:ident => $a:literal, $b:literal;)*
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        $vis enum $name {
            $($(#[$variant_meta])* #[doc = concat!("`", $a, "`.")] $variant,)*
        }

        impl $name {
            /// Every variant.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];
            $crate::named_enum!(@name $name [$(#[$first_doc])*] $first, $from_first, $all_first: $($variant => $a),*);
            $crate::named_enum!(@name $name [$(#[$second_doc])*] $second, $from_second, $all_second: $($variant => $b),*);
        }
    };
    (@name $name:ident [$(#[$doc:meta])*] $get:ident, $from:ident, $all:ident: $($variant:ident => $s:literal),*) => {
        $(#[$doc])*
        pub fn $get(self) -> &'static str {
            match self {
                $($name::$variant => $s,)*
            }
        }

        #[doc = concat!("The variant whose `", stringify!($get), "` is `s`.")]
        pub fn $from(s: &str) -> Option<$name> {
            match s {
                $($s => Some($name::$variant),)*
                _ => None,
            }
        }

        #[doc = concat!("Every variant's `", stringify!($get), "`, in order.")]
        pub const $all: &'static [&'static str] = &[$($s,)*];
    };
}
