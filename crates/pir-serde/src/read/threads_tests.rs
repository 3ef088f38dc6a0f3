//! Reads on two threads give the program one thread reads.

use super::*;

/// What a program holds by handle: each op's name, attributes and result
/// types, in walk order. Equal between two contexts only when both interned
/// the same things in the same order.
fn handles(program: &Program) -> Vec<(Symbol, AttrDict, Vec<Type>)> {
    let mut out = Vec::new();
    program.walk(program.module_op(), pir_core::walk::Order::Pre, &mut |op| {
        let types = program.results(op).map(|v| program.value_type(v)).collect();
        out.push((program.op_name(op), program.attrs(op), types));
    });
    out
}

fn two_threads() -> ReadOptions {
    ReadOptions {
        threads: 2,
        ..Default::default()
    }
}

/// Reads `bytes` on one thread and on two with `plan`, each into a fresh
/// context, checks that both give the same program with the same handles,
/// and gives how many ops the second thread scanned.
fn threaded_equals_one_thread(bytes: &[u8], plan: threads::Plan, name: &str) -> usize {
    let (ctx1, ctx2) = (pir_dialects::pd_op_context(), pir_dialects::pd_op_context());
    let released = std::cell::RefCell::new(Vec::new());
    let record = |range: std::ops::Range<usize>| released.borrow_mut().push(range);
    let (alone, _) =
        streamed::read_streamed_with(ctx1.clone(), bytes, &one_thread(), plan, &record)
            .unwrap()
            .unwrap_or_else(|| panic!("{name} was not read as a stream"));
    let one_read = released.take();
    let (threaded, counts) =
        streamed::read_streamed_with(ctx2.clone(), bytes, &two_threads(), plan, &record)
            .unwrap()
            .unwrap();
    // Either read releases the whole text once it is checked, then the
    // ranges it went past in order, from the start, a step or more each.
    for ranges in [one_read, released.take()] {
        assert_eq!(ranges.first(), Some(&(0..bytes.len())), "{name}");
        let mut expect_start = 0;
        for range in &ranges[1..] {
            assert_eq!(range.start, expect_start, "{name} {ranges:?}");
            assert!(range.len() >= plan.release_step && range.end <= bytes.len());
            expect_start = range.end;
        }
    }
    assert_eq!(json_of(&threaded), json_of(&alone), "{name} {plan:?}");
    assert_eq!(
        threaded.program.print_to_vec(),
        alone.program.print_to_vec(),
        "{name} {plan:?}"
    );
    assert_eq!(
        handles(&threaded.program),
        handles(&alone.program),
        "{name} {plan:?}"
    );
    assert_eq!(format!("{ctx2:?}"), format!("{ctx1:?}"), "{name} {plan:?}");
    counts.scanned_apart
}

/// A scanning thread of a test's own, so that other tests reading at the
/// same time never have it busy.
fn own_kept() -> Option<&'static kept::Kept> {
    kept::Kept::start(
        std::time::Duration::from_millis(20),
        std::time::Duration::ZERO,
    )
}

