//! Compile-fail tests of the `#[columnar]` macro: one mistake per file under `ui/<category>/`,
//! each with the exact diagnostic in its `.stderr` (regenerate with `TRYBUILD=overwrite`; the
//! toolchain is pinned in rust-toolchain.toml so the text is stable).

#[test]
fn columnar_ui() {
    let t = trybuild::TestCases::new();
    t.pass("ui/pass/*.rs");
    for category in [
        "struct_args",
        "field_args",
        "optional",
        "item",
        "borrow",
        "iter",
        "strategy",
    ] {
        t.compile_fail(format!("ui/{category}/*.rs"));
    }
}
