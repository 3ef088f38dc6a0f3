//! InferMeta functions without tensor inputs (Paddle's `infermeta/nullary.cc`)
//! and the creation ops whose inputs only give values.

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::meta::{Meta, Out};
use crate::unary::{dd, set};
use crate::Bad;

/// `CreateInferMeta` (`full`): dims of the shape, NCHW.
pub(crate) fn create(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let shape = a.int_array(0)?;
    let dtype = a.dtype(1)?;
    set(outs, 0, Meta::new(dtype, dd(&shape.values)?));
    // Paddle's `while_loop` builds a placeholder `full` for a loop variable
    // and then sets its type to what the body yields for it.
    if let Some(m) = loop_placeholder(a)? {
        set(outs, 0, m);
    }
    Ok(())
}

/// The meta a `while` body yields for the loop variable `a`'s result
/// initialises, if that result is a loop operand.
fn loop_placeholder(a: &Args<'_>) -> Result<Option<Meta>, Bad> {
    let p = a.p;
    if p.num_results(a.op) != 1 {
        return Ok(None);
    }
    for u in p.uses(p.result(a.op, 0)) {
        let user = p.operand_owner(u);
        let k = p.operand_index(u);
        if p.op_name_str(user) != "pd_op.while" || k == 0 || p.num_regions(user) == 0 {
            continue;
        }
        let region = p.op_region(user, 0);
        let Some(&block) = p.region_blocks(region).first() else {
            continue;
        };
        let Some(last) = p.block_last_op(block) else {
            continue;
        };
        if let Some(v) = p.operand(last, k) {
            return crate::meta::meta_of(p.ctx(), p.value_type(v));
        }
    }
    Ok(None)
}

/// `CreateVecShapeInferMeta` (`full_int_array`): a 1-d tensor of the values.
pub(crate) fn create_vec_shape(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let n = a.ints(0)?.len() as i64;
    let dtype = a.dtype(1)?;
    set(outs, 0, Meta::new(dtype, dd(&[n])?));
    Ok(())
}

/// `DataInferMeta`: name, shape, dtype.
pub(crate) fn data(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let shape = a.int_array(1)?;
    let dtype = a.dtype(2)?;
    set(outs, 0, Meta::new(dtype, dd(&shape.values)?));
    Ok(())
}

/// Shape then dtype, as for `GaussianInferMeta` (shape, mean, std, dtype)
/// and `UniformRandomInferMeta` (shape, dtype): dims of the IntArray.
pub(crate) fn shape_last_dtype(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let shape = a.int_array(0)?;
    let dtype = a.dtype(a.len() - 1)?;
    set(outs, 0, Meta::new(dtype, dd(&shape.values)?));
    Ok(())
}

/// `AssignValueInferMeta`: shape list, dtype.
pub(crate) fn assign_value(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let shape = a.ints(0)?;
    let dtype = a.dtype(1)?;
    set(outs, 0, Meta::new(dtype, dd(&shape)?));
    Ok(())
}

/// `EyeInferMeta`: `num_rows x num_columns` (`-1` columns: square; from a
/// tensor: unknown).
pub(crate) fn eye(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let rows = a.scalar(0)?;
    let cols = a.scalar(1)?;
    let dtype = a.dtype(2)?;
    let r = if rows.from_tensor {
        -1
    } else {
        rows.value as i64
    };
    let mut c = if cols.from_tensor {
        -1
    } else {
        cols.value as i64
    };
    if c == -1 && !cols.from_tensor {
        c = r;
    }
    set(outs, 0, Meta::new(dtype, dd(&[r, c])?));
    Ok(())
}

/// `ArangeInferMeta` (start, end, step, dtype): the length when all three
/// are known, else `-1`; 0 when the step points away from `end` (checked
/// against Paddle 3.3.1: `arange(2, 1, 0.5)` is `[0]`); a step of 0 in the
/// output's type is refused.
pub(crate) fn arange(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let (s, e, st) = (a.scalar(0)?, a.scalar(1)?, a.scalar(2)?);
    let dtype = a.dtype(3)?;
    let int = matches!(dtype, DataType::Int32 | DataType::Int64);
    // The step is checked in the output's type (0.5 is 0 for int64).
    let zero_step = if int {
        st.value as i64 == 0
    } else {
        st.value == 0.0
    };
    let n = if s.from_tensor || e.from_tensor || st.from_tensor {
        -1
    } else if zero_step {
        return Err(Bad("The step of range op should not be 0.".into()));
    } else if int {
        let (s, e, st) = (s.value as i64, e.value as i64, st.value as i64);
        if (e - s).signum() * st.signum() < 0 {
            0
        } else {
            ((e - s).abs() + st.abs() - 1) / st.abs()
        }
    } else if (e.value - s.value) * st.value < 0.0 {
        0
    } else {
        ((e.value - s.value) / st.value).abs().ceil() as i64
    };
    set(outs, 0, Meta::new(dtype, dd(&[n])?));
    Ok(())
}

/// `RandintInferMeta` (low, high, shape, dtype).
pub(crate) fn randint(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let shape = a.int_array(2)?;
    let dtype = a.dtype(3)?;
    set(outs, 0, Meta::new(dtype, dd(&shape.values)?));
    Ok(())
}

/// `RandpermInferMeta` (n, dtype).
pub(crate) fn randperm(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let n = a.int(0)?;
    let dtype = a.dtype(1)?;
    set(outs, 0, Meta::new(dtype, dd(&[n])?));
    Ok(())
}

/// `FullWithTensorInferMeta` (shape, dtype): dims of the shape array.
pub(crate) fn full_with_tensor(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let shape = a.int_array(0)?;
    let dtype = a.dtype(1)?;
    set(outs, 0, Meta::new(dtype, dd(&shape.values)?));
    Ok(())
}

mod collective;
mod more;
mod range;
pub(crate) use collective::recv_v2;
pub(crate) use more::{read_file, tril_indices, triu_indices, truncated_gaussian_random};
pub(crate) use range::{random, range};

test_modules! {
    mod collective_tests;
    mod more_tests;
    mod range_tests;
}
#[cfg(test)]
mod tests {
    use crate::testing::types;

    #[test]
    fn full_with_tensor_takes_the_shape_values() {
        let t = "{\n(%0) = \"pd_op.full\" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>\n\
                 (%1) = \"pd_op.full_int_array\" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[2,3]} : () -> tensor<2xi64>\n\
                 (%2) = \"pd_op.full_with_tensor\" (%0, %1) {dtype:float32,stop_gradient:[true]} : (tensor<1xf32>, tensor<2xi64>) -> tensor<2x3xf32>\n}\n";
        assert_eq!(types(t), ["tensor<2x3xf32>"]);
    }
}
