//! Programs built by hand for the tests: `framework.proto` messages (the
//! prost types of `proto.rs`, which the including test declares as
//! `mod proto`) with what is not said left out.

// Each test uses a part.
#![allow(dead_code)]

use prost::Message;

use crate::proto::{self, op_desc, var_type};

/// A dense tensor variable of element type `dtype` (`VarType.Type`).
pub fn tensor(name: &str, dtype: i32, dims: &[i64], persistable: bool) -> proto::VarDesc {
    proto::VarDesc {
        name: name.into(),
        r#type: proto::VarType {
            r#type: 7,
            dense_tensor: Some(var_type::DenseTensorDesc {
                tensor: var_type::TensorDesc {
                    data_type: dtype,
                    dims: dims.to_vec(),
                },
                legacy_lod_level: None,
            }),
            ..Default::default()
        },
        persistable: Some(persistable),
        ..Default::default()
    }
}

/// Input or output slot `name` holding `args`.
pub fn slot(name: &str, args: &[impl AsRef<str>]) -> op_desc::Var {
    op_desc::Var {
        parameter: name.into(),
        arguments: args.iter().map(|s| s.as_ref().to_owned()).collect(),
    }
}

/// Input or output slot `name` holding nothing.
pub fn empty_slot(name: &str) -> op_desc::Var {
    let none: [&str; 0] = [];
    slot(name, &none)
}

/// Attribute `name` of kind `ty`, its value to be filled in.
pub fn attr(name: &str, ty: proto::AttrType) -> op_desc::Attr {
    op_desc::Attr {
        name: name.into(),
        r#type: ty as i32,
        ..Default::default()
    }
}

/// An `INT` attribute.
pub fn int_attr(name: &str, v: i32) -> op_desc::Attr {
    op_desc::Attr {
        i: Some(v),
        ..attr(name, proto::AttrType::Int)
    }
}

/// An op of type `ty`.
pub fn op(
    ty: &str,
    inputs: Vec<op_desc::Var>,
    outputs: Vec<op_desc::Var>,
    attrs: Vec<op_desc::Attr>,
) -> proto::OpDesc {
    proto::OpDesc {
        r#type: ty.into(),
        inputs,
        outputs,
        attrs,
        is_target: None,
    }
}

/// Block `idx` inside block `parent` (`-1` for the top block).
pub fn block(
    idx: i32,
    parent: i32,
    vars: Vec<proto::VarDesc>,
    ops: Vec<proto::OpDesc>,
) -> proto::BlockDesc {
    proto::BlockDesc {
        idx,
        parent_idx: parent,
        vars,
        ops,
        forward_block_idx: None,
    }
}

/// The bytes of a program of `blocks`.
pub fn encode(blocks: Vec<proto::BlockDesc>) -> Vec<u8> {
    proto::ProgramDesc {
        blocks,
        version: None,
        op_version_map: None,
    }
    .encode_to_vec()
}
