//! A scratch folder for each test's data, preferences and exit statuses,
//! removed when dropped (also when the test fails), so that no test run
//! leaves folders behind in the system's temporary directory.

use std::path::{Path, PathBuf};

use super::tmux::binary;

/// A test's own temporary folder: its data directory (`data/`, with the
/// preferences in `data/config/`) and the files its runs write their exit
/// status to. Removed on drop, also when the test panics.
pub struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    /// A fresh folder named after the test.
    #[must_use]
    pub fn new(name: &str) -> Scratch {
        let dir = tempfile::Builder::new()
            .prefix(&format!("mancala-test-{name}-"))
            .tempdir()
            .expect("a temporary directory");
        Scratch { dir }
    }

    /// The folder.
    #[must_use]
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// The data directory of the runs (`MANCALA_DATA_DIR`).
    #[must_use]
    pub fn data(&self) -> PathBuf {
        self.path().join("data")
    }

    /// The preferences' directory of the runs (`MANCALA_CONFIG_DIR`).
    #[must_use]
    pub fn config(&self) -> PathBuf {
        self.data().join("config")
    }

    /// A file in the folder.
    #[must_use]
    pub fn file(&self, name: &str) -> PathBuf {
        self.path().join(name)
    }

    /// The shell command that runs `mancala ARGS` with this folder's data
    /// and preferences, writes its exit status to `status`, and keeps the
    /// pane open so that the screen can still be read.
    #[must_use]
    pub fn command(&self, args: &str, status: &Path) -> String {
        format!(
            "MANCALA_DATA_DIR={} MANCALA_CONFIG_DIR={} {} {args}; echo \"$?\" > {}; sleep 60",
            self.data().display(),
            self.config().display(),
            binary(),
            status.display()
        )
    }
}

/// Breaks the save of the one network match kept in the data directory
/// `data` (a host's): a folder takes the save's name, so that the next
/// save of it fails until [`mend_save`]. Returns the save's path.
pub fn break_network_save(data: &Path) -> PathBuf {
    let save = std::fs::read_dir(data.join("saves/network"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "txt"))
        .expect("the match's save");
    std::fs::remove_file(&save).unwrap();
    std::fs::create_dir(&save).unwrap();
    save
}

/// Lets the save broken by [`break_network_save`] be written again.
pub fn mend_save(save: &Path) {
    std::fs::remove_dir(save).unwrap();
}
