//! The `cf` dialect: `cf.yield` (region terminator), the stack ops used by
//! control-flow gradients (`cf.stack_create`, `cf.tuple_push`, `cf.tuple_pop`,
//! `cf.has_elements`) and their types `cf.stack`, `cf.inlet`, `cf.outlet`.
//!
//! The ops themselves come from the definition table (registered with the
//! `pd_op` dialect, which is where Paddle registers them too); this module
//! registers the types and the printed names of `cf.stack_create` results
//! (`%stack_0, %inlet_0, %outlet_0`).

use pir_core::parser::{ParseError, Parser};
use pir_core::printer::Printer;
use pir_core::serial::{self, DecodeError, DecodeInput, EncodeError, JsonWriter};
use pir_core::{Dialect, IrContext, OpId, Program, Type, TypeDef};

macro_rules! unit_type {
    ($(#[$doc:meta])* $name:ident, $kind:literal, $json:literal, $text:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub struct $name;

        impl TypeDef for $name {
            const NAME: &'static str = $kind;
            const JSON_IDS: &'static [&'static str] = &[$json];
            const KEYWORDS: &'static [&'static str] = &[$text];
            fn print(&self, p: &mut Printer<'_>) {
                p.write_str($text);
            }
            fn parse(p: &mut Parser<'_>, _: &str, _: usize) -> Result<Type, ParseError> {
                Ok(p.ctx().intern_type($name))
            }
            fn encode(&self, _: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
                serial::write_tag_only(w, $json);
                Ok(())
            }
            fn decode(input: DecodeInput<'_>) -> Result<Type, DecodeError> {
                Ok(input.ctx.intern_type($name))
            }
        }
    };
}

unit_type!(
    /// `pir::StackType` (`2.t_stack`).
    StackType, "cf.stack", "2.t_stack", "cf.stack"
);
unit_type!(
    /// `pir::InletType` (`2.t_inlet`).
    InletType, "cf.inlet", "2.t_inlet", "cf.inlet"
);
unit_type!(
    /// `pir::OutletType` (`2.t_outlet`).
    OutletType, "cf.outlet", "2.t_outlet", "cf.outlet"
);

/// The `cf` dialect.
pub struct CfDialect;

impl Dialect for CfDialect {
    fn name(&self) -> &'static str {
        "cf"
    }

    fn register(&self, ctx: &IrContext) {
        ctx.register_type::<StackType>();
        ctx.register_type::<InletType>();
        ctx.register_type::<OutletType>();
        let name = ctx.symbol("cf.stack_create");
        if let Some(info) = ctx.op_info(name) {
            // Re-register with the custom result names, keeping everything else.
            let def = info.interface::<crate::op_def::OpDefinition>().copied();
            let mut new = pir_core::OpInfo::new("cf.stack_create", info.dialect)
                .with_attributes(&info.attribute_names)
                .with_printer(print_stack_create);
            new.traits = info.traits;
            new.verify = info.verify;
            new.parse = info.parse;
            if let Some(def) = def {
                new = new
                    .with_interface(def)
                    .with_interface(pir_core::parser::AttrHintInterface(
                        crate::op_registry::attr_hint_from_definition,
                    ));
            }
            ctx.register_op(new);
        }
    }
}

fn print_stack_create(p: &mut Printer<'_>, program: &Program, op: OpId) {
    let k = p.next_counter("cf.stack");
    for (r, prefix) in program.results(op).zip(["stack", "inlet", "outlet"]) {
        p.set_value_name(r, &format!("{prefix}_{k}"));
    }
    p.print_generic_op(program, op);
}
