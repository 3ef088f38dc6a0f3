//! Bitwise ops on integers before opset 18 (`bitwise_and`, `bitwise_or`,
//! `bitwise_xor`, `bitwise_not`), where ONNX has no `BitwiseAnd` & co.
//!
//! Bools map to `And`/`Or`/`Xor`/`Not` and opset 18 and later to the
//! `Bitwise*` ops (the elementwise mappers). Below 18 an integer op is
//! computed bit by bit, exactly: the operands are reinterpreted as unsigned
//! integers of their width (32 bits for 8 to 32-bit integers, whose sign
//! extension the ops commute with; 64 for int64), each bit is taken with
//! `BitShift` and `Mod 2`, the bits are combined (`Mul` for and, `Max` for
//! or, `Mod(a + b, 2)` for xor), shifted back and summed in the signed type
//! of the same width (the bits are disjoint, so the sum is their or).
//! `bitwise_not` is `-1 - x` (two's complement), `255 - x` for uint8.

use pir_params::DType;

use crate::export::{a_int, a_str, Exporter};
use crate::mappers::elementwise;
use crate::mappers::index::reduce;
use crate::proto::{DataType, TensorProto};
use crate::ExportError;

type R = Result<(), ExportError>;

/// The unsigned type bits are taken in, and the signed type of the same
/// width they are summed in, for an integer dtype; `None` for others.
fn work_types(d: DType) -> Option<(DataType, DataType, u32)> {
    match d {
        DType::Int8 | DType::Int16 | DType::Int32 | DType::UInt8 => {
            Some((DataType::Uint32, DataType::Int32, 32))
        }
        DType::Int64 => Some((DataType::Uint64, DataType::Int64, 64)),
        _ => None,
    }
}

/// The shift amounts `0..width` as a 1-D tensor of the unsigned type.
fn shift_amounts(x: &mut Exporter<'_>, unsigned: DataType, width: u32) -> String {
    let raw: Vec<u8> = (0..u64::from(width))
        .flat_map(|k| match unsigned {
            DataType::Uint32 => (k as u32).to_le_bytes().to_vec(),
            _ => k.to_le_bytes().to_vec(),
        })
        .collect();
    let name = x.tmp();
    x.initializer(TensorProto {
        dims: vec![i64::from(width)],
        data_type: unsigned as i32,
        name: name.clone(),
        raw_data: raw,
        ..Default::default()
    });
    name
}

/// A 0-d constant 2 of the unsigned type.
fn two(x: &mut Exporter<'_>, unsigned: DataType) -> String {
    let raw = match unsigned {
        DataType::Uint32 => 2u32.to_le_bytes().to_vec(),
        _ => 2u64.to_le_bytes().to_vec(),
    };
    let name = x.tmp();
    x.initializer(TensorProto {
        dims: vec![],
        data_type: unsigned as i32,
        name: name.clone(),
        raw_data: raw,
        ..Default::default()
    });
    name
}

/// The bits of `a` (cast to `unsigned`) along a new last axis, lowest first.
fn bits_of(x: &mut Exporter<'_>, a: &str, unsigned: DataType, shifts: &str, two: &str) -> String {
    let u = x.node1("Cast", &[a], vec![a_int("to", unsigned as i64)]);
    let u = x.unsqueeze(&u, &[-1]);
    let shifted = x.node1("BitShift", &[&u, shifts], vec![a_str("direction", "RIGHT")]);
    x.node1("Mod", &[&shifted, two], vec![])
}

