//! `pd_op.if` → two `conditional_block`s (the false one on
//! `logical_not(cond)`) whose bodies assign their yields to variables of
//! the parent block, and one `select_input` per result on
//! `cast(cond, int32)` — what Paddle 2.6's `static.nn.cond` builds.
//! `pd_op.while` → a `while` over variables: each carried value and the
//! condition are assigned to a variable before the loop, the body reads the
//! variables (its block arguments) and assigns the yielded values back.

use pir_core::{BlockId, OpId, ValueId};
use rustc_hash::FxHashSet;

use super::encode::{Op, Value, Var};
use super::{OpFailure, OpResult, Writer};
use crate::desc::{List, VarKind};

impl Writer<'_> {
    /// The single block of region `index` of `op`.
    fn body(&self, op: OpId, index: usize) -> OpResult<BlockId> {
        if index >= self.program.num_regions(op) {
            return Err("a control-flow op without its regions".into());
        }
        let region = self.program.op_region(op, index);
        match self.program.region_blocks(region) {
            [one] => Ok(*one),
            _ => Err("a control-flow region without exactly one block".into()),
        }
    }

    /// The operands of the `cf.yield` ending `block`.
    fn yields(&self, block: BlockId) -> OpResult<Vec<ValueId>> {
        let last = self
            .program
            .block_last_op(block)
            .filter(|&op| self.program.op_name_str(op) == "cf.yield")
            .ok_or_else(|| OpFailure::from("a body that does not end with `cf.yield`"))?;
        self.program
            .operands(last)
            .map(|v| v.ok_or_else(|| OpFailure::from("a yield of a null value")))
            .collect()
    }

    /// A scope variable (`STEP_SCOPES`) in block `dst`.
    fn scope_var(&mut self, dst: usize) -> String {
        let name = self.fresh_name("_generated_var");
        self.push_var(dst, Var::new(name.clone(), VarKind::StepScopes));
        name
    }

    /// `assign(X=[from]) -> Out=[to]` at the end of block `dst`.
    fn assign(&mut self, dst: usize, from: String, to: String) {
        let mut a = Op::new("assign");
        a.set_input("X", vec![from]);
        a.set_output("Out", vec![to]);
        self.blocks[dst].ops.push(a);
    }

    /// The variables blocks `first..` read but do not declare (a
    /// sub-block's outer inputs), sorted.
    fn outer_reads(&self, first: usize) -> Vec<String> {
        let declared: FxHashSet<&str> = self.blocks[first..]
            .iter()
            .flat_map(|b| b.vars.iter().map(|v| v.name.as_str()))
            .collect();
        let mut reads: Vec<String> = self.blocks[first..]
            .iter()
            .flat_map(|b| b.ops.iter())
            .flat_map(|op| op.inputs.iter().flat_map(|(_, args)| args.iter()))
            .filter(|n| !declared.contains(n.as_str()) && n.as_str() != "feed")
            .cloned()
            .collect();
        reads.sort();
        reads.dedup();
        reads
    }

    /// Moves the declaration of `name` from block `from` to block `to`.
    fn move_var(&mut self, from: usize, to: usize, name: &str) {
        if let Some(i) = self.blocks[from].vars.iter().position(|v| v.name == name) {
            let var = self.blocks[from].vars.remove(i);
            self.declared[from].remove(name);
            self.push_var(to, var);
        }
    }

    /// The values read by ops after `op` in its block and by the ops of
    /// `op`'s own regions (nested ops included): a loop may not rebind
    /// their variables (the body would read the rebound value where it
    /// reads the initial one).
    fn read_after(&self, op: OpId) -> FxHashSet<ValueId> {
        let mut reads = FxHashSet::default();
        let mut stack: Vec<OpId> = Vec::new();
        for r in self.program.regions(op) {
            for &b in self.program.region_blocks(r) {
                for inner in self.program.block_ops(b) {
                    // `assign_out_(x, v)` writes `v`'s variable: the
                    // translation's way of setting a loop variable.
                    if self.program.op_name_str(inner) == "pd_op.assign_out_" {
                        reads.extend(self.program.operand(inner, 0));
                    } else {
                        stack.push(inner);
                    }
                }
            }
        }
        let mut next = self.program.next_op(op);
        while let Some(o) = next {
            stack.push(o);
            next = self.program.next_op(o);
        }
        while let Some(o) = stack.pop() {
            reads.extend(self.program.operands(o).flatten());
            for r in self.program.regions(o) {
                for &b in self.program.region_blocks(r) {
                    stack.extend(self.program.block_ops(b));
                }
            }
        }
        reads
    }

    /// A new variable of `v`'s type in block `dst`.
    fn var_like(&mut self, dst: usize, v: ValueId, hint: &str) -> OpResult<String> {
        let name = self.fresh_name(hint);
        self.declare(dst, &name, self.program.value_type(v))?;
        Ok(name)
    }

    /// One branch of an `if`: a `conditional_block` on `cond` whose body
    /// assigns the branch's yields to new variables of block `dst`.
    fn branch(
        &mut self,
        op: OpId,
        index: usize,
        cond: String,
        dst: usize,
        depth: usize,
    ) -> OpResult<Vec<String>> {
        let body = self.body(op, index)?;
        let sub = self.new_block(dst as i32);
        self.write_block(body, sub, depth + 1)?;
        let yields = self.yields(body)?;
        let mut outs = Vec::with_capacity(yields.len());
        for (i, &y) in yields.iter().enumerate() {
            if self.is_vector(y) {
                return Err("an `if` yielding a list has no legacy form".into());
            }
            let from = self.name_of(y, sub)?;
            // A value the branch makes is its output variable, declared
            // in the parent block (as Paddle's `cond` writes it); any
            // other (an outer value, one yielded twice) is assigned to one.
            let made_here = self.program.value_parent_block(y) == Some(body)
                && !yields[..i].contains(&y)
                && self.declared[sub].contains(&from);
            if made_here {
                self.move_var(sub, dst, &from);
                outs.push(from);
            } else {
                let to = self.var_like(dst, y, "cond")?;
                self.assign(sub, from, to.clone());
                outs.push(to);
            }
        }
        let inputs = self.outer_reads(sub);
        let scope = self.scope_var(dst);
        let mut c = Op::new("conditional_block");
        c.set_input("Cond", vec![cond]);
        c.set_input("Input", inputs);
        c.set_output("Out", outs.clone());
        c.set_output("Scope", vec![scope]);
        c.set_attr("sub_block", Value::Block(sub as i32));
        c.set_attr("is_scalar_condition", Value::Bool(true));
        self.blocks[dst].ops.push(c);
        Ok(outs)
    }

    /// `pd_op.if`.
    pub(super) fn write_if(&mut self, op: OpId, dst: usize, depth: usize) -> OpResult {
        let c = self
            .program
            .operand(op, 0)
            .ok_or_else(|| OpFailure::from("an `if` without a condition"))?;
        let cond = self.name_of(c, dst)?;
        let t = self.branch(op, 0, cond.clone(), dst, depth)?;
        // Paddle's translation of one `conditional_block`: the false
        // branch only stands for the variables the block leaves alone.
        let fake_false = self
            .program
            .attr(op, "fake_false_branch")
            .and_then(|a| pir_core::builtin::first_bool(self.ctx, a))
            .unwrap_or(false);
        if t.len() != self.program.num_results(op) {
            return Err("an `if` whose branches yield other than its results".into());
        }
        if fake_false {
            for (i, name) in t.into_iter().enumerate() {
                self.names.insert(self.program.result(op, i), name);
            }
            return Ok(());
        }
        let not_cond = self.var_like(dst, c, "logical_not")?;
        let mut not = Op::new("logical_not");
        not.set_input("X", vec![cond.clone()]);
        not.set_output("Out", vec![not_cond.clone()]);
        self.blocks[dst].ops.push(not);
        let f = self.branch(op, 1, not_cond, dst, depth)?;
        if f.len() != t.len() {
            return Err("an `if` whose branches yield different counts".into());
        }
        if t.is_empty() {
            return Ok(());
        }
        let mask = self.push_int32_temp(dst, "cast", self.program.value_type(c));
        let mut cast = Op::new("cast");
        cast.set_input("X", vec![cond]);
        cast.set_output("Out", vec![mask.clone()]);
        cast.set_attr("in_dtype", Value::Int(0));
        cast.set_attr("out_dtype", Value::Int(2));
        self.blocks[dst].ops.push(cast);
        for (i, (tv, fv)) in t.into_iter().zip(f).enumerate() {
            let r = self.program.result(op, i);
            let out = self.name_result(r, dst, "select_input")?;
            let mut s = Op::new("select_input");
            s.set_input("X", vec![fv, tv]);
            s.set_input("Mask", vec![mask.clone()]);
            s.set_output("Out", vec![out]);
            self.blocks[dst].ops.push(s);
        }
        Ok(())
    }

    /// `pd_op.while`.
    pub(super) fn write_while(&mut self, op: OpId, dst: usize, depth: usize) -> OpResult {
        let operands: Vec<ValueId> = self
            .program
            .operands(op)
            .map(|v| v.ok_or_else(|| OpFailure::from("a `while` of a null value")))
            .collect::<OpResult<_>>()?;
        let Some((&c, inits)) = operands.split_first() else {
            return Err("a `while` without a condition".into());
        };
        let body = self.body(op, 0)?;
        let args: Vec<ValueId> = self.program.block_args(body).to_vec();
        if args.len() != inits.len() || inits.len() != self.program.num_results(op) {
            return Err(
                "a `while` whose body arguments or results do not match its operands".into(),
            );
        }
        // The loop's variables: an operand nothing reads after the loop is
        // its own variable (the loop rebinds it, as in Paddle's programs),
        // any other is copied to a new one first.
        let after = self.read_after(op);
        let mut used: FxHashSet<ValueId> = FxHashSet::default();
        let mut loop_var = |w: &mut Self, v: ValueId, hint: &str| -> OpResult<String> {
            let from = w.name_of(v, dst)?;
            let own = used.insert(v)
                && !after.contains(&v)
                && w.declared[dst].contains(&from)
                && !w.blocks[dst]
                    .vars
                    .iter()
                    .any(|x| x.name == from && x.persistable);
            if own {
                return Ok(from);
            }
            let var = w.var_like(dst, v, hint)?;
            w.assign(dst, from, var.clone());
            Ok(var)
        };
        let cond = loop_var(self, c, "while_cond")?;
        let mut vars = Vec::with_capacity(inits.len());
        for (&init, &arg) in inits.iter().zip(&args) {
            if self.is_vector(init) {
                return Err("a `while` carrying a list has no legacy form".into());
            }
            let var = loop_var(self, init, "while_var")?;
            self.names.insert(arg, var.clone());
            vars.push(var);
        }
        let sub = self.new_block(dst as i32);
        self.write_block(body, sub, depth + 1)?;
        let yields = self.yields(body)?;
        let Some((&next_cond, next)) = yields.split_first() else {
            return Err("a `while` body yielding no condition".into());
        };
        if next.len() != vars.len() {
            return Err("a `while` body yielding other than its loop variables".into());
        }
        // Yielded values are read before any variable is assigned: through
        // copies when a yield reads a loop variable (a swap).
        let reads_arg = yields.iter().any(|y| args.contains(y));
        let mut sources = Vec::with_capacity(yields.len());
        for &y in std::iter::once(&next_cond).chain(next) {
            let name = self.name_of(y, sub)?;
            if reads_arg {
                let copy = self.var_like(sub, y, "while_copy")?;
                self.assign(sub, name, copy.clone());
                sources.push(copy);
            } else {
                sources.push(name);
            }
        }
        for (i, source) in sources.into_iter().enumerate() {
            let target = if i == 0 {
                cond.clone()
            } else {
                vars[i - 1].clone()
            };
            if source != target {
                self.assign(sub, source, target);
            }
        }
        let mut inputs = self.outer_reads(sub);
        inputs.retain(|n| *n != cond);
        let scope = self.scope_var(dst);
        let mut w = Op::new("while");
        w.set_input("X", inputs);
        w.set_input("Condition", vec![cond.clone()]);
        let mut outs = vars.clone();
        outs.push(cond);
        w.set_output("Out", outs);
        w.set_output("StepScopes", vec![scope]);
        w.set_attr("sub_block", Value::Block(sub as i32));
        w.set_attr("is_test", Value::Bool(true));
        w.set_attr("skip_eager_deletion_vars", Value::Strings(List::EMPTY));
        self.blocks[dst].ops.push(w);
        for (i, var) in vars.into_iter().enumerate() {
            self.names.insert(self.program.result(op, i), var);
        }
        Ok(())
    }
}
