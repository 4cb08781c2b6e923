//! What the program finds out about the system at start and hands to the engine, which reads
//! no files of its own.

/// The system's setting for transparent huge pages.
const HUGE_PAGES_SETTING: &str = "/sys/kernel/mm/transparent_hugepage/enabled";

/// Tells the engine what the system allows: whether its large tables may be collapsed onto
/// transparent huge pages. A system without the setting (or not Linux) allows none.
pub fn configure_engine() {
    let allowed =
        std::fs::read_to_string(HUGE_PAGES_SETTING).is_ok_and(|s| huge_pages_allowed_by(&s));
    gomoku_engine::search::allow_huge_pages(allowed);
}

/// Whether the text of the setting (`always [madvise] never`, the chosen one in brackets)
/// allows huge pages.
fn huge_pages_allowed_by(setting: &str) -> bool {
    !setting.trim().is_empty() && !setting.contains("[never]")
}

#[cfg(test)]
mod tests {
    use super::huge_pages_allowed_by;

    #[test]
    fn the_setting_in_brackets_decides() {
        for (text, want) in [
            ("always [madvise] never\n", true),
            ("[always] madvise never\n", true),
            ("always madvise [never]\n", false),
            ("", false),
        ] {
            assert_eq!(huge_pages_allowed_by(text), want, "{text:?}");
        }
    }
}
