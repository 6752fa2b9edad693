//! [`ProcessSource`] on macOS through the kernel, without child processes: argv from
//! `sysctl(KERN_PROCARGS2)` (exact words, see [`parse_procargs2`]), parent and start time from
//! `proc_pidinfo(PROC_PIDTBSDINFO)`, the cwd from `proc_pidinfo(PROC_PIDVNODEPATHINFO)`. Only when a
//! call fails (another user's process, a zombie) does it fall back to [`Ps`], whose `ps`/`lsof` runs are
//! bounded in time.

use super::procargs::parse_procargs2;
use super::{ProcessSource, Ps};
use std::ffi::CStr;
use std::mem::{size_of, MaybeUninit};
use std::os::raw::{c_int, c_void};
use std::path::PathBuf;

/// The kernel first, `ps`/`lsof` (bounded) when it will not answer.
#[derive(Debug, Default)]
pub struct Darwin {
    fallback: Ps,
}

impl Darwin {
    pub fn new() -> Darwin {
        Darwin::default()
    }
}

/// The largest argument area a process can have (`KERN_ARGMAX`), the size `KERN_PROCARGS2` needs.
fn arg_max() -> Option<usize> {
    let mut mib = [libc::CTL_KERN, libc::KERN_ARGMAX];
    let mut value: c_int = 0;
    let mut size = size_of::<c_int>();
    // SAFETY: `mib` names an int-valued sysctl; `value`/`size` describe a buffer of that size.
    let rc = unsafe {
        libc::sysctl(
            mib.as_mut_ptr(),
            2,
            (&mut value as *mut c_int).cast::<c_void>(),
            &mut size,
            std::ptr::null_mut(),
            0,
        )
    };
    (rc == 0 && value > 0).then_some(value as usize)
}

fn procargs2(pid: u32) -> Option<Vec<u8>> {
    let mut buf = vec![0u8; arg_max()?];
    let mut mib = [
        libc::CTL_KERN,
        libc::KERN_PROCARGS2,
        c_int::try_from(pid).ok()?,
    ];
    let mut size = buf.len();
    // SAFETY: `buf` is writable for `size` bytes; the kernel writes at most that and updates `size`.
    let rc = unsafe {
        libc::sysctl(
            mib.as_mut_ptr(),
            3,
            buf.as_mut_ptr().cast::<c_void>(),
            &mut size,
            std::ptr::null_mut(),
            0,
        )
    };
    if rc != 0 {
        return None;
    }
    buf.truncate(size.min(buf.len()));
    Some(buf)
}

/// `proc_pidinfo(pid, flavor)` into a `T`, when the kernel fills all of it.
fn pidinfo<T>(pid: u32, flavor: c_int) -> Option<T> {
    let mut info = MaybeUninit::<T>::zeroed();
    let size = c_int::try_from(size_of::<T>()).ok()?;
    // SAFETY: `info` is writable for `size` bytes; the kernel writes at most that and returns how many.
    let n = unsafe {
        libc::proc_pidinfo(
            c_int::try_from(pid).ok()?,
            flavor,
            0,
            info.as_mut_ptr().cast::<c_void>(),
            size,
        )
    };
    // SAFETY: the kernel filled the whole struct (plain integers and char arrays: any bytes are valid).
    (n == size).then(|| unsafe { info.assume_init() })
}

fn bsdinfo(pid: u32) -> Option<libc::proc_bsdinfo> {
    pidinfo(pid, libc::PROC_PIDTBSDINFO)
}

impl ProcessSource for Darwin {
    fn parent(&self, pid: u32) -> Option<u32> {
        bsdinfo(pid)
            .map(|i| i.pbi_ppid)
            .or_else(|| self.fallback.parent(pid))
    }

    fn argv(&self, pid: u32) -> Option<Vec<String>> {
        procargs2(pid)
            .and_then(|b| parse_procargs2(&b))
            .map(|p| p.argv)
            .or_else(|| self.fallback.argv(pid))
    }

    fn cwd(&self, pid: u32) -> Option<PathBuf> {
        let from_kernel = pidinfo::<libc::proc_vnodepathinfo>(pid, libc::PROC_PIDVNODEPATHINFO)
            .and_then(|info| {
                // `vip_path` is a NUL-terminated path in a 32×32 array of chars (libc's old-rustc shape).
                let bytes: Vec<u8> = info
                    .pvi_cdir
                    .vip_path
                    .iter()
                    .flatten()
                    .map(|&c| c as u8)
                    .collect();
                let path = CStr::from_bytes_until_nul(&bytes).ok()?;
                use std::os::unix::ffi::OsStrExt;
                let path = std::ffi::OsStr::from_bytes(path.to_bytes());
                (!path.is_empty()).then(|| PathBuf::from(path))
            });
        from_kernel.or_else(|| self.fallback.cwd(pid))
    }

    fn start_time(&self, pid: u32) -> Option<i64> {
        bsdinfo(pid)
            .and_then(|i| i64::try_from(i.pbi_start_tvsec).ok())
            .or_else(|| self.fallback.start_time(pid))
    }
}
