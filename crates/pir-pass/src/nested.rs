//! Nested pipelines: `pd_op.while(cse,dce)` runs passes on each op of a name,
//! with that op as the root (only its regions are transformed).

use crate::pass::{Changed, Named, Pass, PassResult, PassRun};
use pir_core::walk::Order;

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

impl Named for Nested {
    fn argument(&self) -> &'static str {
        "nested"
    }
    fn description(&self) -> &'static str {
        "run a pipeline on each op of a name"
    }
}

impl Pass for Nested {
    fn run(&mut self, PassRun { program, root, cx }: PassRun<'_>) -> PassResult {
        let mut targets = Vec::new();
        program.walk(root, Order::Pre, &mut |op| {
            if op != root && program.op_name_str(op) == self.op_name {
                targets.push(op);
            }
        });
        let mut changed = Changed::No;
        for op in targets {
            if program.is_erased(op) {
                continue;
            }
            for pass in &mut self.passes {
                let inner = pass.run(PassRun {
                    program,
                    root: op,
                    cx,
                })?;
                cx.finish_inner_pass(inner);
                if inner == Changed::Yes {
                    changed = Changed::Yes;
                }
            }
        }
        Ok(changed)
    }
}
