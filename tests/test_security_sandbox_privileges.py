"""Attacks on the sandbox's privileges: capabilities, mounts, file handles, namespaces, the kernel's own interfaces.

Whatever the CLI runs as, the code is an unprivileged user with no capability, `no_new_privs` and the
seccomp filter. Each attack's effect is checked on the host.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import psutil
import pytest

from agentic_ds.sandbox import CodeRunner
from agentic_ds.sandbox.user import SandboxUser
from agentic_ds.workspace import Workspace
from tests.sandbox_attack_kit import (  # noqa: F401 - fixtures
    MARKS,
    RECORDS,
    SETTINGS,
    c_call,
    make_run_dir,
    outside,
    sandbox,
    snapshot_records,
)

pytestmark = MARKS


def host_status(runner) -> dict[str, str]:
    """The kernel process's /proc status, read by the host."""
    text = Path(f"/proc/{runner.kernel.kernel_pid}/status").read_text()
    return dict(line.split(":\t", 1) for line in text.splitlines() if ":\t" in line)


async def test_security_code_runs_unprivileged_without_capabilities_or_new_privileges(sandbox):
    await sandbox.run("1")
    status = host_status(sandbox)
    uids = {int(x) for x in status["Uid"].split()}
    if os.geteuid() == 0 and sandbox.user.mode == "nobody":
        assert uids == {65534}                       # a real unprivileged user on the host, not a mapped root
    assert 0 not in uids or sandbox.user.mode == "userns-root"
    for key in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"):
        assert int(status[key].strip(), 16) == 0, key
    assert status["NoNewPrivs"].strip() == "1" and status["Seccomp"].strip() == "2"


async def test_security_remounting_usr_read_write_cannot_write_the_host(sandbox):
    marker = Path("/usr/agentic-ds-pwned")
    result = await sandbox.run(
        "import subprocess\n"
        "print(subprocess.run(['mount', '-o', 'remount,rw', '/usr'], capture_output=True, text=True).stderr)\n"
        + c_call("print('mount', errno_of(libc.mount(b'none', b'/usr', None, 32 | 4096, None)))\n")
        + f"open({str(marker)!r}, 'w').write('x')"
    )
    assert not marker.exists()
    assert not result.ok and "mount EPERM" in result.stdout


async def test_security_mounting_over_the_run_directory_is_refused(sandbox):
    result = await sandbox.run(c_call("print('tmpfs', errno_of(libc.mount(b'none', b'outputs', b'tmpfs', 0, None)))\n"))
    assert "tmpfs EPERM" in result.stdout
    assert not os.path.ismount(sandbox.workspace.root / "outputs")


async def test_security_open_by_handle_at_cannot_read_etc_shadow(sandbox):
    shadow = Path("/etc/shadow").read_bytes() if os.access("/etc/shadow", os.R_OK) else b""
    code = c_call(
        "class FH(ctypes.Structure):\n"
        "    _fields_ = [('n', ctypes.c_uint), ('t', ctypes.c_int), ('h', ctypes.c_ubyte * 128)]\n"
        "fh = FH(); fh.n = 128; mount_id = ctypes.c_int()\n"
        "print('name_to_handle', errno_of(libc.name_to_handle_at(-100, b'/', ctypes.byref(fh), ctypes.byref(mount_id), "
        "0)))\n"
        "fh.n, fh.t = 8, 1\n"
        "ctypes.memmove(fh.h, (2).to_bytes(4, 'little') + (0).to_bytes(4, 'little'), 8)   # the root inode\n"
        "fd = libc.open_by_handle_at(os.open('/', os.O_RDONLY), ctypes.byref(fh), 0)\n"
        "print('open_by_handle', errno_of(fd))\n"
        "print(os.read(os.openat(fd, 'etc/shadow', os.O_RDONLY) if hasattr(os, 'openat') else fd, 99) if fd >= 0 else "
        "'')\n"
    )
    result = await sandbox.run(code)
    assert "name_to_handle EPERM" in result.stdout and "open_by_handle EPERM" in result.stdout
    written = (sandbox.workspace.root / result.output_path).read_bytes()
    assert not any(line and line in written for line in shadow.splitlines()[:3])


