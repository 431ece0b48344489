//! The little of git the report needs, run as `git -C <root> …` through
//! [`std::process::Command`]: resolve a revision, list a commit's files
//! (`git ls-tree`), read blobs (`git cat-file --batch`, one process for all
//! of them rather than one `git show` per file) and hash working-tree files
//! as git would store them (`git hash-object --stdin-paths`, so line-ending
//! filters apply the same way on both sides). Nothing is checked out and
//! nothing is written to the repository.

use std::collections::BTreeMap;
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A git failure the user can act on; the message names the next command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GitError(pub String);

impl std::fmt::Display for GitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A file of a commit: its path relative to the project root (always with
/// `/` separators) and its blob id.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct TreeFile {
    /// Relative to the project root, `/`-separated.
    pub path: String,
    /// Its git blob id.
    pub blob: String,
}

/// The git repository a project root lies in. Paths given to and returned
/// by its methods are relative to that root, which may be a sub-folder of
/// the repository.
#[derive(Clone, Debug)]
pub struct Repo {
    root: PathBuf,
    /// The root's path inside the repository (`""`, or `project/`).
    prefix: String,
}

impl Repo {
    /// The repository around `root`, or an error saying how to get one.
    pub fn open(root: &Path) -> Result<Repo, GitError> {
        let mut repo = Repo {
            root: root.to_path_buf(),
            prefix: String::new(),
        };
        match repo.git(
            &["rev-parse", "--is-inside-work-tree", "--show-prefix"],
            None,
        ) {
            Ok(out) if out.starts_with(b"true\n") => {
                repo.prefix = String::from_utf8_lossy(&out[5..]).trim().to_string();
                Ok(repo)
            }
            Ok(_) | Err(Fault::Git(_)) => Err(GitError(format!(
                "{} is not inside a git work tree, and the report compares the levels with a \
                 commit\n  = hint: run it from a clone of the repository (`git clone …`), or \
                 check the working tree alone with `puzzle-qa check`",
                root.display()
            ))),
            Err(Fault::Spawn(error)) => Err(GitError(format!(
                "cannot run git ({error})\n  = hint: install git and make sure `git --version` \
                 works"
            ))),
        }
    }

    /// The full id of the commit `rev` names.
    pub fn resolve(&self, rev: &str) -> Result<String, GitError> {
        // `--end-of-options` keeps a revision such as `--all` from being
        // read as an option.
        let spec = format!("{rev}^{{commit}}");
        let unknown = || {
            GitError(format!(
                "unknown revision `{rev}`: no commit by that name in this repository\n  = hint: \
                 run `git log --oneline` to pick one; in a shallow clone, `git fetch \
                 --unshallow` (or `--deepen N`) brings the history"
            ))
        };
        if rev.is_empty() {
            return Err(unknown());
        }
        let out = self
            .git(
                &[
                    "rev-parse",
                    "--verify",
                    "--quiet",
                    "--end-of-options",
                    &spec,
                ],
                None,
            )
            .map_err(|_| unknown())?;
        let id = String::from_utf8_lossy(&out).trim().to_string();
        if id.is_empty() {
            Err(unknown())
        } else {
            Ok(id)
        }
    }

    /// The commit's first parent, if it has one in this clone.
    pub fn parent(&self, commit: &str) -> Option<String> {
        self.resolve(&format!("{commit}~1")).ok()
    }

    /// Every file of `commit` under the folders `under` (relative to the
    /// root), sorted by path. Symbolic links and submodules are left out.
    pub fn tree(&self, commit: &str, under: &[&str]) -> Result<Vec<TreeFile>, GitError> {
        let mut args = vec!["ls-tree", "-r", "-z", commit, "--"];
        args.extend_from_slice(under);
        let out = self
            .git(&args, None)
            .map_err(|failure| failure.into_error())?;
        let mut files = Vec::new();
        for record in out.split(|&byte| byte == 0).filter(|r| !r.is_empty()) {
            let record = String::from_utf8_lossy(record);
            // `<mode> <type> <object>\t<path>`
            let Some((meta, path)) = record.split_once('\t') else {
                continue;
            };
            let fields: Vec<&str> = meta.split(' ').collect();
            if let [mode, "blob", blob] = fields[..]
                && mode != "120000"
            {
                files.push(TreeFile {
                    path: path.to_string(),
                    blob: blob.to_string(),
                });
            }
        }
        files.sort();
        Ok(files)
    }

