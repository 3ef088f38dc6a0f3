//! Two passes written outside the library and run by a `PassManager`: one
//! that implements the `Pass` trait directly (it counts ops), and one built
//! from a `RewritePattern` (it folds `relu(relu(x))` into `relu(x)`).
//!
//! `cargo run -p pir --example custom_pass`
#![allow(clippy::unwrap_used)] // an example fails loudly by design

use pir::core::walk::Order;
use pir::core::{OpId, Program};
use pir::pass::rewrite::PatternPass;
use pir::pass::rewrite::{GreedyConfig, RewritePattern, Rewriter, Root};
use pir::pass::{Changed, Named, Pass, PassManager, PassResult, PassRun};

/// Counts the ops named `op` under the pass's root, in the counter `op`.
struct CountOps {
    op: &'static str,
}

// A pass outside the registry names and describes itself.
impl Named for CountOps {
    fn argument(&self) -> &'static str {
        "count_ops"
    }

    fn description(&self) -> &'static str {
        "count the ops of one name"
    }
}

impl Pass for CountOps {
    fn run(&mut self, PassRun { program, root, cx }: PassRun<'_>) -> PassResult {
        let mut n = 0;
        program.walk(root, Order::Pre, &mut |op| {
            n += u64::from(program.op_name_str(op) == self.op)
        });
        cx.statistics.add(self.op, n);
        // Nothing was edited, so cached analyses stay valid.
        Ok(Changed::No)
    }
}

/// `relu(relu(x))` is `relu(x)`: the outer op's uses read the inner result.
struct FoldDoubleRelu;

impl RewritePattern for FoldDoubleRelu {
    fn name(&self) -> &str {
        "fold-double-relu"
    }

    fn root(&self) -> Root {
        // `pd_op.relu` only: the in-place `pd_op.relu_` writes its input,
        // and forwarding across a write could be observed.
        Root::op("pd_op.relu")
    }

    fn match_and_rewrite(&self, rw: &mut Rewriter<'_>, op: OpId) -> bool {
        let p = rw.program();
        let Some(inner) = p.operand(op, 0).and_then(|x| p.defining_op(x)) else {
            return false;
        };
        if p.op_name_str(inner) != "pd_op.relu" {
            return false;
        }
        let inner_result = p.result(inner, 0);
        // Replaces the uses and erases `op`; the driver then revisits the
        // inner relu, so chains of any length fold.
        rw.replace_op(op, &[inner_result])
    }
}

/// Paddle's print of a small program with a relu of a relu.
const PROGRAM: &str = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf32>
    (%1) = "pd_op.relu" (%0) {stop_gradient:[true]} : (tensor<-1x8xf32>) -> tensor<-1x8xf32>
    (%2) = "pd_op.relu" (%1) {stop_gradient:[true]} : (tensor<-1x8xf32>) -> tensor<-1x8xf32>
    (%3) = "pd_op.relu" (%2) {stop_gradient:[true]} : (tensor<-1x8xf32>) -> tensor<-1x8xf32>
    (%4) = "pd_op.fetch" (%3) {col:0,name:"fetch_name_0",persistable:[true],stop_gradient:[true]} : (tensor<-1x8xf32>) -> tensor<-1x8xf32>
}
"#;

/// Runs the example (`tests/examples.rs` runs it too).
pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    let ctx = pir::dialects::pd_op_context();
    let mut program = Program::parse(&ctx, PROGRAM)?;
    program.verify().map_err(|e| e.to_string())?;

    // Registered passes come from pipeline text; our own are boxed and
    // mixed in freely.
    let mut passes: Vec<Box<dyn Pass>> = vec![Box::new(CountOps { op: "pd_op.relu" })];
    passes.push(Box::new(PatternPass::new(
        "fold_double_relu",
        vec![Box::new(FoldDoubleRelu)],
        GreedyConfig::default(),
    )));
    passes.extend(pir::pass::registry::parse_pipeline("dce")?);
    passes.push(Box::new(CountOps { op: "pd_op.relu" }));
    let mut pm = PassManager::new(passes);
    pm.instrumentation.verify_each = true;
    assert_eq!(pm.pipeline(), "count_ops,fold_double_relu,dce,count_ops");

    let records = pm.run(&mut program)?;
    for r in &records {
        println!(
            "{:<18} changed: {:<5} {:?}",
            r.pass,
            r.changed,
            r.statistics.entries()
        );
    }
    assert_eq!(records[0].statistics.get("pd_op.relu"), 3);
    assert!(records[1].changed);
    assert_eq!(records[3].statistics.get("pd_op.relu"), 1);
    print!("{program}");
    Ok(())
}
