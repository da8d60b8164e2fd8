"""Command line of the host (``quatro-party`` and ``python3 launcher.py``).

Starts the server on every interface, picks the LAN address phones should use,
announces the table with mDNS, prints the join URL and a QR code in the terminal,
and opens the big screen (with the host secret) in the default browser.
Ctrl-C closes every socket (1001), unregisters mDNS and stops within 2 s.

The terminal is the host's, all evening: after the start-up lines (the QR code last but for the addresses),
only what the host must know reaches it; the log file (:func:`log_file`) keeps the rest, every phone's coming
and going included (``--verbose`` shows that too).
"""

from __future__ import annotations

import argparse
import errno
import os
import secrets
import shutil
import signal
import sys
import threading
import time
import webbrowser
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import __version__
from .terminal import log_to_file, log_to_terminal, never_fails_to_print, terminal_qr

#: Fixed on purpose: phones keep their seat token per origin (scheme + host + port).
DEFAULT_PORT = 8765
#: The folder name of the host's own files, in the platform's places for them.
APP_NAME = "quatro-party"


def _port(text: str) -> int:
    """``--port``: a TCP port number (0 lets the system choose one, as the tests do)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port number (0 to 65535)")
    return port


def _parser() -> argparse.ArgumentParser:
    from .server import catalogs

    ap = argparse.ArgumentParser(
        prog="quatro-party",
        description="Host a Quatro Party table: phones join by QR code, the big screen shows the table.",
    )
    ap.add_argument(
        "--port",
        type=_port,
        default=DEFAULT_PORT,
        help=f"TCP port (default {DEFAULT_PORT}; keep it stable so phones keep their seats)",
    )
    ap.add_argument(
        "--host-ip", metavar="IP", help="the address phones should use (default: best guess; the candidates are listed)"
    )
    ap.add_argument("--bind", default="0.0.0.0", help="interface to listen on (default: all)")
    ap.add_argument("--seats", type=int, choices=(4, 6, 8), default=4, help="seats at the table (default 4)")
    ap.add_argument(
        "--bots",
        choices=("easy", "normal", "hard"),
        default="normal",
        help="level of the bots that fill empty seats (default normal)",
    )
    ap.add_argument("--seed", type=int, help="reproducible deals")
    ap.add_argument(
        "--time-scale", type=float, default=1.0, help="multiply every rule duration (e.g. 0.1 for a quick demo)"
    )
    ap.add_argument(
        "--language",
        choices=sorted(catalogs.present()),
        help="the table's language (a catalog of web/i18n/); without it each phone and the TV use their browser's",
    )
    ap.add_argument("--no-browser", action="store_true", help="do not open the big screen")
    ap.add_argument("--no-mdns", action="store_true", help="do not announce the table with mDNS")
    ap.add_argument("--quiet", action="store_true", help="the terminal shows errors only (the log file keeps all)")
    ap.add_argument(
        "--verbose", action="store_true", help="the terminal also shows every connection (the log file always does)"
    )
    ap.add_argument("--version", action="version", version=f"quatro-party {__version__}")
    ap.add_argument(
        "--fresh",
        action="store_true",
        help="start a new table instead of resuming the last one (its journal is kept as table.jsonl.old)",
    )
    return ap


def state_dir() -> Path:
    """Where the host keeps what outlives a run (the table's journal): ``$QUATRO_STATE_DIR``, else the platform's
    own folder for it (``platformdirs``): ``%LOCALAPPDATA%\\quatro-party`` on Windows,
    ``~/Library/Application Support/quatro-party`` on macOS, ``$XDG_STATE_HOME/quatro-party``
    (``~/.local/state/quatro-party``) on Linux."""
    if os.environ.get("QUATRO_STATE_DIR"):
        return Path(os.environ["QUATRO_STATE_DIR"])
    import platformdirs

    return Path(platformdirs.user_state_dir(APP_NAME, appauthor=False))


def legacy_state_dir() -> Path:
    """Where versions up to 0.2 kept the table on every system: ``$XDG_CONFIG_HOME`` or ``~/.config``."""
    return Path(os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config"), APP_NAME)


def log_file() -> Path:
    """The host's log: in ``$QUATRO_STATE_DIR`` when set, else the platform's log folder (``platformdirs``)."""
    if os.environ.get("QUATRO_STATE_DIR"):
        return state_dir() / "host.log"
    import platformdirs

    return Path(platformdirs.user_log_dir(APP_NAME, appauthor=False)) / "host.log"


def adopt_legacy_table() -> str | None:
    """Move the table an earlier version kept in :func:`legacy_state_dir` into :func:`state_dir`, where there is
    none yet, so that an upgraded host still resumes it; a sentence for the host when it did.

    Nothing moves while a host of that version runs on it (it holds the old journal's lock), nor when
    ``$QUATRO_STATE_DIR`` names the folder: that one is the host's choice."""
    from .server.journal import lock

    old, new = legacy_state_dir() / "table.jsonl", state_dir() / "table.jsonl"
    if os.environ.get("QUATRO_STATE_DIR") or not old.is_file() or new.exists() or old.resolve() == new.resolve():
        return None
    try:
        held = lock(old)
        if held is None:
            return None
        try:
            new.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(str(old), str(new))  # keeps its time: a table left days ago is still not resumed
        finally:
            held.release()
    except OSError as exc:
        return f"The last table, in {old.parent}, could not be moved to {new.parent} ({exc}): it is not resumed."
    return f"The last table moved from {old.parent} to {new.parent}."


def host_secret_file() -> Path:
    """Where earlier versions kept the host secret between runs (their state folder); removed at start (the
    secret is never kept)."""
    folder = os.environ.get("QUATRO_STATE_DIR")
    return (Path(folder) if folder else legacy_state_dir()) / "host-secret"


#: A table left alone longer than this is not resumed: a restart during the evening picks the game up again,
#: next week's party starts with a fresh lobby (the old journal is kept as ``table.jsonl.old``).
RESUME_WITHIN = 12 * 3600.0


def journal_file(fresh: bool = False, now: float | None = None) -> Path:
    """The table's journal, from which a restarted host resumes its table (see ``quatro_party.server.journal``).

    With ``fresh``, or when the journal was last written more than :data:`RESUME_WITHIN` seconds before
    ``now`` (wall-clock time, default: the current time), the last table's journal is set aside as
    ``table.jsonl.old`` (replacing an older one), so the host starts a new table.
    """
    path = state_dir() / "table.jsonl"
    if not path.exists():
        return path
    if not fresh:
        age = (time.time() if now is None else now) - path.stat().st_mtime
        if age <= RESUME_WITHIN:
            return path
        print(
            f"The last table was left {age / 3600:.0f} hours ago: starting a new one "
            f"(the old one is kept as {path.name}.old)."
        )
    try:
        os.replace(path, path.with_name(path.name + ".old"))
    except OSError as exc:
        print(f"cannot set the last table aside ({exc}); it is resumed", file=sys.stderr)
    return path


def new_host_secret() -> str:
    """A host secret for this run only: anyone who read the last one (off the TV, from its history) holds
    nothing now. The terminal prints the big screen's address with it, so the host can open it again.

    A secret file left by an earlier version is removed, so it stops lying around.
    """
    try:
        host_secret_file().unlink()
    except OSError:
        pass
    return secrets.token_urlsafe(18)


def _choose_ip(wanted: str | None) -> tuple[str, list[Any]]:
    from .server.network import candidates

    found = candidates()
    if wanted:
        if wanted not in {a.ip for a in found}:
            print(f"warning: {wanted} is not an address of this machine; phones may not reach it", file=sys.stderr)
        return wanted, found
    return found[0].ip, found


def cannot_listen(port: int, bind: str, exc: OSError) -> str:
    """What the host is told when the server cannot listen on ``bind``:``port``: one plain sentence and the way out.

    Whether the port's owner is another Quatro Party host cannot be known cheaply and surely (it may be any
    program, and asking it could hang), hence "may be".
    """
    if exc.errno == errno.EADDRINUSE:
        other = port + 1 if port < 65535 else port - 1
        return (
            f"Port {port} is already in use (another Quatro Party host may be running). "
            f"Stop it, or start this one with --port {other}."
        )
    # Another reason (a port below 1024 without the right, a --bind address this computer does not have): say it.
    return f"Cannot listen on port {port} of {bind}: {exc.strerror or exc}. Check --port and --bind."


#: After a restart the host's own TV tab comes back by itself (it tries again every second, with the key this host
#: gave it): the browser opens a new one only if none came back within this long, so that the laptop does not end
#: up with two big screens, both the host's.
TV_RETURN_WAIT = 3.0


def open_big_screen(
    url: str,
    came_back: Callable[[], bool] | None,
    wait: float = TV_RETURN_WAIT,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    browse: Callable[[str], object] = webbrowser.open,
) -> bool:
    """Open the big screen in the default browser, unless ``came_back()`` turns true within ``wait`` seconds
    (``None``: nothing can come back, open at once). True if a tab was opened."""
    if came_back is not None:
        end = clock() + wait
        while not came_back():
            if clock() >= end:
                break
            sleep(0.1)
        else:
            print("The big screen came back on its own, with the host's rights: no new tab opened.", flush=True)
            return False
    browse(url)
    return True


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if not args.time_scale > 0:
        print("--time-scale must be positive", file=sys.stderr)
        return 2
    never_fails_to_print()
    from .server.app import WEB_DIR

    if WEB_DIR is None:
        print(
            f"Quatro Party cannot find its pages (web/): this copy of the game is incomplete. "
            f"Install it again (pip install --force-reinstall quatro-party, or a fresh download). "
            f"Looked inside {Path(__file__).parent} and beside it.",
            file=sys.stderr,
        )
        return 1
    log_to_terminal(args.quiet, args.verbose)
    # The host is dozens of mostly idle I/O threads: hand the GIL over sooner than the default
    # 5 ms, so a socket writer woken by the table does not wait behind a busy thread.
    sys.setswitchinterval(0.001)

    # Ctrl-C / SIGTERM only set a flag, from the very start: the main loop then closes every
    # socket, unregisters mDNS and stops the server (Werkzeug's own Ctrl-C handling can hang).
    # A plain flag, not a threading.Event: a handler runs between two bytecodes of the main thread,
    # possibly inside the Event's own lock (its wait, or the set of a first Ctrl-C), and taking that
    # lock again there deadlocks. A second, impatient Ctrl-C hung the host that way.
    stopping: list[int] = []

    def on_signal(signum: int, _frame: Any) -> None:
        stopping.append(signum)

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)

    from .server import ServerThread, create_app, table_of
    from .server.journal import hold
    from .server.mdns import Advertiser
    from .server.serving import listen

    # The port first, before anything else: a host that cannot listen (another host is running) must leave
    # everything as it was — the running table's journal (--fresh, or a stale table, would set it aside), the
    # host secret — and announce nothing, open nothing.
    try:
        sock = listen(args.bind, args.port)
    except OSError as exc:
        print(cannot_listen(args.port, args.bind, exc), file=sys.stderr)
        return 1
    logged = log_to_file(log_file())
    # Then the journal's lock, before any file is touched: a second host (another port, the same state folder)
    # must not set the running host's journal aside (--fresh, a stale table), nor write into it.
    journal: Path | None = state_dir() / "table.jsonl"
    try:
        owner = hold(state_dir() / "table.jsonl")
    except OSError as exc:
        print(f"cannot lock the table's journal ({exc}): this table is kept by no journal", file=sys.stderr)
        owner = False
    if owner:
        moved = adopt_legacy_table()
        if moved:
            print(moved)
        journal = journal_file(args.fresh)
        secret = new_host_secret()
    else:
        print(
            "Another Quatro Party host is running with this state folder: this one leaves its table alone, "
            "keeps no journal (a restart loses this table) and starts a new table.",
            file=sys.stderr,
        )
        journal = None
        secret = secrets.token_urlsafe(18)
    ip, found = _choose_ip(args.host_ip)
    app = create_app(
        {
            "seats": args.seats,
            "seed": args.seed,
            "time_scale": args.time_scale,
            "bot_level": args.bots,
            "language": args.language,
            "host_secret": secret,
            "journal": journal,
        }
    )
    server = ServerThread(app, sock=sock)
    table = table_of(app)
    port = server.port
    join_url = f"http://{ip}:{port}/"
    table.set_join_url(join_url)
    server.start()

    print()
    print("Quatro Party is running.")
    if len(found) > 1 and not args.host_ip:
        print("Addresses of this computer (use --host-ip to pick another if phones cannot connect):")
        for a in found:
            flags = ", ".join(
                f
                for f, on in (
                    ("default route", a.default_route),
                    ("virtual?", a.likely_virtual),
                    ("loopback", a.loopback),
                )
                if on
            )
            print(f"   {'*' if a.ip == ip else ' '} {a.ip:<16} {a.adapter}{f'  ({flags})' if flags else ''}")
    if ip.startswith("127."):
        print(
            "WARNING: this computer has no LAN address; only this computer can join. "
            "Connect it to the Wi-Fi the phones use.",
            file=sys.stderr,
        )
    if table.resumed:
        print(
            f"{table.resumed[:1].upper()}{table.resumed[1:]} "
            "(the command line's table options are ignored; --fresh starts a new table)."
        )
    if logged:
        print(f"Log (every phone's coming and going): {logged}")
    print()
    qr = terminal_qr(join_url, sys.stdout)
    print(qr if qr is not None else "(this output cannot draw the QR code: phones open the address below)")
    print(f"Phones: scan the QR code, or open  {join_url}")
    screen_url = f"http://127.0.0.1:{port}/screen#host={table.host_secret}"
    print(f"Big screen: {screen_url}")
    print("   (new at each start: open it again from here if the big screen was closed)")
    print(f"Port {port}. Press Ctrl-C to stop.")
    sys.stdout.flush()

    advertiser = None
    if not args.no_mdns and not ip.startswith("127."):
        advertiser = Advertiser(ip, port, "/", on_registered=table.set_mdns_name).start()  # ~1.6 s, off the main path

    if not args.no_browser:
        host = table.host
        back = (lambda: host.screens_back > 0) if host.host_keys else None  # the last run's screens' keys
        threading.Thread(target=open_big_screen, args=(screen_url, back), daemon=True).start()

    try:
        while not stopping:
            time.sleep(0.1)  # a signal cuts the sleep short only on some systems: look ten times a second
    finally:
        # Everything within 2 s: the mDNS goodbye goes out in parallel with closing the sockets.
        deadline = time.monotonic() + 1.8
        print("\nStopping: closing sockets, unregistering mDNS…", flush=True)
        closer = threading.Thread(target=advertiser.close, daemon=True) if advertiser else None
        if closer:
            closer.start()
        server.stop(timeout=1.0)
        if closer:
            closer.join(max(0.1, deadline - time.monotonic()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
