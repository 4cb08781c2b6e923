//! The project's shared datasets beside the repository (`../shared/data`). The tests that read
//! them check the repository's copies in `tests/data/` always, and the whole shared sets too
//! when the folder is there: the project's machines have it, a clone alone does not. Without
//! it, the part of a test that needs it is skipped, and a line on standard error says which and
//! why (written past the test harness's capture, so that it shows when the test passes). The
//! engine's data-driven tests use it, and so do the app's, through their `common` module.
#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;

/// The shared datasets' folder, `../shared/data` beside the repository.
pub fn shared_data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data")
}

/// `../shared/data/REL` when it is there. Without the folder `../shared/data`, `None` and a
/// line on standard error that `what` is skipped and why; with the folder but not `REL`,
/// `None` alone (a dataset that lives in another of its subfolders).
pub fn shared_data(rel: &str, what: &str) -> Option<PathBuf> {
    let dir = shared_data_dir();
    if !dir.is_dir() {
        let _ = writeln!(
            std::io::stderr(),
            "skipped: {what}: ../shared/data is not beside the repository (the project's \
             shared datasets); only the copies in tests/data are checked"
        );
        return None;
    }
    Some(dir.join(rel)).filter(|p| p.exists())
}