    /// The contents of the given blobs, by id.
    pub fn blobs(&self, ids: &[&str]) -> Result<BTreeMap<String, Vec<u8>>, GitError> {
        let mut contents = BTreeMap::new();
        if ids.is_empty() {
            return Ok(contents);
        }
        let input: String = ids.iter().map(|id| format!("{id}\n")).collect();
        let out = self
            .git(&["cat-file", "--batch"], Some(input.into_bytes()))
            .map_err(|failure| failure.into_error())?;
        // Each answer: `<id> blob <size>\n<size bytes>\n`, or `<id> missing\n`.
        let mut rest = &out[..];
        for id in ids {
            let Some(end) = rest.iter().position(|&byte| byte == b'\n') else {
                break;
            };
            let header = String::from_utf8_lossy(&rest[..end]).to_string();
            rest = &rest[end + 1..];
            let fields: Vec<&str> = header.split(' ').collect();
            let [_, "blob", size] = fields[..] else {
                return Err(GitError(format!(
                    "git cat-file cannot read blob {id}: `{header}`"
                )));
            };
            let size: usize = size
                .parse()
                .map_err(|_| GitError(format!("git cat-file: unexpected answer `{header}`")))?;
            if rest.len() < size + 1 {
                return Err(GitError(format!("git cat-file: blob {id} is cut short")));
            }
            contents.insert(id.to_string(), rest[..size].to_vec());
            rest = &rest[size + 1..];
        }
        Ok(contents)
    }

    /// The blob id git would give each file (relative to the root) if it
    /// were added now, in the same order.
    pub fn hash_files(&self, paths: &[&str]) -> Result<Vec<String>, GitError> {
        if paths.is_empty() {
            return Ok(Vec::new());
        }
        // Unlike paths in its arguments, git reads these relative to the
        // top of the work tree, not to `-C`.
        let input: String = paths
            .iter()
            .map(|path| format!("{}{path}\n", self.prefix))
            .collect();
        let out = self
            .git(&["hash-object", "--stdin-paths"], Some(input.into_bytes()))
            .map_err(|failure| failure.into_error())?;
        let ids: Vec<String> = String::from_utf8_lossy(&out)
            .lines()
            .map(str::to_string)
            .collect();
        if ids.len() != paths.len() {
            return Err(GitError(format!(
                "git hash-object gave {} ids for {} files",
                ids.len(),
                paths.len()
            )));
        }
        Ok(ids)
    }

