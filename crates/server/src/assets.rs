//! The browser UI: the files of `assets/`, embedded in the binary (or read
//! from a directory during UI development).

use std::path::Path;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use include_dir::{include_dir, Dir};

static ASSETS: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/assets");

fn content_type(path: &str) -> &'static str {
    let ext = path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).unwrap_or_default();
    match ext.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" | "map" => "application/json",
        "webmanifest" => "application/manifest+json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        "txt" | "md" => "text/plain; charset=utf-8",
        "wasm" => "application/wasm",
        _ => "application/octet-stream",
    }
}

/// A relative path made only of plain names, or `None`.
fn clean(path: &str) -> Option<String> {
    let path = path.trim_start_matches('/');
    if path.is_empty() {
        return Some("index.html".into());
    }
    let ok = path.split('/').all(|seg| {
        !seg.is_empty() && seg != "." && seg != ".." && !seg.contains(['\\', ':', '\0']) && !seg.starts_with('.')
    });
    ok.then(|| path.to_string())
}

fn file(path: &str, body: Vec<u8>) -> Response {
    let mut r = (StatusCode::OK, body).into_response();
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type(path)));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    r
}

fn lookup(dir: Option<&Path>, path: &str) -> Option<Vec<u8>> {
    match dir {
        Some(d) => std::fs::read(d.join(path)).ok(),
        None => ASSETS.get_file(path).map(|f| f.contents().to_vec()),
    }
}

/// The file at `path`; a path without an extension that names no file gets
/// `index.html`, so the UI may use paths of its own.
pub fn serve(dir: Option<&Path>, path: &str) -> Response {
    let Some(path) = clean(path) else {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    };
    if let Some(body) = lookup(dir, &path) {
        return file(&path, body);
    }
    let last = path.rsplit('/').next().unwrap_or_default();
    if !last.contains('.') {
        if let Some(body) = lookup(dir, "index.html") {
            return file("index.html", body);
        }
    }
    (StatusCode::NOT_FOUND, "not found").into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_inside_the_assets() {
        assert_eq!(clean("/").as_deref(), Some("index.html"));
        assert_eq!(clean("/app.js").as_deref(), Some("app.js"));
        assert_eq!(clean("/img/a.svg").as_deref(), Some("img/a.svg"));
        assert_eq!(clean("/../secret"), None);
        assert_eq!(clean("/a/../../b"), None);
        assert_eq!(clean("/.git/config"), None);
        assert_eq!(clean("/a//b"), None);
        assert_eq!(clean("/c:/windows"), None);
        assert!(ASSETS.get_file("index.html").is_some());
    }
}
