"""The seccomp filter bubblewrap loads before it starts the kernel, built with libseccomp (pyseccomp).

Everything is allowed except the system calls a data analysis never needs and an escape always
does: mounting, kernel modules and kexec, keyrings, BPF, perf, ptrace and cross-process memory,
file handles (`open_by_handle_at` reads any inode of a filesystem), new user namespaces, clock and
swap changes... Refused calls fail with EPERM, so Python raises a readable `PermissionError`. Calls
made through another architecture's ABI (32-bit `int 0x80` on x86-64) kill the process, as
libseccomp's filters do by default. `clone3` answers ENOSYS: its flags sit behind a pointer the
filter cannot read, and the C library then falls back to `clone`, whose flags it can. `fallocate`
is allowed with mode 0 only (what `posix_fallocate` uses): FALLOC_FL_KEEP_SIZE allocates blocks past
the end of a file without the file size limit ever applying, gigabytes in one call, past the disk
quota before anyone could stop it.
"""

from __future__ import annotations

import errno
import functools
import os
import tempfile

# What a careful filter refuses (cf. Docker's and Flatpak's defaults), minus what needs capabilities only.
REFUSED = (
    # filesystems and mounts
    "mount", "umount", "umount2", "pivot_root", "chroot", "fsopen", "fsconfig", "fsmount", "fspick",
    "move_mount", "open_tree", "mount_setattr", "open_by_handle_at", "name_to_handle_at", "quotactl",
    "swapon", "swapoff",
    # the kernel itself
    "init_module", "finit_module", "delete_module", "create_module", "kexec_load", "kexec_file_load", "reboot",
    "bpf", "perf_event_open", "userfaultfd", "iopl", "ioperm", "acct", "syslog", "uselib", "lookup_dcookie",
    "vhangup", "_sysctl", "io_uring_setup", "io_uring_enter", "io_uring_register", "fanotify_init",
    "sethostname", "setdomainname",
    # other processes
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
    # keyrings
    "keyctl", "add_key", "request_key",
    # namespaces
    "unshare", "setns",
    # time
    "settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
)
CLONE_NEWUSER = 0x10000000


class SeccompUnavailable(RuntimeError):
    """libseccomp (or its Python binding) is missing here."""


@functools.cache
def seccomp_problem() -> str | None:
    """None when the filter can be built here; otherwise why not (one line)."""
    try:
        _build_bpf()
    except SeccompUnavailable as exc:
        return str(exc)
    return None


@functools.cache
def _build_bpf() -> bytes:
    try:
        import pyseccomp as sc
    except (ImportError, RuntimeError, OSError) as exc:   # pyseccomp raises RuntimeError when libseccomp is missing
        raise SeccompUnavailable(f"libseccomp is not available ({exc}); install libseccomp2") from exc
    eperm = sc.ERRNO(errno.EPERM)
    rules = sc.SyscallFilter(sc.ALLOW)
    for name in REFUSED:
        try:
            rules.add_rule(eperm, name)
        except (OSError, ValueError, RuntimeError):
            continue   # not a system call of this architecture
    rules.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")
    rules.add_rule(eperm, "clone", sc.Arg(0, sc.MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER))
    rules.add_rule(eperm, "fallocate", sc.Arg(1, sc.NE, 0))
    with tempfile.TemporaryFile() as handle:
        rules.export_bpf(handle)
        handle.seek(0)
        return handle.read()


def filter_fd() -> int:
    """A fresh descriptor holding the compiled filter, positioned at its start (bwrap reads it once)."""
    data = _build_bpf()
    fd = os.memfd_create("agentic-ds-seccomp")
    os.write(fd, data)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd
