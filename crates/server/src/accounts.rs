//! Accounts, optional (docs/api.md, Accounts): a name and a password,
//! sessions in a cookie, and the seats bound to an account.
//!
//! - **Passwords** are hashed with Argon2id at OWASP's parameters
//!   ([`ARGON2_M_KIB`], [`ARGON2_T`], [`ARGON2_P`]), on blocking threads,
//!   a few at once ([`Hasher`]); they are at least [`MIN_PASSWORD`]
//!   characters and must not be guessable by zxcvbn's dictionaries (common
//!   passwords, words, names, the account's own name) and patterns.
//! - **Sessions**: a random token of 256 bits in an `HttpOnly` cookie; the
//!   database holds only its SHA-256, so that a copy of the database signs
//!   no one in. A session ends [`SESSION_IDLE`] after its last use (pushed
//!   back at most once every [`SESSION_REFRESH`]) and at the latest
//!   [`SESSION_MAX`] after it began; changing the password, signing out
//!   everywhere and deleting the account delete the account's sessions.
//! - **Names** are cleaned as seat names are ([`crate::names`]), unique
//!   after folding (case and look-alike forms), and never a bot's.
//!
//! Nothing here logs a password or a token, and their `Debug` forms are
//! hidden ([`Secret`]).

use std::time::Duration;

use argon2::{Algorithm, Argon2, Params, PasswordHasher, PasswordVerifier, Version};
use rand::Rng;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use tokio::sync::Semaphore;
use unicode_normalization::UnicodeNormalization;

use crate::error::GameError;
use crate::limits::SIGN_IN_WINDOW;
use crate::store::accounts::{NewAccount, NewSession};
use crate::store::Store;

/// Argon2id's memory, in KiB: OWASP's first recommended setting (19 MiB,
/// two passes, one lane; Password Storage Cheat Sheet).
pub const ARGON2_M_KIB: u32 = 19 * 1024;
/// Argon2id's passes over the memory.
pub const ARGON2_T: u32 = 2;
/// Argon2id's lanes.
pub const ARGON2_P: u32 = 1;

/// Shortest password, in characters (OWASP ASVS 4.0, V2.1.1).
pub const MIN_PASSWORD: usize = 12;
/// Longest password, in characters (ASVS V2.1.2 allows refusing more than 128).
pub const MAX_PASSWORD: usize = 128;
/// zxcvbn's score a password needs: 3, "safely unguessable" (more than
/// 10^8 guesses; its list of common passwords scores 0 to 2).
const MIN_SCORE: u8 = 3;

/// A session ends this long after its last use.
pub const SESSION_IDLE: Duration = Duration::from_secs(30 * 24 * 3600);
/// A session ends at the latest this long after it began, however used.
pub const SESSION_MAX: Duration = Duration::from_secs(365 * 24 * 3600);
/// A session's end is pushed back (one write) at most this often.
pub const SESSION_REFRESH: Duration = Duration::from_secs(24 * 3600);

/// The session cookie's name.
pub const COOKIE: &str = "carcassonne_session";

/// Password hashes computed at once: each takes [`ARGON2_M_KIB`] of
/// memory and a core for some 30 ms.
const HASHES_AT_ONCE: usize = 4;
/// How long a request waits for a hashing thread before it is `busy`.
const HASH_WAIT: Duration = Duration::from_secs(5);

/// A password or a token from a client: its `Debug` form is hidden, so
/// that no log line or error can show it.
#[derive(Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    pub fn new(s: impl Into<String>) -> Secret {
        Secret(s.into())
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(***)")
    }
}

/// An account as its holder sees it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Account {
    #[serde(skip)]
    pub id: i64,
    pub name: String,
    pub created: i64,
}

/// A session found by its token.
#[derive(Clone, Debug)]
pub struct Session {
    pub account: Account,
    /// SHA-256 of its token, hex: its key in the database.
    pub digest: String,
    pub created: i64,
    /// When its end was last pushed back.
    pub refreshed: i64,
    pub expires: i64,
}

impl Session {
    /// The session's new end if it is due for a refresh at `now`.
    pub fn refresh_due(&self, now: i64) -> Option<i64> {
        (now - self.refreshed >= SESSION_REFRESH.as_secs() as i64).then(|| expiry(self.created, now))
    }
}

/// When a session begun at `created` ends, used at `now`.
pub fn expiry(created: i64, now: i64) -> i64 {
    (now + SESSION_IDLE.as_secs() as i64).min(created + SESSION_MAX.as_secs() as i64)
}

