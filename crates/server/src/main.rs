//! `carcassonne-server [--addr HOST:PORT] [--db FILE] [--assets DIR]`: the
//! game server alone (the `carcassonne serve` command runs the same).

use std::process::ExitCode;

use carcassonne_server::ServeOptions;

fn main() -> ExitCode {
    let mut options = ServeOptions::default();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        let result = match arg.as_str() {
            "--addr" => value("--addr").and_then(|v| v.parse().map_err(|e| format!("--addr {v}: {e}"))),
            "--db" => value("--db").map(|v| {
                options.db_path = v.into();
                options.addr
            }),
            "--assets" => value("--assets").map(|v| {
                options.assets = Some(v.into());
                options.addr
            }),
            "-h" | "--help" => {
                println!("usage: carcassonne-server [--addr HOST:PORT] [--db FILE] [--assets DIR]");
                return ExitCode::SUCCESS;
            }
            other => Err(format!("unknown argument '{other}' (try --help)")),
        };
        match result {
            Ok(addr) => options.addr = addr,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        }
    }
    match carcassonne_server::run(options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
