//! Sequence decoding on padded tensors: `ctc_align` (blanks and repeats
//! removed, the kept tokens moved to the front), `gather_tree` (beam-search
//! paths followed back from the last step, a reversed `Scan`) and
//! `edit_distance` (Levenshtein distances, one `Scan` step per hypothesis
//! token). Paddle runs each of them on LoD sequences too; ONNX tensors carry
//! no LoD, so only the padded form with explicit lengths is exported.

use pir_params::DType;

use crate::export::{a_int, a_ints, Exporter};
use crate::mappers::index::reduce;
use crate::mappers::scan::{dim, iota, scan, ScanTypes};
use crate::mappers::solve::cut;
use crate::ExportError;

type R = Result<(), ExportError>;

/// The refusal for an op given LoD sequences (no length operand).
fn lod_only(x: &Exporter<'_>, operand: &str) -> ExportError {
    x.unsupported(format!(
        "without `{operand}` the op reads LoD sequences, and ONNX tensors carry no LoD \
         (give the padded form with lengths)"
    ))
}

/// Operand `i` cast to int64.
pub(crate) fn input_i64(x: &mut Exporter<'_>, i: usize) -> Result<String, ExportError> {
    let v = x
        .operand(i)
        .ok_or_else(|| x.unsupported(format!("operand {i} is absent")))?;
    let name = x.name_of(v)?;
    x.cast_to(&name, x.p.value_type(v), DType::Int64)
}

/// Operand `i` as an int64 `[batch, 1]` column (lengths given as `[batch]`
/// or `[batch, 1]`).
pub(crate) fn length_column(x: &mut Exporter<'_>, i: usize) -> Result<String, ExportError> {
    let l = input_i64(x, i)?;
    Ok(x.reshape(&l, &[-1, 1]))
}

/// `ctc_align(input [batch, time], input_length, blank, merge_repeated,
/// padding_value)`: in each row's first `length` tokens, the blanks and
/// (when merging) the tokens equal to the one before them are dropped; the
/// kept ones move to the front in order, `padding_value` fills the rest.
/// The kept positions are sorted first by a `TopK` on `position` (kept) or
/// `position + time` (dropped). The second result is the kept count.
pub(crate) fn ctc_align(x: &mut Exporter<'_>) -> R {
    if !x.has_input(1) {
        return Err(lod_only(x, "input_length"));
    }
    if x.in_rank(0)? != 2 {
        return Err(x.unsupported("a padded [batch, time] input"));
    }
    let attrs = x.attrs();
    let blank = attrs.i64_or("blank", 0)?;
    let merge = attrs.bool_or("merge_repeated", true)?;
    let padding = attrs.i64_or("padding_value", 0)?;
    let d = x.in_dtype(0)?;
    let tokens = x.input(0)?;
    let lengths = length_column(x, 1)?;
    let time = dim(x, &tokens, 1);
    let positions = iota(x, &time)?;
    let inside = x.node1("Less", &[&positions, &lengths], vec![]);
    let blank_c = x.const_scalar(d, blank as f64)?;
    let is_blank = x.node1("Equal", &[&tokens, &blank_c], vec![]);
    let not_blank = x.node1("Not", &[&is_blank], vec![]);
    let mut keep = x.node1("And", &[&inside, &not_blank], vec![]);
    if merge {
        // The token before each one; -1 before the first, as Paddle starts.
        let head = cut(x, &tokens, 1, 0, -1);
        let pads = x.const_i64s(&[0, 1, 0, 0]);
        let minus_one = x.const_scalar(d, -1.0)?;
        let before = x.node1("Pad", &[&head, &pads, &minus_one], vec![]);
        let repeated = x.node1("Equal", &[&tokens, &before], vec![]);
        let fresh = x.node1("Not", &[&repeated], vec![]);
        keep = x.node1("And", &[&keep, &fresh], vec![]);
    }
    let kept = x.cast(&keep, DType::Int64)?;
    let count = reduce(x, "ReduceSum", &kept, &[1], true);
    let later = x.node1("Add", &[&positions, &time], vec![]);
    let key = x.node1("Where", &[&keep, &positions, &later], vec![]);
    let k = x.reshape(&time, &[1]);
    let order = x.tmp();
    let sorted = x.tmp();
    x.node(
        "TopK",
        &[&key, &k],
        &[&sorted, &order],
        vec![a_int("axis", 1), a_int("largest", 0), a_int("sorted", 1)],
    );
    let moved = x.node1("GatherElements", &[&tokens, &order], vec![a_int("axis", 1)]);
    let filled = x.node1("Less", &[&positions, &count], vec![]);
    let pad_c = x.const_scalar(d, padding as f64)?;
    let out = x.node1("Where", &[&filled, &moved, &pad_c], vec![]);
    x.identity_out(0, &out);
    if x.result(1).is_some() {
        let rank = x.out_dims(1)?.len();
        let c = if rank == 1 {
            x.reshape(&count, &[-1])
        } else {
            count
        };
        x.cast_out(1, &c)?;
    }
    Ok(())
}