/// `bitwise_and`, `bitwise_or`, `bitwise_xor`.
pub(crate) fn binary(x: &mut Exporter<'_>) -> R {
    let d = x.out_dtype(0)?;
    let Some((unsigned, signed, width)) = work_types(d).filter(|_| x.opset < 18) else {
        return elementwise::binary(x);
    };
    if x.in_dtype(0)? != d || x.in_dtype(1)? != d {
        return Err(x.unsupported("operands of different dtypes"));
    }
    let (a, b) = (x.input(0)?, x.input(1)?);
    let shifts = shift_amounts(x, unsigned, width);
    let two = two(x, unsigned);
    let ba = bits_of(x, &a, unsigned, &shifts, &two);
    let bb = bits_of(x, &b, unsigned, &shifts, &two);
    let bits = match elementwise::base_name(x) {
        "bitwise_and" => x.node1("Mul", &[&ba, &bb], vec![]),
        "bitwise_or" => x.node1("Max", &[&ba, &bb], vec![]),
        "bitwise_xor" => {
            let s = x.node1("Add", &[&ba, &bb], vec![]);
            x.node1("Mod", &[&s, &two], vec![])
        }
        other => return Err(x.unsupported(format!("no bitwise op `{other}`"))),
    };
    let placed = x.node1(
        "BitShift",
        &[&bits, &shifts],
        vec![a_str("direction", "LEFT")],
    );
    let placed = x.node1("Cast", &[&placed], vec![a_int("to", signed as i64)]);
    let sum = reduce(x, "ReduceSum", &placed, &[-1], false);
    let to = x.onnx_type(d)?;
    let out = elementwise::out_inplace(x);
    x.node("Cast", &[&sum], &[&out], vec![a_int("to", to as i64)]);
    Ok(())
}

/// `bitwise_not`.
pub(crate) fn not(x: &mut Exporter<'_>) -> R {
    let d = x.out_dtype(0)?;
    if work_types(d).is_none() || x.opset >= 18 {
        return elementwise::unary(x);
    }
    let a = x.input(0)?;
    // Two's complement: !a == -1 - a (no overflow at either end); for
    // unsigned bytes 255 - a.
    let all_ones = x.const_scalar(d, if d == DType::UInt8 { 255.0 } else { -1.0 })?;
    let out = elementwise::out_inplace(x);
    x.node("Sub", &[&all_ones, &a], &[&out], vec![]);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::work_types;
    use crate::proto::DataType;
    use pir_params::DType;

    #[test]
    fn narrow_integers_work_in_32_bits_and_int64_in_64() {
        assert_eq!(
            work_types(DType::Int8),
            Some((DataType::Uint32, DataType::Int32, 32))
        );
        assert_eq!(
            work_types(DType::Int64),
            Some((DataType::Uint64, DataType::Int64, 64))
        );
        assert_eq!(work_types(DType::Bool), None);
        assert_eq!(work_types(DType::Float32), None);
    }

    const INT_AND: &str = r#"    (%0) = "pd_op.data" () {dtype:int64,name:"a",place:Place(undefined:0),shape:[-1,5],stop_gradient:[false]} : () -> tensor<-1x5xi64>
    (%1) = "pd_op.data" () {dtype:int64,name:"b",place:Place(undefined:0),shape:[-1,5],stop_gradient:[false]} : () -> tensor<-1x5xi64>
    (%2) = "pd_op.bitwise_and" (%0, %1) {stop_gradient:[false]} : (tensor<-1x5xi64>, tensor<-1x5xi64>) -> tensor<-1x5xi64>
    (%3) = "pd_op.fetch" (%2) {col:0,name:"y",persistable:[true],stop_gradient:[false]} : (tensor<-1x5xi64>) -> tensor<-1x5xi64>"#;

    #[test]
    fn integer_bitwise_and_is_taken_bit_by_bit_before_opset_18() {
        use crate::mappers::tests::{export_at, op_types};
        let g = export_at(INT_AND, 17)
            .expect("exports")
            .graph
            .expect("graph");
        let types = op_types(&g);
        assert!(!types.contains(&"BitwiseAnd"));
        assert_eq!(types.iter().filter(|t| **t == "BitShift").count(), 3);
        let g = export_at(INT_AND, 18)
            .expect("exports")
            .graph
            .expect("graph");
        assert!(op_types(&g).contains(&"BitwiseAnd"));
    }
}