@pytest.mark.parametrize(
    "name, call",
    [
        ("unshare_user", "libc.unshare(0x10000000)"),
        ("unshare_mount", "libc.unshare(0x00020000)"),
        ("clone_newuser", "libc.syscall(56, 0x10000000 | 17, 0, 0, 0, 0)"),
        ("setns_net", "libc.setns(os.open('/proc/self/ns/net', os.O_RDONLY), 0)"),
        ("ptrace_pid1", "libc.ptrace(16, 1, 0, 0)"),
        ("process_vm_readv", "libc.process_vm_readv(1, None, 0, None, 0, 0)"),
        ("keyctl", "libc.syscall(250, 0, 0, 0, 0, 0)"),
        ("add_key", "libc.syscall(248, b'user', b'x', b'y', 1, -4)"),
        ("bpf", "libc.syscall(321, 0, 0, 0)"),
        ("perf_event_open", "libc.syscall(298, 0, 0, -1, -1, 0)"),
        ("kexec_load", "libc.syscall(246, 0, 0, 0, 0)"),
        ("init_module", "libc.syscall(175, 0, 0, b'')"),
        ("userfaultfd", "libc.syscall(323, 0)"),
        ("pivot_root", "libc.syscall(155, b'/tmp', b'/tmp')"),
        ("chroot", "libc.chroot(b'/tmp')"),
        ("settimeofday", "libc.syscall(164, 0, 0)"),
        ("swapon", "libc.syscall(167, b'/tmp/swap', 0)"),
        ("iopl", "libc.syscall(172, 3)"),
        ("io_uring_setup", "libc.syscall(425, 1, 0)"),
    ],
)
async def test_security_dangerous_system_calls_are_refused(sandbox, name, call):
    result = await sandbox.run(c_call(f"print('{name}', errno_of({call}))\n"))
    assert f"{name} EPERM" in result.stdout, result.stdout + result.error


async def test_security_the_unshare_and_nsenter_tools_get_no_new_namespace(sandbox):
    result = await sandbox.run(
        "import subprocess\n"
        "for cmd in (['unshare', '-U', '-r', 'id', '-u'], ['unshare', '-m', 'true'], ['nsenter', '-t', '1', '-n', "
        "'true']):\n"
        "    done = subprocess.run(cmd, capture_output=True, text=True)\n"
        "    print(cmd[0], done.returncode, done.stdout.strip())"
    )
    assert result.ok, result.error
    assert [line.split()[1] != "0" for line in result.stdout.splitlines()] == [True, True, True]


async def test_security_setuid_binaries_grant_nothing(sandbox, outside):
    marker = outside / "setuid-pwned"
    result = await sandbox.run(
        "import os, subprocess\n"
        "found = [p for p in ('/usr/bin/su', '/usr/bin/mount', '/usr/bin/passwd', '/usr/bin/newgrp', '/usr/bin/chsh') "
        "if os.path.exists(p)]\n"
        "print('setuid', sum(1 for p in found if os.stat(p).st_mode & 0o4000))\n"
        "for p in found:\n"
        "    done = subprocess.run([p, '--help'], capture_output=True, text=True, input='')\n"
        f"subprocess.run(['/usr/bin/mount', '--bind', '/', {str(outside)!r}], capture_output=True)\n"
        f"subprocess.run(['sh', '-c', 'id -u > {marker}'], capture_output=True)\n"
        "print('uid', os.getuid(), os.geteuid())"
    )
    assert result.ok, result.error
    assert not marker.exists() and not os.path.ismount(outside)
    assert "uid 0" not in result.stdout


async def test_security_dev_and_sys_expose_no_host_device_or_kernel_knob(sandbox):
    result = await sandbox.run(
        "import os\nprint(sorted(os.listdir('/dev')))\n"
        "print(os.path.exists('/sys/class/net'), os.path.exists('/sys/kernel'))\n"
        "try:\n    open('/proc/sys/kernel/hostname', 'w').write('pwned')\nexcept OSError as e:\n"
        "    print('sysctl', e.strerror)"
    )
    devices = set(eval(result.stdout.splitlines()[0]))   # noqa: S307 - our own printed list
    assert not devices & {"sda", "vda", "nvme0n1", "mem", "kmem", "port", "kmsg"}
    assert "False False" in result.stdout and "sysctl" in result.stdout
    assert os.uname().nodename != "pwned"


async def test_security_the_sandbox_has_its_own_host_name(sandbox):
    await sandbox.run(  # whatever it printed: only the host's name counts
        "import socket\nsocket.sethostname('pwned') if hasattr(socket, 'sethostname') else None\n"
        "print(socket.gethostname())"
    )
    assert os.uname().nodename != "pwned" and stat.S_ISDIR(os.stat("/").st_mode)
    assert psutil.Process().is_running()


async def test_security_the_root_fallback_user_namespace_holds_too(tmp_path):
    """Root without setpriv (or a Python nobody cannot read): uid 65534 in a user namespace mapped to root."""
    if os.geteuid() != 0:
        pytest.skip("the fallback is for a CLI running as root")
    runner = CodeRunner(Workspace(make_run_dir(tmp_path / "run")), SETTINGS)
    object.__setattr__(runner, "user", SandboxUser(65534, 65534, "userns-root"))
    before = snapshot_records(runner.workspace.root)
    try:
        result = await runner.run(
            "import os\nprint(os.getuid())\n"
            + c_call("print('unshare', errno_of(libc.unshare(0x10000000)))\n")
            + "".join(f"try:\n    open({name!r}, 'a').write('x')\nexcept OSError:\n    pass\n" for name in RECORDS)
        )
        status = host_status(runner)
    finally:
        await runner.close()
    assert result.stdout.splitlines()[:2] == ["65534", "unshare EPERM"], result.error
    assert int(status["CapEff"].strip(), 16) == 0 and status["NoNewPrivs"].strip() == "1"
    assert snapshot_records(runner.workspace.root) == before
