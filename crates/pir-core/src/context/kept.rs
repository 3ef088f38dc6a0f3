//! State a use of a context leaves for the next one: a printer's or a
//! writer's memoized texts of interned things (they never change, so they
//! hold for every later use of the context) and its reusable tables, a
//! reader's op names. One value per type; see [`KeptState`].

use std::any::Any;

use parking_lot::Mutex;

use super::IrContext;

/// How many bytes of one kept state a context holds at the most: a state
/// that holds more is dropped when given back.
pub const KEEP_BYTES: usize = 16 << 20;

/// State that a use of a context (a print, a write, a read) leaves in it
/// for the next use of the same kind: taken with [`IrContext::take_kept`],
/// given back with [`IrContext::keep`].
pub trait KeptState: Default + Send + 'static {
    /// The bytes it holds, about: what the context's budget
    /// ([`KEEP_BYTES`]) counts, and what decides which of two states given
    /// back by users on two threads is kept.
    fn footprint(&self) -> usize;

    /// Readies it for the next use: clears what belonged to the last one
    /// (value numbers, ids), keeping the room.
    fn prepare(&mut self);
}

/// The kept states of a context, one slot per type: an `Option<T>`, boxed
/// once, that a take empties and a keep fills (neither allocates).
#[derive(Default)]
pub(super) struct KeptStates(Mutex<Vec<Box<dyn Any + Send>>>);

impl IrContext {
    /// The state of type `T` the last use left (see [`IrContext::keep`]),
    /// or a fresh one, prepared for use ([`KeptState::prepare`]). Until it
    /// is kept again, other takers start afresh rather than wait.
    pub fn take_kept<T: KeptState>(&self) -> T {
        let mut state = {
            let mut slots = self.kept.0.lock();
            slots
                .iter_mut()
                .find_map(|slot| slot.downcast_mut::<Option<T>>())
                .and_then(Option::take)
                .unwrap_or_default()
        };
        state.prepare();
        state
    }

    /// What `f` answers of the state of type `T` the last use left, if
    /// any is there (another user may have taken it), without taking it.
    pub fn peek_kept<T: KeptState, R>(&self, f: impl FnOnce(Option<&T>) -> R) -> R {
        let slots = self.kept.0.lock();
        f(slots
            .iter()
            .find_map(|slot| slot.downcast_ref::<Option<T>>())
            .and_then(Option::as_ref))
    }

    /// Leaves `state` for the next [`IrContext::take_kept`] of its type,
    /// unless it holds more than [`KEEP_BYTES`] or the context holds a
    /// larger one already (given back by a user that started while this
    /// one ran).
    pub fn keep<T: KeptState>(&self, state: T) {
        let bytes = state.footprint();
        if bytes > KEEP_BYTES {
            return;
        }
        let mut slots = self.kept.0.lock();
        let slot = slots
            .iter_mut()
            .find_map(|slot| slot.downcast_mut::<Option<T>>());
        let replaced = match slot {
            Some(Some(there)) if there.footprint() > bytes => Some(state),
            Some(slot @ Some(_)) => slot.replace(state),
            // The common case, the slot its take emptied: one move in.
            Some(empty) => {
                *empty = Some(state);
                None
            }
            None => {
                slots.push(Box::new(Some(state)));
                return;
            }
        };
        // Whichever state loses is dropped outside the lock.
        drop(slots);
        drop(replaced);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A state of `bytes` bytes that counts its uses.
    #[derive(Default, Debug, PartialEq)]
    struct Counted {
        bytes: usize,
        uses: u32,
        prepared: bool,
    }

    impl KeptState for Counted {
        fn footprint(&self) -> usize {
            self.bytes
        }
        fn prepare(&mut self) {
            self.prepared = true;
        }
    }

    /// Another type, kept apart from [`Counted`].
    #[derive(Default, Debug, PartialEq)]
    struct Other(usize);

    impl KeptState for Other {
        fn footprint(&self) -> usize {
            self.0
        }
        fn prepare(&mut self) {}
    }

    #[test]
    fn a_take_with_nothing_kept_is_fresh_and_prepared() {
        let ctx = IrContext::new();
        let fresh = ctx.take_kept::<Counted>();
        assert_eq!(
            fresh,
            Counted {
                prepared: true,
                ..Counted::default()
            }
        );
    }

    #[test]
    fn a_kept_state_is_taken_once_and_prepared() {
        let ctx = IrContext::new();
        ctx.keep(Counted {
            bytes: 10,
            uses: 3,
            prepared: false,
        });
        let taken = ctx.take_kept::<Counted>();
        assert_eq!((taken.uses, taken.prepared), (3, true));
        let again = ctx.take_kept::<Counted>();
        assert_eq!(again.uses, 0, "taken until kept again");
    }

    #[test]
    fn a_peek_leaves_the_state_kept() {
        let ctx = IrContext::new();
        assert_eq!(ctx.peek_kept::<Counted, _>(|s| s.map(|s| s.uses)), None);
        ctx.keep(Counted {
            bytes: 10,
            uses: 3,
            prepared: false,
        });
        ctx.keep(Other(4));
        assert_eq!(ctx.peek_kept::<Counted, _>(|s| s.map(|s| s.uses)), Some(3));
        assert_eq!(ctx.peek_kept::<Other, _>(|s| s.map(|s| s.0)), Some(4));
        assert_eq!(ctx.take_kept::<Counted>().uses, 3);
        assert_eq!(ctx.peek_kept::<Counted, _>(|s| s.map(|s| s.uses)), None);
    }

    #[test]
    fn a_state_over_the_budget_is_dropped() {
        let ctx = IrContext::new();
        ctx.keep(Counted {
            bytes: KEEP_BYTES + 1,
            uses: 1,
            prepared: false,
        });
        assert_eq!(ctx.take_kept::<Counted>().uses, 0);
        ctx.keep(Counted {
            bytes: KEEP_BYTES,
            uses: 2,
            prepared: false,
        });
        assert_eq!(ctx.take_kept::<Counted>().uses, 2, "the budget itself fits");
    }

    #[test]
    fn of_two_states_given_back_the_larger_is_kept() {
        let ctx = IrContext::new();
        let state = |bytes, uses| Counted {
            bytes,
            uses,
            prepared: false,
        };
        ctx.keep(state(100, 1));
        ctx.keep(state(50, 2));
        assert_eq!(ctx.take_kept::<Counted>().uses, 1, "the smaller is dropped");
        ctx.keep(state(50, 3));
        ctx.keep(state(100, 4));
        assert_eq!(ctx.take_kept::<Counted>().uses, 4, "the larger replaces");
        ctx.keep(state(100, 5));
        ctx.keep(state(100, 6));
        assert_eq!(ctx.take_kept::<Counted>().uses, 6, "an equal one replaces");
    }

    #[test]
    fn types_are_kept_apart() {
        let ctx = IrContext::new();
        ctx.keep(Other(7));
        ctx.keep(Counted {
            bytes: 1000,
            uses: 9,
            prepared: false,
        });
        ctx.keep(Other(8));
        assert_eq!(ctx.take_kept::<Other>(), Other(8));
        assert_eq!(ctx.take_kept::<Counted>().uses, 9);
        assert_eq!(ctx.take_kept::<Other>(), Other(0));
    }
}
