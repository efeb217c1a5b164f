//! Running other programs: print what runs, log what it says, fail with a message that says what failed.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A command line with its environment, built up before it runs.
#[derive(Clone, Debug)]
pub struct Cmd {
    program: OsString,
    args: Vec<OsString>,
    envs: Vec<(OsString, OsString)>,
    env_remove: Vec<OsString>,
    dir: Option<PathBuf>,
}

impl Cmd {
    pub fn new(program: impl AsRef<OsStr>) -> Cmd {
        Cmd { program: program.as_ref().into(), args: Vec::new(), envs: Vec::new(), env_remove: Vec::new(), dir: None }
    }

    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Cmd {
        self.args.push(arg.as_ref().into());
        self
    }

    pub fn args<I, S>(mut self, args: I) -> Cmd
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.args.extend(args.into_iter().map(|a| a.as_ref().into()));
        self
    }

    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Cmd {
        self.envs.push((key.as_ref().into(), value.as_ref().into()));
        self
    }

    pub fn env_remove(mut self, key: impl AsRef<OsStr>) -> Cmd {
        self.env_remove.push(key.as_ref().into());
        self
    }

    pub fn dir(mut self, dir: impl AsRef<Path>) -> Cmd {
        self.dir = Some(dir.as_ref().into());
        self
    }

    /// The command as a shell would show it (environment not included).
    pub fn display(&self) -> String {
        std::iter::once(&self.program).chain(&self.args).map(|s| s.to_string_lossy()).collect::<Vec<_>>().join(" ")
    }

    fn command(&self) -> Command {
        let mut c = Command::new(&self.program);
        c.args(&self.args);
        for key in &self.env_remove {
            c.env_remove(key);
        }
        c.envs(self.envs.iter().map(|(k, v)| (k, v)));
        if let Some(dir) = &self.dir {
            c.current_dir(dir);
        }
        c
    }

    /// Runs with the terminal's stdout/stderr; an error when it cannot start or exits non-zero.
    pub fn run(&self) -> Result<(), String> {
        let status = self.command().status().map_err(|e| format!("cannot run `{}`: {e}", self.display()))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("`{}` failed ({status})", self.display()))
        }
    }

    /// Runs with stdout and stderr written to `log`; on failure the error carries the log's last lines.
    pub fn run_logged(&self, log: &Path) -> Result<(), String> {
        if let Some(parent) = log.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        let out = File::create(log).map_err(|e| format!("cannot write {}: {e}", log.display()))?;
        let err = out.try_clone().map_err(|e| e.to_string())?;
        let status = self
            .command()
            .stdout(Stdio::from(out))
            .stderr(Stdio::from(err))
            .status()
            .map_err(|e| format!("cannot run `{}`: {e}", self.display()))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("`{}` failed ({status}); last lines of {}:\n{}", self.display(), log.display(), tail(log, 60)))
        }
    }

    /// Runs quietly and returns trimmed stdout when it succeeds, `None` when it cannot run or fails.
    pub fn read(&self) -> Option<String> {
        let out = self.command().stderr(Stdio::null()).output().ok()?;
        out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    }

    /// Runs quietly; `Ok(true)` on success, `Ok(false)` on failure or after `limit` (then the child is killed).
    pub fn succeeds_within(&self, limit: Duration) -> bool {
        let Ok(mut child) = self.command().stdout(Stdio::null()).stderr(Stdio::null()).spawn() else { return false };
        let deadline = Instant::now() + limit;
        loop {
            match child.try_wait() {
                Ok(Some(status)) => return status.success(),
                Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(200)),
                _ => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return false;
                }
            }
        }
    }
}

/// The last `n` lines of a text file (empty if unreadable).
pub fn tail(path: &Path, n: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// The first executable named `name` on PATH.
pub fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(name)).find(|p| is_executable(p))
}

pub fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata().map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0).unwrap_or(false)
}

/// One line saying what a step does, in the tool's voice.
pub fn say(step: &str, message: impl AsRef<str>) {
    println!("[{step}] {}", message.as_ref());
}
