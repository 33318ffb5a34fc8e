// The UI in assets/ is embedded into the binary: rebuild when it changes.
fn main() {
    println!("cargo:rerun-if-changed=assets");
}