/// `gather_tree(ids, parents)` of `[time, batch, beam]` tensors: step by
/// step from the last, the id of the beam the walk stands at, then the walk
/// moves to that beam's parent (`out[t][b][k] = ids[t][b][p]`, `p` starting
/// at `k` and followed through `parents`). The walk starts from every beam
/// itself, so the scan covers every step (ONNX runtimes refuse a scan of no
/// step, which a one-step input would otherwise need).
pub(crate) fn gather_tree(x: &mut Exporter<'_>) -> R {
    if x.in_rank(0)? != 3 || x.in_rank(1)? != 3 {
        return Err(x.unsupported("[time, batch, beam] ids and parents"));
    }
    let d = x.in_dtype(0)?;
    let elem = x.onnx_type(d)?;
    let ids = x.input(0)?;
    let parents = x.input(1)?;
    let beams = dim(x, &ids, 2);
    let each_beam = iota(x, &beams)?;
    let each_beam = x.cast(&each_beam, d)?;
    let shape = x.node1("Shape", &[&ids], vec![]);
    let batch_beam = cut(x, &shape, 0, 1, 3);
    let start = x.node1("Expand", &[&each_beam, &batch_beam], vec![]);
    let types = ScanTypes {
        state: &[(elem, 2)],
        scanned: &[(elem, 2), (elem, 2)],
        outputs: &[(elem, 2)],
    };
    let (_, steps) = scan(
        x,
        &[start],
        &[ids, parents],
        &types,
        true,
        |x, state, step| {
            let beam = &state[0];
            let id = x.node1("GatherElements", &[&step[0], beam], vec![a_int("axis", 1)]);
            let parent = x.node1("GatherElements", &[&step[1], beam], vec![a_int("axis", 1)]);
            Ok((vec![parent], vec![id]))
        },
    )?;
    x.finish_with(&steps[0])
}

