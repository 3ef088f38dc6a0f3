//! Dead code elimination: erases pure ops whose results are unused, in every
//! region, until none is left (erasing a user can make its operands dead).

use crate::registry::PassInfo;
use pir_core::walk::Order;
use pir_core::{OpId, Program};

use crate::effects::is_pure;
use crate::pass::{Changed, Pass, PassContext, PassError};

/// The `dce` pass.
pub const INFO: PassInfo = PassInfo {
    argument: "dce",
    description: "erase side-effect-free ops whose results are unused",
    options: &[],
    make: |_| Ok(Box::new(DeadCodeElimination)),
};

/// The `dce` pass.
#[derive(Debug, Default)]
pub struct DeadCodeElimination;

impl Pass for DeadCodeElimination {
    fn argument(&self) -> &'static str {
        INFO.argument
    }
    fn run(
        &mut self,
        p: &mut Program,
        root: OpId,
        cx: &mut PassContext,
    ) -> Result<Changed, PassError> {
        let mut worklist = Vec::new();
        p.walk(root, Order::Post, &mut |op| {
            if op != root {
                worklist.push(op);
            }
        });
        // Users come after their operands' definitions: pop from the end first.
        let mut erased = 0u64;
        while let Some(op) = worklist.pop() {
            if p.is_erased(op) || !is_pure(p, op) || p.results(op).any(|r| !p.use_empty(r)) {
                continue;
            }
            let defs: Vec<OpId> = p
                .operands(op)
                .flatten()
                .filter_map(|v| p.defining_op(v))
                .collect();
            p.erase_op(op).map_err(|e| PassError {
                pass: "dce".into(),
                message: e.to_string(),
            })?;
            erased += 1;
            worklist.extend(defs);
        }
        cx.statistics.add("ops erased", erased);
        Ok(Changed::from(erased > 0))
    }
}
