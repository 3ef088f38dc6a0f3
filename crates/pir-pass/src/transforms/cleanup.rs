//! Paddle's general cleanups that need no kernels: `delete_assert` and
//! `replace_fetch_with_shadow_output`.

use pir_core::builtin::StrAttr;
use pir_core::walk::Order;
use pir_core::{InsertPoint, OpId, Program};
use pir_dialects::ops::{AssertOp, FetchOp};

use crate::pass::{Changed, Named, Pass, PassError, PassResult, PassRun};

fn ops_named(p: &Program, root: OpId, name: &str) -> Vec<OpId> {
    let mut found = Vec::new();
    p.walk(root, Order::Pre, &mut |op| {
        if p.op_name_str(op) == name {
            found.push(op);
        }
    });
    found
}

pass_without_options! {
    /// The `delete_assert` pass.
    DELETE_ASSERT = "delete_assert", "remove runtime assertions";
    /// `delete_assert`: removes `pd_op.assert` (it has no results).
    DeleteAssert
}

impl Pass for DeleteAssert {
    fn run(&mut self, PassRun { program, root, cx }: PassRun<'_>) -> PassResult {
        let asserts = ops_named(program, root, AssertOp::NAME);
        for &op in &asserts {
            program.erase_op(op).map_err(|e| PassError {
                pass: "delete_assert".into(),
                message: e.to_string(),
            })?;
        }
        cx.statistics.add("asserts erased", asserts.len() as u64);
        Ok(if asserts.is_empty() {
            Changed::No
        } else {
            Changed::Yes
        })
    }
}

pass_without_options! {
    /// The `replace_fetch_with_shadow_output` pass.
    REPLACE_FETCH_WITH_SHADOW_OUTPUT = "replace_fetch_with_shadow_output",
        "turn fetch ops into shadow outputs of the same name";
    /// `replace_fetch_with_shadow_output`: `pd_op.fetch(x) {name}` whose result is
    /// unused becomes `builtin.shadow_output(x) {output_name: name}`.
    ReplaceFetchWithShadowOutput
}

impl Pass for ReplaceFetchWithShadowOutput {
    fn run(&mut self, PassRun { program, root, cx }: PassRun<'_>) -> PassResult {
        let ctx = program.ctx_arc().clone();
        let mut replaced = 0u64;
        for op in ops_named(program, root, FetchOp::NAME) {
            let Some(name) = program.attr(op, "name") else {
                continue;
            };
            if ctx.attr_as::<StrAttr>(name).is_none()
                || program.results(op).any(|r| !program.use_empty(r))
            {
                continue;
            }
            let operands: Vec<_> = program.operands(op).collect();
            let attrs = ctx.dict(&[(ctx.symbol("output_name"), name)]);
            let shadow = program.create_op(
                ctx.symbol("builtin.shadow_output"),
                &operands,
                &[],
                attrs,
                0,
            );
            program.insert_op(shadow, InsertPoint::Before(op));
            program.erase_op(op).map_err(|e| PassError {
                pass: self.argument().into(),
                message: e.to_string(),
            })?;
            replaced += 1;
        }
        cx.statistics.add("fetches replaced", replaced);
        Ok(Changed::from(replaced > 0))
    }
}