/// A new session token (64 hex digits, 256 random bits) and its digest.
pub fn new_token() -> (Secret, String) {
    let token: String = rand::rng().random::<[u8; 32]>().iter().map(|b| format!("{b:02x}")).collect();
    let digest = digest(&token);
    (Secret(token), digest)
}

/// A token's SHA-256, hex: what the database holds.
pub fn digest(token: &str) -> String {
    Sha256::digest(token.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `s` looks like a session token (64 lowercase hex digits):
/// anything else is no session, without a look in the database.
pub fn token_shaped(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The names a bot is given or plays under: the levels of the ladder,
/// `random`, the bot specs' kinds.
const BOT_WORDS: &[&str] = &["random", "beginner", "easy", "medium", "hard", "expert", "greedy", "mcts", "engine"];

/// An account's name cleaned as a seat's is, and its key (folded: case
/// and look-alike forms count as one); refused when empty or a bot's.
pub fn clean_name(name: &str) -> Result<(String, String), GameError> {
    let shown = crate::names::clean(Some(name), String::new()).map_err(|e| match e {
        GameError::InvalidSetup(m) => GameError::InvalidName(m.replace("a seat name", "a name")),
        e => e,
    })?;
    if shown.is_empty() {
        return Err(GameError::InvalidName("a name is needed".into()));
    }
    let key = crate::names::fold(&shown);
    if is_bot_name(&key) {
        return Err(GameError::InvalidName(format!(
            "'{shown}' is a bot's name (the server names its bots 'Bot N (level)' after their levels)"
        )));
    }
    Ok((shown, key))
}

/// Whether a folded name is one the server gives bots, or a level's.
fn is_bot_name(key: &str) -> bool {
    let squeezed: String = key.chars().filter(|c| !c.is_whitespace()).collect();
    // "bot", "bot 3", "bot 3 (easy)", "bot(hard)"; not "botticelli".
    if let Some(rest) = squeezed.strip_prefix("bot") {
        if rest.chars().next().is_none_or(|c| !c.is_alphabetic()) {
            return true;
        }
    }
    let word = squeezed.split([':', '(']).next().unwrap_or("");
    BOT_WORDS.contains(&word) || key.parse::<carcassonne_bots::BotSpec>().is_ok()
}

/// A new password checked: its length in characters (after NFC, as it is
/// hashed) and its strength (zxcvbn, with the account's name as a word
/// the guesser knows). Returns it as it is hashed.
pub fn check_password(password: &Secret, name: &str) -> Result<Secret, GameError> {
    let normal = normalize(password);
    let n = normal.expose().chars().count();
    if n < MIN_PASSWORD {
        return Err(GameError::WeakPassword(format!("a password has at least {MIN_PASSWORD} characters, not {n}")));
    }
    if n > MAX_PASSWORD {
        return Err(GameError::WeakPassword(format!("a password has at most {MAX_PASSWORD} characters, not {n}")));
    }
    if normal.expose().chars().any(char::is_control) {
        return Err(GameError::WeakPassword("a password may not hold control characters".into()));
    }
    let entropy = zxcvbn::zxcvbn(normal.expose(), &[name]);
    if u8::from(entropy.score()) < MIN_SCORE {
        let why = entropy
            .feedback()
            .and_then(|f| f.warning())
            .map(|w| w.to_string())
            .unwrap_or_else(|| "It is too easy to guess.".to_string());
        return Err(GameError::WeakPassword(format!(
            "this password is too easy to guess ({}): add words, or choose a longer phrase",
            why.trim_end_matches('.')
        )));
    }
    Ok(normal)
}

/// A password as it is hashed: NFC (so that the same characters typed
/// composed or decomposed are one password).
fn normalize(password: &Secret) -> Secret {
    Secret(password.expose().nfc().collect())
}

fn argon2() -> Result<Argon2<'static>, GameError> {
    let params = Params::new(ARGON2_M_KIB, ARGON2_T, ARGON2_P, None).map_err(GameError::internal)?;
    Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
}

/// Hashes and verifies passwords on blocking threads, a few at once so
/// that a burst of sign-ins cannot take all the memory.
pub struct Hasher {
    permits: Semaphore,
    /// A hash to verify against when the name has no account, so that the
    /// answer takes as long as for a wrong password.
    decoy: std::sync::OnceLock<String>,
}

impl Default for Hasher {
    fn default() -> Hasher {
        Hasher { permits: Semaphore::new(HASHES_AT_ONCE), decoy: std::sync::OnceLock::new() }
    }
}

impl Hasher {
    async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> Result<T, GameError> + Send + 'static,
    ) -> Result<T, GameError> {
        let _permit = match tokio::time::timeout(HASH_WAIT, self.permits.acquire()).await {
            Ok(Ok(p)) => p,
            _ => return Err(GameError::Busy("the server is checking many passwords at once".into())),
        };
        tokio::task::spawn_blocking(f).await.map_err(GameError::internal)?
    }

    /// The PHC string of a new password (checked before).
    pub async fn hash(&self, password: Secret) -> Result<String, GameError> {
        self.run(move || {
            let hash = argon2()?.hash_password(password.expose().as_bytes()).map_err(GameError::internal)?;
            Ok(hash.to_string())
        })
        .await
    }

    /// Whether `password` is the one of `hash`; with no hash (no such
    /// account), a decoy's check takes the same time and says no.
    pub async fn verify(&self, password: &Secret, hash: Option<String>) -> Result<bool, GameError> {
        let password = normalize(password);
        let decoy = hash.is_none();
        let hash = match hash {
            Some(h) => h,
            None => match self.decoy.get() {
                Some(d) => d.clone(),
                None => {
                    let d = self.hash(Secret::new("not a password of anyone's")).await?;
                    self.decoy.get_or_init(|| d).clone()
                }
            },
        };
        let ok = self
            .run(move || {
                let parsed = argon2::PasswordHash::new(&hash).map_err(GameError::internal)?;
                Ok(argon2()?.verify_password(password.expose().as_bytes(), &parsed).is_ok())
            })
            .await?;
        Ok(ok && !decoy)
    }
}

/// The accounts' rules over a store: how a session begins, is found,
/// slides and ends, and what a password change or a deletion takes.
pub struct Accounts {
    /// The session cookie is `Secure`.
    pub secure_cookies: bool,
    pub hasher: Hasher,
}

/// A session begun: the token for the cookie (never stored) and its end.
pub struct Begun {
    pub account: Account,
    pub token: Secret,
    pub expires: i64,
    /// When it began: its cookie's age counts from then, not from the end
    /// of the password's hashing, which may be a second later.
    pub at: i64,
}

impl Accounts {
    pub fn new(secure_cookies: bool) -> Accounts {
        Accounts { secure_cookies, hasher: Hasher::default() }
    }

    fn new_session(now: i64) -> (Secret, NewSession) {
        let (token, digest) = new_token();
        (token, NewSession { digest, created: now, expires: expiry(now, now) })
    }

    /// A new account, signed in.
    pub async fn register(&self, store: &Store, name: &str, password: &Secret, now: i64) -> Result<Begun, GameError> {
        let (name, key) = clean_name(name)?;
        let password = check_password(password, &name)?;
        // Refused before the hash is paid for, when the name is known taken.
        if store.account_by_key(&key).await?.is_some() {
            return Err(GameError::NameTaken(name));
        }
        let hash = self.hasher.hash(password).await?;
        let id = store.create_account(NewAccount { name: name.clone(), key, password: hash, created: now }).await?;
        let (token, session) = Accounts::new_session(now);
        let expires = session.expires;
        store.create_session(id, session).await?;
        tracing::info!(account = id, "account created");
        Ok(Begun { account: Account { id, name, created: now }, token, expires, at: now })
    }

    /// Signs in; refused alike for an unknown name and a wrong password
    /// (and in the same time), and when the name has had `max_failures`
    /// failures within [`SIGN_IN_WINDOW`].
    pub async fn sign_in(
        &self,
        store: &Store,
        name: &str,
        password: &Secret,
        max_failures: u32,
        now: i64,
    ) -> Result<Begun, GameError> {
        // A name that cannot be an account's is looked up all the same
        // (and fails): the answer tells nothing of the rules.
        let key = match clean_name(name) {
            Ok((_, key)) => key,
            Err(_) => crate::names::fold(name.trim()),
        };
        let key: String = key.chars().take(4 * crate::names::MAX_NAME).collect();
        let window = SIGN_IN_WINDOW.as_secs() as i64;
        let (failed, oldest) = store.failures(&key, now - window).await?;
        if failed >= u64::from(max_failures) {
            let wait = oldest.map_or(window, |o| (o + window - now).max(1));
            return Err(GameError::TooManyAttempts {
                retry_after: Duration::from_secs(wait as u64),
                per: "for this name",
            });
        }
        let found = store.account_by_key(&key).await?;
        let hash = found.as_ref().map(|(_, h)| h.clone());
        if !self.hasher.verify(password, hash).await? {
            store.add_failure(&key, now, now - window).await?;
            return Err(GameError::BadCredentials);
        }
        let Some((account, _)) = found else { return Err(GameError::BadCredentials) };
        if failed > 0 {
            store.clear_failures(&key).await?;
        }
        let (token, session) = Accounts::new_session(now);
        let expires = session.expires;
        store.create_session(account.id, session).await?;
        Ok(Begun { account, token, expires, at: now })
    }

    /// The session of `token` at `now`, pushed back if due (then with the
    /// cookie to send again).
    pub async fn session(
        &self,
        store: &Store,
        token: &Secret,
        now: i64,
    ) -> Result<Option<(Session, Option<String>)>, GameError> {
        if !token_shaped(token.expose()) {
            return Ok(None);
        }
        let Some(mut session) = store.session(&digest(token.expose()), now).await? else { return Ok(None) };
        let mut cookie = None;
        if let Some(expires) = session.refresh_due(now) {
            store.refresh_session(&session.digest, now, expires).await?;
            session.refreshed = now;
            session.expires = expires;
            cookie = Some(set_cookie(token, expires, now, self.secure_cookies));
        }
        Ok(Some((session, cookie)))
    }

    /// Whether `password` is the account's; a wrong one counts as a
    /// failed sign-in of its name.
    async fn check_own(
        &self,
        store: &Store,
        account: &Account,
        password: &Secret,
        max: u32,
        now: i64,
    ) -> Result<(), GameError> {
        let key = crate::names::fold(&account.name);
        let window = SIGN_IN_WINDOW.as_secs() as i64;
        let (failed, oldest) = store.failures(&key, now - window).await?;
        if failed >= u64::from(max) {
            let wait = oldest.map_or(window, |o| (o + window - now).max(1));
            return Err(GameError::TooManyAttempts {
                retry_after: Duration::from_secs(wait as u64),
                per: "for this name",
            });
        }
        let hash = store.password_of(account.id).await?;
        if hash.is_none() {
            return Err(GameError::NotSignedIn("this account no longer exists".into()));
        }
        if !self.hasher.verify(password, hash).await? {
            store.add_failure(&key, now, now - window).await?;
            return Err(GameError::WrongPassword);
        }
        Ok(())
    }

    /// A new password (the old one needed): every session of the account
    /// ends, and this device gets a new one.
    pub async fn change_password(
        &self,
        store: &Store,
        session: &Session,
        old: &Secret,
        new: &Secret,
        max_failures: u32,
        now: i64,
    ) -> Result<Begun, GameError> {
        let new = check_password(new, &session.account.name)?;
        self.check_own(store, &session.account, old, max_failures, now).await?;
        let hash = self.hasher.hash(new).await?;
        let (token, fresh) = Accounts::new_session(now);
        let expires = fresh.expires;
        store.set_password(session.account.id, hash, fresh).await?;
        tracing::info!(account = session.account.id, "password changed, other sessions ended");
        Ok(Begun { account: session.account.clone(), token, expires, at: now })
    }

    /// Deletes the account (its password needed), its sessions and its
    /// seats' bindings; its games stay as they are.
    pub async fn delete(
        &self,
        store: &Store,
        session: &Session,
        password: &Secret,
        max_failures: u32,
        now: i64,
    ) -> Result<(), GameError> {
        self.check_own(store, &session.account, password, max_failures, now).await?;
        store.delete_account(session.account.id).await?;
        tracing::info!(account = session.account.id, "account deleted");
        Ok(())
    }
}

/// The session token a request's `Cookie` headers carry, if any.
pub fn cookie_token(headers: &axum::http::HeaderMap) -> Option<Secret> {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| Secret(value.trim_matches('"').to_string()))
}

