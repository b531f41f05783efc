//! A small file system for the tests of a full disk: a tmpfs of a few MiB
//! mounted on a folder for the test's length (mounting needs root, as CI
//! runs), filled to the last byte on demand, unmounted at the end.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

pub struct SmallDisk {
    at: PathBuf,
    _dir: Option<tempfile::TempDir>,
}

impl SmallDisk {
    /// A tmpfs of `mib` MiB on a new temporary folder.
    pub fn mount(mib: u32) -> SmallDisk {
        let dir = tempfile::tempdir().unwrap();
        let mut disk = SmallDisk::mount_at(dir.path(), mib);
        disk._dir = Some(dir);
        disk
    }

    /// A tmpfs of `mib` MiB on `at` (made when missing).
    pub fn mount_at(at: &Path, mib: u32) -> SmallDisk {
        std::fs::create_dir_all(at).unwrap();
        let out = Command::new("mount")
            .args([
                "-t",
                "tmpfs",
                "-o",
                &format!("size={mib}m,mode=0700"),
                "tmpfs",
            ])
            .arg(at)
            .output()
            .expect("run mount");
        assert!(
            out.status.success(),
            "mounting a small tmpfs on {} needs root (CI runs as root): {}",
            at.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        SmallDisk {
            at: at.to_path_buf(),
            _dir: None,
        }
    }

    pub fn path(&self) -> &Path {
        &self.at
    }

    /// Writes the file `name` until the file system refuses more; returns
    /// the bytes written.
    pub fn fill(&self, name: &str) -> u64 {
        let mut file = std::fs::File::create(self.at.join(name)).unwrap();
        let mut written = 0u64;
        for chunk in [64 << 10, 512] {
            let bytes = vec![0x55u8; chunk];
            loop {
                match file.write(&bytes) {
                    Ok(0) => break,
                    Ok(n) => written += n as u64,
                    Err(e) => {
                        assert_eq!(e.raw_os_error(), Some(libc::ENOSPC), "{e}");
                        break;
                    }
                }
            }
        }
        let _ = file.sync_all();
        written
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.at).status();
    }
}
