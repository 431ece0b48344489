//! A game that gives up on a call. A game whose rules run in this process
//! is a pure function and cannot fail; one whose rules run in a child
//! process can (it crashes, hangs, or answers nonsense). Such a game calls
//! [`abandon`], which unwinds out of whatever search or replay asked; the
//! harness catches it ([`caught`]) and fails that level's check with the
//! message, and goes on with the other levels.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

/// The payload [`abandon`] unwinds with.
struct Abandoned(String);

/// Stops the current call with `message`, for [`caught`] to turn into a
/// failure. Unlike a panic, it prints nothing on its way.
///
/// ```
/// use puzzle_qa_core::abandon::{abandon, caught};
/// let failed = caught(|| -> u32 { abandon("the game process exited (status 3)") });
/// assert_eq!(failed, Err("the game process exited (status 3)".to_string()));
/// assert_eq!(caught(|| 7), Ok(7));
/// ```
pub fn abandon(message: impl Into<String>) -> ! {
    resume_unwind(Box::new(Abandoned(message.into())))
}

/// Runs `call`: its value, or the message of an [`abandon`] inside it. Any
/// other panic goes on unwinding (a bug is not a game's failure).
#[doc(hidden)]
pub fn caught<T>(call: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(call)).map_err(|payload| match payload.downcast::<Abandoned>() {
        Ok(abandoned) => abandoned.0,
        Err(other) => resume_unwind(other),
    })
}