/// The `Set-Cookie` value of a session ending at `expires` (seen at `now`).
pub fn set_cookie(token: &Secret, expires: i64, now: i64, secure: bool) -> String {
    let age = (expires - now).max(0);
    let secure = if secure { "; Secure" } else { "" };
    format!("{COOKIE}={}; Path=/; Max-Age={age}; HttpOnly; SameSite=Lax{secure}", token.expose())
}

/// The `Set-Cookie` value that removes the session cookie.
pub fn clear_cookie(secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!("{COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax{secure}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bots_names_are_refused_and_others_kept() {
        for name in [
            "Bot",
            "bot 2",
            "Bot 3 (easy)",
            "BOT(hard)",
            "ｂｏｔ 1",
            "easy",
            "Expert",
            "mcts:ms=800",
            "greedy",
            "Random",
        ] {
            match clean_name(name) {
                Err(GameError::InvalidName(m)) => assert!(m.contains("bot"), "{name}: {m}"),
                other => panic!("{name:?} was not refused: {other:?}"),
            }
        }
        for name in ["Botticelli", "Ann", "Easy Rider", "Zoë"] {
            assert!(clean_name(name).is_ok(), "{name}");
        }
        assert_eq!(clean_name("  Ann\u{a0} Lee ").unwrap(), ("Ann Lee".to_string(), "ann lee".to_string()));
        assert_eq!(clean_name("Ａｎｎ").unwrap().1, clean_name("ann").unwrap().1);
        assert!(matches!(clean_name("   "), Err(GameError::InvalidName(_))));
        assert!(matches!(clean_name("An\u{200b}n"), Err(GameError::InvalidName(_))));
        assert!(matches!(clean_name(&"x".repeat(33)), Err(GameError::InvalidName(_))));
    }

    #[test]
    fn weak_passwords_are_refused() {
        let check = |p: &str| check_password(&Secret::new(p), "Ann Lee");
        assert!(matches!(check("short"), Err(GameError::WeakPassword(m)) if m.contains("at least 12")));
        for weak in ["password1234", "123456789012", "qwertyuiopas", "annleeannlee", "iloveyouiloveyou"] {
            assert!(matches!(check(weak), Err(GameError::WeakPassword(_))), "{weak} passed");
        }
        assert!(matches!(check(&"a".repeat(129)), Err(GameError::WeakPassword(m)) if m.contains("at most 128")));
        assert!(check("correct horse battery staple").is_ok());
        assert!(check("Meeple-Ferry-47-lantern").is_ok());
        // Composed and decomposed forms are one password.
        let a = check("Zoë-plays-ferries-at-noon").unwrap();
        let b = check("Zoe\u{308}-plays-ferries-at-noon").unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn secrets_do_not_show() {
        let s = Secret::new("hunter2hunter2");
        assert_eq!(format!("{s:?}"), "Secret(***)");
        let (token, d) = new_token();
        assert!(token_shaped(token.expose()) && d.len() == 64 && d != token.expose());
        assert_eq!(digest(token.expose()), d);
    }

    #[test]
    fn the_cookie_is_read_and_written() {
        let mut headers = axum::http::HeaderMap::new();
        headers.insert(axum::http::header::COOKIE, "a=1; carcassonne_session=abc; b=2".parse().unwrap());
        assert_eq!(cookie_token(&headers).unwrap().expose(), "abc");
        let set = set_cookie(&Secret::new("abc"), 1000, 400, true);
        assert_eq!(set, "carcassonne_session=abc; Path=/; Max-Age=600; HttpOnly; SameSite=Lax; Secure");
        assert!(!clear_cookie(false).contains("Secure"));
    }

    #[tokio::test]
    async fn passwords_hash_and_verify() {
        let hasher = Hasher::default();
        let pw = Secret::new("correct horse battery staple");
        let hash = hasher.hash(pw.clone()).await.unwrap();
        assert!(hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{hash}");
        assert!(hasher.verify(&pw, Some(hash.clone())).await.unwrap());
        assert!(!hasher.verify(&Secret::new("wrong horse battery staple"), Some(hash)).await.unwrap());
        assert!(!hasher.verify(&pw, None).await.unwrap(), "no account: the decoy says no");
    }

    #[test]
    fn sessions_slide_within_their_maximum() {
        let day = 24 * 3600;
        assert_eq!(expiry(0, 10), 10 + 30 * day);
        assert_eq!(expiry(0, 360 * day), 365 * day);
        let s = Session {
            account: Account { id: 1, name: "Ann".into(), created: 0 },
            digest: String::new(),
            created: 0,
            refreshed: 0,
            expires: 30 * day,
        };
        assert_eq!(s.refresh_due(day - 1), None);
        assert_eq!(s.refresh_due(day), Some(31 * day));
    }
}