/// Whatever the cut (before a parameter, a plain op, an op with regions,
/// inside a region, past the end), and whether the second thread's scan is
/// waited for or given up on, two threads read every corpus model to the
/// program one thread reads, with the same handles.
#[test]
fn threaded_reads_equal_one_thread_on_the_corpus() {
    let Some((_, models)) = corpus_models() else {
        return;
    };
    let (mut seen, mut apart, mut regions_apart, mut all_ops) = (0, 0, 0, 0);
    let kept = own_kept();
    for path in models {
        let name = path.to_string_lossy();
        let bytes = std::fs::read(&path).unwrap();
        let Ok(whole) = read_whole(
            pir_dialects::pd_op_context(),
            &bytes,
            &ReadOptions::default(),
        ) else {
            continue;
        };
        all_ops += whole.program.num_ops();
        for share_64ths in (1..64).step_by(6) {
            // A scanner given up on at once, then one never given up on.
            let plan = threads::Plan {
                min_bytes: 0,
                wait_min_bytes: 0,
                kept,
                shares_64ths: [(0, share_64ths); 3],
                patience_per_op: std::time::Duration::from_secs(1),
                patience: std::time::Duration::from_secs(60),
                pace: false,
                alone_when_templated: false,
                match_apart: true,
                match_min_bytes: 0,
                release_step: 4096,
                release_checked_min: 0,
            };
            threaded_equals_one_thread(
                &bytes,
                threads::Plan {
                    patience: std::time::Duration::ZERO,
                    wait_min_bytes: usize::MAX,
                    ..plan
                },
                &name,
            );
            // The policy reads use: waits bounded, a slow scanner given up on.
            threaded_equals_one_thread(
                &bytes,
                threads::Plan {
                    min_bytes: 0,
                    kept,
                    shares_64ths: [(0, share_64ths); 3],
                    release_step: 4096,
                    release_checked_min: 0,
                    ..Default::default()
                },
                &name,
            );
            let n = threaded_equals_one_thread(&bytes, plan, &name);
            apart += n;
            let text = std::str::from_utf8(&bytes).unwrap();
            if n > 0 && text.contains("\"regions\":[{") {
                regions_apart += 1;
            }
        }
        seen += 1;
    }
    let indexed = pir_corpus::models().len();
    assert!(
        seen >= indexed && seen > 0,
        "{seen} corpus files read, {indexed} models in the index"
    );
    eprintln!("{apart} ops scanned on a second thread, {all_ops} ops in the files");
    assert!(
        apart > all_ops,
        "only {apart} ops scanned on a second thread, {all_ops} ops in the files"
    );
    assert!(regions_apart > 0, "no model with regions was cut");
}

/// A synthetic model: the real plan cuts it, its ops use values from both
/// sides of the cut (parameters at the start, activations across it).
fn synthetic_json(blocks: usize) -> Vec<u8> {
    let ctx = pir_dialects::pd_op_context();
    write_to_vec(
        &pir_dialects::synthetic::mlp(ctx, blocks),
        &WriteOptions::default(),
    )
    .unwrap()
}

#[test]
fn threaded_reads_equal_one_thread_on_a_large_synthetic_model() {
    let bytes = synthetic_json(600);
    let plan = threads::Plan {
        release_step: 64 << 10,
        release_checked_min: 0,
        kept: own_kept(),
        ..Default::default()
    };
    assert!(bytes.len() > plan.min_bytes);
    let patient = threads::Plan {
        patience_per_op: std::time::Duration::from_secs(1),
        patience: std::time::Duration::from_secs(60),
        pace: false,
        wait_min_bytes: 0,
        ..plan
    };
    let apart = threaded_equals_one_thread(&bytes, patient, "synthetic");
    assert!(apart > 1000, "only {apart} ops scanned on a second thread");
    let impatient = threads::Plan {
        patience: std::time::Duration::ZERO,
        ..plan
    };
    threaded_equals_one_thread(&bytes, impatient, "synthetic, the scan given up on");
}

/// Reads `bytes` `times` times into one context on one thread and into
/// another on two with `plan`, checks that each read gives both the same
/// program with the same handles and that both contexts end alike, and
/// gives what each read on two threads read how; `None` when the text is
/// not one the streamed reader reads.
fn reads_again(
    bytes: &[u8],
    plan: threads::Plan,
    times: usize,
    name: &str,
) -> Option<Vec<streamed::Counts>> {
    let (alone, threaded) = (pir_dialects::pd_op_context(), pir_dialects::pd_op_context());
    let mut counts = Vec::new();
    for _ in 0..times {
        let one = streamed::read_streamed_with(alone.clone(), bytes, &one_thread(), plan, &|_| {});
        let Ok(Some((one, _))) = one else {
            return None;
        };
        let two =
            streamed::read_streamed_with(threaded.clone(), bytes, &two_threads(), plan, &|_| {});
        let (two, read) = two.unwrap().unwrap();
        assert_eq!(json_of(&two), json_of(&one), "{name} {plan:?}");
        assert_eq!(
            handles(&two.program),
            handles(&one.program),
            "{name} {plan:?}"
        );
        counts.push(read);
    }
    assert_eq!(
        format!("{threaded:?}"),
        format!("{alone:?}"),
        "{name} {plan:?}"
    );
    Some(counts)
}

