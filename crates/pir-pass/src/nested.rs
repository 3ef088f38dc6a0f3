//! Nested pipelines: `pd_op.while(cse,dce)` runs passes on each op of a name,
//! with that op as the root (only its regions are transformed).

use pir_core::walk::Order;
use pir_core::{OpId, Program};

use crate::pass::{Changed, Pass, PassContext, PassError};

/// Runs `passes` on every op named `op_name` nested in the root.
pub struct Nested {
    op_name: String,
    passes: Vec<Box<dyn Pass>>,
}

impl Nested {
    /// A nested pipeline.
    pub fn new(op_name: impl Into<String>, passes: Vec<Box<dyn Pass>>) -> Self {
        Nested {
            op_name: op_name.into(),
            passes,
        }
    }
}

impl Pass for Nested {
    fn argument(&self) -> &'static str {
        "nested"
    }
    fn description(&self) -> &'static str {
        "run a pipeline on each op of a name"
    }
    fn run(
        &mut self,
        p: &mut Program,
        root: OpId,
        cx: &mut PassContext,
    ) -> Result<Changed, PassError> {
        let mut targets = Vec::new();
        p.walk(root, Order::Pre, &mut |op| {
            if op != root && p.op_name_str(op) == self.op_name {
                targets.push(op);
            }
        });
        let mut changed = Changed::No;
        for op in targets {
            if p.is_erased(op) {
                continue;
            }
            for pass in &mut self.passes {
                let inner = pass.run(p, op, cx)?;
                cx.finish_inner_pass(inner);
                if inner == Changed::Yes {
                    changed = Changed::Yes;
                }
            }
        }
        Ok(changed)
    }
}
