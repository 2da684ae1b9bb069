"""This machine's identity key on disk, and the other secret files of a data dir.

Every player machine has one identity key, kept in the user data dir
(``platformdirs.user_data_dir("domicile-p2p")``, or ``--data-dir``) as
``identity-ed25519.pem``: an unencrypted PKCS#8 PEM file, the format
``openssl pkey`` reads.  It is created on first use, ``0600`` from its first
byte in a ``0700`` directory, and written to a temporary name and linked
into place, so a crash never leaves half a key and two processes starting
at once agree on one key.  A key file other users can read is refused
(as ssh does), because anyone who reads it can play in your name.

The keys themselves (signing, checking, PEM) are ``domicile_p2p/identity.py``,
which opens no file.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path
from typing import Final

from domicile_p2p.identity import Identity, IdentityError

# ``platformdirs`` and ``secrets`` are imported by the functions that need them, when
# first called (a command that only checks signatures never does).

APP_NAME: Final = "domicile-p2p"
IDENTITY_FILE: Final = "identity-ed25519.pem"
_PRIVATE_FILE_MODE: Final = 0o600
_PRIVATE_DIR_MODE: Final = 0o700


DATA_DIR_VARIABLE: Final = "DOMICILE_DATA_DIR"
"""The environment variable that moves the data dir (``--data-dir`` still comes first)."""


def default_data_dir() -> Path:
    """``$DOMICILE_DATA_DIR`` when set, else the user data dir of domicile-p2p on this platform."""
    chosen = os.environ.get(DATA_DIR_VARIABLE, "")
    if chosen:
        return Path(chosen).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME))


def identity_path(data_dir: Path | None = None) -> Path:
    return (data_dir if data_dir is not None else default_data_dir()) / IDENTITY_FILE


def load_or_create_identity(data_dir: Path | None = None) -> Identity:
    """This machine's identity: loaded from ``data_dir``, created there on first use."""
    path = identity_path(data_dir)
    try:
        return load_identity(path)
    except FileNotFoundError:
        pass
    identity = Identity.generate()
    if write_private_file(path, identity.to_pem(), exclusive=True):
        return identity
    # Another process created the key between our two steps: use theirs.
    return load_identity(path)


def load_identity(path: Path) -> Identity:
    """The identity stored at ``path``; ``FileNotFoundError`` when there is none."""
    return Identity.from_pem(read_private_file(path), source=f"identity key {path}")


def read_private_file(path: Path) -> bytes:
    """Read a secret file, refusing one that other users may read (``FileNotFoundError`` passes)."""
    try:
        with open(path, "rb") as handle:
            mode = os.fstat(handle.fileno()).st_mode
            if os.name == "posix" and stat.S_IMODE(mode) & 0o077:
                raise IdentityError(
                    f"{path} is readable by other users (mode {stat.S_IMODE(mode):04o}); "
                    f"run `chmod 600 {path}`"
                )
            return handle.read()
    except FileNotFoundError:
        raise
    except IsADirectoryError as exc:
        raise IdentityError(f"{path} is a directory, not a key file") from exc
    except OSError as exc:
        raise IdentityError(f"cannot read {path}: {exc.strerror or exc}") from exc


def write_private_file(path: Path, data: bytes, *, exclusive: bool = False) -> bool:
    """Write a secret file, ``0600`` from the first byte, in a ``0700`` directory.

    The data goes to a temporary file that is synced and then linked into
    place, so ``path`` never holds half of it.  With ``exclusive`` an
    existing ``path`` is kept and the result is ``False``; otherwise it is
    replaced.  Errors are :class:`IdentityError`.
    """
    import secrets

    directory = path.parent
    try:
        if not directory.exists():
            directory.mkdir(mode=_PRIVATE_DIR_MODE, parents=True)
            os.chmod(directory, _PRIVATE_DIR_MODE)  # mkdir's mode is filtered by the umask
        temporary = directory / f".{path.name}.{secrets.token_hex(6)}.tmp"
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, _PRIVATE_FILE_MODE)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            if exclusive:
                try:
                    os.link(temporary, path)
                except FileExistsError:
                    return False
                except OSError:
                    # A filesystem without hard links: a (tiny) race instead of none.
                    if path.exists():
                        return False
                    os.replace(temporary, path)
            else:
                os.replace(temporary, path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                temporary.unlink()
        sync_directory(directory)
    except IdentityError:
        raise
    except OSError as exc:
        raise IdentityError(f"cannot write {path}: {exc.strerror or exc}") from exc
    return True


def sync_directory(directory: Path) -> None:
    """Make a rename or a new file in ``directory`` durable (a no-op where unsupported)."""
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
