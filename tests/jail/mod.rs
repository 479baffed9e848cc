//! The jail's tests, one file an attack class. Each attack runs the real binary and its
//! harm is checked from outside (a file on the host, a process left, a secret in the
//! output); each file says which levels and users it runs under, and skips, saying why,
//! where the kernel refuses namespaces.
//!
//! - `hostile`: the hostile candidates of `tests/fixtures/hostile/` (escape, cheat, read a
//!   secret, outlive the case), and the helpers the other files share (`levels`,
//!   `left_running`, `with_marker`).
//! - `breakouts`: the attacks that broke the earlier sandbox, and the honest answers that
//!   could not run under it.
//! - `side_doors`: nothing an answer wrote runs, or is read as an instruction, outside the
//!   jail.
//! - `shown_paths`: the jail shows a path the command line names only if the case's user
//!   could read it on the host.
//! - `subordinate_uids`: a normal user's cases run as ids of its subordinate range.

mod breakouts;
pub mod hostile;
pub mod shown_paths;
mod side_doors;
mod subordinate_uids;