/// `edit_distance(hyps, refs, hypslength, refslength, normalized)` of padded
/// int64 sequences: the Levenshtein distance of each pair (divided by the
/// reference length when normalized) as `[batch, 1]`, and the pair count.
///
/// One `Scan` step per hypothesis token `i` (and a step 0 that keeps the
/// first row) computes the next row of the
/// distance table: `E[j] = min(D[j] + 1, D[j - 1] + cost_j)`, `E[0] = i`,
/// then the insertions, `D'[j] = min over k <= j of E[k] + j - k`, as a
/// minimum over a triangular mask. Rows past a hypothesis' length are kept,
/// so the last row is `D[len]`; the distance is its `reflen`-th element.
pub(crate) fn edit_distance(x: &mut Exporter<'_>) -> R {
    if !x.has_input(2) || !x.has_input(3) {
        return Err(lod_only(x, "hypslength"));
    }
    if x.in_rank(0)? != 2 || x.in_rank(1)? != 2 {
        return Err(x.unsupported("padded [batch, time] hyps and refs"));
    }
    let normalized = x.attrs().bool_or("normalized", false)?;
    let i64t = x.onnx_type(DType::Int64)?;
    let hyps = input_i64(x, 0)?;
    let refs = input_i64(x, 1)?;
    let hyp_len = length_column(x, 2)?;
    let ref_len = length_column(x, 3)?;
    let one = x.const_scalar(DType::Int64, 1.0)?;
    let ref_time = dim(x, &refs, 1);
    let columns = x.node1("Add", &[&ref_time, &one], vec![]);
    let j = iota(x, &columns)?;
    // First row: D[j] = j for every pair.
    let batch = dim(x, &hyps, 0);
    let batch1 = x.reshape(&batch, &[1]);
    let columns1 = x.reshape(&columns, &[1]);
    let row_shape = x.node1("Concat", &[&batch1, &columns1], vec![a_int("axis", 0)]);
    let first = x.node1("Expand", &[&j, &row_shape], vec![]);
    // below[j][k]: k <= j.
    let j_col = x.unsqueeze(&j, &[1]);
    let below = x.node1("LessOrEqual", &[&j, &j_col], vec![]);
    let far = x.const_scalar(DType::Int64, (i64::MAX / 4) as f64)?;
    // Step 0 changes nothing: the scan has a step even for empty
    // hypotheses (runtimes refuse a scan of none).
    let hyp_time = dim(x, &hyps, 1);
    let steps_end = x.node1("Add", &[&hyp_time, &one], vec![]);
    let steps = iota(x, &steps_end)?;
    let pads = x.const_i64s(&[0, 1, 0, 0]);
    let padded = x.node1("Pad", &[&hyps, &pads], vec![]);
    let tokens = x.node1("Transpose", &[&padded], vec![a_ints("perm", &[1, 0])]);
    let types = ScanTypes {
        state: &[(i64t, 2)],
        scanned: &[(i64t, 1), (i64t, 0)],
        outputs: &[],
    };
    let (last, _) = scan(
        x,
        &[first],
        &[tokens, steps],
        &types,
        false,
        |x, state, step| {
            let d = &state[0];
            let token = x.unsqueeze(&step[0], &[1]);
            let same = x.node1("Equal", &[&token, &refs], vec![]);
            let differ = x.node1("Not", &[&same], vec![]);
            let cost = x.cast(&differ, DType::Int64)?;
            let diagonal = cut(x, d, 1, 0, -1);
            let substitute = x.node1("Add", &[&diagonal, &cost], vec![]);
            let above = cut(x, d, 1, 1, i64::MAX);
            let delete = x.node1("Add", &[&above, &one], vec![]);
            let rest = x.node1("Min", &[&substitute, &delete], vec![]);
            let head = cut(x, d, 1, 0, 1);
            let head = x.node1("Add", &[&head, &one], vec![]);
            let e = x.node1("Concat", &[&head, &rest], vec![a_int("axis", 1)]);
            let shifted = x.node1("Sub", &[&e, &j], vec![]);
            let rows = x.unsqueeze(&shifted, &[1]);
            let masked = x.node1("Where", &[&below, &rows, &far], vec![]);
            let least = reduce(x, "ReduceMin", &masked, &[2], false);
            let next = x.node1("Add", &[&least, &j], vec![]);
            let within = x.node1("LessOrEqual", &[&step[1], &hyp_len], vec![]);
            let zero = x.const_scalar(DType::Int64, 0.0)?;
            let moved = x.node1("Greater", &[&step[1], &zero], vec![]);
            let active = x.node1("And", &[&within, &moved], vec![]);
            let next = x.node1("Where", &[&active, &next, d], vec![]);
            Ok((vec![next], vec![]))
        },
    )?;
    let distance = x.node1(
        "GatherElements",
        &[&last[0], &ref_len],
        vec![a_int("axis", 1)],
    );
    // Paddle's InferMeta types both results as the hypotheses' dtype;
    // its kernel writes an int64 count and float32 distances.
    let mut distance = x.cast(&distance, DType::Float32)?;
    if normalized {
        let n = x.cast(&ref_len, DType::Float32)?;
        distance = x.node1("Div", &[&distance, &n], vec![]);
    }
    let count = x.reshape(&batch, &[1]);
    x.identity_out(0, &count);
    x.identity_out(1, &distance);
    let batch_dim = x.in_dims(0)?[0];
    x.retype_result(0, DType::Int64, &[1])?;
    x.retype_result(1, DType::Float32, &[batch_dim, 1])
}

#[cfg(test)]
mod tests {
    use crate::mappers::tests::{export_at, export_ops, op_types};
    use crate::ExportError;

