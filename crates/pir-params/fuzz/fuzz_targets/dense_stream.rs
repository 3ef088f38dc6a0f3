//! Fuzzes the DenseTensor / SelectedRows / combined-file readers: any input
//! must give a value or an error, never a panic or an unbounded allocation.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pir_params::{combined, stream};

fuzz_target!(|data: &[u8]| {
    if let Ok((t, end)) = stream::read_dense_tensor(data, 0) {
        assert!(end <= data.len());
        assert_eq!(t.byte_len() as u64, t.numel() * t.dtype().size() as u64);
        let mut out = Vec::new();
        stream::write_dense_tensor_to(&mut out, &t).unwrap();
        assert_eq!(stream::read_dense_tensor(&out, 0).unwrap().0, t);
        let _ = t.sum_f64();
    }
    let _ = stream::read_selected_rows(data, 0);
    if let Ok(all) = combined::read_combined_blind(data) {
        let named: Vec<(String, _)> = all.into_iter().map(|t| (String::new(), t)).collect();
        let mut out = Vec::new();
        combined::write_combined_to(&mut out, &named).unwrap();
        // a file this crate can read is re-written with the same streams
        assert_eq!(combined::read_combined_blind(&out).unwrap().len(), named.len());
    }
});
