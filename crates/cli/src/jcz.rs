//! `carcassonne import-jcz FILE.jcz [-o RECORD.json]` and
//! `carcassonne export-jcz RECORD.json [-o FILE.jcz]`: JCloisterZone saved
//! games to and from game records (see `docs/jcz.md`): the base game, The
//! Ferries and Inns & Cathedrals.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};
use carcassonne_engine::Game;
use carcassonne_jcz::ExportOptions;

#[derive(clap::Args)]
pub struct ImportArgs {
    /// The JCloisterZone 5 saved game (.jcz); `-` reads standard input.
    file: PathBuf,
    /// Write the record to this file instead of standard output (nothing is
    /// written if the game cannot be imported).
    #[arg(short, long)]
    output: Option<PathBuf>,
}

#[derive(clap::Args)]
pub struct ExportArgs {
    /// The game record (JSON, format carcassonne-record/1 or /2); `-` reads standard input.
    file: PathBuf,
    /// Write the saved game to this file instead of standard output (nothing
    /// is written if the record cannot be exported).
    #[arg(short, long)]
    output: Option<PathBuf>,
}

fn read(path: &Path) -> Result<String> {
    if path.as_os_str() == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).context("cannot read standard input")?;
        Ok(s)
    } else {
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
    }
}

fn write(output: Option<&Path>, text: &str) -> Result<()> {
    match output {
        Some(path) => std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display())),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}

pub fn import(args: &ImportArgs) -> Result<()> {
    let name = args.file.display().to_string();
    let text = read(&args.file)?;
    let imported = carcassonne_jcz::import(&text).context(name.clone())?;
    // The record must replay as `carcassonne replay` would replay it.
    Game::replay(&imported.record).context(name.clone())?;
    for w in &imported.warnings {
        eprintln!("warning: {name}: {w}");
    }
    write(args.output.as_deref(), &(imported.record.to_json_pretty() + "\n"))
}

pub fn export(args: &ExportArgs) -> Result<()> {
    let name = args.file.display().to_string();
    let record = crate::replay::read_record(&args.file)?;
    let options = ExportOptions { created: now_utc(), ..ExportOptions::default() };
    let exported = carcassonne_jcz::export_with(&record, &options).context(name.clone())?;
    for w in &exported.warnings {
        eprintln!("warning: {name}: {w}");
    }
    write(args.output.as_deref(), &exported.text)
}

/// The current time as JCloisterZone writes it: `2024-05-01T12:00:00.000Z`.
fn now_utc() -> String {
    let since = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    let (secs, millis) = (since.as_secs(), since.subsec_millis());
    let (days, rest) = ((secs / 86_400) as i64, secs % 86_400);
    // Days since 1970-01-01 to a civil date (proleptic Gregorian calendar).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + (month <= 2) as i64;
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{millis:03}Z", rest / 3600, rest % 3600 / 60, rest % 60)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_time_reads_as_jcloisterzone_writes_it() {
        let t = super::now_utc();
        assert_eq!(t.len(), "2024-05-01T12:00:00.000Z".len());
        assert!(t.starts_with("20") && t.ends_with('Z'), "{t}");
    }
}
