//! Running the built `carcassonne` binary in tests.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// The built binary, to be given its arguments.
pub fn carcassonne() -> Command {
    Command::new(env!("CARGO_BIN_EXE_carcassonne"))
}

/// Runs `command` with `input` on standard input and collects its output.
pub fn run_with_input(command: &mut Command, input: &str) -> Output {
    let mut child =
        command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("the binary runs");
    let mut stdin = child.stdin.take().expect("a pipe");
    let input = input.to_string();
    // The program may stop reading early: a closed pipe is no failure here.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("the binary ends");
    writer.join().expect("the writer ends");
    out
}
