//! Named pipelines: a pipeline entry that stands for a list of passes.

/// `(name, passes, what it is for)`.
pub const PIPELINES: &[(&str, &str, &str)] = &[(
    "inference",
    "identity_op_clean,einsum_to_matmul,constant_folding,fold_batch_norm,matmul_scale_fuse,\
     matmul_transpose_fuse,remove_redundant_transpose,matmul_add_act_fuse,silu_fuse,\
     constant_folding,canonicalize,batch_size_like,forward_loop_assigns,loop_invariant_code_motion,cse,dce,constant_folding{constants-as-params=true},trim_broadcast_constants,inplace",
    "CPU inference: cleanups, constant and batch-norm folding, the fusions whose \
     result ops Paddle's CPU kernels run (pd_op.fc, pd_op.swish), einsums that are matrix products as matmuls, shapes that repeat a batch size read at run time made constant, loop variables yielded instead of copied into their arguments (legacy loops), loop-invariant ops moved out of loops, the constants left as parameters (loaded once, not computed per run) and shaped \
     for the kernels' fast broadcast, then in-place ops where no reader can tell",
)];

/// The passes of the named pipeline `name`.
pub fn lookup(name: &str) -> Option<&'static str> {
    PIPELINES
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, p, _)| *p)
}

/// The names of the pipelines.
pub fn names() -> Vec<&'static str> {
    PIPELINES.iter().map(|(n, _, _)| *n).collect()
}