    /// Runs `git -C <root> <args>`, feeding `input` on a thread of its own
    /// (so a large answer cannot block a large question), and returns its
    /// standard output.
    fn git(&self, args: &[&str], input: Option<Vec<u8>>) -> Result<Vec<u8>, Fault> {
        let mut child = Command::new("git")
            .arg("-C")
            .arg(&self.root)
            .args(args)
            .stdin(if input.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(Fault::Spawn)?;
        let writer = input.and_then(|input| {
            let mut stdin = child.stdin.take()?;
            Some(std::thread::spawn(move || {
                // A write error means git stopped reading; its exit status
                // and stderr say why.
                let _ = stdin.write_all(&input);
            }))
        });
        let mut stderr = Vec::new();
        let mut stderr_pipe = child.stderr.take();
        let reader = std::thread::spawn(move || {
            if let Some(pipe) = stderr_pipe.as_mut() {
                let _ = pipe.read_to_end(&mut stderr);
            }
            stderr
        });
        let mut stdout = Vec::new();
        if let Some(mut pipe) = child.stdout.take() {
            pipe.read_to_end(&mut stdout)
                .map_err(|error| Fault::Git(format!("cannot read git's output: {error}")))?;
        }
        let status = child.wait().map_err(Fault::Spawn)?;
        if let Some(writer) = writer {
            let _ = writer.join();
        }
        let stderr = reader.join().unwrap_or_default();
        if status.success() {
            Ok(stdout)
        } else {
            Err(Fault::Git(format!(
                "`git {}` failed: {}",
                args.join(" "),
                String::from_utf8_lossy(&stderr).trim()
            )))
        }
    }
}

/// Why a git command did not answer.
enum Fault {
    /// git could not be started at all.
    Spawn(std::io::Error),
    /// git ran and refused; its message.
    Git(String),
}

impl Fault {
    fn into_error(self) -> GitError {
        match self {
            Fault::Spawn(error) => GitError(format!(
                "cannot run git ({error})\n  = hint: install git and make sure `git --version` \
                 works"
            )),
            Fault::Git(message) => GitError(message),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// `git` in `dir`, isolated from the user's and the caller's settings.
    fn git(dir: &Path, args: &[&str]) {
        let status = Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(["-c", "user.name=t", "-c", "user.email=t@t", "-c"])
            .arg("commit.gpgsign=false")
            .args(args)
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .env_remove("GIT_INDEX_FILE")
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "git {args:?}");
    }

    fn write(dir: &Path, path: &str, text: &str) {
        let path = dir.join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    /// A repository whose project root is the sub-folder `project/`, with
    /// one commit.
    fn repository() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        git(dir.path(), &["init", "-q"]);
        let root = dir.path().join("project");
        write(&root, "levels/a/one.txt", "one\n");
        write(&root, "levels/a/two.txt", "two\n");
        write(&root, "expectations/a/one.toml", "par = 1\n");
        write(&root, "other/file.txt", "elsewhere\n");
        git(dir.path(), &["add", "."]);
        git(dir.path(), &["commit", "-q", "-m", "first"]);
        (dir, root)
    }

    #[test]
    fn a_commit_lists_its_files_relative_to_the_project_root() {
        let (_dir, root) = repository();
        let repo = Repo::open(&root).unwrap();
        let head = repo.resolve("HEAD").unwrap();
        assert_eq!(head.len(), 40, "{head}");
        let files = repo.tree(&head, &["levels", "expectations"]).unwrap();
        let paths: Vec<&str> = files.iter().map(|file| file.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "expectations/a/one.toml",
                "levels/a/one.txt",
                "levels/a/two.txt"
            ]
        );
        // A folder the commit does not have lists nothing.
        assert!(repo.tree(&head, &["nowhere"]).unwrap().is_empty());
    }

    #[test]
    fn blobs_read_back_and_working_files_hash_as_git_stores_them() {
        let (_dir, root) = repository();
        let repo = Repo::open(&root).unwrap();
        let head = repo.resolve("HEAD").unwrap();
        let files = repo.tree(&head, &["levels"]).unwrap();
        let ids: Vec<&str> = files.iter().map(|file| file.blob.as_str()).collect();
        let blobs = repo.blobs(&ids).unwrap();
        assert_eq!(blobs[&files[0].blob], b"one\n");
        assert_eq!(blobs[&files[1].blob], b"two\n");

        write(&root, "levels/a/two.txt", "two, edited\n");
        let hashes = repo
            .hash_files(&["levels/a/one.txt", "levels/a/two.txt"])
            .unwrap();
        assert_eq!(hashes[0], files[0].blob, "unchanged file, same id");
        assert_ne!(hashes[1], files[1].blob, "edited file, new id");
    }

    #[test]
    fn an_unknown_revision_and_a_missing_parent_are_told_apart_from_a_commit() {
        let (dir, root) = repository();
        let repo = Repo::open(&root).unwrap();
        let error = repo.resolve("no-such-branch").unwrap_err();
        assert!(
            error.0.contains("unknown revision `no-such-branch`"),
            "{error}"
        );
        assert!(error.0.contains("git log --oneline"), "{error}");
        assert!(repo.resolve("--all").is_err());
        assert!(repo.resolve("").is_err());
        let head = repo.resolve("HEAD").unwrap();
        assert_eq!(repo.parent(&head), None, "the first commit has no parent");
        write(&root, "levels/a/three.txt", "three\n");
        git(dir.path(), &["add", "."]);
        git(dir.path(), &["commit", "-q", "-m", "second"]);
        assert_eq!(repo.parent("HEAD").as_deref(), Some(head.as_str()));
    }

    #[test]
    fn a_folder_outside_any_repository_is_refused_with_the_next_step() {
        let dir = tempfile::tempdir().unwrap();
        let error = Repo::open(dir.path()).unwrap_err();
        assert!(error.0.contains("not inside a git work tree"), "{error}");
        assert!(error.0.contains("puzzle-qa check"), "{error}");
    }
}
