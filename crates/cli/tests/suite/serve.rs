//! `carcassonne serve` refuses a database it cannot use (or that another
//! server uses) in one clear line.

use std::process::Command;

#[test]
fn a_database_that_cannot_be_opened_is_named_once_with_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-folder").join("games.db");
    let garbage = dir.path().join("garbage.db");
    std::fs::write(&garbage, "this is not SQLite, and long enough to have a header of a sort").unwrap();
    for (db, reason) in [(&missing, "unable to open database file"), (&garbage, "file is not a database")] {
        let out = Command::new(env!("CARGO_BIN_EXE_carcassonne"))
            .args(["serve", "--addr", "127.0.0.1:0", "--db", db.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert_eq!(err.trim_end(), format!("error: cannot open the database {}: {reason}", db.display()));
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn a_second_server_on_the_same_database_is_refused_in_one_line() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let serve = || {
        let mut c = Command::new(env!("CARGO_BIN_EXE_carcassonne"));
        c.args(["serve", "--addr", "127.0.0.1:0", "--db", db.to_str().unwrap()]);
        c
    };
    let mut first = serve().stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
    let mut line = String::new();
    BufReader::new(first.stdout.take().unwrap()).read_line(&mut line).unwrap();
    assert!(line.starts_with("Carcassonne server on http://"), "{line}");
    let out = serve().output().unwrap();
    let _ = first.kill();
    let _ = first.wait();
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err.trim_end(),
        format!("error: cannot open the database {}: another server is using it (its lock file is held)", db.display())
    );
}
