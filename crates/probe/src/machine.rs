//! What the host says about itself: CPU model and clock (`/proc/cpuinfo`), caches
//! (`/sys/devices/system/cpu/cpu0/cache`), cores, architecture and operating system.

use std::path::Path;

use serde::{Deserialize, Serialize};

/// The host a profile was measured on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Machine {
    /// The CPU model (`model name` of `/proc/cpuinfo`), if the system says.
    pub cpu_model: Option<String>,
    /// The clock of the first CPU when probed (`cpu MHz`), if the system says.
    pub cpu_mhz: Option<f64>,
    /// The cores the probe used (see [`crate::Options::cores`]).
    pub cores: usize,
    /// The architecture (`x86_64`, `aarch64`).
    pub arch: String,
    /// The operating system (`linux`, `macos`).
    pub os: String,
    /// The caches the system reports for CPU 0 (empty where it reports none).
    pub caches: Vec<SysCache>,
}

/// A cache as Linux reports it in `/sys/devices/system/cpu/cpu0/cache/index*`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SysCache {
    /// The level (1, 2, 3).
    pub level: u32,
    /// `Data`, `Instruction` or `Unified`.
    pub kind: String,
    /// The size, bytes.
    pub size_bytes: u64,
}

impl Machine {
    /// The largest data or unified cache the system reports, bytes.
    pub fn largest_cache_bytes(&self) -> Option<u64> {
        self.data_caches().map(|c| c.size_bytes).max()
    }

    /// The caches that hold data (data and unified), by level.
    pub fn data_caches(&self) -> impl Iterator<Item = &SysCache> {
        self.caches.iter().filter(|c| c.kind != "Instruction")
    }
}

/// The first CPU's clock in MHz as the system reports it (`cpu MHz` of `/proc/cpuinfo`):
/// on x86-64 the time-stamp counter's nominal rate. `None` where it reports none.
pub fn cpu_mhz() -> Option<f64> {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    mhz_of(&cpuinfo)
}

fn mhz_of(cpuinfo: &str) -> Option<f64> {
    cpuinfo_field(cpuinfo, "cpu MHz")
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|v| v.is_finite() && *v > 0.0)
}

/// Reads what the host says about itself; `cores` is the count the probe uses.
pub(crate) fn read(cores: usize) -> Machine {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    Machine {
        cpu_model: cpuinfo_field(&cpuinfo, "model name").map(str::to_string),
        cpu_mhz: mhz_of(&cpuinfo),
        cores,
        arch: std::env::consts::ARCH.to_string(),
        os: std::env::consts::OS.to_string(),
        caches: sys_caches(Path::new("/sys/devices/system/cpu/cpu0/cache")),
    }
}

/// The value of the first `key : value` line of `/proc/cpuinfo` text.
fn cpuinfo_field<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines().find_map(|line| {
        let (k, v) = line.split_once(':')?;
        (k.trim() == key)
            .then(|| v.trim())
            .filter(|v| !v.is_empty())
    })
}

/// The caches described under `dir` (`index0`, `index1`, …), ordered by level and kind.
pub(crate) fn sys_caches(dir: &Path) -> Vec<SysCache> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<SysCache> = entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("index"))
        .filter_map(|e| sys_cache(&e.path()))
        .collect();
    out.sort_by(|a, b| (a.level, &a.kind).cmp(&(b.level, &b.kind)));
    out
}

/// One `index*` directory: its `level`, `type` and `size`.
fn sys_cache(dir: &Path) -> Option<SysCache> {
    let field = |name: &str| std::fs::read_to_string(dir.join(name)).ok();
    Some(SysCache {
        level: field("level")?.trim().parse().ok()?,
        kind: field("type")?.trim().to_string(),
        size_bytes: parse_size(field("size")?.trim())?,
    })
}

/// A sysfs size: `32K`, `32768K`, `1M`, `512` (bytes).
pub(crate) fn parse_size(s: &str) -> Option<u64> {
    let (digits, unit) = match s.find(|c: char| !c.is_ascii_digit()) {
        Some(i) => s.split_at(i),
        None => (s, ""),
    };
    let scale: u64 = match unit.trim() {
        "" => 1,
        "K" | "KB" | "KiB" => 1 << 10,
        "M" | "MB" | "MiB" => 1 << 20,
        "G" | "GB" | "GiB" => 1 << 30,
        _ => return None,
    };
    digits.parse::<u64>().ok()?.checked_mul(scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_sysfs_writes_them() {
        assert_eq!(parse_size("32K"), Some(32 << 10));
        assert_eq!(parse_size("32768K"), Some(32 << 20));
        assert_eq!(parse_size("1M"), Some(1 << 20));
        assert_eq!(parse_size("512"), Some(512));
        assert_eq!(parse_size("12X"), None);
        assert_eq!(parse_size(""), None);
    }

    #[test]
    fn cpuinfo_fields_are_found_by_key() {
        let text = "processor\t: 0\nmodel name\t: AMD EPYC\ncpu MHz\t\t: 2445.404\n";
        assert_eq!(cpuinfo_field(text, "model name"), Some("AMD EPYC"));
        assert_eq!(cpuinfo_field(text, "cpu MHz"), Some("2445.404"));
        assert_eq!(cpuinfo_field(text, "flags"), None);
    }
}