    #[test]
    fn ctc_align_moves_kept_tokens_to_the_front_with_a_sort() {
        let g = export_ops(
            r#"    (%0) = "pd_op.data" () {dtype:int32,name:"t",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xi32>
    (%1) = "pd_op.data" () {dtype:int32,name:"n",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xi32>
    (%2, %3) = "pd_op.ctc_align" (%0, %1) {blank:0,merge_repeated:true,padding_value:-1,stop_gradient:[true,true]} : (tensor<-1x8xi32>, tensor<-1x1xi32>) -> tensor<-1x8xi32>, tensor<-1x1xi32>
    (%4) = "pd_op.fetch" (%2) {col:0,name:"y",persistable:[true],stop_gradient:[true]} : (tensor<-1x8xi32>) -> tensor<-1x8xi32>
    (%5) = "pd_op.fetch" (%3) {col:1,name:"n_out",persistable:[true],stop_gradient:[true]} : (tensor<-1x1xi32>) -> tensor<-1x1xi32>"#,
        );
        let types = op_types(&g);
        assert!(types.contains(&"TopK") && types.contains(&"GatherElements"));
        // Merging repeats compares each token with the one before it.
        assert!(types.contains(&"Pad"));
    }

    #[test]
    fn ctc_align_of_lod_sequences_is_refused() {
        let r = export_at(
            r#"    (%0) = "pd_op.data" () {dtype:int32,name:"t",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xi32>
    (%1, %2) = "pd_op.ctc_align" (%0, <<NULL VALUE>>) {blank:0,merge_repeated:true,padding_value:0,stop_gradient:[true,true]} : (tensor<-1x1xi32>, <<NULL TYPE>>) -> tensor<-1x1xi32>, tensor<-1x1xi32>
    (%3) = "pd_op.fetch" (%1) {col:0,name:"y",persistable:[true],stop_gradient:[true]} : (tensor<-1x1xi32>) -> tensor<-1x1xi32>"#,
            17,
        );
        assert!(
            matches!(r, Err(ExportError::Unsupported { message, .. }) if message.contains("LoD"))
        );
    }

    #[test]
    fn gather_tree_walks_back_with_a_reversed_scan() {
        let g = export_ops(
            r#"    (%0) = "pd_op.data" () {dtype:int64,name:"ids",place:Place(undefined:0),shape:[-1,-1,3],stop_gradient:[true]} : () -> tensor<-1x-1x3xi64>
    (%1) = "pd_op.data" () {dtype:int64,name:"parents",place:Place(undefined:0),shape:[-1,-1,3],stop_gradient:[true]} : () -> tensor<-1x-1x3xi64>
    (%2) = "pd_op.gather_tree" (%0, %1) {stop_gradient:[true]} : (tensor<-1x-1x3xi64>, tensor<-1x-1x3xi64>) -> tensor<-1x-1x3xi64>
    (%3) = "pd_op.fetch" (%2) {col:0,name:"y",persistable:[true],stop_gradient:[true]} : (tensor<-1x-1x3xi64>) -> tensor<-1x-1x3xi64>"#,
        );
        let scan = g.node.iter().find(|n| n.op_type == "Scan").expect("a Scan");
        let directions = scan
            .attribute
            .iter()
            .find(|a| a.name == "scan_input_directions")
            .expect("directions");
        assert_eq!(directions.ints, [1, 1], "both inputs scanned backwards");
    }

    #[test]
    fn edit_distance_outputs_an_int64_count_and_float_distances() {
        let g = export_ops(
            r#"    (%0) = "pd_op.data" () {dtype:int64,name:"h",place:Place(undefined:0),shape:[-1,6],stop_gradient:[true]} : () -> tensor<-1x6xi64>
    (%1) = "pd_op.data" () {dtype:int64,name:"r",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xi64>
    (%2) = "pd_op.data" () {dtype:int64,name:"hl",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi64>
    (%3) = "pd_op.data" () {dtype:int64,name:"rl",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi64>
    (%4, %5) = "pd_op.edit_distance" (%0, %1, %2, %3) {normalized:false,stop_gradient:[true,true]} : (tensor<-1x6xi64>, tensor<-1x5xi64>, tensor<-1xi64>, tensor<-1xi64>) -> tensor<1xf32>, tensor<-1x5xf32>
    (%6) = "pd_op.fetch" (%4) {col:0,name:"n",persistable:[true],stop_gradient:[true]} : (tensor<1xf32>) -> tensor<1xf32>
    (%7) = "pd_op.fetch" (%5) {col:1,name:"d",persistable:[true],stop_gradient:[true]} : (tensor<-1x5xf32>) -> tensor<-1x5xf32>"#,
        );
        assert!(op_types(&g).contains(&"Scan"));
        let elem = |i: usize| match g.output[i].r#type.as_ref().and_then(|t| t.value.clone()) {
            Some(crate::proto::type_proto::Value::TensorType(t)) => {
                (t.elem_type, t.shape.map(|s| s.dim.len()))
            }
            _ => panic!("a tensor output"),
        };
        // Paddle's kernel writes these, whatever its InferMeta declared.
        assert_eq!(elem(0), (crate::proto::DataType::Int64 as i32, Some(1)));
        assert_eq!(elem(1), (crate::proto::DataType::Float as i32, Some(2)));
    }
}
