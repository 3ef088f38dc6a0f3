//! Float attributes that Paddle's print shortened to 6 significant digits
//! (C++'s `%g`), restored to the value Paddle's file most likely holds.
//!
//! A printed decimal stands for every float that prints as it. Which one
//! Paddle had is a guess, made in this order:
//!
//! 1. the op definition's default, or the default Paddle's Python API passes
//!    when it differs from the definition's ([`PYTHON_API_DEFAULTS`]): most
//!    values come from there (`selu`'s scale 1.0507 is 1.05070102…);
//! 2. when the print has lost digits, the simplest value that prints the
//!    same: a fraction `p/q` with a small denominator (`1/3` prints
//!    0.333333), else the square root of one (an attention scale
//!    `head_dim ** -0.5`, 0.353553 for 8);
//! 3. else the printed decimal itself.
//!
//! A double of an op whose `dtype` is float32 is then narrowed to float32 and
//! widened back: Paddle's API stores such values through a float (`full`'s
//! value 0.1 is 0.10000000149011612), unless the op's place is undefined
//! (such ops are made inside Paddle from doubles: `full` 1e-12 of
//! `normalize`). Whatever is chosen prints as Paddle's text did, so the print
//! of a parsed text never changes.

use std::any::TypeId;

use pir_core::builtin::{F32Attr, F64Attr};
use pir_core::{Attribute, IrContext, OpInfo, Symbol};

use crate::op_def::{DefaultValue, OpDefinition};
use crate::pd_op::{DataTypeAttr, PlaceAttr};

/// Float attributes whose value Paddle's Python API passes instead of the op
/// definition's default: `(op, attribute, value)`.
/// (`paddle.nn.functional.hardsigmoid(x, slope=0.1666667, offset=0.5)`;
/// the definition says 0.2.)
const PYTHON_API_DEFAULTS: &[(&str, &str, f64)] = &[("pd_op.hardsigmoid", "slope", 0.1666667)];

/// The largest denominator of a "simple" fraction. Fractions up to it are
/// about 1,250 per unit interval, so a value of 6 printed digits is taken
/// for one by chance about once in a thousand, and then changes by less than
/// its print's last digit.
const MAX_DENOMINATOR: u32 = 64;

/// Restores float attributes Paddle's print shortened to 6 digits (the
/// text parser's [`pir_core::parser::PrintedAttrsInterface`] for table ops):
/// see the module's documentation for the rules.
pub fn restore_printed_floats(ctx: &IrContext, info: &OpInfo, attrs: &mut [(Symbol, Attribute)]) {
    // Only float attributes change, and most ops have none: leave before
    // looking anything up.
    let (f32_id, f64_id) = (TypeId::of::<F32Attr>(), TypeId::of::<F64Attr>());
    let is_float = |a: Attribute| {
        // One look at the kind rather than two downcasts.
        let kind = ctx.attr_data(a).as_any().type_id();
        kind == f32_id || kind == f64_id
    };
    if !attrs.iter().any(|&(_, a)| is_float(a)) {
        return;
    }
    let Some(def) = info.interface::<OpDefinition>().map(|d| d.0) else {
        return;
    };
    let named = |wanted: &str| {
        attrs
            .iter()
            .find(|&&(name, _)| ctx.symbol_str(name) == wanted)
            .map(|&(_, a)| a)
    };
    let float32 = named("dtype")
        .and_then(|a| ctx.attr_as::<DataTypeAttr>(a))
        .is_some_and(|d| d.0 == crate::pd_op::DataType::Float32);
    let placed = named("place")
        .and_then(|a| ctx.attr_as::<PlaceAttr>(a))
        .is_some_and(|p| p.0.allocation_type != 0);
    let float32_op = float32 && placed;
    for (name, attr) in attrs.iter_mut() {
        if !is_float(*attr) {
            continue;
        }
        let name = ctx.symbol_str(*name);
        let definition_default = def.attribute(name).and_then(|spec| match spec.default {
            Some(DefaultValue::Float(d)) => Some(d),
            _ => None,
        });
        let python_default = PYTHON_API_DEFAULTS
            .iter()
            .find(|(op, attribute, _)| *op == info.name && *attribute == name)
            .map(|&(_, _, v)| v);
        let defaults = [definition_default, python_default];
        let defaults = defaults.iter().flatten().copied();
        if let Some(f) = ctx.attr_as::<F32Attr>(*attr) {
            let value = f.value();
            if definition_default.is_some_and(|d| (d as f32).to_bits() == value.to_bits()) {
                continue; // the default itself: nothing to restore
            }
            let printed = pir_json::f32_to_cpp_ostream_string(value);
            let prints_same = |x: f64| pir_json::f32_to_cpp_ostream_string(x as f32) == printed;
            if let Some(x) = likeliest(f64::from(value), &printed, defaults, prints_same) {
                let x = x as f32;
                if x.to_bits() != value.to_bits() {
                    *attr = F32Attr::get(ctx, x);
                }
            }
        } else if let Some(f) = ctx.attr_as::<F64Attr>(*attr) {
            let value = f.value();
            let widen = |v: f64| if float32_op { f64::from(v as f32) } else { v };
            let restored = if definition_default.is_some_and(|d| d.to_bits() == value.to_bits()) {
                // The default prints as itself: no need to compare the prints.
                widen(value)
            } else {
                let printed = pir_json::f64_to_cpp_ostream_string(value);
                let prints_same = |x: f64| pir_json::f64_to_cpp_ostream_string(widen(x)) == printed;
                widen(likeliest(value, &printed, defaults, prints_same).unwrap_or(value))
            };
            if restored.to_bits() != value.to_bits() {
                *attr = F64Attr::get(ctx, restored);
            }
        }
    }
}