/// A model read again into one context is built from its templates. Once
/// a read found its part before the cut so built, the other thread's
/// scan is given up on and the next read's thread matches the ops past the
/// cut against the templates too, counting from where this one stood;
/// told not to, the reader reads on alone, and told neither, it builds
/// what the other thread scanned in full. Every way, each read gives the
/// program one thread reads into a context read as often, handles
/// included.
#[test]
fn reads_again_match_templates_on_both_threads() {
    let bytes = synthetic_json(600);
    let patient = threads::Plan {
        patience_per_op: std::time::Duration::from_secs(1),
        patience: std::time::Duration::from_secs(60),
        pace: false,
        wait_min_bytes: 0,
        kept: own_kept(),
        ..Default::default()
    };
    for (alone_when_templated, match_apart) in [(true, true), (true, false), (false, false)] {
        let plan = threads::Plan {
            alone_when_templated,
            match_apart,
            ..patient
        };
        // The second read learns templates for the first ops of each kind,
        // the third (matching them) for the later ones this thread reads,
        // from which the fourth builds its part.
        let counts = reads_again(&bytes, plan, 7, "synthetic").unwrap();
        let apart: Vec<usize> = counts.iter().map(|c| c.scanned_apart).collect();
        let templated: Vec<usize> = counts.iter().map(|c| c.templated_apart).collect();
        let seen = format!("{plan:?} {apart:?} {templated:?}");
        assert!(apart[0] > 1000 && templated[..3] == [0, 0, 0], "{seen}");
        match (alone_when_templated, match_apart) {
            (true, true) => {
                assert_eq!(apart[3], 0, "{seen}");
                assert!(apart[4..].iter().all(|&n| n > 1000), "{seen}");
                // Ops past the cut the fourth read learnt on its own.
                assert_eq!(templated[5..], apart[5..], "{seen}");
            }
            (true, false) => assert_eq!(apart[3..], [0; 4], "{seen}"),
            _ => assert!(apart[3..].iter().all(|&n| n > 1000) && templated[3..] == [0; 4]),
        }
    }
}

/// Every corpus model read again and again into one context on two
/// threads, the other thread matching templates once it may, gives the
/// program one thread reads into a context read as often, handles
/// included.
#[test]
fn reads_again_on_two_threads_equal_one_thread_on_the_corpus() {
    let Some((_, models)) = corpus_models() else {
        return;
    };
    let kept = own_kept();
    let mut templated = 0;
    for path in models {
        let name = path.to_string_lossy();
        let bytes = std::fs::read(&path).unwrap();
        let plan = threads::Plan {
            min_bytes: 0,
            wait_min_bytes: 0,
            match_min_bytes: 0,
            kept,
            patience_per_op: std::time::Duration::from_secs(1),
            patience: std::time::Duration::from_secs(60),
            pace: false,
            ..Default::default()
        };
        let counts = reads_again(&bytes, plan, 6, &name).unwrap_or_default();
        templated += counts.iter().map(|c| c.templated_apart).sum::<usize>();
    }
    assert!(
        templated > 100,
        "only {templated} ops matched on the other thread"
    );
}

/// A text whose cut lay inside an op (in a region) is read on one thread
/// when read again: the cut would lie there again.
#[test]
fn texts_cut_inside_an_op_are_not_lent_again() {
    let Some((_, models)) = corpus_models() else {
        return;
    };
    let plan = threads::Plan {
        min_bytes: 0,
        kept: own_kept(),
        ..Default::default()
    };
    let mut past = 0;
    for path in models {
        let bytes = std::fs::read(&path).unwrap();
        let text = std::str::from_utf8(&bytes).unwrap();
        let ctx = pir_dialects::pd_op_context();
        let Ok(Some(_)) =
            streamed::read_streamed_with(ctx.clone(), &bytes, &two_threads(), plan, &|_| {})
        else {
            continue;
        };
        let past_cut = ctx.peek_kept(|kept: Option<&Box<Kept>>| kept.and_then(|k| k.past_cut));
        let lent = threads::lending(&ctx, text, &two_threads(), plan).is_some();
        match past_cut {
            Some(cut) => {
                assert_eq!(cut, text.len(), "{path:?}");
                assert!(!lent, "{path:?}");
                past += 1;
            }
            None => assert!(lent || threads::cut(text, plan).is_none(), "{path:?}"),
        }
    }
    assert!(past > 0, "no corpus model is cut inside an op");
}

