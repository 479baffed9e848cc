//! Decides, in one place, whether this build has the jail of `beast check`: on Linux, with
//! the `jail` feature (on by default). The code asks `#[cfg(jail)]`.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(jail)");
    let linux = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    if linux && std::env::var_os("CARGO_FEATURE_JAIL").is_some() {
        println!("cargo::rustc-cfg=jail");
    }
}