/// The likeliest value behind `printed` (the print of `value`) other than
/// `value` itself: a default that prints the same, else, when the print has
/// lost digits, the simplest value that prints the same.
fn likeliest(
    value: f64,
    printed: &str,
    mut defaults: impl Iterator<Item = f64>,
    prints_same: impl Fn(f64) -> bool,
) -> Option<f64> {
    defaults.find(|&d| prints_same(d)).or_else(|| {
        if lost_digits(printed) {
            simplest(value, &prints_same)
        } else {
            None
        }
    })
}

/// Whether a `%g` print may have rounded its value: it shows all 6 of its
/// significant digits.
fn lost_digits(printed: &str) -> bool {
    let mantissa = printed.split(['e', 'E']).next().unwrap_or_default();
    let digits = mantissa
        .bytes()
        .filter(u8::is_ascii_digit)
        .skip_while(|&b| b == b'0')
        .count();
    digits >= 6
}

/// The simplest value near `value` that prints the same: `p/q`, else
/// `±sqrt(p/q)`, for the smallest denominator `q ≤ MAX_DENOMINATOR`, else
/// `±n ** -0.5` for an integer `n`.
fn simplest(value: f64, prints_same: &impl Fn(f64) -> bool) -> Option<f64> {
    if !value.is_finite() {
        return None;
    }
    let fractions = |target: f64| {
        (1..=MAX_DENOMINATOR).filter_map(move |q| {
            let q = f64::from(q);
            let p = (target * q).round();
            (p != 0.0).then_some(p / q)
        })
    };
    fractions(value)
        .find(|&x| prints_same(x))
        .or_else(|| {
            fractions(value * value)
                .map(|x| x.sqrt().copysign(value))
                .find(|&x| prints_same(x))
        })
        .or_else(|| {
            // `n ** -0.5` for an attention head of any width: the square's
            // reciprocal is an integer.
            let n = (value * value).recip().round();
            let x = n.powf(-0.5).copysign(value);
            (n >= 1.0 && prints_same(x)).then_some(x)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32_print_restores(printed: &str) -> f32 {
        let value: f32 = printed.parse().unwrap();
        let prints_same = |x: f64| pir_json::f32_to_cpp_ostream_string(x as f32) == printed;
        likeliest(f64::from(value), printed, std::iter::empty(), prints_same)
            .map_or(value, |x| x as f32)
    }

    #[test]
    fn a_third_and_an_attention_scale_are_recognised() {
        assert_eq!(f32_print_restores("0.333333"), 1.0f32 / 3.0);
        assert_eq!(f32_print_restores("-0.666667"), -2.0f32 / 3.0);
        assert_eq!(f32_print_restores("0.353553"), (8.0f64).powf(-0.5) as f32);
        assert_eq!(
            f32_print_restores("0.0883883"),
            (128.0f64).powf(-0.5) as f32
        );
    }

    fn stays_as_printed(printed: &str) {
        let value: f32 = printed.parse().unwrap();
        assert_eq!(
            f32_print_restores(printed).to_bits(),
            value.to_bits(),
            "{printed}"
        );
    }

    #[test]
    fn values_the_print_did_not_round_stay_as_printed() {
        for printed in ["0.1", "0.5", "1e-05", "0.0001", "1.0507", "3", "-2.5"] {
            stays_as_printed(printed);
        }
    }

    #[test]
    fn six_digit_values_of_no_simple_form_stay_the_nearest_float() {
        for printed in ["0.123457", "2.71828", "123457", "1.23457e-07"] {
            stays_as_printed(printed);
        }
    }

    #[test]
    fn a_default_that_prints_the_same_comes_first() {
        let printed = "0.166667";
        let prints_same = |x: f64| pir_json::f32_to_cpp_ostream_string(x as f32) == printed;
        let value = f64::from(0.166667f32);
        // 1/6 would be the simplest, but Paddle's API passes 0.1666667.
        assert_eq!(
            likeliest(value, printed, [0.2, 0.1666667].into_iter(), prints_same),
            Some(0.1666667)
        );
        assert_eq!(
            likeliest(value, printed, [0.2].into_iter(), prints_same),
            Some(1.0 / 6.0)
        );
    }

    #[test]
    fn lost_digits_counts_significant_digits() {
        assert!(lost_digits("0.333333"));
        assert!(lost_digits("-1.23457e+10"));
        assert!(!lost_digits("0.00012"));
        assert!(!lost_digits("1e-05"));
        assert!(!lost_digits("inf"));
    }
}