/// An error late in the file, in the part a second thread scans, fails the
/// threaded read as it fails one thread: with the whole-document reader's error.
#[test]
fn errors_after_the_cut_are_those_of_one_thread() {
    let text = String::from_utf8(synthetic_json(600)).unwrap();
    let late = |pattern: &str| text.rfind(pattern).unwrap();
    let replace_last = |pattern: &str, with: &str| {
        let at = late(pattern);
        assert!(at > text.len() / 2, "{pattern}");
        format!("{}{with}{}", &text[..at], &text[at + pattern.len()..])
    };
    let broken = [
        // A value used before it is defined.
        replace_last("\"I\":[{\"%\":", "\"I\":[{\"%\":99999999,\"x\":1},{\"%\":"),
        replace_last("\"I\":[{\"%\":", "\"I\":[{\"%\":99999999},{\"%\":"),
        // An unknown type and an unknown attribute kind.
        replace_last("\"0.t_f32\"", "\"0.t_f33\""),
        replace_last("\"0.a_str\"", "\"0.a_strr\""),
        // Not JSON.
        replace_last("\"OA\":[", "\"OA\":[,"),
        replace_last("\"OA\":[", "\"OA\":[\u{1}"),
        replace_last("]}", "]"),
        // A value defined twice.
        replace_last(
            "\"O\":[{\"%\":",
            "\"O\":[{\"%\":1,\"TT\":{\"#\":\"0.t_f32\"}},{\"%\":",
        ),
        // An unknown dialect.
        replace_last("{\"#\":\"1.", "{\"#\":\"77."),
    ];
    let ctx = pir_dialects::pd_op_context();
    for file in &broken {
        let want = read_whole(ctx.clone(), file.as_bytes(), &ReadOptions::default())
            .expect_err("the whole-document reader accepts the broken file");
        for options in [one_thread(), two_threads()] {
            let got = read_slice(ctx.clone(), file.as_bytes(), &options).unwrap_err();
            assert_eq!(got.to_string(), want.to_string());
            assert!(!matches!(
                streamed::read_streamed_with(
                    ctx.clone(),
                    file.as_bytes(),
                    &options,
                    threads::Plan::default(),
                    &|_| {}
                ),
                Ok(Some(_))
            ));
        }
    }
}

/// A text is cut where an op begins, just past the share of its length that
/// its size is given.
#[test]
fn texts_are_cut_at_the_share_of_their_size() {
    let op = r##"{"#":"1.relu","A":[],"I":[{"%":1}],"O":[],"OA":[]}"##;
    let list = |bytes: usize| {
        let ops = vec![op; bytes / (op.len() + 1) + 1];
        format!("[{}]", ops.join(","))
    };
    let sizes = [
        (512 << 10, 30),
        (1 << 20, 24),
        (4 << 20, 24),
        (threads::LARGE_TEXT_BYTES, 14),
    ];
    for (bytes, share) in sizes {
        let text = list(bytes);
        let target = text.len() * share / 64;
        let at = threads::cut(&text, threads::Plan::default()).unwrap();
        assert!(
            at > target && at <= target + op.len() + 1,
            "{bytes}: {at} {target}"
        );
        assert!(text[at..].starts_with(op));
    }
}

/// The reader waits for a scanning thread only while it scans at least as
/// fast as the reader read its own part.
#[test]
fn a_scanning_thread_keeps_pace_at_the_readers() {
    use std::time::Duration;
    let us = Duration::from_micros;
    let ours = (1000, us(10));
    assert!(threads::keeps_pace((1000, us(10)), ours));
    assert!(threads::keeps_pace((2000, us(10)), ours));
    assert!(!threads::keeps_pace((999, us(10)), ours));
    assert!(!threads::keeps_pace((500, us(10)), ours));
    assert!(threads::keeps_pace((4000, us(30)), ours));
    assert!(!threads::keeps_pace((2900, us(30)), ours));
    // Nothing scanned yet tells nothing: not keeping pace.
    assert!(!threads::keeps_pace((0, us(0)), ours));
}
