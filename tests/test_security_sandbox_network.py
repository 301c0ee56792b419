"""Network, signals and file-name attacks. Listeners are the host's own, on 127.0.0.1 only; each must accept nothing."""

from __future__ import annotations

import os
import socket

import psutil

from tests.sandbox_attack_kit import MARKS, accepted_nothing, outside, sandbox, tcp_listener  # noqa: F401 - fixtures

pytestmark = MARKS


async def test_security_tcp_to_a_host_listener_is_impossible(sandbox):
    listener = tcp_listener()
    port = listener.getsockname()[1]
    try:
        result = await sandbox.run(
            f"import socket\ntry:\n    socket.create_connection(('127.0.0.1', {port}), timeout=1)\n"
            f"    print('CONNECTED')\n"
            "except OSError as e:\n    print('blocked', type(e).__name__)"
        )
        assert accepted_nothing(listener)
    finally:
        listener.close()
    assert "CONNECTED" not in result.stdout


async def test_security_udp_to_a_host_listener_delivers_nothing(sandbox):
    receiver = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    receiver.bind(("127.0.0.1", 0))
    receiver.settimeout(0.3)
    port = receiver.getsockname()[1]
    try:
        await sandbox.run(
            f"import socket\ns = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\nfor _ in range(20):\n"
            f"    s.sendto(b'leak', ('127.0.0.1', {port}))"
        )
        try:
            data = receiver.recv(100)
        except TimeoutError:
            data = b""
    finally:
        receiver.close()
    assert data == b""


async def test_security_dns_lookups_fail_and_reach_no_host_resolver(sandbox):
    resolver = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    resolver.bind(("127.0.0.1", 0))
    resolver.settimeout(0.3)
    try:
        result = await sandbox.run(
            "import socket\nfor name in ('example.com', 'pypi.org'):\n    try:\n"
            "        print(socket.getaddrinfo(name, 443)[0][4])\n"
            "    except OSError as e:\n        print('no dns', type(e).__name__)\n"
            "import os\nprint(os.path.exists('/etc/resolv.conf'))"
        )
        try:
            query = resolver.recv(512)
        except TimeoutError:
            query = b""
    finally:
        resolver.close()
    assert result.stdout.count("no dns") == 2 and query == b""


async def test_security_abstract_unix_socket_of_the_host_is_unreachable(sandbox):
    name = b"\0agentic-ds-attack-listener"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(name)
    listener.listen(4)
    listener.settimeout(0.3)
    try:
        result = await sandbox.run(
            f"import socket\ns = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\ntry:\n    s.connect({name!r})\n"
            f"    print('CONNECTED')\n"
            "except OSError as e:\n    print('blocked', e.strerror)"
        )
        assert accepted_nothing(listener)
    finally:
        listener.close()
    assert "CONNECTED" not in result.stdout


async def test_security_host_unix_sockets_on_disk_are_not_mounted(sandbox):
    result = await sandbox.run(
        "import os\nprint([p for p in ('/run', '/var/run', '/run/dbus/system_bus_socket', '/var/run/docker.sock') if "
        "os.path.exists(p)])"
    )
    assert result.stdout.strip() == "[]"


async def test_security_sandbox_has_no_interface_but_loopback(sandbox):
    result = await sandbox.run(
        "import socket\nprint([name for _, name in socket.if_nameindex()])\n"
        "print(open('/proc/net/dev').read().count(':'))"
    )
    assert result.ok and result.stdout.splitlines() == ["['lo']", "1"]


async def test_security_signals_cannot_reach_the_cli_or_any_host_process(sandbox):
    me = os.getpid()
    parent = os.getppid()
    result = await sandbox.run(
        "import os, signal\n"
        f"for pid in ({me}, {parent}, 1):\n    try:\n        os.kill(pid, signal.SIGKILL if pid != 1 else 0)\n"
        f"        print(pid, 'signalled')\n"
        "    except OSError as e:\n        print(pid, e.strerror)"
    )
    assert psutil.pid_exists(me) and psutil.Process(parent).is_running()
    assert f"{me} signalled" not in result.stdout


async def test_security_kill_every_visible_process_only_ends_the_sandbox(sandbox):
    await sandbox.run("import os, signal\nos.kill(-1, signal.SIGKILL)")
    assert psutil.Process().is_running() and psutil.Process(os.getppid()).is_running()
    assert (await sandbox.run("print('back')")).stdout == "back\n"   # a fresh kernel serves the next cell
